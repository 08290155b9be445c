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

struct GradeReport {
  std::vector<std::string> command;
  // Set: grading could not run, and this says why (the report has no tests).
  std::optional<std::string> could_not_grade;
  std::vector<EngineCopy> engine_copies;  // found in --submission's folder
  std::vector<AlikeFailure> alike;        // failures that are all the same, most tests first
  std::uint64_t seed = 1;                 // --seed, for how to get a generated test's script
  std::string tests_dir;                  // --tests, for how to get a test's script
  std::vector<TestVerdict> tests;
  std::vector<RunDiagnosis::Entry> looks_like;  // the run's, most tests first
  std::size_t passed = 0;
  std::int64_t ms = 0;         // the whole run
  std::int64_t timestamp = 0;  // seconds since 1970 (UTC)
  std::string hostname;
  bool reproducible = false;  // SOURCE_DATE_EPOCH: durations are written as 0
};

std::string format_report(const GradeReport& report, ReportFormat format);

// One copy of the engine in words: "engine.bin holds the engine itself (...), as it is".
std::string engine_copy_text(const EngineCopy& copy);

// Text as it may be shown anywhere (a terminal, JSON, XML): valid UTF-8,
// control and bidirectional characters and invalid bytes written as \t, \r,
// \xNN or \u{NNNN}; newlines kept when `newlines` is set. Past `max` bytes of
// input the rest becomes "…".
std::string visible(std::string_view text, std::size_t max, bool newlines = false);

}  // namespace slowstart::grading
