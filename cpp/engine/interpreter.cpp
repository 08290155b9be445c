#include "interpreter.hpp"

#include "short_bytes.hpp"
#include "text_sink.hpp"

namespace slowstart {

namespace {
constexpr std::string_view kBom = "\xEF\xBB\xBF";
bool blank(char c) { return c == ' ' || c == '\t'; }

// The streaming path (a line that spans chunks) is rare: there the parser's
// hot functions stay calls, so that they are inlined once (into tokens()),
// not twice, and the engine module stays inside its size budget.
SLOWSTART_COLD void begin_piece(LineParser& parser, std::size_t longest_name) { parser.begin(longest_name); }
SLOWSTART_COLD void add_piece(LineParser& parser, std::string_view piece, std::uint64_t column) {
  parser.add(piece, column);
}
SLOWSTART_COLD void end_piece_token(LineParser& parser) { parser.end_token(); }
}  // namespace

SLOWSTART_HOT void Interpreter::feed_line(std::string_view line) {
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
  end_line(column + line.size());
}

// Every token of `text` (a whole line, or its part up to a blank), which
// starts at `column` of its line.
SLOWSTART_HOT void Interpreter::tokens(std::string_view text, std::uint64_t column) {
  const char* p = text.data();
  const char* const end = p + text.size();
  while (p < end && !parser_.done()) {
    while (p < end && blank(*p)) ++p;
    const char* const start = p;
    while (p < end && !blank(*p)) ++p;
    if (p == start) break;
    parser_.add(std::string_view(start, static_cast<std::size_t>(p - start)),
                column + static_cast<std::uint64_t>(start - text.data()));
    parser_.end_token();
  }
}

// `line_end`: the line's length (where a problem that runs to its end ends).
void Interpreter::end_line(std::uint64_t line_end) {
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
    pool_.weights_line(text_);
    printed = text_;
  } else if (cmd.op == Op::Pick) {
    winner = pool_.pick();
    printed = winner == kNone ? std::string_view("NONE") : std::string_view(pool_.backend(winner).name);
  }
  if (text.out) {
    if (reads) text.out->append_line(printed);
    return;
  }
  if (reads) sink_.output(line_, printed);
  if (steps) sink_.executed(line_, cmd.op, pool_, winner);
}

void Interpreter::feed_text(std::string_view text) {
  std::size_t start = 0;
  while (start < text.size()) {
    const char* const nl = find_newline(text.data() + start, text.data() + text.size());
    const std::size_t end = nl ? static_cast<std::size_t>(nl - text.data()) : text.size();
    feed_line(text.substr(start, end - start));
    start = end + 1;
  }
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

std::size_t Interpreter::feed_chunk(std::string_view chunk) {
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
    if (in_line_) {
      stream(chunk.substr(pos, end - pos));
      end_streamed_line();
    } else {
      feed_line(chunk.substr(pos, end - pos));
    }
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
    begin_piece(parser_, pool_.longest_name());
  }
  if (piece.empty()) return;
  if (cr_held_) {  // more came after it, so it was no line end: a token byte
    cr_held_ = false;
    if (!parser_.done()) add_piece(parser_, "\r", column_);
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
      if (open_token_) end_piece_token(parser_);
      open_token_ = false;
      ++p;
      continue;
    }
    const char* const start = p;
    while (p < end && !blank(*p)) ++p;
    add_piece(parser_, std::string_view(start, static_cast<std::size_t>(p - start)),
                column + static_cast<std::uint64_t>(start - piece.data()));
    open_token_ = true;
  }
}

void Interpreter::end_streamed_line() {
  in_line_ = false;  // a held '\r' was the CR of a CR LF: dropped
  end_line(column_);
}

void Interpreter::finish() {
  if (!started_ && bom_seen_ > 0) {  // a script of 1 or 2 bytes of a byte-order mark
    started_ = true;
    stream(kBom.substr(0, bom_seen_));
  }
  if (in_line_) end_streamed_line();
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

class ColumnSink final : public CappedSink {
 public:
  using CappedSink::CappedSink;
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
  RunColumns result;

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
  interpreter.feed_text(script);
  sink.result.timeline = sink.recorder.take();
  sink.result.truncated = sink.truncated;
}

}  // namespace

RunResult run_script(std::string_view script, const RunOptions& options) {
  CollectingSink sink(options.timeline, options.max_text_bytes);
  run_into(sink, script, options);
  return std::move(sink.result);
}

RunColumns run_columns(std::string_view script, const RunOptions& options) {
  ColumnSink sink(options.timeline, options.max_text_bytes);
  run_into(sink, script, options);
  return std::move(sink.result);
}

}  // namespace slowstart
