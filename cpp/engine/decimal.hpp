// Integers as decimal text, without std::to_string: libc++ implements that
// with snprintf, which costs the WebAssembly build about 4 KB gzipped, and
// WEIGHTS formats numbers on every call.
#pragma once
#include <cstdint>
#include <string>

namespace slowstart {

inline void append_decimal(std::string& out, std::int64_t value) {
  char buf[20];
  int n = 0;
  // Work in unsigned so that INT64_MIN needs no special case.
  std::uint64_t v = value < 0 ? 0 - static_cast<std::uint64_t>(value) : static_cast<std::uint64_t>(value);
  do {
    buf[n++] = static_cast<char>('0' + v % 10);
    v /= 10;
  } while (v);
  if (value < 0) out += '-';
  while (n) out += buf[--n];
}

inline std::string decimal(std::int64_t value) {
  std::string s;
  append_decimal(s, value);
  return s;
}

}  // namespace slowstart
