// Reading a whole line's tokens and numbers in place, for the interpreter's
// fast path (Interpreter::fast_line): no state kept, nothing copied. Each
// function answers only when the answer is certain; anything else is left
// to the full parser (command.hpp), which also words the diagnostics.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace slowstart::line_scan {

inline bool blank(char c) { return c == ' ' || c == '\t'; }

// Past the blanks, or past the token, that start at p (never past end).
inline const char* skip_blanks(const char* p, const char* end) {
  while (p < end && blank(*p)) ++p;
  return p;
}
inline const char* skip_token(const char* p, const char* end) {
  while (p < end && !blank(*p)) ++p;
  return p;
}

// A line's keyword and up to two arguments, each empty when absent; `more`
// when a third argument follows (of a comment, only the '#' word: a comment
// line costs half as much). Plain values, no array: in WebAssembly an array
// of them would live in memory, on the shadow stack.
struct Tokens {
  std::string_view word, first, second;
  bool more = false;
};
inline Tokens tokens(const char* p, const char* end) {
  Tokens t;
  const auto next = [&](std::string_view& token) {
    p = skip_blanks(p, end);
    const char* const start = p;
    p = skip_token(p, end);
    token = std::string_view(start, static_cast<std::size_t>(p - start));
  };
  next(t.word);
  if (!t.word.empty() && t.word[0] == '#') return t;  // a comment: the rest is not split
  next(t.first);
  next(t.second);
  t.more = skip_blanks(p, end) != end;
  return t;
}

// A token of decimal digits only (leading zeros allowed, as the SPEC's
// plain decimal integer), at most `limit`: true with its value. False for
// anything else, also a number that is merely long (the parser decides).
inline bool number(std::string_view t, std::int64_t limit, std::int64_t& out) {
  if (t.empty() || t.size() > 18) return false;  // (18 digits cannot overflow)
  std::int64_t v = 0;
  for (char c : t) {
    const auto d = static_cast<unsigned>(c - '0');
    if (d > 9) return false;
    v = v * 10 + static_cast<std::int64_t>(d);
  }
  if (v > limit) return false;
  out = v;
  return true;
}

// A name made only of printable ASCII other than '=' (a token holds no
// blank): valid by the SPEC without the UTF-8 and control-character checks
// that other bytes need.
inline bool plain_name(std::string_view name) {
  if (name.empty()) return false;
  for (char c : name) {
    const auto b = static_cast<unsigned char>(c);
    if (b < 0x21 || b > 0x7E || b == '=') return false;
  }
  return true;
}

// A token of 2 ... 7 bytes as one integer, for comparing a keyword in one
// step: its bytes (little-endian) and, in the top byte, its length (so that
// "PICK\0" is no PICK).
inline std::uint64_t word(const char* t, std::size_t n) {
  std::uint64_t w = 0;
  if (n >= 4) {
    std::uint32_t lo, hi;
    std::memcpy(&lo, t, 4);
    std::memcpy(&hi, t + n - 4, 4);  // (overlapping when n < 8)
    w = lo | (static_cast<std::uint64_t>(hi) << (8 * (n - 4)));
  } else {
    std::uint16_t lo;
    std::memcpy(&lo, t, 2);
    w = lo | (static_cast<std::uint64_t>(static_cast<unsigned char>(t[n - 1])) << (8 * (n - 1)));
  }
  return w | (static_cast<std::uint64_t>(n) << 56);
}

// word() of a keyword.
constexpr std::uint64_t key(std::string_view word) {
  std::uint64_t k = static_cast<std::uint64_t>(word.size()) << 56;
  for (std::size_t i = 0; i < word.size(); ++i)
    k |= static_cast<std::uint64_t>(static_cast<unsigned char>(word[i])) << (8 * i);
  return k;
}

}  // namespace slowstart::line_scan
