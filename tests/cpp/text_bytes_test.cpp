// The text path's byte helpers (short_bytes.hpp, byte_buffer.hpp, the CLI
// sink's format), against what the library calls they replace would give.
#include <gtest/gtest.h>

#include <climits>
#include <cstring>
#include <string>
#include <vector>

#include "fast/byte_buffer.hpp"
#include "fast/decimal.hpp"
#include "fast/short_bytes.hpp"
#include "core/text_sink.hpp"

using namespace slowstart;

TEST(ShortBytes, SameBytesAgreesWithMemcmpAtEveryLengthAndPosition) {
  for (std::size_t n = 0; n <= 40; ++n) {
    std::string a(n, 'x');
    for (std::size_t i = 0; i < n; ++i) a[i] = static_cast<char>('a' + i % 26);
    EXPECT_TRUE(same_bytes(a, std::string(a))) << n;
    for (std::size_t i = 0; i < n; ++i) {
      std::string b = a;
      b[i] = static_cast<char>(b[i] ^ 0x80);  // one byte differs, anywhere
      EXPECT_FALSE(same_bytes(a, b)) << n << " " << i;
    }
    EXPECT_FALSE(same_bytes(a, a + "y")) << n;  // a prefix is not equal
  }
}

TEST(ShortBytes, FindByteAgreesWithFindBeforeAndPastTheInlineScan) {
  for (std::size_t n = 0; n <= 200; ++n) {
    const std::string none(n, 'a');
    EXPECT_EQ(find_byte(none, '='), std::string::npos) << n;
    for (std::size_t at = 0; at < n; ++at) {
      std::string s = none;
      s[at] = '=';
      s += "==";  // later ones do not count
      EXPECT_EQ(find_byte(s, '='), at) << n;
    }
  }
  const std::string line = "PICK\nNOW 5\n";
  EXPECT_EQ(find_newline(line.data(), line.data() + line.size()), line.data() + 4);
  EXPECT_EQ(find_newline(line.data(), line.data() + 4), nullptr);
}

TEST(ByteBuffer, GrowsKeepsItsBytesAndReusesItsMemoryAfterClear) {
  ByteBuffer b;
  EXPECT_TRUE(b.empty());
  std::string want;
  for (int i = 0; i < 2000; ++i) {  // past several doublings
    const std::string piece = std::to_string(i) + (i % 7 ? "," : std::string(40, '-'));
    b.append(piece);
    want += piece;
  }
  EXPECT_EQ(b, want);
  const char* const memory = b.data();
  b.clear();
  EXPECT_TRUE(b.empty());
  b.append("again");
  EXPECT_EQ(b, "again");
  EXPECT_EQ(b.data(), memory);  // no new allocation
  ByteBuffer other;
  other.swap(b);
  EXPECT_EQ(other, "again");
  EXPECT_TRUE(b.empty());
}

TEST(TextSink, WritesOutputLinesAndDiagnosticsInTheCliFormat) {
  TextSink sink;
  sink.output(1, "b0");
  sink.output(2, "");
  sink.output(3, std::string(100, 'w'));
  sink.diagnostic(7, "unknown command 'pick' (use PICK)", {});
  sink.diagnostic(1234567, "", {});
  EXPECT_EQ(sink.out, "b0\n\n" + std::string(100, 'w') + "\n");
  EXPECT_EQ(sink.err, "line 7: unknown command 'pick' (use PICK)\nline 1234567: \n");
  std::string via_string;  // the std::string form (slowstart simulate) says the same
  append_diagnostic(via_string, 7, "unknown command 'pick' (use PICK)");
  append_diagnostic(via_string, 1234567, "");
  EXPECT_EQ(sink.err, via_string);
}

TEST(Decimal, LengthAndDigitsAgreeWithToStringAtEveryPowerOfTen) {
  std::vector<std::int64_t> values = {0, INT64_MAX, INT64_MIN, INT64_MIN + 1};
  for (std::int64_t p = 1; p <= INT64_MAX / 10; p *= 10)
    for (std::int64_t v : {p - 1, p, p + 1, 10 * p - 1}) values.insert(values.end(), {v, -v});
  for (std::int64_t v : values) {
    char digits[21];
    const char* d = format_decimal(digits, v);
    EXPECT_EQ(std::string(d, static_cast<std::size_t>(digits + 21 - d)), std::to_string(v));
    EXPECT_EQ(decimal_length(v), std::to_string(v).size()) << v;
  }
}
