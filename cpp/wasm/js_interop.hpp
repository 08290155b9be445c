// Small helpers for the embind files: C++ errors as JS Errors, vectors as
// typed arrays, and option objects read from JS.
#pragma once
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <string>
#include <string_view>
#include <vector>

#include "core/validate.hpp"
#include "wasm/input_buffer.hpp"

namespace slowstart::wasm {

using emscripten::val;

// Errors go back to JS as a returned Error object, never thrown through
// WebAssembly frames: a JS exception unwinding wasm skips the epilogues that
// restore the stack pointer, so every throw would leak stack until the
// module fails. The TS layer throws what it gets (web/api/raise.ts).
inline val js_error(const std::string& message) { return val::global("Error").new_(message); }
// The same with a SlowStartError code for the API (web/api/raise.ts reads it).
inline val js_error(const std::string& message, const char* code) {
  val e = js_error(message);
  e.set("code", std::string(code));
  return e;
}

// A view of the input buffer (input_buffer.hpp) resized to n bytes, for JS
// to fill at once. Valid until the next allocation in the module.
inline val input_view(double n) {
  char* data = input_resize(static_cast<std::size_t>(n));
  return val(emscripten::typed_memory_view(static_cast<std::size_t>(n), reinterpret_cast<std::uint8_t*>(data)));
}

// Text leaves as bytes (a Uint8Array copy) that JS decodes with TextDecoder
// or writes to a stream as they are, again avoiding embind's per-byte loop
// (`slowstart grade`'s reports and the learner's output, grading_bindings.cpp).
inline val bytes_of(std::string_view s) {
  return val::global("Uint8Array")
      .new_(emscripten::typed_memory_view(s.size(), reinterpret_cast<const std::uint8_t*>(s.data())));
}

// A copy of v as a new JS typed array of the given type (e.g. "Float64Array").
template <typename T>
val typed_copy(const char* type, const std::vector<T>& v) {
  return val::global(type).new_(emscripten::typed_memory_view(v.size(), v.data()));
}

}  // namespace slowstart::wasm
