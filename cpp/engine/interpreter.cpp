#include "interpreter.hpp"

namespace slowstart {

void Interpreter::feed_line(std::string_view line) {
  ++line_;
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  tokenize(line, tokens_);
  if (is_ignored(tokens_)) return;
  if (Rules* rules = pool_.rules()) rules->begin_line(line_);
  Problem p = parse_command(tokens_, cmd_);
  if (!p) p = apply(pool_, cmd_);
  if (p) {
    ++rejected_;
    sink_.diagnostic(line_, *p);
    return;
  }
  sink_.applied(line_, cmd_, pool_);
  std::int32_t winner = kNone;
  if (cmd_.op == Op::Weights) {
    sink_.output(line_, pool_.weights_line());
  } else if (cmd_.op == Op::Pick) {
    winner = pool_.pick();
    sink_.output(line_, winner == kNone ? std::string_view("NONE")
                                        : std::string_view(pool_.backend(winner).name));
  }
  sink_.executed(line_, cmd_.op, pool_, winner);
}

void Interpreter::feed_text(std::string_view text) {
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    feed_line(text.substr(start, end - start));
    start = end + 1;
  }
}

std::size_t Interpreter::feed_chunk(std::string_view chunk) {
  std::size_t start = 0;
  while (start < chunk.size()) {
    const std::size_t end = chunk.find('\n', start);
    if (end == std::string_view::npos) {
      pending_.append(chunk.substr(start));
      return chunk.size();
    }
    if (pending_.empty()) {
      feed_line(chunk.substr(start, end - start));
    } else {
      pending_.append(chunk.substr(start, end - start));
      feed_line(pending_);
      pending_.clear();
    }
    start = end + 1;
    if (sink_.full()) return start;
  }
  return chunk.size();
}

void Interpreter::finish() {
  if (!pending_.empty()) {
    feed_line(pending_);
    pending_.clear();
  }
}

namespace {

class CollectingSink : public ScriptSink {
 public:
  CollectingSink(bool timeline, std::size_t max_bytes) : timeline_(timeline), room_(max_bytes) {}
  void output(std::uint64_t line, std::string_view text) override {
    if (keep(text.size())) result.output.push_back({line, std::string(text)});
  }
  void diagnostic(std::uint64_t line, std::string_view message) override {
    if (keep(message.size())) result.diagnostics.push_back({line, std::string(message)});
  }
  void executed(std::uint64_t line, Op op, const Pool& pool, std::int32_t winner) override {
    if (timeline_) recorder.record(line, op, pool, winner);
  }
  RunResult result;
  TimelineRecorder recorder;

 private:
  bool keep(std::size_t bytes) {
    if (result.truncated || bytes + 1 > room_) {
      result.truncated = true;
      return false;
    }
    room_ -= bytes + 1;
    return true;
  }
  bool timeline_;
  std::size_t room_;
};

}  // namespace

RunResult run_script(std::string_view script, const RunOptions& options) {
  CollectingSink sink(options.timeline, options.max_text_bytes);
  Interpreter interpreter(sink);
  interpreter.set_rules(options.rules);
  interpreter.feed_text(script);
  sink.result.timeline = sink.recorder.take();
  return std::move(sink.result);
}

}  // namespace slowstart
