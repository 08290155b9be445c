// What a grade report says first, and what it says when it cannot grade
// (cpp/grading/alike.*, engine_copy.*, grade_report.cpp): failures that are
// all the same said once with their count, the line of stderr that says
// what went wrong, a copy of the engine in the submission, the report that
// replaces an older one when grading cannot run, invisible characters shown
// escaped, and a failed test's script. Every expected text is worked out by
// hand from the outcomes given.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "core/command.hpp"
#include "grading/alike.hpp"
#include "grading/engine_copy.hpp"
#include "grading/grade.hpp"
#include "grading/grade_report.hpp"

using namespace slowstart;
using namespace slowstart::grading;

namespace grade_lead_test {

// A tests' folder ("d") and a submission ("sub") in memory.
struct Files {
  std::map<std::string, std::string> tests, submission;
  GradeIo io() {
    GradeIo io;
    io.list_txt = [this](const std::string& dir, std::vector<std::string>& names) -> Problem {
      if (dir != "d") return std::string("No such file or directory");
      for (const auto& [name, _] : tests)
        if (name.size() > 4 && name.substr(name.size() - 4) == ".txt") names.push_back(name);
      return std::nullopt;
    };
    io.read = [this](const std::string& dir, const std::string& name, std::string& bytes) {
      const auto it = tests.find(name);
      if (dir != "d" || it == tests.end()) return ReadStatus::Missing;
      bytes = it->second;
      return ReadStatus::Ok;
    };
    io.list_files = [this](const std::string& dir, std::size_t most, std::vector<std::string>& files) -> Problem {
      if (dir != "sub") return std::string("No such file or directory");
      for (const auto& [name, _] : submission) {
        if (files.size() >= most) return std::string("too many");
        files.push_back(name);
      }
      return std::nullopt;
    };
    // Read in chunks of at most 7 bytes, so that marks cross chunk boundaries.
    io.read_at = [this](const std::string& path, std::uint64_t offset, std::size_t max, std::string& bytes) -> Problem {
      const std::string& all = submission.at(path.substr(4));  // "sub/NAME"
      bytes = offset >= all.size() ? "" : all.substr(offset, std::min<std::size_t>(max, 7));
      return std::nullopt;
    };
    return io;
  }
};

GradeEnv lead_env() {
  GradeEnv e;
  e.cpus = 1;
  e.hostname = "grader";
  e.source_date_epoch = 1700000000;
  return e;
}

RunOutcome ended(int exit_code, std::string err, std::string out = "") {
  RunOutcome o;
  o.exit_code = exit_code;
  o.err = std::move(err);
  o.out = std::move(out);
  return o;
}

const char kSyntaxError[] =
    "  File \"/home/learner/balancer.py\", line 4\n"
    "    def pick(:\n"
    "             ^\n"
    "SyntaxError: invalid syntax\n";

// Grades tests a..e (one PICK each) with these outcomes; the report, in `format`.
std::string graded(const std::vector<RunOutcome>& outcomes, ReportFormat format, int* status = nullptr) {
  Files f;
  for (std::size_t i = 0; i < outcomes.size(); ++i) f.tests[std::string(1, char('a' + i)) + ".txt"] = "POOL x=1\nPICK\n";
  GradeRun run;
  std::string out, err;
  int st = -1;
  const char* name = format == ReportFormat::Json ? "json" : format == ReportFormat::Junit ? "junit"
                     : format == ReportFormat::Gradescope ? "gradescope" : "text";
  EXPECT_TRUE(run.start({"--format", name, "--tests", "d", "--", "python3", "balancer.py"}, lead_env(), f.io(), out, err, st))
      << err;
  for (std::size_t i = 0; i < outcomes.size(); ++i) run.set_outcome(i, outcomes[i]);
  st = run.finish(0, out, err);
  if (status) *status = st;
  return out + err;
}

}  // namespace grade_lead_test

using namespace grade_lead_test;

