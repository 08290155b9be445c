#include "grading/tests_command.hpp"

#include <cstdint>

#include "core/args.hpp"
#include "fast/decimal.hpp"
#include "grading/mistakes.hpp"
#include "grading/suite.hpp"
#include "grading/random_script.hpp"

namespace slowstart::grading {

const char* const kTestsUsage =
    "usage: slowstart tests [--out DIR [--force]] [--random N] [--seed S]\n"
    "\n"
    "Lists the built-in test suite of `slowstart grade`, or, with --out, writes\n"
    "it to DIR (made if missing): NAME.txt, the script, and NAME.out, what the\n"
    "engine prints for it, for graders that compare files. --random N adds N\n"
    "generated scripts (random-1 ...) for the seed S (default 1), the same as\n"
    "`slowstart grade --random N --seed S` runs. A file already in DIR is\n"
    "not overwritten unless --force is given, and a symbolic link there is\n"
    "never followed: nothing is written then.\n";

std::string out_blocked(const std::string& path, OutBlocker why) {
  const std::string p = "slowstart tests: '" + path + "' ";
  switch (why) {
    case OutBlocker::Exists: return p + "is there already: --force overwrites it (nothing was written)\n";
    case OutBlocker::Symlink: return p + "is a symbolic link: it is not followed (nothing was written)\n";
    case OutBlocker::NotRegular: break;
  }
  return p + "is not a regular file (nothing was written)\n";
}

int run_tests_command(const std::vector<std::string>& args, std::string& out, std::string& err, std::string& dir,
                      std::vector<SuiteFile>& files, bool* force) {
  std::uint64_t random = 0, seed = 1;
  ArgReader r(args);
  std::string v;
  const auto problem = [&](const Problem& p) {
    err = "slowstart tests: " + *p + "\n";
    return 2;
  };
  while (r.next()) {
    if (r.is("--help", "-h")) {
      if (Problem p = r.flag()) return problem(p);
      out = kTestsUsage;
      return 0;
    }
    if (!r.option()) return problem(r.unexpected());
    if (r.is("--force")) {
      if (Problem p = r.flag()) return problem(p);
      if (force) *force = true;
      continue;
    }
    if (!r.is("--out") && !r.is("--random") && !r.is("--seed")) return problem(r.unknown());
    if (Problem p = r.value(v)) return problem(p);
    if (r.matched() == "--out") {
      if (v.empty()) return problem(r.invalid("a directory", v));
      dir = v;
    } else if (r.matched() == "--random") {
      if (!parse_whole(v, 100'000, random)) return problem(r.invalid("a whole number from 0 to 100000", v));
    } else if (!parse_whole(v, UINT64_MAX, seed)) {
      return problem(r.invalid("a whole number", v));
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
