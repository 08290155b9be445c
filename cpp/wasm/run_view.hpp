// A script run's results laid out for JavaScript to read straight out of the
// module's memory (web/api/run-view.ts): one fixed struct of (address,
// count) columns, the data alive until the next run or release_run(). Both
// modules publish their runs this way, so there is one layout and one reader,
// and nothing is converted value by value on the way out.
//
// Output lines and diagnostics are '\n'-joined text (no output line or
// message contains '\n') with a line number each, and each diagnostic its
// columns (from, to: bytes of its line, Span); the timeline's names
// likewise. 64-bit integers become doubles: weights and clocks (at most
// 10^12) exactly; scores exactly up to 2^53 in magnitude, past that the
// nearest double (the README says so; Number.isSafeInteger tells them apart).
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "fast/cold.hpp"
#include "core/interpreter.hpp"

namespace slowstart::wasm {

struct Column {
  std::uint32_t address, count;
};

// Field order is the reader's (web/api/run-view.ts): change both together.
struct RunView {
  Column output_text, output_lines, diagnostic_text, diagnostic_lines, diagnostic_columns;
  std::uint32_t truncated, has_timeline;
  Column names_text, step_line, step_now, step_winner, step_block, block_start, cell_backend, cell_up,
      cell_weight, cell_score, step_scores_end, score_cell, score_value;
  std::uint32_t scored_steps, timeline_truncated, timeline_partial;
};

class PublishedRun {
 public:
  // Runs the script into this run's own columns (nothing moved).
  // `runner`: run_columns_into, or (the lab module) run_columns_light_into.
  using Runner = void (*)(RunColumns&, std::string_view, const RunOptions&);
  SLOWSTART_COLD PublishedRun(std::string_view script, const RunOptions& options, Runner runner = run_columns_into) {
    const bool with_timeline = options.timeline;
    runner(result_, script, options);
    view_.output_text = column(result_.output_text);
    view_.output_lines = column(result_.output_lines);
    view_.diagnostic_text = column(result_.diagnostic_text);
    view_.diagnostic_lines = column(result_.diagnostic_lines);
    view_.diagnostic_columns = column(result_.diagnostic_columns);
    view_.truncated = result_.truncated;
    view_.has_timeline = with_timeline;
    if (!with_timeline) return;
    const Timeline& t = result_.timeline;
    for (const std::string& name : t.names) {
      if (!names_.empty()) names_ += '\n';
      names_ += name;
    }
    view_.names_text = column(names_);
    step_line_.assign(t.step_line.begin(), t.step_line.end());
    view_.step_line = column(step_line_);
    view_.step_now = doubles(t.step_now, step_now_);
    view_.step_winner = column(t.step_winner);
    view_.step_block = column(t.step_block);
    view_.block_start = column(t.block_start);
    view_.cell_backend = column(t.cell_backend);
    view_.cell_up = column(t.cell_up);
    view_.cell_weight = doubles(t.cell_weight, cell_weight_);
    view_.cell_score = doubles(t.cell_score, cell_score_);
    view_.step_scores_end = column(t.step_scores_end);
    view_.score_cell = column(t.score_cell);
    view_.score_value = doubles(t.score_value, score_value_);
    view_.scored_steps = static_cast<std::uint32_t>(t.scored_steps);
    view_.timeline_truncated = t.truncated;
    view_.timeline_partial = t.partial;
  }
  const RunView& view() const { return view_; }

 private:
  template <typename T>
  static Column column(const std::vector<T>& v) {
    return {static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(v.data())), static_cast<std::uint32_t>(v.size())};
  }
  static Column column(const ByteBuffer& s) {
    return {static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(s.data())), static_cast<std::uint32_t>(s.size())};
  }
  static Column column(const std::string& s) {
    return {static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(s.data())), static_cast<std::uint32_t>(s.size())};
  }
  static Column doubles(const std::vector<std::int64_t>& from, std::vector<double>& to) {
    to.assign(from.begin(), from.end());
    return column(to);
  }
  RunColumns result_;
  std::string names_;
  std::vector<std::uint32_t> step_line_;
  std::vector<double> step_now_, cell_weight_, cell_score_, score_value_;
  RunView view_{};
};

// The current published run (one per module).
inline PublishedRun*& published_run() {
  static PublishedRun* run = nullptr;
  return run;
}

inline void release_run() {
  delete published_run();
  published_run() = nullptr;
}

// Runs `script` and publishes the result; returns the view's address.
// `runner`: as PublishedRun's. `score_changes`: RunOptions's (false leaves
// the score columns empty: the reader works them out, run-view.ts).
SLOWSTART_COLD inline std::uint32_t publish_run(std::string_view script, bool with_timeline, Rules* rules,
                                                PublishedRun::Runner runner = run_columns_into,
                                                bool score_changes = true) {
  release_run();
  RunOptions options;
  options.timeline = with_timeline;
  options.score_changes = score_changes;
  options.rules = rules;
  published_run() = new PublishedRun(script, options, runner);
  return static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(&published_run()->view()));
}

}  // namespace slowstart::wasm