TEST(GradeLead, StderrHeadlineIsTheErrorAndWhere) {
  EXPECT_EQ(stderr_headline(kSyntaxError), "SyntaxError: invalid syntax (balancer.py, line 4)");
  // A traceback: the last line is the error, the innermost frame is where.
  EXPECT_EQ(stderr_headline("Traceback (most recent call last):\n"
                            "  File \"/a/balancer.py\", line 30, in <module>\n"
                            "    main()\n"
                            "  File \"/a/lib/ramp.py\", line 7, in weight\n"
                            "    return target // 0\n"
                            "ZeroDivisionError: integer division or modulo by zero\n"),
            "ZeroDivisionError: integer division or modulo by zero (ramp.py, line 7)");
  // Node: the file and line first, the error after the caret, the stack, the version.
  EXPECT_EQ(stderr_headline("file:///home/l/balancer.mjs:12\n"
                            "  const w = ;\n"
                            "            ^\n"
                            "\n"
                            "SyntaxError: Unexpected token ';'\n"
                            "    at ModuleLoader.moduleStrategy (node:internal/modules/esm/translators:152:18)\n"
                            "\n"
                            "Node.js v20.20.2\n"),
            "SyntaxError: Unexpected token ';' (balancer.mjs, line 12)");
  EXPECT_EQ(stderr_headline("Exception in thread \"main\" java.lang.NullPointerException\n\tat Balancer.main(Balancer.java:9)\n"),
            "Exception in thread \"main\" java.lang.NullPointerException");
  EXPECT_EQ(stderr_headline("warming up\nsomething odd happened\n"), "something odd happened");  // no error: the last line
  EXPECT_EQ(stderr_headline("line 3: unknown command\nerror: cannot go on\nbye\n"), "error: cannot go on");
  EXPECT_EQ(stderr_headline(""), "");
  EXPECT_EQ(stderr_headline("\x1b[31mKeyError\x1b[0m: 'a'\n"), "\\x1b[31mKeyError\\x1b[0m: 'a'");  // escaped
}

TEST(GradeLead, AlikeFailuresAreSaidOnceWithTheirCount) {
  // c passes (prints x); a, b, e fail alike; d fails with another stderr.
  const std::vector<RunOutcome> runs = {ended(1, kSyntaxError), ended(1, kSyntaxError), ended(0, "", "x\n"),
                                        ended(1, "other\n"), ended(1, kSyntaxError)};
  const std::string text = graded(runs, ReportFormat::Text);
  EXPECT_EQ(text.substr(0, text.find("FAIL a:")),
            "Grading python3 balancer.py\n"
            "\n"
            "In 3 of 5 tests the program exited with status 1 and printed nothing:\n"
            "  SyntaxError: invalid syntax (balancer.py, line 4).\n"
            "  Its stderr, the same in each of them:\n"
            "  |   File \"/home/learner/balancer.py\", line 4\n"
            "  |     def pick(:\n"
            "  |              ^\n"
            "  | SyntaxError: invalid syntax\n"
            "\n");
  // Each of the three points to the top instead of repeating it; d shows its own.
  EXPECT_EQ(std::count_if(text.begin(), text.end(), [](char c) { return c == '^'; }), 1);
  EXPECT_NE(text.find("FAIL b: b\n       exited with status 1 where the engine exits 0\n"), std::string::npos);
  EXPECT_NE(text.find("       stderr: shown once at the top (the same in 3 tests)\n"), std::string::npos);
  EXPECT_NE(text.find("       stderr:\n       | other\n"), std::string::npos);

  const std::string json = graded(runs, ReportFormat::Json);
  EXPECT_NE(json.find("\"alike\": [\n    {\"summary\": \"In 3 of 5 tests the program exited with status 1 and printed "
                      "nothing: SyntaxError: invalid syntax (balancer.py, line 4)\", \"tests\": [\"a\", \"b\", \"e\"], "
                      "\"stderr\": \"  File \\\"/home/learner/balancer.py\\\", line 4\\n"),
            std::string::npos)
      << json;
  const std::string junit = graded(runs, ReportFormat::Junit);
  EXPECT_NE(junit.find("<property name=\"alike\" value=\"In 3 of 5 tests the program exited with status 1 and printed "
                       "nothing: SyntaxError: invalid syntax (balancer.py, line 4)\"/>"),
            std::string::npos);
  // Where CI servers show a failure, its message says it.
  EXPECT_NE(junit.find("<error type=\"crashed\" message=\"In 3 of 5 tests the program exited with status 1"),
            std::string::npos);
  EXPECT_NE(junit.find("<system-out>In 3 of 5 tests"), std::string::npos);
  const std::string gradescope = graded(runs, ReportFormat::Gradescope);
  EXPECT_NE(gradescope.find("\"output\": \"In 3 of 5 tests the program exited with status 1 and printed nothing:\\n"),
            std::string::npos)
      << gradescope;
}

