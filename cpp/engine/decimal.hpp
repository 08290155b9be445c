// Integers as decimal text, without std::to_string: libc++ implements that
// with snprintf, which costs the WebAssembly build about 4 KB gzipped, and
// WEIGHTS formats numbers on every call.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

namespace slowstart {

// Writes the digits of `value` to the end of buf[0, 20) and returns where
// they start (a '-' first for a negative value).
inline char* format_decimal(char (&buf)[21], std::int64_t value) {
  char* p = buf + 21;
  // Work in unsigned so that INT64_MIN needs no special case.
  std::uint64_t v = value < 0 ? 0 - static_cast<std::uint64_t>(value) : static_cast<std::uint64_t>(value);
  do {
    *--p = static_cast<char>('0' + v % 10);
    v /= 10;
  } while (v);
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
