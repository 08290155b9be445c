// Byte copies and scans sized for script lines: a few bytes, rarely more.
//
// memcpy and memchr are library calls. Natively they are fast at any size;
// in WebAssembly they are Emscripten's scalar libc, entered once per token
// or per line, and their set-up costs more than the few bytes they move
// (docs/PERFORMANCE.md measures it). Short inputs are handled inline here;
// long ones still go to the library.
#pragma once
#include <cstddef>
#include <cstring>

namespace slowstart {

// memcpy(to, from, n), inline for n <= 16: two overlapping fixed-size copies
// (each a single load and store), never reading outside [from, from + n).
inline void copy_short(char* to, const char* from, std::size_t n) {
  if (n >= 8) {
    if (n > 16) {
      std::memcpy(to, from, n);
      return;
    }
    std::memcpy(to, from, 8);
    std::memcpy(to + n - 8, from + n - 8, 8);
  } else if (n >= 4) {
    std::memcpy(to, from, 4);
    std::memcpy(to + n - 4, from + n - 4, 4);
  } else if (n > 0) {
    to[0] = from[0];
    to[n / 2] = from[n / 2];
    to[n - 1] = from[n - 1];
  }
}

// The first '\n' in [p, end), or nullptr: the first 32 bytes by a plain
// loop (most lines end there), the rest by memchr.
inline const char* find_newline(const char* p, const char* end) {
  const char* const stop = end - p > 32 ? p + 32 : end;
  for (; p < stop; ++p)
    if (*p == '\n') return p;
  if (p == end) return nullptr;
  return static_cast<const char*>(std::memchr(p, '\n', static_cast<std::size_t>(end - p)));
}

}  // namespace slowstart
