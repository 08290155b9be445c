// A growable run of bytes for text that is written line by line and drained
// (the CLIs' output): what std::string would do, minus what costs on that
// path in WebAssembly. An append is one capacity check and an inline copy
// (copy_short) of a short line; std::string::append is an out-of-line call
// that checks twice and copies through memcpy (Emscripten's scalar libc),
// and `+= '\n'` is another. Measured: performance log PL-2.
#pragma once
#include <cstddef>
#include <cstdlib>
#include <string_view>
#include <utility>

#include "fast/cold.hpp"
#include "fast/short_bytes.hpp"

namespace slowstart {

class ByteBuffer {
 public:
  ByteBuffer() = default;
  ByteBuffer(const ByteBuffer&) = delete;
  ByteBuffer& operator=(const ByteBuffer&) = delete;
  ByteBuffer(ByteBuffer&& o) noexcept { swap(o); }
  ByteBuffer& operator=(ByteBuffer&& o) noexcept {
    swap(o);
    return *this;
  }
  ~ByteBuffer() { std::free(data_); }

  const char* data() const { return data_; }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  std::string_view view() const { return {data_, size_}; }
  // Keeps the memory for the next bytes.
  void clear() { size_ = 0; }
  void swap(ByteBuffer& o) noexcept {
    std::swap(data_, o.data_);
    std::swap(size_, o.size_);
    std::swap(capacity_, o.capacity_);
  }

  // n more bytes at the end, uninitialised: where to write them.
  char* extend(std::size_t n) {
    if (capacity_ - size_ < n) grow(n);
    char* const at = data_ + size_;
    size_ += n;
    return at;
  }
  void append(std::string_view s) { copy_short(extend(s.size()), s.data(), s.size()); }
  // s and a '\n': one capacity check for both.
  SLOWSTART_HOT void append_line(std::string_view s) {
    char* const at = extend(s.size() + 1);
    copy_short(at, s.data(), s.size());
    at[s.size()] = '\n';
  }

  friend bool operator==(const ByteBuffer& a, std::string_view b) { return a.view() == b; }

 private:
  SLOWSTART_COLD void grow(std::size_t n) {
    std::size_t capacity = capacity_ < 256 ? 256 : capacity_ * 2;
    if (capacity - size_ < n) capacity = size_ + n;
    void* p = std::realloc(data_, capacity);
    if (!p) std::abort();  // (as operator new would end a build without exceptions)
    data_ = static_cast<char*>(p);
    capacity_ = capacity;
  }

  char* data_ = nullptr;
  std::size_t size_ = 0, capacity_ = 0;
};

}  // namespace slowstart
