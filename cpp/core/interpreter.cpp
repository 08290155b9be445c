#include "core/interpreter.hpp"

#include <cstring>

#include "fast/line_scan.hpp"
#include "fast/short_bytes.hpp"
#include "core/text_sink.hpp"

namespace slowstart {

namespace {
constexpr std::string_view kBom = "\xEF\xBB\xBF";
using line_scan::blank;
// The fast path's keys: line_scan::key() of each word of the keyword table
// (command.hpp), computed at compile time.
template <Op op>
constexpr std::uint64_t kKey = line_scan::key(keyword_of(op).word);
constexpr std::size_t kPickBytes = keyword_of(Op::Pick).word.size();

}  // namespace

SLOWSTART_HOT void Interpreter::feed_line(std::string_view line) { end_line(begin_line(line)); }

// A whole line's tokens into the parser; returns the line's length (its end
// column). end_line() does the rest.
SLOWSTART_HOT std::uint64_t Interpreter::begin_line(std::string_view line) {
  if (!started_) {
    started_ = true;
    if (line.substr(0, kBom.size()) == kBom) {
      line.remove_prefix(kBom.size());
      bom_bytes_ = kBom.size();
    }
  }
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  parser_.begin(pool_.longest_name());
  const std::uint64_t column = line_ == 0 ? bom_bytes_ : 0;
  tokens(line, column);
  return column + line.size();
}

// Every token of `text` (a whole line, or its part up to a blank), which
// starts at `column` of its line.
SLOWSTART_HOT void Interpreter::tokens(std::string_view text, std::uint64_t column) {
  const char* p = text.data();
  const char* const end = p + text.size();
  while (p < end && !parser_.done()) {
    const char* const start = p = line_scan::skip_blanks(p, end);
    p = line_scan::skip_token(p, end);
    if (p == start) break;
    parser_.add(std::string_view(start, static_cast<std::size_t>(p - start)),
                column + static_cast<std::uint64_t>(start - text.data()));
    parser_.end_token();
  }
}

// `line_end`: the line's length (where a problem that runs to its end ends).
SLOWSTART_HOT void Interpreter::end_line(std::uint64_t line_end) {
  ++line_;
  const LineParser::Outcome outcome = parser_.end();
  if (outcome == LineParser::Outcome::Ignored) return;
  if (Rules* rules = pool_.rules()) rules->begin_line(line_);
  const ScriptSink::TextBuffers& text = sink_.text_buffers();
  if (outcome == LineParser::Outcome::Rejected) {
    ++rejected_;
    if (text.err) return append_diagnostic(*text.err, line_, parser_.problem());
    Span where = parser_.problem_span();
    if (where.to == LineParser::kLineEnd) where.to = line_end;
    sink_.diagnostic(line_, parser_.problem(), where);
    return;
  }
  Command& cmd = parser_.command();
  // PICK and WEIGHTS change nothing apply() checks (a call a line saved).
  const bool reads = cmd.op == Op::Pick || cmd.op == Op::Weights;
  if (!reads && !apply(pool_, cmd, why_)) {  // no such backend, or a full pool: the name's token
    ++rejected_;
    if (text.err) return append_diagnostic(*text.err, line_, why_.view());
    sink_.diagnostic(line_, why_.view(), parser_.first_argument());
    return;
  }
  const bool steps = sink_.wants_steps();
  if (steps) sink_.applied(line_, cmd, pool_);
  std::int32_t winner = kNone;
  std::string_view printed;
  if (cmd.op == Op::Weights) {
    if (text.out) return pool_.append_weights_line(*text.out);
    pool_.weights_line(text_);
    printed = text_;
  } else if (cmd.op == Op::Pick) {
    winner = pool_.pick();
    printed = winner == kNone ? std::string_view("NONE") : pool_.name(winner);
  }
  if (text.out) {
    if (reads) text.out->append_line(printed);
    return;
  }
  if (reads) sink_.output(line_, printed);
  if (steps) sink_.executed(line_, cmd.op, pool_, winner);
}

// The fast path: the commonest lines, when they are valid, read straight
// from the line's bytes and applied, without the parser (whose state, kept
// token by token so that a line can arrive in pieces of any size, costs
// several hundred instructions a line; PL-9). Blank and comment lines, PICK,
// WEIGHTS, NOW <time>, DOWN <name>, UP <name> <ramp>,
// ADD <name>=<weight> <ramp> and POOL <name>=<weight> ... with names of
// printable ASCII. Anything else,
// or anything wrong (the parser words the diagnostic), returns false and
// the line goes through the parser as if this had not looked at it: it
// changes nothing before it is sure. Only for the SPEC's rules and sinks
// that take no steps (the timeline wants every line's Command).
SLOWSTART_HOT bool Interpreter::fast_line(std::string_view line) {
  namespace scan = line_scan;
  if (!started_ || pool_.rules() || sink_.wants_steps()) return false;
  const char* const end = line.data() + line.size() - (!line.empty() && line.back() == '\r');
  // The commonest line of all, a bare PICK, is not split into tokens. (A
  // jump, not a second call site: the pick inlined twice cost 1 % more.
  // One word() load, not memcmp: clang leaves memcmp a call in WebAssembly,
  // into Emscripten's byte-by-byte loop, where g++ inlines it: PL-9.)
  if (end - line.data() == kPickBytes && scan::word(line.data(), kPickBytes) == kKey<Op::Pick>) goto pick;
  {
    const scan::Tokens t = scan::tokens(line.data(), end);
    if (t.word.empty() || t.word[0] == '#') {  // blank, or a comment
      ++line_;
      return true;
    }
    if (t.word.size() < kShortestKeyword || t.word.size() > kLongestKeyword) return false;
    const std::uint64_t k = scan::word(t.word.data(), t.word.size());
    if (k == kKey<Op::Pool>) return fast_pool(t.word.data() + t.word.size(), end);
    if (t.more) return false;
    const bool none = t.first.empty(), one = !none && t.second.empty(), two = !t.second.empty();
    const ScriptSink::TextBuffers& text = sink_.text_buffers();
    std::int64_t a = 0, b = 0;
    if (k == kKey<Op::Pick>) {
      if (!none) return false;
      goto pick;
    }
    if (k == kKey<Op::Now>) {
      if (!one || !scan::number(t.first, kMaxTime, a)) return false;
      ++line_;
      pool_.set_now(a);
      return true;
    }
    if (k == kKey<Op::Down>) {
      if (!one) return false;
      const std::int64_t i = pool_.find(t.first);
      if (i < 0) return false;  // (no such backend: the parser says so)
      ++line_;
      pool_.down_at(static_cast<std::size_t>(i));
      return true;
    }
    if (k == kKey<Op::Up>) {
      if (!two || !scan::number(t.second, kMaxTime, a)) return false;
      const std::int64_t i = pool_.find(t.first);
      if (i < 0) return false;
      ++line_;
      pool_.up_at(static_cast<std::size_t>(i), a);
      return true;
    }
    if (k == kKey<Op::Add>) {
      if (!two || pool_.size() >= kMaxBackends) return false;
      const std::size_t eq = find_byte(t.first, '=');
      if (eq == std::string_view::npos) return false;
      const std::string_view name = t.first.substr(0, eq);
      if (!scan::plain_name(name) || !scan::number(t.first.substr(eq + 1), kMaxWeight, a) ||
          !scan::number(t.second, kMaxTime, b))
        return false;
      ++line_;
      pool_.add(std::string(name), a, b);
      return true;
    }
    if (k == kKey<Op::Weights>) {
      if (!none) return false;
      ++line_;
      if (text.out) return pool_.append_weights_line(*text.out), true;
      pool_.weights_line(text_);
      sink_.output(line_, text_);
      return true;
    }
    return false;
  }
pick:
  ++line_;
  const std::int32_t winner = pool_.pick();
  const std::string_view printed = winner == kNone ? std::string_view("NONE") : pool_.name(winner);
  if (const ScriptSink::TextBuffers& text = sink_.text_buffers(); text.out) text.out->append_line(printed);
  else sink_.output(line_, printed);
  return true;
}

// POOL <name>=<weight> ... from `p` on: every entry read in place and
// checked (a name of printable ASCII, a weight, no name twice, no more
// than a pool holds) before the pool changes; anything else is the
// parser's (its duplicate check is the same table, NameTable, which the
// pool then takes as its index).
bool Interpreter::fast_pool(const char* p, const char* const end) {
  namespace scan = line_scan;
  pool_entries_.clear();
  const auto name_of = [this](std::uint32_t k) { return pool_entries_[k].name; };
  for (;;) {
    p = scan::skip_blanks(p, end);
    if (p == end) break;
    const char* const start = p;
    p = scan::skip_token(p, end);
    const std::string_view entry(start, static_cast<std::size_t>(p - start));
    const std::size_t eq = find_byte(entry, '=');
    std::int64_t weight = 0;
    if (eq == std::string_view::npos || !scan::plain_name(entry.substr(0, eq)) ||
        !scan::number(entry.substr(eq + 1), kMaxWeight, weight) || pool_entries_.size() == kMaxBackends)
      return false;
    const auto k = static_cast<std::uint32_t>(pool_entries_.size());
    if (k == 0) pool_names_.clear();
    pool_entries_.push_back({entry.substr(0, eq), weight});
    if (pool_names_.insert(pool_entries_[k].name, k, name_of) != k) return false;  // a name twice
  }
  ++line_;
  pool_.replace(pool_entries_, &pool_names_);
  return true;
}

// The same lines as chunks would give (a last line without '\n' is
// finished here), through feed_chunk's one copy of the per-line path: a
// second copy inlined here cost the WebAssembly module about 2.5 KB
// (gzipped) of its 40 KB budget.
void Interpreter::feed_text(std::string_view text) {
  while (!text.empty()) text.remove_prefix(feed_chunk(text));
  finish();
}

// How many bytes of the chunk are a leading byte-order mark, or npos when
// the chunk ended inside what may still be one (those bytes are held).
std::size_t Interpreter::skip_bom(std::string_view chunk) {
  const std::size_t held = bom_seen_;
  std::size_t i = 0;
  while (bom_seen_ < kBom.size() && i < chunk.size() && chunk[i] == kBom[bom_seen_]) ++bom_seen_, ++i;
  if (bom_seen_ == kBom.size()) {
    started_ = true;
    bom_bytes_ = kBom.size();
    return i;
  }
  if (i == chunk.size()) return std::string_view::npos;
  // Not a byte-order mark: the bytes held from earlier chunks are text.
  started_ = true;
  if (held > 0) stream(kBom.substr(0, held));
  return 0;
}

// Not inlined: feed_text and the WebAssembly module's streaming runner share
// this one copy (each line's work is inlined into it).
[[gnu::noinline]] std::size_t Interpreter::feed_chunk(std::string_view chunk) {
  std::size_t pos = 0;
  if (!started_) {
    pos = skip_bom(chunk);
    if (pos == std::string_view::npos) return chunk.size();
  }
  while (pos < chunk.size()) {
    const char* const nl = find_newline(chunk.data() + pos, chunk.data() + chunk.size());
    if (!nl) {
      stream(chunk.substr(pos));
      return chunk.size();
    }
    const auto end = static_cast<std::size_t>(nl - chunk.data());
    std::uint64_t line_end;
    if (in_line_) {  // the end of a line that began in an earlier chunk
      stream(std::string_view(chunk.data() + pos, end - pos));
      in_line_ = false;  // a held '\r' was the CR of a CR LF: dropped
      line_end = column_;
    } else {
      // (Not substr: pos <= end here, and substr's checks cost every line.)
      const std::string_view line(chunk.data() + pos, end - pos);
      line_end = fast_line(line) ? kDone : begin_line(line);
    }
    // (The one place a line ends: end_line is inlined here, once.)
    if (line_end != kDone) end_line(line_end);
    pos = end + 1;
    if (sink_.full()) return pos;
  }
  return chunk.size();
}

// Part of a line whose end has not come yet: tokens are handed on as they
// come, the last one possibly unfinished. Nothing of the line is kept here.
void Interpreter::stream(std::string_view piece) {
  if (!in_line_) {
    in_line_ = true;
    open_token_ = cr_held_ = false;
    column_ = line_ == 0 ? bom_bytes_ : 0;
    parser_.begin_cold(pool_.longest_name());
  }
  if (piece.empty()) return;
  if (cr_held_) {  // more came after it, so it was no line end: a token byte
    cr_held_ = false;
    if (!parser_.done()) parser_.add_cold("\r", column_);
    open_token_ = true;
    ++column_;
  }
  if (piece.back() == '\r') {
    cr_held_ = true;
    piece.remove_suffix(1);
  }
  const std::uint64_t column = column_;
  column_ += piece.size();
  const char* p = piece.data();
  const char* const end = p + piece.size();
  while (p < end && !parser_.done()) {
    if (blank(*p)) {
      if (open_token_) parser_.end_token_cold();
      open_token_ = false;
      ++p;
      continue;
    }
    const char* const start = p;
    p = line_scan::skip_token(p, end);
    parser_.add_cold(std::string_view(start, static_cast<std::size_t>(p - start)),
                     column + static_cast<std::uint64_t>(start - piece.data()));
    open_token_ = true;
  }
}

// A last line without '\n' ends as if one came: through feed_chunk, so that
// end_line has no second copy. (A script of 1 or 2 bytes of a byte-order
// mark is such a line too: those bytes were held.) A script that is only a
// byte-order mark has no line, as an empty script has none.
void Interpreter::finish() {
  if (in_line_ || (!started_ && bom_seen_ > 0)) feed_chunk("\n");
}

namespace {

// What both collecting sinks share: the timeline, if asked for, and the cap
// on the text kept (RunOptions::max_text_bytes).
class CappedSink : public ScriptSink {
 public:
  CappedSink(bool timeline, std::size_t max_bytes) : timeline_(timeline), room_(max_bytes) {
    wants_steps_ = timeline;
  }
  void executed(std::uint64_t line, Op op, const Pool& pool, std::int32_t winner) override {
    if (timeline_) recorder.record(line, op, pool, winner);
  }
  TimelineRecorder recorder;
  bool truncated = false;

