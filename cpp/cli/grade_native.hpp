// The native CLI's `slowstart grade` and `slowstart tests` (grade_native.cpp).
#pragma once
#include <string>
#include <vector>

namespace slowstart::cli {

// The arguments after "grade" / "tests"; returns the exit status.
int grade_command(const std::vector<std::string>& args);
int tests_command(const std::vector<std::string>& args);

}  // namespace slowstart::cli
