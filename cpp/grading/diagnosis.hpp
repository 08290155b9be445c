// Naming the learner's mistake, from one test and from a whole run.
//
// One test: the mistakes whose output is exactly the learner's (named).
// One test alone is often ambiguous (a pick that always answers NONE prints
// what "a ramp of 0 is treated as a ramp" prints on a script of POOL and PICK
// lines), so the run narrows it down with the evidence of every test:
//  1. Ruled out: a mistake is not the learner's if some test shows the
//     learner printing what the reference prints where the mistake would not
//     (a passing test, or an output line that is right in the learner's
//     output and wrong in the mistake's).
//  2. Outranked: a mistake named in fewer tests than another that is named
//     in all of the same tests (and more) gives way to that one.
//  3. Problems first: a test where the program crashed, timed out, threw an
//     exception or returned a value that is not a weight says nothing about
//     a classic mistake; it names none and rules none out.
// Every front end (the implement mode, the compare box, both CLIs) goes
// through these two functions, so they all name the same mistake for the
// same outputs.
#pragma once
#include <cstdint>
#include <string_view>
#include <vector>

#include "grading/mistakes.hpp"

namespace slowstart {

// A catalogue index (mistakes()[i]).
using MistakeIndex = std::uint16_t;

// One graded test, as the diagnosis sees it.
struct TestEvidence {
  bool pass = false;
  // The program crashed, timed out, threw or returned a bad value.
  bool problem = false;
  std::vector<MistakeIndex> named;      // print exactly what the learner printed
  std::vector<MistakeIndex> ruled_out;  // shown not to be the learner's by this test
};

// The evidence of one test: `expected` is the reference's stdout, `actual`
// the learner's; mistakes outside `scope` are not considered (Rules: only
// those the implement mode's learner can make; Program: all). Scripts
// longer than kMaxDiagnosedBytes give no evidence (each mistake reruns
// the script).
TestEvidence gather_evidence(std::string_view script, std::string_view expected, std::string_view actual,
                             Scope scope, bool problem);

inline constexpr std::size_t kMaxDiagnosedBytes = std::size_t{1} << 20;

struct RunDiagnosis {
  // Per test, in order: the mistakes to name for it (none for a passing
  // test, a test with a problem, or one not graded yet).
  std::vector<std::vector<MistakeIndex>> per_test;
  struct Entry {
    MistakeIndex mistake;
    std::vector<std::size_t> tests;  // indices of the tests that name it
  };
  // The mistakes the run points to, most tests first.
  std::vector<Entry> run;
};

// The lines of an output, without their '\n' (a final '\n' ends the last
// line; it does not start an empty one).
std::vector<std::string_view> output_lines(std::string_view text);

// `tests[i]` null: test i has not been graded (yet).
RunDiagnosis diagnose_run(const std::vector<const TestEvidence*>& tests);

// Script line n (1-based) without its line end; empty past the end.
std::string_view script_line(std::string_view script, std::uint64_t n);

// A weight that is not a whole number in a line the program printed for a
// WEIGHTS ("b=2.5", "b=2.0", "b=NaN", "b=Infinity"): no rule of the SPEC and
// no classic mistake prints one (a division in floating point, never rounded
// down), so it is a problem to fix first, not a mistake to name. A negative
// whole number is no problem: it is a classic mistake's (no-clamp).
struct WeightProblem {
  std::size_t output_line = 0;  // 1-based; 0: there is none
  std::string_view word;        // e.g. "b=2.5", a view into `actual`
};
// `printed_by[i]`: the script line that printed the engine's output line i.
WeightProblem non_whole_weight(std::string_view script, const std::vector<std::uint64_t>& printed_by,
                               std::string_view actual);

}  // namespace slowstart
