// Names, numbers and the quoting of bad input in messages.
#include <gtest/gtest.h>

#include <string>

#include "engine/validate.hpp"

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

TEST(Quote, EscapesAndTruncates) {
  EXPECT_EQ(quote("abc"), "'abc'");
  EXPECT_EQ(quote("a\tb\x7f"), "'a\\x09b\\x7f'");
  EXPECT_EQ(quote(std::string(100, 'x')), "'" + std::string(60, 'x') + "...'");
  EXPECT_EQ(quote("\xc3\xa9"), "'\xc3\xa9'");
}
