// The one buffer per module that JavaScript writes scripts and arguments
// into (TextEncoder.encodeInto or Uint8Array.set: native speed), instead of
// a string conversion that copies byte by byte in JavaScript.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace slowstart::wasm {

inline std::string& input_buffer() {
  static std::string buffer;
  return buffer;
}

// The buffer resized to n bytes, for JS to fill at once. Valid until the
// next allocation in the module.
inline char* input_resize(std::size_t n) {
  std::string& b = input_buffer();
  b.resize(n);
  // Shrink after a huge script so its memory is not held forever.
  if (b.capacity() > (std::size_t{64} << 20) && b.size() < (std::size_t{1} << 20)) b.shrink_to_fit();
  return b.data();
}

// The first n bytes of the input buffer.
inline std::string_view input(std::size_t n) { return std::string_view(input_buffer()).substr(0, n); }

// The first n bytes of the input buffer as strings, written by JavaScript as
// [u32 count][u32 length × count][the bytes, one after the other]
// (web/api/engine-abi.ts). Empty when the layout does not add up.
inline std::vector<std::string_view> input_strings(std::size_t n) {
  const std::string_view in = input(n);
  const auto u32 = [&](std::size_t at) {
    std::uint32_t v = 0;
    for (int k = 3; k >= 0; --k) v = (v << 8) | static_cast<unsigned char>(in[at + static_cast<std::size_t>(k)]);
    return v;
  };
  std::vector<std::string_view> out;
  if (in.size() < 4) return out;
  const std::size_t count = u32(0);
  std::size_t at = 4 + 4 * count;
  if (count > in.size() / 4 || at > in.size()) return out;
  out.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    const std::size_t len = u32(4 + 4 * i);
    if (len > in.size() - at) return {};
    out.push_back(in.substr(at, len));
    at += len;
  }
  return out;
}

}  // namespace slowstart::wasm
