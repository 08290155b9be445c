// Byte copies and scans sized for script lines: a few bytes, rarely more.
//
// memcpy, memchr and memcmp are library calls. Natively they are fast at any size;
// in WebAssembly they are Emscripten's scalar libc, entered once per token
// or per line, and their set-up costs more than the few bytes they move
// (performance log PL-1, PL-2). Short inputs are handled inline here; long
// ones still go to the library. The two WebAssembly-only paths below gain
// under 2 % each, 3–5 % with SLOWSTART_HOT and Pool::names_ (PL-17, PL-18).
#pragma once
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace slowstart {

static_assert(std::endian::native == std::endian::little, "find_byte reads words little-endian");

// memcpy(to, from, n), inline for n <= 16: two overlapping fixed-size copies
// (each a single load and store), never reading outside [from, from + n).
inline void copy_short(char* to, const char* from, std::size_t n) {
  if (n >= 8) {
    if (n > 16) {
#if defined(__wasm__)  // (PL-8, PL-17)
      // Emscripten's memcpy copies byte by byte when the two addresses are
      // aligned differently (most text here: a diagnostic, a WEIGHTS line);
      // WebAssembly's loads need no alignment. 8 bytes at a time up to 256.
      if (n <= 256) {
        for (std::size_t i = 0; i + 8 < n; i += 8) std::memcpy(to + i, from + i, 8);
        std::memcpy(to + n - 8, from + n - 8, 8);
        return;
      }
#endif
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

// The first `c` in [p, end), or nullptr: the first 64 bytes 8 at a time
// (most lines and tokens end there: one or two steps), the rest by memchr
// natively, by the same steps in WebAssembly.
// A step is the classic test for a zero byte in a word, x ^ c..c: its
// lowest flagged byte is the first match (a borrow can flag bytes above a
// match, never below). Bytes past `end` are never read.
inline const char* find_byte(const char* p, const char* end, char c) {
  constexpr std::uint64_t kOnes = 0x0101010101010101u, kHighs = 0x8080808080808080u;
  const std::uint64_t pattern = kOnes * static_cast<unsigned char>(c);
  const auto hits = [&](const char* at) {
    std::uint64_t w;
    std::memcpy(&w, at, 8);
    w ^= pattern;
    return (w - kOnes) & ~w & kHighs;  // (little-endian: the first byte is the lowest)
  };
  // The first word before the loop: most lines and tokens end in it, and in
  // WebAssembly every pass into a loop's head costs a stack check (V8; PL-9).
  if (end - p >= 8) {
    if (const std::uint64_t hit = hits(p)) return p + (__builtin_ctzll(hit) >> 3);
    p += 8;
  }
#if defined(__wasm__)  // (PL-9, PL-17)
  const char* const stop = end;  // (Emscripten's memchr is no faster than this loop)
#else
  const char* const stop = end - p > 56 ? p + 56 : end;
#endif
  for (; stop - p >= 8; p += 8)
    if (const std::uint64_t hit = hits(p)) return p + (__builtin_ctzll(hit) >> 3);
  for (; p < stop; ++p)
    if (*p == c) return p;
  if (p == end) return nullptr;
  return static_cast<const char*>(std::memchr(p, c, static_cast<std::size_t>(end - p)));
}
inline const char* find_newline(const char* p, const char* end) { return find_byte(p, end, '\n'); }
// The same as string_view::find(c).
inline std::size_t find_byte(std::string_view s, char c) {
  const char* const at = find_byte(s.data(), s.data() + s.size(), c);
  return at ? static_cast<std::size_t>(at - s.data()) : std::string_view::npos;
}

// x[0, n) == y[0, n) for sizeof(Word) <= n <= 2 * sizeof(Word): the first
// and the last Word of each, overlapping.
template <class Word>
inline bool same_ends(const char* x, const char* y, std::size_t n) {
  Word x0, x1, y0, y1;
  std::memcpy(&x0, x, sizeof x0);
  std::memcpy(&y0, y, sizeof y0);
  std::memcpy(&x1, x + n - sizeof x1, sizeof x1);
  std::memcpy(&y1, y + n - sizeof y1, sizeof y1);
  return ((x0 ^ y0) | (x1 ^ y1)) == 0;
}

// a == b, inline for up to 16 bytes (names, mostly), like copy_short.
inline bool same_bytes(std::string_view a, std::string_view b) {
  const std::size_t n = a.size();
  if (n != b.size()) return false;
  const char* x = a.data();
  const char* y = b.data();
  if (n > 16) return std::memcmp(x, y, n) == 0;
  if (n >= 8) return same_ends<std::uint64_t>(x, y, n);
  if (n >= 4) return same_ends<std::uint32_t>(x, y, n);
  return n == 0 || (x[0] == y[0] && x[n / 2] == y[n / 2] && x[n - 1] == y[n - 1]);
}

// a < b in byte order (unsigned bytes), as std::string's operator< compares:
// names differ within their first few bytes, so a plain loop, inline
// (libc++'s compare is a call into the prebuilt library in WebAssembly,
// and its memcmp a byte loop behind another call).
inline bool bytes_before(std::string_view a, std::string_view b) {
  const std::size_t n = a.size() < b.size() ? a.size() : b.size();
  for (std::size_t i = 0; i < n; ++i) {
    const auto x = static_cast<unsigned char>(a[i]), y = static_cast<unsigned char>(b[i]);
    if (x != y) return x < y;
  }
  return a.size() < b.size();
}

}  // namespace slowstart
