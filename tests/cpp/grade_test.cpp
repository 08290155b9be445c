// `slowstart grade` without processes (cpp/grading/grade.*, grade_report.*,
// random_script.*): options, tests from a directory, verdicts from made-up
// outcomes, the first difference, the four report formats and their
// escaping. The processes themselves are tested through both CLIs in
// tests/web/unit/grade-cli.test.ts.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "grading/grade.hpp"
#include "grading/grade_report.hpp"
#include "grading/random_script.hpp"
#include "core/interpreter.hpp"
#include "grading/suite.hpp"

using namespace slowstart;
using namespace slowstart::grading;

namespace {

// A directory in memory: name -> bytes.
struct FakeDir {
  std::map<std::string, std::string> files;
  GradeIo io() {
    GradeIo io;
    io.list_txt = [this](const std::string& dir, std::vector<std::string>& names) -> Problem {
      if (dir != "d") return std::string("No such file or directory");
      for (const auto& [name, _] : files)
        if (name.size() > 4 && name.substr(name.size() - 4) == ".txt") names.push_back(name);
      return std::nullopt;
    };
    io.read = [this](const std::string& dir, const std::string& name, std::string& bytes) {
      if (dir != "d") return ReadStatus::Missing;
      const auto it = files.find(name);
      if (it == files.end()) return ReadStatus::Missing;
      bytes = it->second;
      return ReadStatus::Ok;
    };
    return io;
  }
};

GradeEnv env() {
  GradeEnv e;
  e.cpus = 4;
  e.hostname = "grader";
  e.source_date_epoch = 1700000000;  // 2023-11-14T22:13:20 UTC
  return e;
}

RunOutcome printed(std::string out, int exit_code = 0, std::string err = "") {
  RunOutcome o;
  o.out = std::move(out);
  o.exit_code = exit_code;
  o.err = std::move(err);
  return o;
}

struct Started {
  GradeRun run;
  std::string out, err;
  int status = -1;
  bool ok = false;
};

void start(Started& s, const std::vector<std::string>& args, FakeDir& dir) {
  s.ok = s.run.start(args, env(), dir.io(), s.out, s.err, s.status);
}

}  // namespace

TEST(GradeOptions, ProblemsAreOneLineAndStatus2) {
  FakeDir dir;
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{}, "slowstart grade: no program to grade (slowstart grade [options] -- COMMAND [ARGS...])\n"},
      {{"--format", "xml", "--", "p"}, "slowstart grade: --format takes text, json, gradescope or junit, got 'xml'\n"},
      {{"--timeout", "1.2345", "--", "p"},
       "slowstart grade: --timeout takes seconds above 0 and at most 86400, with up to 3 decimals, got '1.2345'\n"},
      {{"--timeout", "-1", "--", "p"},
       "slowstart grade: --timeout takes seconds above 0 and at most 86400, with up to 3 decimals, got '-1'\n"},
      {{"-j0", "--", "p"}, "slowstart grade: --jobs takes a whole number from 1 to 1024, got '0'\n"},
      {{"--max-output", "0", "--", "p"},
       "slowstart grade: --max-output takes a size from 1 byte to 1G (e.g. 512K, 16M), got '0'\n"},
      {{"--random", "x", "--", "p"}, "slowstart grade: --random takes a whole number from 0 to 100000, got 'x'\n"},
      {{"--exit-status", "loose", "--", "p"}, "slowstart grade: --exit-status takes lenient, strict or ignore, got 'loose'\n"},
      {{"--tests"}, "slowstart grade: --tests needs a value\n"},
      {{"--builtin=1", "--", "p"}, "slowstart grade: --builtin takes no value\n"},
      {{"--frobnicate", "--", "p"}, "slowstart grade: unknown option '--frobnicate'\n"},
      {{"--tests", "nowhere", "--", "p"}, "slowstart grade: cannot read 'nowhere': No such file or directory\n"},
      {{"--tests", "d", "--", "p"}, "slowstart grade: no test scripts (*.txt) in 'd'\n"},
  };
  for (const auto& [args, message] : cases) {
    Started s;
    start(s, args, dir);
    EXPECT_FALSE(s.ok);
    EXPECT_EQ(s.status, 2);
    EXPECT_EQ(s.err, message);
    EXPECT_EQ(s.out, "");
  }
  Started help;
  start(help, {"--timeout", "3", "--help"}, dir);
  EXPECT_FALSE(help.ok);
  EXPECT_EQ(help.status, 0);
  EXPECT_EQ(help.out, kGradeUsage);
}

