// Names, numbers and the quoting of bad input in messages.
#include <gtest/gtest.h>

#include <string>

#include "core/validate.hpp"

using namespace slowstart;

TEST(Quantity, PlainDecimalIntegersOnly) {
  std::int64_t v = -1;
  EXPECT_FALSE(parse_quantity("0", Quantity::Weight, v));
  EXPECT_EQ(v, 0);
  EXPECT_FALSE(parse_quantity("007", Quantity::Weight, v));
  EXPECT_EQ(v, 7);
  EXPECT_FALSE(parse_quantity("1000000", Quantity::Weight, v));
  EXPECT_EQ(v, 1'000'000);
  for (const char* bad : {"-1", "+1", "1.5", "1e3", "", "0x10", " 1", "١"}) {
    auto p = parse_quantity(bad, Quantity::Weight, v);
    ASSERT_TRUE(p) << bad;
    EXPECT_EQ(p->rfind("weight must be a non-negative integer, got '", 0), 0u) << *p;
  }
}

TEST(Quantity, LimitsAreInclusive) {
  std::int64_t v = 0;
  EXPECT_EQ(*parse_quantity("1000001", Quantity::Weight, v),
            "weight must be at most 1000000, got '1000001'");
  EXPECT_FALSE(parse_quantity("1000000000000", Quantity::Ramp, v));
  EXPECT_EQ(*parse_quantity("1000000000001", Quantity::Time, v),
            "time must be at most 1000000000000, got '1000000000001'");
  // Far beyond 64 bits: saturates instead of overflowing.
  EXPECT_EQ(*parse_quantity("123456789012345678901234567890", Quantity::Ramp, v),
            "ramp must be at most 1000000000000, got '123456789012345678901234567890'");
  // Mixed: reported as not an integer, whatever its size.
  EXPECT_EQ(*parse_quantity("99999999999999999999x", Quantity::Ramp, v),
            "ramp must be a non-negative integer, got '99999999999999999999x'");
  EXPECT_EQ(*check_quantity(-5, Quantity::Ramp), "ramp must be a non-negative integer, got '-5'");
}

TEST(Name, Rules) {
  EXPECT_FALSE(check_name("web-1"));
  EXPECT_FALSE(check_name("\xe6\x97\xa5\xe6\x9c\xac"));  // UTF-8 allowed
  EXPECT_FALSE(check_name("<img src=x>") == std::nullopt);    // '=' is not allowed
  EXPECT_FALSE(check_name("#a"));  // only a *first token* starting with # is a comment
  EXPECT_EQ(*check_name(""), "backend name is empty");
  EXPECT_EQ(*check_name("a=b"), "backend name must not contain '=', got 'a=b'");
  EXPECT_EQ(*check_name("a b"), "backend name must not contain blanks, got 'a b'");
  EXPECT_EQ(*check_name(std::string("a\0b", 3)),
            "backend name must not contain control characters, got 'a\\x00b'");
  EXPECT_EQ(*check_name("a\xff"), "backend name must be valid UTF-8, got 'a\\xff'");
  EXPECT_TRUE(check_name("\xed\xa0\x80"));  // a UTF-16 surrogate is not UTF-8
  EXPECT_TRUE(check_name("\xc0\xaf"));      // overlong
  // C1 controls (U+0080-U+009F) would put NEL or CSI into the output.
  EXPECT_EQ(*check_name("a\xc2\x9b" "31m"),
            "backend name must not contain control characters, got 'a\\xc2\\x9b31m'");
  EXPECT_FALSE(check_name("\xc2\xa0" "x"));  // U+00A0 (no-break space) is not a control
}

// The SPEC's bidirectional controls, each as UTF-8 and as the quote shows it.
struct Bidi {
  const char* utf8;
  const char* escaped;
};
static constexpr Bidi kBidiControls[] = {
    {"\xd8\x9c", "\\xd8\\x9c"},                  // U+061C ARABIC LETTER MARK
    {"\xe2\x80\x8e", "\\xe2\\x80\\x8e"},          // U+200E LRM
    {"\xe2\x80\x8f", "\\xe2\\x80\\x8f"},          // U+200F RLM
    {"\xe2\x80\xaa", "\\xe2\\x80\\xaa"},          // U+202A LRE
    {"\xe2\x80\xab", "\\xe2\\x80\\xab"},          // U+202B RLE
    {"\xe2\x80\xac", "\\xe2\\x80\\xac"},          // U+202C PDF
    {"\xe2\x80\xad", "\\xe2\\x80\\xad"},          // U+202D LRO
    {"\xe2\x80\xae", "\\xe2\\x80\\xae"},          // U+202E RLO
    {"\xe2\x81\xa6", "\\xe2\\x81\\xa6"},          // U+2066 LRI
    {"\xe2\x81\xa7", "\\xe2\\x81\\xa7"},          // U+2067 RLI
    {"\xe2\x81\xa8", "\\xe2\\x81\\xa8"},          // U+2068 FSI
    {"\xe2\x81\xa9", "\\xe2\\x81\\xa9"},          // U+2069 PDI
};

