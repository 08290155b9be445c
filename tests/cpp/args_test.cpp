// The one argument reader of the subcommands (cpp/core/args.*): the syntax
// all three accept, and one wording for the same kind of problem in
// `slowstart grade`, `simulate` and `tests`.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/args.hpp"
#include "grading/grade.hpp"
#include "grading/tests_command.hpp"
#include "traffic/simulate_command.hpp"

using namespace slowstart;

namespace {

// The problem line each subcommand prints for `args` ("" when none).
std::string simulate_problem(const std::vector<std::string>& args) {
  simulate_command::SimulateArgs out;
  const Problem p = simulate_command::parse_simulate_args(args, out);
  return p ? *p : "";
}

std::string tests_problem(const std::vector<std::string>& args) {
  std::string out, err, dir;
  std::vector<grading::SuiteFile> files;
  grading::run_tests_command(args, out, err, dir, files);
  const std::string prefix = "slowstart tests: ";
  return err.rfind(prefix, 0) == 0 ? err.substr(prefix.size(), err.size() - prefix.size() - 1) : err;
}

}  // namespace

TEST(ArgReader, LongShortAttachedAndAfterTheEndOfOptions) {
  const std::vector<std::string> args = {"--rps", "5", "--rps=6", "-j7", "-j", "8", "--", "--rps", "-"};
  ArgReader r(args);
  std::vector<std::string> seen;
  std::string v;
  while (r.next()) {
    if (r.option() && (r.is("--rps") || r.is("--jobs", "-j"))) {
      ASSERT_EQ(r.value(v), std::nullopt);
      seen.push_back(r.matched() + "=" + v);
    } else {
      seen.push_back(r.option() ? "option " + r.arg() : "positional " + r.arg());
    }
  }
  EXPECT_EQ(seen, (std::vector<std::string>{"--rps=5", "--rps=6", "--jobs=7", "--jobs=8", "positional --rps", "positional -"}));
}

TEST(ArgReader, ProblemsQuoteWhatWasWritten) {
  const std::vector<std::string> args = {"--rps", "--bogus\x1b", "--csv=1", "x\xff"};
  ArgReader r(args);
  ASSERT_TRUE(r.next() && r.is("--rps"));
  std::string v;
  ASSERT_EQ(r.value(v), std::nullopt);  // the next argument, whatever it looks like
  EXPECT_EQ(r.invalid("a number", v), "--rps takes a number, got '--bogus\\x1b'");
  ASSERT_TRUE(r.next() && r.is("--csv"));
  EXPECT_EQ(r.flag(), "--csv takes no value");
  ASSERT_TRUE(r.next());
  EXPECT_EQ(r.unexpected(), "unexpected argument 'x\\xff'");
  EXPECT_FALSE(r.next());
}

TEST(ArgReader, TheSubcommandsWordTheSameProblemAlike) {
  EXPECT_EQ(simulate_problem({"--frobnicate"}), "unknown option '--frobnicate'");
  EXPECT_EQ(tests_problem({"--frobnicate"}), "unknown option '--frobnicate'");
  EXPECT_EQ(simulate_problem({"--rps"}), "--rps needs a value");
  EXPECT_EQ(tests_problem({"--seed"}), "--seed needs a value");
  EXPECT_EQ(simulate_problem({"--rps", "many"}), "--rps takes a number, got 'many'");
  EXPECT_EQ(tests_problem({"--random", "many"}), "--random takes a whole number from 0 to 100000, got 'many'");
  EXPECT_EQ(simulate_problem({"--csv=yes"}), "--csv takes no value");
  EXPECT_EQ(tests_problem({"--help=yes"}), "--help takes no value");
  EXPECT_EQ(tests_problem({"suite"}), "unexpected argument 'suite'");
  EXPECT_EQ(simulate_problem({"a.txt", "b.txt"}), "one script at a time");
  // And both take --name=value.
  EXPECT_EQ(simulate_problem({"--rps=10", "--bucket=0.5"}), "");
  EXPECT_EQ(tests_problem({"--random=2", "--seed=3"}), "");
}

TEST(ParseWhole, DigitsOnlyUpToTheLimit) {
  std::uint64_t v = 0;
  EXPECT_TRUE(parse_whole("007", 10, v));
  EXPECT_EQ(v, 7u);
  EXPECT_TRUE(parse_whole("18446744073709551615", UINT64_MAX, v));
  EXPECT_FALSE(parse_whole("18446744073709551616", UINT64_MAX, v));
  for (const char* bad : {"", "-1", "+1", "1.0", "1e3", " 1", "11"}) EXPECT_FALSE(parse_whole(bad, 10, v)) << bad;
}
