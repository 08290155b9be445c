// One CLI command run for the Node CLI, shared by the lab module's bindings
// (simulate in lab_bindings.cpp; fit and recommend in system_bindings.cpp).
#pragma once

#include <emscripten/val.h>

#include <cstddef>
#include <optional>
#include <string>

namespace slowstart::wasm {

// `run(list, reader, out, err)` over the arguments `args`, where
// `read(path, maxBytes)` (JavaScript) returns at most maxBytes of the file as
// a Uint8Array, or a problem as a string. The result is {out, err, status}.
template <typename Command>
emscripten::val command_text(emscripten::val args, emscripten::val read, Command run) {
  using emscripten::val;
  const auto list = emscripten::vecFromJSArray<std::string>(args);
  std::string out, err;
  const int status = run(
      list,
      [&](const std::string& path, std::size_t max_bytes, std::string& text) -> std::optional<std::string> {
        val r = read(path, static_cast<double>(max_bytes));
        if (r.typeOf().as<std::string>() == "string") return r.as<std::string>();  // a problem
        text = r.as<std::string>();  // Uint8Array: raw bytes
        return std::nullopt;
      },
      out, err);
  val o = val::object();
  o.set("out", out);
  o.set("err", err);
  o.set("status", status);
  return o;
}

}  // namespace slowstart::wasm