 protected:
  bool keep(std::size_t bytes) {
    if (truncated || bytes + 1 > room_) {
      truncated = true;
      return false;
    }
    room_ -= bytes + 1;
    return true;
  }

 private:
  bool timeline_;
  std::size_t room_;
};

class CollectingSink final : public CappedSink {
 public:
  using CappedSink::CappedSink;
  void output(std::uint64_t line, std::string_view text) override {
    if (keep(text.size())) result.output.push_back({line, std::string(text)});
  }
  void diagnostic(std::uint64_t line, std::string_view message, Span columns) override {
    if (keep(message.size())) result.diagnostics.push_back({line, std::string(message), columns});
  }
  RunResult result;
};

class ColumnSink : public CappedSink {
 public:
  ColumnSink(RunColumns& into, bool timeline, std::size_t max_text_bytes)
      : CappedSink(timeline, max_text_bytes), result(into) {}
  void output(std::uint64_t line, std::string_view text) override {
    if (!keep(text.size())) return;
    join(result.output_text, !result.output_lines.empty(), text);
    result.output_lines.push_back(static_cast<std::uint32_t>(line));
  }
  void diagnostic(std::uint64_t line, std::string_view message, Span columns) override {
    if (!keep(message.size())) return;
    join(result.diagnostic_text, !result.diagnostic_lines.empty(), message);
    result.diagnostic_lines.push_back(static_cast<std::uint32_t>(line));
    result.diagnostic_columns.push_back(static_cast<std::uint32_t>(columns.from));
    result.diagnostic_columns.push_back(static_cast<std::uint32_t>(columns.to));
  }
  RunColumns& result;

