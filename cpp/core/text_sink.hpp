// The command-line format of a run: output lines, and diagnostics as
// "line N: message", each ending in '\n'. Both CLIs (native and Node, via
// WASM) use this one sink, so their bytes cannot drift apart.
#pragma once
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "fast/byte_buffer.hpp"
#include "fast/decimal.hpp"
#include "core/interpreter.hpp"

namespace slowstart {

// "line N: message\n", the CLI's form of a diagnostic (both CLIs, every subcommand).
inline void append_diagnostic(std::string& out, std::uint64_t line, std::string_view message) {
  out += "line ";
  append_decimal(out, static_cast<std::int64_t>(line));
  out += ": ";
  out.append(message);
  out += '\n';
}

// The same, written straight into a ByteBuffer: its length first, then one
// capacity check and the bytes in place (the CLIs' per-diagnostic path).
inline void append_diagnostic(ByteBuffer& out, std::uint64_t line, std::string_view message) {
  char digits[21];
  const char* const d = format_decimal(digits, static_cast<std::int64_t>(line));
  const auto n = static_cast<std::size_t>(digits + 21 - d);
  char* at = out.extend(5 + n + 2 + message.size() + 1);
  std::memcpy(at, "line ", 5);
  copy_short(at + 5, d, n);
  at += 5 + n;
  at[0] = ':';
  at[1] = ' ';
  copy_short(at + 2, message.data(), message.size());
  at[2 + message.size()] = '\n';
}

class TextSink final : public ScriptSink {
 public:
  TextSink() {
    text_ = {&out, &err};  // the interpreter writes into them itself
  }
  TextSink(const TextSink&) = delete;  // (text_ points into this object)
  TextSink& operator=(const TextSink&) = delete;
  void output(std::uint64_t, std::string_view text) override { out.append_line(text); }
  void diagnostic(std::uint64_t line, std::string_view message, Span) override { append_diagnostic(err, line, message); }
  ByteBuffer out;  // for stdout; the caller drains it as it likes
  ByteBuffer err;  // for stderr
  // (The interpreter pauses once `limit` bytes wait in the two: full().)
};

}  // namespace slowstart