TEST(GradeLead, AllTestsAlikeAndTimeouts) {
  RunOutcome hang;
  hang.timed_out = true;
  const std::string text = graded({hang, hang}, ReportFormat::Text);
  EXPECT_NE(text.find("\n\nIn all 2 tests the program did not finish within 5 s.\n\nFAIL a:"), std::string::npos) << text;
  // Different stdout is no group: each test printed something of its own.
  const std::string json = graded({ended(1, "same\n", "x\n"), ended(1, "same\n", "y\n")}, ReportFormat::Json);
  EXPECT_NE(json.find("\"alike\": []"), std::string::npos);
}

TEST(GradeLead, ThreeOrMoreAlikeProblemsAreOneLine) {
  RunOutcome segv;
  segv.signal = "SIGSEGV";
  segv.out = "x\n";  // printed something: no alike group, but the same problem
  const std::string text = graded({segv, segv, segv, ended(0, "", "x\n")}, ReportFormat::Text);
  EXPECT_NE(text.find("  3 tests (a, b and c): killed by SIGSEGV\n"), std::string::npos) << text;
}

TEST(GradeLead, FailuresNoMistakeExplainsSayWhereToStart) {
  // "y" for a pool of x: no mistake of the catalogue prints a name that is not in the pool.
  const std::string text = graded({ended(0, "", "y\n"), ended(0, "", "x\n")}, ReportFormat::Text);
  EXPECT_NE(text.find("Not a classic mistake: 1 test fails in a way no mistake of the catalogue\n"
                      "  explains: a. Start with a: output line 1 (printed by script line 2: PICK):\n"
                      "  expected \"x\", got \"y\". Its script is under it above: run your program on it\n"
                      "  and compare what it prints, line by line, with the expected output.\n"),
            std::string::npos)
      << text;
  // Its script, with the command that reruns it.
  EXPECT_NE(text.find("       script (to rerun the test, save it as a.txt and run python3 balancer.py < a.txt):\n"
                      "       | POOL x=1\n"
                      "       | PICK\n"),
            std::string::npos);
}

