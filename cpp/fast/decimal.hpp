// Integers as decimal text, without std::to_string: libc++ implements that
// with snprintf, which costs the WebAssembly build about 4 KB gzipped, and
// WEIGHTS formats numbers on every call.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

namespace slowstart {

// The decimal digits of v written just before `end` (decimal_length(v) bytes).
inline void write_digits_before(char* end, std::uint32_t v) {
  do {
    *--end = static_cast<char>('0' + v % 10);
    v /= 10;
  } while (v);
}

// Writes the digits of `value` to the end of buf[0, 20) and returns where
// they start (a '-' first for a negative value).
inline char* format_decimal(char (&buf)[21], std::int64_t value) {
  char* p = buf + 21;
  // Work in unsigned so that INT64_MIN needs no special case.
  std::uint64_t v = value < 0 ? 0 - static_cast<std::uint64_t>(value) : static_cast<std::uint64_t>(value);
  // Digits past the low 32 bits in 64-bit arithmetic, the rest in 32
  // (weights and most numbers): WebAssembly has no 64-bit multiply-high, so
  // a 64-bit division by 10 costs more there than a 32-bit one.
  while (v > UINT32_MAX) {
    *--p = static_cast<char>('0' + v % 10);
    v /= 10;
  }
  auto w = static_cast<std::uint32_t>(v);
  do {
    *--p = static_cast<char>('0' + w % 10);
    w /= 10;
  } while (w);
  if (value < 0) *--p = '-';
  return p;
}

// How many bytes format_decimal writes for `value`: comparisons, no
// division (WEIGHTS sizes its line before writing it).
inline std::size_t decimal_length(std::int64_t value) {
  std::uint64_t v = value < 0 ? 0 - static_cast<std::uint64_t>(value) : static_cast<std::uint64_t>(value);
  std::size_t n = value < 0 ? 2 : 1;
  for (std::uint64_t power = 10; v >= power; power *= 10) ++n;  // (v <= 2^63 < 10^19: no overflow)
  return n;
}

inline void append_decimal(std::string& out, std::int64_t value) {
  char buf[21];
  const char* p = format_decimal(buf, value);
  out.append(p, static_cast<std::size_t>(buf + 21 - p));  // one append, not one per digit
}

inline std::string decimal(std::int64_t value) {
  std::string s;
  append_decimal(s, value);
  return s;
}

}  // namespace slowstart
