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

#include "mistakes.hpp"

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

// `tests[i]` null: test i has not been graded (yet).
RunDiagnosis diagnose_run(const std::vector<const TestEvidence*>& tests);

}  // namespace slowstart
