// The script interpreter: feeds lines through the parser into the pool and
// reports output lines and diagnostics, each tagged with its 1-based source
// line, to a sink. Lines can be fed one at a time (the CLI streams stdin) or
// as a whole text (run_script).
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "fast/byte_buffer.hpp"
#include "core/command.hpp"
#include "core/pool.hpp"
#include "core/timeline.hpp"

namespace slowstart {

class ScriptSink {
 public:
  virtual ~ScriptSink() = default;
  virtual void output(std::uint64_t line, std::string_view text) = 0;
  // A rejected line: why, and where on the line (Span: bytes of the line).
  virtual void diagnostic(std::uint64_t line, std::string_view message, Span columns) = 0;
  // Called after every executed line; `winner` is meaningful for PICK only.
  virtual void executed(std::uint64_t /*line*/, Op /*op*/, const Pool& /*pool*/,
                        std::int32_t /*winner*/) {}
  // Called after a line's command was applied to the pool, before executed().
  // `cmd.name` is valid for ADD, DOWN and UP (POOL's entries are in the pool).
  virtual void applied(std::uint64_t /*line*/, const Command& /*cmd*/, const Pool& /*pool*/) {}
  // True when the sink wants its caller to drain it before more lines run;
  // feed_chunk() then stops early (see there). Keeps memory bounded when a
  // few lines print a lot (WEIGHTS on a 100,000-backend pool). Asked after
  // every line, so not a virtual call: only a text sink (below) is ever
  // full, once its two buffers hold `limit` bytes in all.
  bool full() const { return text_.out && text_.out->size() + text_.err->size() >= limit; }
  std::size_t limit = 1 << 16;

  // A sink that only collects text (TextSink, what both CLIs print) names
  // its two buffers: `out` for output lines, `err` for diagnostics as "line
  // N: message". The interpreter then writes every line into them itself
  // and calls none of the virtual functions above. Three or four virtual
  // calls a line cost little natively, but in WebAssembly each is a
  // call_indirect that spills every live register, with its string_view
  // and Span passed through memory (performance log PL-8: PICK lines 17 %
  // faster there).
  struct TextBuffers {
    ByteBuffer* out = nullptr;
    ByteBuffer* err = nullptr;
  };
  const TextBuffers& text_buffers() const { return text_; }
  // Whether the sink wants applied() and executed(). One that has no use
  // for them (run_script() without the timeline) says so, and is spared
  // two virtual calls a line, for the same reason.
  bool wants_steps() const { return wants_steps_ && !text_.out; }

 protected:
  TextBuffers text_;
  bool wants_steps_ = true;
};

class Interpreter {
 public:
  explicit Interpreter(ScriptSink& sink) : sink_(sink) {}

  // A UTF-8 byte-order mark at the very start of the script is ignored, fed
  // in any of these ways.
  //
  // One line without its '\n'; a trailing '\r' (CR LF line end) is dropped.
  void feed_line(std::string_view line);
  // A whole text: split on '\n'. A last line without '\n' counts.
  void feed_text(std::string_view text);
  // Streaming: text in chunks of any size (a line may span chunks, and be
  // of any length: it is parsed as it comes, never held whole). Call
  // finish() after the last chunk to run a final line that has no '\n'.
  // Returns how many bytes were taken: all of them, unless the sink became
  // full() after a line; then feed the rest again once it is drained.
  std::size_t feed_chunk(std::string_view chunk);
  void finish();

  // Other rules than the SPEC's (see rules.hpp); nullptr restores them.
  void set_rules(Rules* rules) { pool_.set_rules(rules); }

  std::uint64_t lines() const { return line_; }
  std::uint64_t rejected() const { return rejected_; }
  const Pool& pool() const { return pool_; }

 private:
  void tokens(std::string_view text, std::uint64_t column);
  bool fast_line(std::string_view line);
  bool fast_pool(const char* p, const char* end);
  static constexpr std::uint64_t kDone = UINT64_MAX;  // (fast_line ran the line)
  std::uint64_t begin_line(std::string_view line);
  void end_line(std::uint64_t line_end);
  void stream(std::string_view piece);
  std::size_t skip_bom(std::string_view chunk);

  ScriptSink& sink_;
  Pool pool_;
  LineParser parser_;
  std::string text_;  // a WEIGHTS line, its memory reused line after line
  Message why_;       // why a parsed line could not be applied (no allocation)
  // fast_pool's entries and their names' index, their memory kept.
  std::vector<PoolEntryView> pool_entries_;
  NameTable pool_names_;
  std::uint64_t line_ = 0;
  std::uint64_t rejected_ = 0;
  // A line that continues past the end of the chunk.
  bool in_line_ = false;
  bool open_token_ = false;  // its last token may continue too
  bool cr_held_ = false;     // it ended in '\r', which is a line end only if '\n' follows
  std::uint64_t column_ = 0;  // its bytes so far
  // The script's first bytes: a byte-order mark is skipped, even in pieces.
  bool started_ = false;
  std::uint8_t bom_seen_ = 0;
  std::uint8_t bom_bytes_ = 0;  // skipped before line 1 (its columns count them)
};

struct OutputLine {
  std::uint64_t line;
  std::string text;
};

struct Diagnostic {
  std::uint64_t line;
  std::string message;
  Span columns;  // the offending token (or its name or weight part)
};

struct RunResult {
  std::vector<OutputLine> output;
  std::vector<Diagnostic> diagnostics;
  Timeline timeline;
  // True when output and diagnostics passed RunOptions::max_text_bytes and
  // the rest was not kept (the script still ran to its end).
  bool truncated = false;
};

struct RunOptions {
  bool timeline = true;
  // The timeline's score changes (TimelineRecorder::keep_score_changes):
  // false when the caller works them out from the winners (the engine
  // module's JavaScript); counted, not kept. Under other `rules` they are
  // kept all the same.
  bool score_changes = true;
  Rules* rules = nullptr;  // nullptr: the SPEC's rules
  // Output lines and diagnostics are kept up to this many bytes in all, so
  // that no script can exhaust memory (a WEIGHTS line of a 100,000-backend
  // pool is about 1 MB). Streaming front ends (the CLIs) have no such cap.
  std::size_t max_text_bytes = std::size_t{64} << 20;
};

// Runs a whole script and collects everything it produced.
RunResult run_script(std::string_view script, const RunOptions& options = {});

// The same run with its text as columns: every output line (none holds a
// '\n') joined by '\n', with the line numbers, and the diagnostics likewise
// with their columns (from, to), all as 32-bit numbers. What the
// WebAssembly module hands to JavaScript as it is (cpp/wasm/run_view.hpp),
// with no string per line; for scripts under 4 GB, as in its memory.
struct RunColumns {
  ByteBuffer output_text;
  std::vector<std::uint32_t> output_lines;
  ByteBuffer diagnostic_text;
  std::vector<std::uint32_t> diagnostic_lines;
  std::vector<std::uint32_t> diagnostic_columns;
  Timeline timeline;
  bool truncated = false;  // as in RunResult
};
RunColumns run_columns(std::string_view script, const RunOptions& options = {});
// The same into `into` (empty), which the caller keeps: the module publishes
// its run this way, with no RunColumns moved (its move is 1.2 KB of code).
void run_columns_into(RunColumns& into, std::string_view script, const RunOptions& options = {});
// run_columns_into with a light timeline (TimelineRecorder::record_light)
// and the SPEC's rules: the web page's background runs, through the lab
// module (the engine module that every page loads links none of it).
void run_columns_light_into(RunColumns& into, std::string_view script, const RunOptions& options);

}  // namespace slowstart