TEST(GradeLead, ALongScriptShowsItsStartAndWhereTheRestIs) {
  Files f;
  std::string script = "POOL x=1\n";
  for (int i = 0; i < 40; ++i) script += "PICK\n";
  f.tests["long.txt"] = script;
  GradeRun run;
  std::string out, err;
  int st = -1;
  ASSERT_TRUE(run.start({"--tests", "d", "--", "prog", "{}"}, lead_env(), f.io(), out, err, st));
  run.set_outcome(0, ended(0, "", "y\n"));
  run.finish(0, out, err);
  EXPECT_NE(out.find("       script (to rerun the test, save it as long.txt and run prog long.txt < long.txt):\n"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("       | PICK\n       | … (41 lines in all: it is long.txt in the tests' folder)\n"), std::string::npos);
  EXPECT_EQ(out.find("| PICK\n       | PICK\n       | PICK\n       | PICK\n       | PICK\n       | PICK\n       | PICK\n"
                     "       | PICK\n       | PICK\n       | PICK\n       | PICK\n       | PICK\n       | PICK\n       | PICK\n"
                     "       | PICK\n       | PICK\n       | PICK\n       | PICK\n       | PICK\n       | PICK\n       | PICK\n"
                     "       | PICK\n       | PICK\n       | PICK\n       | PICK\n       | PICK\n       | PICK\n       | PICK\n"
                     "       | PICK\n       | PICK\n"),
            std::string::npos);  // 30 lines shown: POOL and 29 PICKs
}

TEST(GradeLead, CouldNotGradeInEveryFormat) {
  Files f;
  f.tests["a.txt"] = "POOL x=1\nPICK\n";
  const auto report = [&](const char* format) {
    GradeRun run;
    std::string out, err;
    int st = -1;
    EXPECT_TRUE(run.start({"--format", format, "--tests", "d", "--", "prog"}, lead_env(), f.io(), out, err, st));
    return run.could_not_grade("cannot run 'prog': No such file or directory");
  };
  EXPECT_EQ(report("text"), "Grading prog\n\nCould not grade: cannot run 'prog': No such file or directory\n");
  const std::string json = report("json");
  EXPECT_NE(json.find("\"could_not_grade\": \"cannot run 'prog': No such file or directory\""), std::string::npos);
  EXPECT_NE(json.find("\"tests\": 0,"), std::string::npos);
  EXPECT_EQ(report("gradescope"),
            "{\n  \"score\": 0,\n  \"execution_time\": 0,\n  \"output\": \"Could not grade: cannot run 'prog': No such "
            "file or directory\\n\",\n  \"output_format\": \"text\",\n  \"tests\": []\n}\n");
  const std::string junit = report("junit");
  EXPECT_NE(junit.find("tests=\"1\" failures=\"0\" errors=\"1\""), std::string::npos) << junit;
  EXPECT_NE(junit.find("<testcase name=\"grading\" classname=\"slowstart.grade\" time=\"0.000\">\n      <error "
                       "type=\"could-not-grade\" message=\"Could not grade: cannot run 'prog': No such file or "
                       "directory\">"),
            std::string::npos);
  // Arguments that fail still say where the report goes and in what form.
  GradeRun bad;
  std::string out, err;
  int st = -1;
  EXPECT_FALSE(bad.start({"--output", "r.xml", "--format", "junit", "--timeout", "x", "--", "p"}, lead_env(), f.io(), out, err, st));
  EXPECT_EQ(bad.options().output, "r.xml");
  EXPECT_EQ(bad.options().format, ReportFormat::Junit);
}

TEST(GradeLead, InvisibleCharactersAreEscaped) {
  // U+3164 HANGUL FILLER, U+115F, U+FFA0, a soft hyphen, the Braille blank,
  // a variation selector, a tag character, a zero-width space: each shows as nothing.
  EXPECT_EQ(visible("a\xe3\x85\xa4=1", 100), "a\\u{3164}=1");
  EXPECT_EQ(visible("\xe1\x85\x9f|\xef\xbe\xa0|\xc2\xad|\xe2\xa0\x80|\xef\xb8\x8f|\xf3\xa0\x81\x81|\xe2\x80\x8b", 100),
            "\\u{115f}|\\u{ffa0}|\\u{ad}|\\u{2800}|\\u{fe0f}|\\u{e0041}|\\u{200b}");
  // Letters, CJK and emoji are text.
  EXPECT_EQ(visible("caf\xc3\xa9 \xe4\xb8\xad \xf0\x9f\x98\x80", 100), "caf\xc3\xa9 \xe4\xb8\xad \xf0\x9f\x98\x80");
  // A test named with one shows it escaped in every format.
  Files f;
  f.tests["web\xe3\x85\xa4.txt"] = "POOL x=1\nPICK\n";
  GradeRun run;
  std::string out, err;
  int st = -1;
  ASSERT_TRUE(run.start({"--tests", "d", "--", "prog"}, lead_env(), f.io(), out, err, st));
  run.set_outcome(0, ended(0, "", "x\n"));
  run.finish(0, out, err);
  EXPECT_NE(out.find("PASS web\\u{3164}: web\\u{3164}\n"), std::string::npos) << out;
}

TEST(GradeEngineCopy, FoundAsItIsInBase64AndInHexAcrossChunks) {
  std::string table;
  for (const Keyword& k : kKeywords) table += std::string(k.summary) + "\n";
  const auto find = [](const std::string& bytes, std::size_t chunk) {
    EngineCopyFinder finder;
    finder.start_file();
    for (std::size_t at = 0; at < bytes.size(); at += chunk) finder.feed(std::string_view(bytes).substr(at, chunk));
    EngineCopy c;
    return finder.found(c) ? c.encoding : std::string("none");
  };
  EXPECT_EQ(find("\0asm" + table, 5), "as it is");
  // Two of the seven sentences are not a copy (a learner may quote one or two).
  EXPECT_EQ(find(std::string(kKeywords[0].summary) + std::string(kKeywords[1].summary), 3), "none");
  EXPECT_EQ(find("print('hello')\n", 1), "none");
  // Base64 at each offset, wrapped at 76 columns inside a Python string.
  static const char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  for (const std::string prefix : {"", "x", "xy"}) {
    const std::string bytes = prefix + table;
    std::string b64;
    for (std::size_t i = 0; i < bytes.size(); i += 3) {
      std::uint32_t v = static_cast<unsigned char>(bytes[i]) << 16;
      if (i + 1 < bytes.size()) v |= static_cast<unsigned char>(bytes[i + 1]) << 8;
      if (i + 2 < bytes.size()) v |= static_cast<unsigned char>(bytes[i + 2]);
      for (int k = 0; k < 4; ++k) b64 += kAlphabet[(v >> (18 - 6 * k)) & 63];
    }
    std::string wrapped = "WASM = (\n";
    for (std::size_t i = 0; i < b64.size(); i += 76) wrapped += "    \"" + b64.substr(i, 76) + "\"\n";
    wrapped += ")\n";
    EXPECT_EQ(find(wrapped, 4096), "in base64") << "offset " << prefix.size();
    EXPECT_EQ(find(wrapped, 11), "in base64") << "offset " << prefix.size();
  }
  std::string hex;
  for (unsigned char c : table) hex += "0123456789abcdef"[c >> 4], hex += "0123456789abcdef"[c & 15];
  EXPECT_EQ(find(hex, 64), "in hex");
  // The package's JavaScript: three of the engine module's export names.
  EXPECT_EQ(find("m._ss_runner_feed(n); m._ss_runner_take(); m._ss_keywords();", 8), "as it is");
  EXPECT_EQ(find("m._ss_runner_feed(n);", 8), "none");
}

TEST(GradeEngineCopy, TheSubmissionIsFlaggedOrRefused) {
  std::string table;
  for (const Keyword& k : kKeywords) table += std::string(k.summary);
  Files f;
  f.tests["a.txt"] = "POOL x=1\nPICK\n";
  f.submission = {{"balancer.py", "print('x')\n"}, {"lib/data.bin", "\0asm" + table}};
  GradeRun run;
  std::string out, err;
  int st = -1;
  ASSERT_TRUE(run.start({"--tests", "d", "--submission", "sub", "--", "prog"}, lead_env(), f.io(), out, err, st)) << err;
  ASSERT_EQ(run.engine_copies().size(), 1u);
  EXPECT_EQ(engine_copy_text(run.engine_copies()[0]),
            "lib/data.bin holds the engine itself (its command table: a WebAssembly module, the native CLI or the "
            "element), as it is");
  run.set_outcome(0, ended(0, "", "x\n"));
  run.finish(0, out, err);
  EXPECT_EQ(out.substr(0, out.find("PASS a")),
            "Grading prog\n"
            "\n"
            "Warning: the submission holds a copy of the slowstart engine, so what it\n"
            "  prints may be the engine's answers rather than its own:\n"
            "  lib/data.bin holds the engine itself (its command table: a WebAssembly\n"
            "    module, the native CLI or the element), as it is.\n"
            "\n");
  GradeRun refused;
  EXPECT_FALSE(refused.start({"--tests", "d", "--submission", "sub", "--engine-copies", "refuse", "--", "prog"}, lead_env(),
                             f.io(), out, err, st));
  EXPECT_EQ(st, 2);
  EXPECT_EQ(err,
            "slowstart grade: the submission holds a copy of the slowstart engine (lib/data.bin holds the engine "
            "itself (its command table: a WebAssembly module, the native CLI or the element), as it is): a submission "
            "must compute its answers itself (--engine-copies refuse)\n");
  // An honest submission: nothing to say.
  f.submission.erase("lib/data.bin");
  GradeRun honest;
  ASSERT_TRUE(honest.start({"--tests", "d", "--submission", "sub", "--engine-copies", "refuse", "--", "prog"}, lead_env(),
                           f.io(), out, err, st));
  EXPECT_TRUE(honest.engine_copies().empty());
}
