// The built-in test suite: short scripts, each checking one rule of the SPEC
// and titled in a learner's words. Expected output is the engine's (it is
// not stored here); tests/cpp/suite_test.cpp checks it against outputs
// worked out by hand from the SPEC, and tests/cpp/catalogue_test.cpp that
// every mistake in the catalogue fails at least one of these tests.
#pragma once
#include <span>
#include <string_view>

#include "grading/mistakes.hpp"

namespace slowstart {

struct SuiteTest {
  std::string_view id;     // stable, kebab-case; the file name in `slowstart tests --out`
  std::string_view title;  // what it checks, in a learner's words
  // Rules: it checks what the implement mode's learner writes, so the
  // implement mode runs it. Program: parsing and commands, which only a
  // whole program gets wrong (the implement mode's engine does them).
  Scope scope;
  std::string_view script;
};

std::span<const SuiteTest> built_in_tests();

}  // namespace slowstart