TEST(Name, RejectsEveryBidirectionalControlAnywhere) {
  for (const Bidi& b : kBidiControls) {
    const std::string c = b.utf8;
    for (const std::string& name : {c, "x" + c, c + "y", "x" + c + "y"}) {
      const Problem p = check_name(name);
      ASSERT_TRUE(p) << b.escaped << " in a name must be rejected";
      const std::string shown = name == c ? std::string(b.escaped)
                                : name == "x" + c ? "x" + std::string(b.escaped)
                                : name == c + "y" ? std::string(b.escaped) + "y"
                                                  : "x" + std::string(b.escaped) + "y";
      EXPECT_EQ(*p, "backend name must not contain bidirectional controls, got '" + shown + "'");
    }
  }
}

TEST(Name, TrojanSourceLooksLikeWhatItIs) {
  // "\u202Exe.nimda" displays as "admin.exe"; the message shows its bytes in order.
  EXPECT_EQ(*check_name("\xe2\x80\xaexe.nimda"),
            "backend name must not contain bidirectional controls, got '\\xe2\\x80\\xaexe.nimda'");
}

TEST(Name, AcceptsTheNeighboursOfBidiControls) {
  EXPECT_FALSE(check_name("\xd8\x9b"));          // U+061B ARABIC SEMICOLON
  EXPECT_FALSE(check_name("\xd8\x9d"));          // U+061D
  EXPECT_FALSE(check_name("a\xe2\x80\x8d" "b"));  // U+200D ZERO WIDTH JOINER (emoji sequences)
  EXPECT_FALSE(check_name("\xe2\x80\x90"));      // U+2010 HYPHEN
  EXPECT_FALSE(check_name("\xe2\x80\xa9"));      // U+2029 (not a bidi control)
  EXPECT_FALSE(check_name("\xe2\x80\xaf"));      // U+202F NARROW NO-BREAK SPACE
  EXPECT_FALSE(check_name("\xe2\x81\xa5"));      // U+2065
  EXPECT_FALSE(check_name("\xe2\x81\xaa"));      // U+206A
  EXPECT_FALSE(check_name("\xd7\xa9\xd7\x9c\xd7\x95\xd7\x9d"));  // Hebrew letters: right-to-left text is fine
  EXPECT_FALSE(check_name("\xd9\x85\xd8\xb1\xd8\xad\xd8\xa8\xd8\xa7"));  // Arabic letters too
}

TEST(Quote, EscapesAndTruncates) {
  EXPECT_EQ(quote("abc"), "'abc'");
  EXPECT_EQ(quote("a\tb\x7f"), "'a\\x09b\\x7f'");
  EXPECT_EQ(quote(std::string(100, 'x')), "'" + std::string(60, 'x') + "...'");
  EXPECT_EQ(quote("\xc3\xa9"), "'\xc3\xa9'");
}

TEST(Quote, EscapesBidirectionalControls) {
  for (const Bidi& b : kBidiControls)
    EXPECT_EQ(quote(std::string("a") + b.utf8 + "b"), std::string("'a") + b.escaped + "b'");
  // What a learner would see for the Trojan Source line, and its neighbours kept as they are.
  EXPECT_EQ(quote("\xe2\x80\xaexe.nimda=1"), "'\\xe2\\x80\\xaexe.nimda=1'");
  EXPECT_EQ(quote("\xe2\x80\x8d\xd7\xa9"), "'\xe2\x80\x8d\xd7\xa9'");
  // The 60-byte cut counts input bytes: it may fall inside an escaped character.
  EXPECT_EQ(quote(std::string(59, 'x') + "\xe2\x80\xae" + "y"), "'" + std::string(59, 'x') + "\\xe2...'");
}

TEST(Quote, AMessageHoldsTheLongestQuote) {
  // Every byte escaped (60 of them, 4 characters each) after the longest
  // prefix a check writes: nothing is cut, and the Message says what quote()
  // and the std::string form say.
  const std::string bad(100, '\x01');
  std::string escaped;
  for (int i = 0; i < 60; ++i) escaped += "\\x01";
  const std::string prefix = "backend name must not contain bidirectional controls, got ";
  Message m;
  EXPECT_FALSE(reject(m, prefix, bad, " (usage: ADD <name>=<weight> <ramp>)"));
  EXPECT_EQ(m.view(), prefix + "'" + escaped + "...' (usage: ADD <name>=<weight> <ramp>)");
  EXPECT_EQ(quote(bad), "'" + escaped + "...'");
  // reject() replaces what the Message held; the API's form is the same text.
  EXPECT_FALSE(check_name("a b", "a b", m));
  EXPECT_EQ(m.view(), "backend name must not contain blanks, got 'a b'");
  EXPECT_EQ(*check_name("a b"), m.view());
}
