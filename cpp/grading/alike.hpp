// Failures that are all the same: a program with a syntax error, a missing
// import or an endless loop fails every test in one way, and a report that
// says so once per test buries it (38 tracebacks). So tests whose program
// ended the same way (the same exit status or signal, printing nothing; or
// the same time limit or output cap) with the same stderr are one failure,
// said once with its count ("In all 38 tests the program exited with status
// 1 and printed nothing: SyntaxError: invalid syntax (balancer.py, line 4)"),
// and every report format leads with it.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace slowstart::grading {

struct TestVerdict;

struct AlikeFailure {
  std::string summary;             // one sentence, as above
  std::vector<std::size_t> tests;  // the tests' indices, in order
};

// Groups of at least two tests, most tests first.
std::vector<AlikeFailure> alike_failures(const std::vector<TestVerdict>& verdicts);

// The line of stderr that says what went wrong, with where when it says so
// ("SyntaxError: invalid syntax (balancer.py, line 4)"): the last line that
// reads like an error (Python's last line, Node's "TypeError: ..."), else
// the last line; escaped for any report. Empty when stderr is.
std::string stderr_headline(std::string_view err);

}  // namespace slowstart::grading
