#include "grading/tests_command.hpp"

#include <cstdint>

#include "fast/decimal.hpp"
#include "grading/mistakes.hpp"
#include "grading/suite.hpp"
#include "grading/random_script.hpp"

namespace slowstart::grading {

const char* const kTestsUsage =
    "usage: slowstart tests [--out DIR] [--random N] [--seed S]\n"
    "\n"
    "Lists the built-in test suite of `slowstart grade`, or, with --out, writes\n"
    "it to DIR (made if missing): NAME.txt, the script, and NAME.out, what the\n"
    "engine prints for it, for graders that compare files. --random N adds N\n"
    "generated scripts (random-1 ...) for the seed S (default 1), the same as\n"
    "`slowstart grade --random N --seed S` runs.\n";

namespace {

bool parse_count(const std::string& s, std::uint64_t max, std::uint64_t& out) {
  if (s.empty() || s.size() > 20) return false;
  std::uint64_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    const auto d = static_cast<std::uint64_t>(c - '0');
    if (v > (UINT64_MAX - d) / 10) return false;
    v = v * 10 + d;
  }
  if (v > max) return false;
  out = v;
  return true;
}

}  // namespace

int run_tests_command(const std::vector<std::string>& args, std::string& out, std::string& err, std::string& dir,
                      std::vector<SuiteFile>& files) {
  std::uint64_t random = 0, seed = 1;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "-h" || a == "--help") {
      out = kTestsUsage;
      return 0;
    }
    const bool valued = a == "--out" || a == "--random" || a == "--seed";
    if (!valued) {
      err = "slowstart tests: unknown argument '" + a + "'\n\n" + kTestsUsage;
      return 2;
    }
    if (i + 1 >= args.size()) {
      err = "slowstart tests: " + a + " needs a value\n";
      return 2;
    }
    const std::string& v = args[++i];
    if (a == "--out") {
      if (v.empty()) return err = "slowstart tests: --out needs a directory\n", 2;
      dir = v;
    } else if (a == "--random" ? !parse_count(v, 100'000, random) : !parse_count(v, UINT64_MAX, seed)) {
      err = "slowstart tests: " + a + " takes a whole number, got '" + v + "'\n";
      return 2;
    }
  }
  std::size_t count = 0;
  const auto add = [&](const std::string& id, const std::string& title, const std::string& script) {
    ++count;
    if (dir.empty()) {
      out += id + "  " + title + "\n";
      return;
    }
    files.push_back({id + ".txt", script});
    files.push_back({id + ".out", reference_stdout(script)});
  };
  for (const SuiteTest& t : built_in_tests()) add(std::string(t.id), std::string(t.title), std::string(t.script));
  for (std::uint64_t k = 0; k < random; ++k) add(random_test_id(k), random_test_title(seed, k), random_script(seed, k));
  if (!dir.empty())
    out = "Wrote " + decimal(static_cast<std::int64_t>(count)) + " tests to " + dir + " (NAME.txt and NAME.out each).\n";
  return 0;
}

}  // namespace slowstart::grading
