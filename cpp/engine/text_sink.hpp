// The command-line format of a run: output lines, and diagnostics as
// "line N: message", each ending in '\n'. Both CLIs (native and Node, via
// WASM) use this one sink, so their bytes cannot drift apart.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "decimal.hpp"
#include "interpreter.hpp"

namespace slowstart {

class TextSink : public ScriptSink {
 public:
  void output(std::uint64_t, std::string_view text) override {
    out.append(text);
    out += '\n';
  }
  void diagnostic(std::uint64_t line, std::string_view message) override {
    err += "line ";
    append_decimal(err, static_cast<std::int64_t>(line));
    err += ": ";
    err.append(message);
    err += '\n';
  }
  // Asks the interpreter to pause once this much text is waiting.
  bool full() const override { return out.size() + err.size() >= limit; }

  std::string out;  // for stdout; the caller drains it as it likes
  std::string err;  // for stderr
  std::size_t limit = 1 << 16;
};

}  // namespace slowstart
