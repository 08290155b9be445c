// A run's results as text, for the interpreter's tests to compare: output
// lines as "line:text", diagnostics as the CLIs print them, and what the
// CLIs print for a script fed in chunks of a given size.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

#include "core/interpreter.hpp"
#include "core/text_sink.hpp"

namespace slowstart::testing {

inline std::string out_text(const RunResult& r) {
  std::string s;
  for (const auto& o : r.output) s += std::to_string(o.line) + ":" + o.text + "\n";
  return s;
}

inline std::string diag_text(const RunResult& r) {
  std::string s;
  for (const auto& d : r.diagnostics) s += "line " + std::to_string(d.line) + ": " + d.message + "\n";
  return s;
}

// stdout and stderr of the CLIs for `script` read `chunk` bytes at a time:
// the shared TextSink, drained whenever feed_chunk pauses (64 KiB waiting).
// `lines`, when given, gets the number of lines the interpreter counted.
inline std::pair<std::string, std::string> cli_text(std::string_view script, std::size_t chunk,
                                                    std::uint64_t* lines = nullptr) {
  TextSink sink;
  Interpreter in(sink);
  std::string out, err;
  for (std::size_t at = 0; at < script.size(); at += chunk) {
    std::string_view piece = script.substr(at, chunk);
    while (!piece.empty()) {
      piece.remove_prefix(in.feed_chunk(piece));
      out += sink.out.view();
      err += sink.err.view();
      sink.out.clear();
      sink.err.clear();
    }
  }
  in.finish();
  out += sink.out.view();
  err += sink.err.view();
  if (lines != nullptr) *lines = in.lines();
  return {out, err};
}

}  // namespace slowstart::testing