TEST(GradeOptions, ValuesInEveryForm) {
  FakeDir dir;
  Started s;
  start(s, {"--timeout=0.25", "-j3", "--max-output", "512K", "--format=junit", "--exit-status", "strict", "prog", "-x"},
        dir);
  ASSERT_TRUE(s.ok) << s.err;
  const GradeOptions& o = s.run.options();
  EXPECT_EQ(o.timeout_ms, 250);
  EXPECT_EQ(s.run.jobs(), 3u);
  EXPECT_EQ(o.max_output, 512u * 1024);
  EXPECT_EQ(o.format, ReportFormat::Junit);
  EXPECT_EQ(o.exit_rule, ExitRule::Strict);
  // The command starts at the first word that is not an option (or after --).
  EXPECT_EQ(o.command, (std::vector<std::string>{"prog", "-x"}));
  EXPECT_EQ(s.run.size(), built_in_tests().size());
  Started d;
  start(d, {"--", "prog"}, dir);
  EXPECT_EQ(d.run.jobs(), 4u);  // the CPUs
  EXPECT_EQ(d.run.options().timeout_ms, 5000);
  EXPECT_EQ(d.run.options().max_output, std::size_t{16} << 20);
}

TEST(GradeTests, FromADirectoryWithOutFilesAndFromTheGenerator) {
  FakeDir dir;
  dir.files = {{"b.txt", "POOL a=2 b=1\nPICK\nPICK\n"},
               {"a.txt", "POOL a=1\npick\nPICK\n"},
               {"a.out", "a\n"},                    // the engine's: "a\n"
               {"b.out", "b\nb\n"},                 // the author's own
               {"notes.md", "not a test"}};
  Started s;
  start(s, {"--tests", "d", "--random", "2", "--seed", "9", "--", "prog", "--file={}", "{}{}"}, dir);
  ASSERT_TRUE(s.ok) << s.err;
  ASSERT_EQ(s.run.size(), 4u);
  EXPECT_EQ(s.run.test(0).id, "a");  // name order
  EXPECT_EQ(s.run.test(0).path, "d/a.txt");
  EXPECT_EQ(s.run.test(0).expected, "a\n");
  EXPECT_TRUE(s.run.test(0).expected_is_engine);
  EXPECT_EQ(s.run.test(0).expected_exit, 1);  // "pick" is rejected
  EXPECT_EQ(s.run.test(0).printed_by, (std::vector<std::uint64_t>{3}));
  EXPECT_EQ(s.run.test(1).expected, "b\nb\n");
  EXPECT_FALSE(s.run.test(1).expected_is_engine);
  EXPECT_EQ(s.run.test(2).id, "random-1");
  EXPECT_EQ(s.run.test(2).title, "Generated script 1 (seed 9)");
  EXPECT_EQ(s.run.test(2).script, random_script(9, 0));
  EXPECT_EQ(s.run.test(3).script, random_script(9, 1));
  EXPECT_TRUE(s.run.needs_script_paths());
  EXPECT_EQ(s.run.argv("/t/x.txt"), (std::vector<std::string>{"prog", "--file=/t/x.txt", "/t/x.txt/t/x.txt"}));
}

