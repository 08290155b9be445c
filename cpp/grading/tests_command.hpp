// `slowstart tests [--out DIR] [--random N] [--seed S]`: the built-in suite
// (and generated scripts) as files, NAME.txt with NAME.out beside it, for
// course authors who grade with another tool. Shared by both CLIs: this
// decides what to write, the front end writes it.
#pragma once
#include <string>
#include <vector>

namespace slowstart::grading {

struct SuiteFile {
  std::string name;   // "worked-example.txt"
  std::string bytes;
};

// `out`/`err`: what to print; `dir`: where to write `files` (empty: nothing
// to write, the tests are listed on `out`); `force`: --force was given (a
// file already in DIR may be overwritten). Returns the exit status.
int run_tests_command(const std::vector<std::string>& args, std::string& out, std::string& err, std::string& dir,
                      std::vector<SuiteFile>& files, bool* force = nullptr);

// Why a front end writes nothing into --out's DIR: a file of that name is
// there (without --force), or is a symbolic link, or is not a regular file.
enum class OutBlocker { Exists, Symlink, NotRegular };
std::string out_blocked(const std::string& path, OutBlocker why);

extern const char* const kTestsUsage;

}  // namespace slowstart::grading
