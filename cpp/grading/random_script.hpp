// Generated test scripts for `slowstart grade --random N --seed S`: short
// scripts with every command, clocks that go forwards and back, ramps, DOWN
// and UP, and rejected lines (lower-case keywords, bad numbers, unknown
// names, extra words). The same seed gives the same scripts on every
// platform (our own generator and arithmetic: no std:: distributions, whose
// results differ between standard libraries, e.g. native and WebAssembly).
#pragma once
#include <cstdint>
#include <string>

namespace slowstart::grading {

// Script `index` (0-based) of the series for `seed`.
std::string random_script(std::uint64_t seed, std::uint64_t index);

// Its test id ("random-1" for index 0) and title, in both commands.
std::string random_test_id(std::uint64_t index);
std::string random_test_title(std::uint64_t seed, std::uint64_t index);

}  // namespace slowstart::grading