TEST(RandomScripts, SameSeedSameScriptsWithRejectedAndValidLines) {
  EXPECT_EQ(random_script(1, 0), random_script(1, 0));
  EXPECT_NE(random_script(1, 0), random_script(2, 0));
  EXPECT_NE(random_script(1, 0), random_script(1, 1));
  std::size_t with_rejected = 0, outputs = 0, ramps = 0;
  for (std::uint64_t k = 0; k < 100; ++k) {
    const std::string s = random_script(3, k);
    EXPECT_EQ(s.rfind("POOL ", 0), 0u);
    RunOptions o;
    o.timeline = false;
    const RunResult r = run_script(s, o);
    with_rejected += !r.diagnostics.empty();
    outputs += r.output.size();
    for (const OutputLine& line : r.output)
      if (line.text.find("=0") != std::string::npos) ++ramps;
  }
  // About half with rejected lines, half without; plenty of output, ramps at 0.
  EXPECT_GT(with_rejected, 30u);
  EXPECT_LT(with_rejected, 70u);
  EXPECT_GT(outputs, 500u);
  EXPECT_GT(ramps, 20u);
}

namespace {

// The worked example and its engine output (a, a, a=5..., a=5..., b, c).
const std::string kExample = std::string(built_in_tests()[0].script);

std::string grade_one(RunOutcome o, ReportFormat format, ExitRule rule = ExitRule::Lenient, int* status = nullptr,
                      const std::string& script = kExample) {
  FakeDir dir;
  dir.files = {{"example.txt", script}};
  Started s;
  std::vector<std::string> args = {"--tests", "d", "--", "prog"};
  if (format == ReportFormat::Json) args.insert(args.begin(), {"--format", "json"});
  if (format == ReportFormat::Junit) args.insert(args.begin(), {"--format", "junit"});
  if (format == ReportFormat::Gradescope) args.insert(args.begin(), {"--format", "gradescope"});
  if (rule == ExitRule::Strict) args.insert(args.begin(), {"--exit-status", "strict"});
  start(s, args, dir);
  EXPECT_TRUE(s.ok) << s.err;
  s.run.set_outcome(0, std::move(o));
  std::string out, err;
  const int st = s.run.finish(1234, out, err);
  if (status) *status = st;
  return out + err;
}

const char kRight[] = "a\na\na=5 b=1 c=1 d=0\na=5 b=1 c=1 d=2\nb\nc\n";

}  // namespace

TEST(GradeVerdicts, TheFirstDifferenceAndWhyATestFailed) {
  int status = -1;
  // The SPEC's exit status 1 (line 11 is rejected), with a diagnostic: passed.
  EXPECT_NE(grade_one(printed(kRight, 1, "line 11: unknown command\n"), ReportFormat::Json, ExitRule::Lenient, &status)
                .find("\"status\": \"passed\""),
            std::string::npos);
  EXPECT_EQ(status, 0);
  const auto summary = [](RunOutcome o, ExitRule rule = ExitRule::Lenient) {
    const std::string json = grade_one(std::move(o), ReportFormat::Json, rule);
    const std::size_t at = json.find("\"summary\": \"") + 12;
    return json.substr(at, json.find("\", \"difference\"") - at);
  };
  // Ties to the last at line 8.
  EXPECT_EQ(summary(printed("a\na\na=5 b=1 c=1 d=0\na=5 b=1 c=1 d=2\nc\nd\n")),
            "output line 5 (printed by script line 8: PICK): expected \\\"b\\\", got \\\"c\\\"");
  EXPECT_EQ(summary(printed("a\na\n")),
            "output line 3 (printed by script line 5: WEIGHTS): expected \\\"a=5 b=1 c=1 d=0\\\", got nothing (the output ended)");
  EXPECT_EQ(summary(printed(std::string(kRight) + "extra\n")),
            "output line 7: expected nothing (the expected output has ended), got \\\"extra\\\"");
  EXPECT_EQ(summary(printed(std::string(kRight, sizeof kRight - 2))),
            "output line 6 (printed by script line 10: PICK): the last line has no newline at its end");
  EXPECT_EQ(summary(printed("a\r\na\n")), "output line 1 (printed by script line 2: PICK): expected \\\"a\\\", got \\\"a\\\\r\\\"");
  // Problems: a signal, an error exit, a timeout, too much output.
  RunOutcome segv = printed("a\n");
  segv.signal = "SIGSEGV";
  EXPECT_EQ(summary(segv), "killed by SIGSEGV");
  // The worked example has a rejected line: status 1 is the engine's too.
  EXPECT_EQ(summary(printed(kRight, 1, "Traceback (most recent call last):\n")), "");
  EXPECT_EQ(summary(printed(kRight, 3)), "exited with status 3 where the engine exits 1");
  RunOutcome slow = printed("a\n");
  slow.timed_out = true;
  EXPECT_EQ(summary(slow), "did not finish within 5 s: its process group was killed");
  RunOutcome flood = printed("x");
  flood.out_over = true;
  EXPECT_EQ(summary(flood), "printed more than 16 MiB on stdout: its process group was killed");
  // Strict: the SPEC's status, here 1.
  EXPECT_EQ(summary(printed(kRight, 0), ExitRule::Strict),
            "exited with status 0, but the engine exits 1 (the script has a rejected line)");
  EXPECT_EQ(summary(printed(kRight, 0)), "");
}

