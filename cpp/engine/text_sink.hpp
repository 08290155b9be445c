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

// "line N: message\n", the CLI's form of a diagnostic (both CLIs, every subcommand).
inline void append_diagnostic(std::string& out, std::uint64_t line, std::string_view message) {
  out += "line ";
  append_decimal(out, static_cast<std::int64_t>(line));
  out += ": ";
  out.append(message);
  out += '\n';
}

class TextSink : public ScriptSink {
 public:
  void output(std::uint64_t, std::string_view text) override {
    out.append(text);
    out += '\n';
  }
  void diagnostic(std::uint64_t line, std::string_view message, Span) override { append_diagnostic(err, line, message); }
  // Asks the interpreter to pause once this much text is waiting.
  bool full() const override { return out.size() + err.size() >= limit; }

  std::string out;  // for stdout; the caller drains it as it likes
  std::string err;  // for stderr
  std::size_t limit = 1 << 16;
};

}  // namespace slowstart