 private:
  static void join(ByteBuffer& text, bool after_another, std::string_view line) {
    char* at = text.extend(line.size() + after_another);
    if (after_another) *at++ = '\n';
    copy_short(at, line.data(), line.size());
  }
};

template <class Sink>
void run_into(Sink& sink, std::string_view script, const RunOptions& options) {
  Interpreter interpreter(sink);
  interpreter.set_rules(options.rules);
  sink.recorder.keep_score_changes(options.score_changes || options.rules);  // (other rules: any score may change)
  interpreter.feed_text(script);
  sink.result.timeline = sink.recorder.take();
  sink.result.truncated = sink.truncated;
}

}  // namespace

// (Once a run: compiled for size.)
SLOWSTART_COLD RunResult run_script(std::string_view script, const RunOptions& options) {
  CollectingSink sink(options.timeline, options.max_text_bytes);
  run_into(sink, script, options);
  return std::move(sink.result);
}

SLOWSTART_COLD void run_columns_into(RunColumns& into, std::string_view script, const RunOptions& options) {
  ColumnSink sink(into, options.timeline, options.max_text_bytes);
  run_into(sink, script, options);
}

namespace {

// The same with a light timeline (TimelineRecorder::record_light). Only the
// lab module calls it, so the engine module links none of it.
class LightColumnSink final : public ColumnSink {
 public:
  using ColumnSink::ColumnSink;
  void executed(std::uint64_t line, Op op, const Pool& pool, std::int32_t winner) override {
    recorder.record_light(line, op, pool, winner);
  }
};

}  // namespace

SLOWSTART_COLD void run_columns_light_into(RunColumns& into, std::string_view script, const RunOptions& options) {
  RunOptions spec = options;
  spec.rules = nullptr;
  LightColumnSink sink(into, true, options.max_text_bytes);
  run_into(sink, script, spec);
}

RunColumns run_columns(std::string_view script, const RunOptions& options) {
  RunColumns result;
  run_columns_into(result, script, options);
  return result;
}

}  // namespace slowstart