TEST(GradeVerdicts, StatusOneIsARejectedLineOnlyWithADiagnostic) {
  // Where the engine exits 0: status 1 with "line N: ..." on stderr is the
  // program rejecting a line (judged by its output); without it, a crash.
  const std::string script = "POOL a=1\nPICK\n";
  const auto status_of = [&](RunOutcome o) {
    const std::string json = grade_one(std::move(o), ReportFormat::Json, ExitRule::Lenient, nullptr, script);
    const std::size_t at = json.find("\"status\": \"", json.find("\"results\"")) + 11;
    return json.substr(at, json.find('"', at) - at);
  };
  EXPECT_EQ(status_of(printed("", 1, "line 1: POOL needs backends\n")), "failed");
  EXPECT_EQ(status_of(printed("a\n", 1, "warning\nline 2: odd\n")), "passed");
  EXPECT_EQ(status_of(printed("a\n", 1, "Traceback (most recent call last):\n  File \"b.py\", line 9, in main\n")),
            "crashed");
  EXPECT_EQ(status_of(printed("a\n", 1, "line x: no number\n")), "crashed");
  EXPECT_EQ(status_of(printed("a\n", 2, "line 1: bad\n")), "crashed");
}

// The example script as a failed test shows it (the report's last lines for it).
const std::string kExampleScript =
    "       script (to rerun the test, save it as example.txt and run prog < example.txt):\n"
    "       | POOL a=5 b=1 c=1\n"
    "       | PICK\n"
    "       | PICK\n"
    "       | ADD d=10 20\n"
    "       | WEIGHTS\n"
    "       | NOW 5\n"
    "       | WEIGHTS\n"
    "       | PICK\n"
    "       | DOWN a\n"
    "       | PICK\n"
    "       | pick\n";

TEST(GradeVerdicts, AWeightThatIsNotAWholeNumberIsAProblemNotAMistake) {
  // A division in floating point, never rounded down: d=2.5 at line 4 (the
  // engine's d=2). No classic mistake prints that; the report says so first.
  const std::string text = grade_one(printed("a\na\na=5 b=1 c=1 d=0\na=5 b=1 c=1 d=2.5\nb\nc\n", 1,
                                             "line 11: unknown command\n"),
                                     ReportFormat::Text);
  EXPECT_EQ(text,
            "Grading prog\n"
            "\n"
            "FAIL example: example\n"
            "       output line 4 (printed by script line 7: WEIGHTS)\n"
            "       problem: printed the weight \"d=2.5\" (output line 4): a weight is a whole number\n"
            "       expected: a=5 b=1 c=1 d=2\n"
            "       got:      a=5 b=1 c=1 d=2.5\n"
            "       stderr:\n"
            "       | line 11: unknown command\n"
            + kExampleScript +
            "\n"
            "Fix these first: in 1 test the program was stopped, ended in an error or\n"
            "  printed a weight that is not a whole number, so that test names no mistake.\n"
            "  example: printed the weight \"d=2.5\" (output line 4): a weight is a whole number\n"
            "\n"
            "1 test, 0 passed, 1 failed.\n");
  const std::string json = grade_one(printed("a\na\na=5 b=1 c=1 d=0\na=5 b=1 c=1 d=NaN\nb\nc\n", 1,
                                             "line 11: unknown command\n"),
                                     ReportFormat::Json);
  EXPECT_NE(json.find("\"problems\": 1,"), std::string::npos);
  EXPECT_NE(json.find("\"problem\": \"printed the weight \\\"d=NaN\\\" (output line 4): a weight is a whole number\""),
            std::string::npos)
      << json;
  // A negative weight is a whole number: that output is a classic mistake's
  // (no clamp), named as such; and a PICK line is never taken for a weight.
  const std::string script = "POOL a=1\nNOW 100\nADD b=10 20\nNOW 90\nWEIGHTS\nPICK\n";
  const std::string negative = grade_one(printed("a=1 b=-5\na\n"), ReportFormat::Json, ExitRule::Lenient, nullptr, script);
  EXPECT_NE(negative.find("\"problem\": null, \"looks_like\": [\"no-clamp\"]"), std::string::npos) << negative;
  const std::string pick = grade_one(printed("a=1 b=0\nb=0.5\n"), ReportFormat::Json, ExitRule::Lenient, nullptr, script);
  EXPECT_NE(pick.find("\"problem\": null"), std::string::npos) << pick;
}

