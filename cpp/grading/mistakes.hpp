// The mistake catalogue: every classic way to get the SPEC wrong, each with
// a plain-words title, why it matters, and the rules that make it (a Variant
// of the SPEC's, rule_variants.hpp). When a learner's program prints exactly
// what a mistake prints, the graders name that mistake (diagnosis.hpp).
//
// Every mistake fails at least one built-in test (suite.hpp); a CTest test
// (tests/cpp/catalogue_test.cpp) proves it, so a mistake cannot be added
// without a test that catches it.
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "grading/rule_variants.hpp"

namespace slowstart {

// Where a mistake can be made:
//  - Rules: in the effective weight, the pick or the score on joining, which
//    is what the implement mode's learner writes (and any program);
//  - Program: in parsing or in the commands, which only a whole program
//    does (graded by `slowstart grade` or the compare box).
enum class Scope : std::uint8_t { Rules, Program };

struct Mistake {
  std::string_view id;     // stable, kebab-case
  std::string_view title;  // what the learner did, one sentence
  std::string_view why;    // why it is wrong, and what to do instead
  Scope scope;
  Variant variant;
};

// The catalogue, in a fixed order (the order mistakes are listed in).
std::span<const Mistake> mistakes();
// nullptr when there is no such mistake.
const Mistake* find_mistake(std::string_view id);

// What a program making this mistake prints on stdout for the script.
std::string mistake_stdout(const Mistake& m, std::string_view script);

// What the engine prints on stdout for the script (the reference).
std::string reference_stdout(std::string_view script);

}  // namespace slowstart
