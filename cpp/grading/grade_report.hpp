// The report of `slowstart grade`, in its four formats: text (for people),
// json (docs/GRADING.md has its schema), gradescope (Gradescope's
// results.json) and junit (JUnit XML as the Apache Ant schema defines it,
// which CI servers read). Built from the verdicts by grade.cpp.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "grading/grade.hpp"

namespace slowstart::grading {

// Where the learner's stdout first differs from the expected one.
struct Difference {
  std::size_t output_line = 0;    // 1-based
  std::uint64_t script_line = 0;  // the script line that printed the expected line; 0: not known
  std::string script_text;        // that line of the script
  std::optional<std::string> expected, actual;  // nullopt: the output had ended
  bool newline_at_end = false;  // the lines agree; only the final newline differs
};

struct TestVerdict {
  const GradeTest* test = nullptr;
  const RunOutcome* outcome = nullptr;
  // "passed", "failed" (wrong output or exit status), "crashed" (a signal, or
  // an error exit where the engine exits 0), "timed-out", "output-limit".
  std::string status;
  std::string summary;  // one line: why it failed (empty when it passed)
  std::optional<Difference> difference;
  std::vector<MistakeIndex> looks_like;
  // A wrong output that shows a problem in the program rather than a
  // classic mistake: a weight that is not a whole number ("a=2.5", "a=NaN").
  std::string bad_output;
  // The program crashed, was stopped, or printed something no rule can
  // explain: its output names no mistake, and the report says so first.
  bool problem() const {
    return status == "crashed" || status == "timed-out" || status == "output-limit" || !bad_output.empty();
  }
  // The one line that says what the problem is.
  const std::string& problem_text() const { return bad_output.empty() ? summary : bad_output; }
};

struct GradeReport {
  std::vector<std::string> command;
  std::vector<TestVerdict> tests;
  std::vector<RunDiagnosis::Entry> looks_like;  // the run's, most tests first
  std::size_t passed = 0;
  std::int64_t ms = 0;         // the whole run
  std::int64_t timestamp = 0;  // seconds since 1970 (UTC)
  std::string hostname;
  bool reproducible = false;  // SOURCE_DATE_EPOCH: durations are written as 0
};

std::string format_report(const GradeReport& report, ReportFormat format);

// Text as it may be shown anywhere (a terminal, JSON, XML): valid UTF-8,
// control and bidirectional characters and invalid bytes written as \t, \r,
// \xNN or \u{NNNN}; newlines kept when `newlines` is set. Past `max` bytes of
// input the rest becomes "…".
std::string visible(std::string_view text, std::size_t max, bool newlines = false);

}  // namespace slowstart::grading