TEST(GradeVerdicts, AProgramThatCannotStartIsOneErrorAndStatus2) {
  RunOutcome o;
  o.started = false;
  o.start_error = "No such file or directory";
  int status = -1;
  EXPECT_EQ(grade_one(o, ReportFormat::Json, ExitRule::Lenient, &status),
            "slowstart grade: cannot run 'prog': No such file or directory\n");
  EXPECT_EQ(status, 2);
}

TEST(GradeReport, TextNamesTheMistakeAndShowsStderr) {
  const std::string text =
      grade_one(printed("a\na\na=5 b=1 c=1 d=0\na=5 b=1 c=1 d=2\nc\nd\n", 1, "line 11: unknown command\n"),
                ReportFormat::Text);
  EXPECT_EQ(text,
            "Grading prog\n"
            "\n"
            "FAIL example: example\n"
            "       output line 5 (printed by script line 8: PICK)\n"
            "       expected: b\n"
            "       got:      c\n"
            "       looks like: ties-to-last\n"
            "       stderr:\n"
            "       | line 11: unknown command\n"
            + kExampleScript +
            "\n"
            "Looks like: Ties go to the last backend instead of the first. [ties-to-last]\n"
            "  On equal scores the backend earliest in the pool wins. Graders compare\n"
            "  byte for byte, and the order of equal backends is part of the contract\n"
            "  (nginx breaks ties the same way).\n"
            "  Seen in 1 test: example.\n"
            "\n"
            "1 test, 0 passed, 1 failed.\n");
}

TEST(GradeReport, JunitFollowsTheAntSchemaAndEscapes) {
  RunOutcome o = printed("a\n", 0, "<oops> & \"quotes\"\x01\n");
  o.signal = "SIGABRT";
  const std::string xml = grade_one(o, ReportFormat::Junit);
  EXPECT_EQ(xml.substr(0, 51), "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>");
  EXPECT_NE(xml.find("<testsuite name=\"slowstart grade\" package=\"slowstart\" id=\"0\" timestamp=\"2023-11-14T22:13:20\" "
                     "hostname=\"grader\" tests=\"1\" failures=\"0\" errors=\"1\" time=\"0.000\">"),
            std::string::npos);
  EXPECT_NE(xml.find("<testcase name=\"example: example\" classname=\"slowstart.dir\" time=\"0.000\">"), std::string::npos);
  EXPECT_NE(xml.find("<error type=\"crashed\" message=\"killed by SIGABRT\">"), std::string::npos);
  // stderr in the text: markup escaped, the control byte written out.
  EXPECT_NE(xml.find("| &lt;oops&gt; &amp; \"quotes\"\\x01\n"), std::string::npos);
  EXPECT_NE(xml.find("<system-err></system-err>\n  </testsuite>\n</testsuites>\n"), std::string::npos);
}

TEST(GradeReport, GradescopeIsAPointPerTest) {
  const std::string json = grade_one(printed(kRight, 1, "line 11: unknown command\n"), ReportFormat::Gradescope);
  EXPECT_NE(json.find("\"execution_time\": 0,"), std::string::npos);
  EXPECT_NE(json.find("{\"name\": \"example (example)\", \"number\": \"1\", \"score\": 1, \"max_score\": 1, "
                      "\"status\": \"passed\", \"output\": \"Passed.\", \"tags\": []}"),
            std::string::npos);
  EXPECT_NE(json.find("\"output\": \"1 test, 1 passed, 0 failed.\\n\""), std::string::npos);
}

TEST(GradeReport, VisibleTextIsCleanUtf8) {
  EXPECT_EQ(visible("plain é", 100), "plain é");
  EXPECT_EQ(visible("a\tb\rc\x01\x7f", 100), "a\\tb\\rc\\x01\\x7f");
  EXPECT_EQ(visible("bad \xff\xc3", 100), "bad \\xff\\xc3");
  EXPECT_EQ(visible("rlo \xe2\x80\xae!", 100), "rlo \\u{202e}!");
  EXPECT_EQ(visible("c1 \xc2\x85", 100), "c1 \\u{85}");
  // Blanks that look like a space, or like nothing: shown for what they are.
  EXPECT_EQ(visible("a\xc2\xa0" "b=1 \xe2\x80\x8b" "z \xe3\x80\x80 \xef\xbb\xbf", 100), "a\\u{a0}b=1 \\u{200b}z \\u{3000} \\u{feff}");
  EXPECT_EQ(visible("two\nlines", 100), "two\\x0alines");
  EXPECT_EQ(visible("two\nlines", 100, true), "two\nlines");
  EXPECT_EQ(visible("abcdef", 3), "abc…");
  // A sequence cut by the cap is shown as bytes, never as half a character.
  EXPECT_EQ(visible("ab\xc3\xa9", 3), "ab\\xc3…");
}

TEST(GradeReport, TimestampsAreUtc) {
  const auto stamp = [](std::int64_t t) {
    FakeDir dir;
    dir.files = {{"x.txt", "PICK\n"}};
    GradeRun run;
    GradeEnv e = env();
    e.source_date_epoch = t;
    std::string out, err;
    int status = 0;
    EXPECT_TRUE(run.start({"--format", "junit", "--tests", "d", "--", "p"}, e, dir.io(), out, err, status));
    run.set_outcome(0, printed("NONE\n"));
    run.finish(0, out, err);
    const std::size_t at = out.find("timestamp=\"") + 11;
    return out.substr(at, 19);
  };
  EXPECT_EQ(stamp(0), "1970-01-01T00:00:00");
  EXPECT_EQ(stamp(951782400), "2000-02-29T00:00:00");
  EXPECT_EQ(stamp(1700000000), "2023-11-14T22:13:20");
  EXPECT_EQ(stamp(4102444799), "2099-12-31T23:59:59");
}

// ---- Verdicts, limits and names (issues 23, 24 and 26) ----

namespace {

// Runs the tests of `dir` (files "NAME.txt", maybe "NAME.out") with `args`
// and one outcome per test; the report and the status.
std::string grade_dir(FakeDir& dir, std::vector<std::string> args, std::vector<RunOutcome> outcomes, int* status = nullptr,
                      std::string* err = nullptr) {
  Started s;
  args.insert(args.begin(), {"--tests", "d"});
  args.insert(args.end(), {"--", "prog"});
  start(s, args, dir);
  EXPECT_TRUE(s.ok) << s.err;
  for (std::size_t i = 0; i < outcomes.size(); ++i) s.run.set_outcome(i, std::move(outcomes[i]));
  std::string out, e;
  const int st = s.run.finish(0, out, e);
  if (status) *status = st;
  if (err) *err = e;
  return out;
}

}  // namespace

TEST(GradeVerdicts, OneNameTableForTheVerdicts) {
  EXPECT_EQ(verdict_name(Verdict::Passed), "passed");
  EXPECT_EQ(verdict_name(Verdict::Failed), "failed");
  EXPECT_EQ(verdict_name(Verdict::Crashed), "crashed");
  EXPECT_EQ(verdict_name(Verdict::TimedOut), "timed-out");
  EXPECT_EQ(verdict_name(Verdict::OutputLimit), "output-limit");
}

TEST(GradeVerdicts, CrLfOutputIsDiagnosedAsCrLf) {
  // Every line right but for its CR: said as such, first, and never as a
  // weight that is not a whole number (the old report blamed "d=0\r").
  const std::string text = grade_one(printed("a\r\na\r\na=5 b=1 c=1 d=0\r\na=5 b=1 c=1 d=2\r\nb\r\nc\r\n", 1,
                                             "line 11: unknown command\n"),
                                     ReportFormat::Text);
  EXPECT_NE(text.find("problem: ends its lines in CR LF (\\r\\n) where the expected output has LF (\\n) alone: print "
                      "\"\\n\" only\n"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("whole number\n       expected"), std::string::npos) << text;
  EXPECT_EQ(text.find("printed the weight"), std::string::npos) << text;
  // CR LF on the first differing line only (the rest cut short): the same.
  const std::string json = grade_one(printed("a\r\n", 1, "line 11: unknown command\n"), ReportFormat::Json);
  EXPECT_NE(json.find("\"problem\": \"ends its lines in CR LF"), std::string::npos) << json;
  // A stray CR inside a line is a wrong output, not CR LF.
  const std::string inside = grade_one(printed("a\ra\n", 1, "line 11: unknown command\n"), ReportFormat::Json);
  EXPECT_EQ(inside.find("CR LF"), std::string::npos) << inside;
}

TEST(GradeVerdicts, GarbageIsWrongOutputNotAWeight) {
  // Random bytes after '=' are not a number: a wrong output (issue 26: it
  // was "printed the weight ..."). Numbers that are not whole still are.
  const std::string script = "POOL a=1 b=2\nWEIGHTS\n";
  for (const char* garbage : {"a=1 b=\x8f\x01z", "a=1 b=xyz", "a=1 b=", "a=1 b=1.2.3", "a=1 b=e5"}) {
    const std::string json =
        grade_one(printed(std::string(garbage) + "\n"), ReportFormat::Json, ExitRule::Lenient, nullptr, script);
    EXPECT_NE(json.find("\"problem\": null"), std::string::npos) << garbage << "\n" << json;
  }
  for (const char* number : {"a=1 b=2.5", "a=1 b=2.0", "a=1 b=-1e3", "a=1 b=NaN", "a=1 b=-Infinity", "a=1 b=.5"}) {
    const std::string json =
        grade_one(printed(std::string(number) + "\n"), ReportFormat::Json, ExitRule::Lenient, nullptr, script);
    EXPECT_NE(json.find("\"problem\": \"printed the weight"), std::string::npos) << number << "\n" << json;
  }
}

TEST(GradeVerdicts, AProgramThatFailsAlikeEverywhereCannotRun) {
  // `python3 nosuch.py`: every test exits 2 with the same stderr and no
  // output: one line and status 2, not the same stderr once per test.
  FakeDir dir;
  dir.files = {{"a.txt", "POOL a=1\nPICK\n"}, {"b.txt", "POOL b=1\nPICK\n"}};
  const std::string said = "python3: can't open file '/x/nosuch.py': [Errno 2] No such file or directory\n";
  int status = -1;
  std::string err;
  EXPECT_EQ(grade_dir(dir, {}, {printed("", 2, said), printed("", 2, said)}, &status, &err), "");
  EXPECT_EQ(status, 2);
  EXPECT_EQ(err,
            "slowstart grade: cannot run 'prog': every test exited with status 2 and printed nothing, saying: "
            "python3: can't open file '/x/nosuch.py': [Errno 2] No such file or directory\n");
  // One test that differs (it printed, or said something else): a report.
  EXPECT_NE(grade_dir(dir, {}, {printed("", 2, said), printed("b\n", 2, said)}, &status), "");
  EXPECT_EQ(status, 1);
  EXPECT_NE(grade_dir(dir, {}, {printed("", 2, said), printed("", 2, "other\n")}, &status), "");
  EXPECT_EQ(status, 1);
}

TEST(GradeLimits, AnExpectedOutputOverTheCapIsWarnedAboutAndFits) {
  // 3,000 WEIGHTS lines of "a=1\n": 12,000 bytes, over --max-output 1K.
  std::string big = "POOL a=1\n";
  for (int i = 0; i < 3000; ++i) big += "WEIGHTS\n";
  FakeDir dir;
  dir.files = {{"big.txt", big}, {"small.txt", "POOL a=1\nPICK\n"}};
  Started s;
  start(s, {"--max-output", "1K", "--tests", "d", "--", "prog"}, dir);
  ASSERT_TRUE(s.ok);
  EXPECT_EQ(s.err,
            "slowstart grade: warning: the expected output of 'big' (12000 bytes) is over --max-output 1 KiB: its cap "
            "is raised to the expected output and 64 KiB more\n");
  EXPECT_EQ(s.run.test(0).max_output, 12000u + 64 * 1024);
  EXPECT_EQ(s.run.test(1).max_output, 1024u);
  Started fine;
  start(fine, {"--tests", "d", "--", "prog"}, dir);
  EXPECT_EQ(fine.err, "");
  // A stopped test says the cap it had.
  RunOutcome flood = printed("x");
  flood.out_over = true;
  std::string a_lot;
  for (int i = 0; i < 3000; ++i) a_lot += "a=1\n";
  const std::string json = grade_dir(dir, {"--max-output", "1K", "--format", "json"}, {printed(a_lot), flood});
  EXPECT_NE(json.find("\"id\": \"big\", \"title\": \"big\", \"source\": \"dir\", \"status\": \"passed\""), std::string::npos)
      << json;
  EXPECT_NE(json.find("printed more than 1 KiB on stdout"), std::string::npos) << json;
}

TEST(GradeLimits, JobsAreClampedToTheFileLimitWithOneMessage) {
  FakeDir dir;
  Started s;
  start(s, {"-j", "400", "--", "prog"}, dir);
  EXPECT_EQ(s.run.clamp_jobs(240, 1024), "slowstart grade: -j 400 is more than the open-file limit (1024) allows: running 240 at a time\n");
  EXPECT_EQ(s.run.jobs(), 240u);
  EXPECT_EQ(s.run.clamp_jobs(240, 1024), "");
}

TEST(GradeLimits, MemoryDoesNotGrowWithTheTests) {
  // Each outcome is graded as it comes and its stdout dropped: what is kept
  // per test is the report's (the size, the first difference, 2,001 bytes
  // of stderr), whatever the program printed.
  FakeDir dir;
  dir.files = {{"a.txt", "POOL a=1\nPICK\n"}};
  Started s;
  start(s, {"--format", "json", "--tests", "d", "--", "prog"}, dir);
  RunOutcome o = printed(std::string(1 << 20, 'x'), 0, std::string(60'000, 'e'));
  s.run.set_outcome(0, std::move(o));
  std::string out, err;
  s.run.finish(0, out, err);
  EXPECT_NE(out.find("\"stdout_bytes\": 1048576"), std::string::npos);
  EXPECT_NE(out.find("\"stderr_truncated\": true"), std::string::npos);
  EXPECT_LT(out.size(), 10'000u);
}

TEST(GradeOptions, UserAndOutput) {
  FakeDir dir;
  Started s;
  start(s, {"--user", "learner", "--output=r.json", "--", "prog"}, dir);
  ASSERT_TRUE(s.ok);
  EXPECT_EQ(s.run.options().user, "learner");
  EXPECT_EQ(s.run.options().output, "r.json");
  Started bad;
  start(bad, {"--user", "", "--", "prog"}, dir);
  EXPECT_EQ(bad.err, "slowstart grade: --user takes a user name, got ''\n");
}
