#include "grading/grade.hpp"

#include <algorithm>
#include <string_view>

#include "core/args.hpp"
#include "core/interpreter.hpp"
#include "fast/decimal.hpp"
#include "grading/suite.hpp"
#include "grading/grade_report.hpp"
#include "grading/random_script.hpp"

namespace slowstart::grading {

const char* const kGradeUsage =
    "usage: slowstart grade [options] -- COMMAND [ARGS...]\n"
    "\n"
    "Grades a learner's program: runs COMMAND ARGS once per test with the test's\n"
    "script on its stdin ({} in ARGS is replaced by the script's path), compares\n"
    "its stdout with the engine's byte for byte, and names the classic mistake\n"
    "its output matches (docs/GRADING.md).\n"
    "\n"
    "tests (the built-in suite by default):\n"
    "  --tests DIR          the scripts DIR/*.txt instead; DIR/NAME.out, when\n"
    "                       present, is the expected stdout of DIR/NAME.txt\n"
    "  --builtin            with --tests: the built-in suite as well\n"
    "  --random N           add N generated scripts (valid and rejected lines)\n"
    "  --seed S             the seed of --random (default 1)\n"
    "\n"
    "running:\n"
    "  --timeout SECONDS    per test (default 5); the program's whole process\n"
    "                       group is killed when it is over\n"
    "  --max-output SIZE    stdout kept per test, e.g. 16M (default); a program\n"
    "                       that prints more is stopped and fails the test\n"
    "  -j N, --jobs N       tests run at once (default: the number of CPUs)\n"
    "  --user NAME          run the program as this unprivileged user (the\n"
    "                       grader runs as root): every process of the user is\n"
    "                       killed after each round of -j tests, and a user\n"
    "                       that already has processes is refused\n"
    "  --exit-status RULE   lenient (default): a test fails when the program is\n"
    "                       killed, or exits with an error: a status other\n"
    "                       than 0 and the engine's (1 counts as rejecting a\n"
    "                       line when stderr has a 'line N: ' diagnostic);\n"
    "                       strict: the status must be the engine's (1 when a\n"
    "                       line is rejected, else 0); ignore: only signals\n"
    "\n"
    "the submission:\n"
    "  --submission DIR     the learner's files, looked through for a copy of\n"
    "                       the engine (its WebAssembly, native build or\n"
    "                       JavaScript), which every report then flags\n"
    "  --engine-copies WHAT flag (default): grade and flag a copy; refuse: do\n"
    "                       not grade a submission that holds one (exit 2)\n"
    "\n"
    "report (on stdout):\n"
    "  --format FORMAT      text (default), json, gradescope (results.json) or\n"
    "                       junit (JUnit XML)\n"
    "  --output FILE        write the report to FILE instead, once every\n"
    "                       program is dead (a temporary file beside it,\n"
    "                       renamed into place); when grading cannot run, a\n"
    "                       report that says why\n"
    "\n"
    "Exit status: 0 every test passed, 1 some test failed, 2 the tests or the\n"
    "program could not be run (one line on stderr says why).\n";

std::string_view verdict_name(Verdict v) {
  static constexpr std::string_view kNames[] = {"passed", "failed", "crashed", "timed-out", "output-limit"};
  return kNames[static_cast<std::size_t>(v)];
}

namespace {

constexpr std::string_view kPrefix = "slowstart grade: ";

// "5", "0.5", "2.25": milliseconds, at most 86,400 s.
bool parse_seconds(std::string_view s, std::int64_t& ms) {
  const std::size_t dot = s.find('.');
  std::uint64_t whole = 0, frac = 0;
  const std::string_view w = s.substr(0, dot);
  if (!parse_whole(w, 86'400, whole)) return false;
  std::int64_t total = static_cast<std::int64_t>(whole) * 1000;
  if (dot != std::string_view::npos) {
    std::string_view f = s.substr(dot + 1);
    if (f.empty() || f.size() > 3 || !parse_whole(f, 999, frac)) return false;
    for (std::size_t i = f.size(); i < 3; ++i) frac *= 10;
    total += static_cast<std::int64_t>(frac);
  }
  if (total <= 0 || total > 86'400'000) return false;
  ms = total;
  return true;
}

// "16M", "512K", "1000": bytes, from 1 to 1 GiB.
bool parse_size(std::string_view s, std::size_t& out) {
  std::uint64_t unit = 1;
  if (!s.empty() && (s.back() == 'K' || s.back() == 'k')) unit = 1024, s.remove_suffix(1);
  else if (!s.empty() && (s.back() == 'M' || s.back() == 'm')) unit = 1024 * 1024, s.remove_suffix(1);
  else if (!s.empty() && (s.back() == 'G' || s.back() == 'g')) unit = 1024 * 1024 * 1024, s.remove_suffix(1);
  std::uint64_t v = 0;
  if (!parse_whole(s, (std::uint64_t{1} << 30) / unit, v) || v == 0) return false;
  out = static_cast<std::size_t>(v * unit);
  return true;
}

// The options, or a problem with them (for "slowstart grade: ..."). The
// command starts at the first argument that is no option, or after "--".
Problem parse_options(const std::vector<std::string>& args, GradeOptions& o, bool& help) {
  help = false;
  ArgReader r(args);
  std::string v;
  std::uint64_t n = 0;
  while (r.next()) {
    if (!r.option()) {
      o.command = r.rest();
      break;
    }
    if (r.is("--help", "-h")) {
      if (Problem p = r.flag()) return p;
      help = true;
      return std::nullopt;
    }
    if (r.is("--builtin")) {
      if (Problem p = r.flag()) return p;
      o.builtin = true;
      continue;
    }
    const bool valued = r.is("--tests") || r.is("--random") || r.is("--seed") || r.is("--timeout") ||
                        r.is("--max-output") || r.is("--jobs", "-j") || r.is("--format") || r.is("--exit-status") ||
                        r.is("--user") || r.is("--output") || r.is("--submission") || r.is("--engine-copies");
    if (!valued) return r.unknown();
    if (Problem p = r.value(v)) return p;
    if (r.matched() == "--tests") {
      if (v.empty()) return r.invalid("a directory", v);
      o.tests_dir = v;
    } else if (r.matched() == "--random") {
      if (!parse_whole(v, 100'000, o.random)) return r.invalid("a whole number from 0 to 100000", v);
    } else if (r.matched() == "--seed") {
      if (!parse_whole(v, UINT64_MAX, o.seed)) return r.invalid("a whole number", v);
    } else if (r.matched() == "--timeout") {
      if (!parse_seconds(v, o.timeout_ms)) return r.invalid("seconds above 0 and at most 86400, with up to 3 decimals", v);
    } else if (r.matched() == "--max-output") {
      if (!parse_size(v, o.max_output)) return r.invalid("a size from 1 byte to 1G (e.g. 512K, 16M)", v);
    } else if (r.matched() == "--jobs") {
      if (!parse_whole(v, 1024, n) || n == 0) return r.invalid("a whole number from 1 to 1024", v);
      o.jobs = static_cast<unsigned>(n);
    } else if (r.matched() == "--user") {
      if (v.empty()) return r.invalid("a user name", v);
      o.user = v;
    } else if (r.matched() == "--output") {
      if (v.empty()) return r.invalid("a file name", v);
      o.output = v;
    } else if (r.matched() == "--submission") {
      if (v.empty()) return r.invalid("a directory", v);
      o.submission = v;
    } else if (r.matched() == "--engine-copies") {
      if (v == "flag") o.engine_copies = EngineCopies::Flag;
      else if (v == "refuse") o.engine_copies = EngineCopies::Refuse;
      else return r.invalid("flag or refuse", v);
    } else if (r.matched() == "--format") {
      if (v == "text") o.format = ReportFormat::Text;
      else if (v == "json") o.format = ReportFormat::Json;
      else if (v == "gradescope") o.format = ReportFormat::Gradescope;
      else if (v == "junit") o.format = ReportFormat::Junit;
      else return r.invalid("text, json, gradescope or junit", v);
    } else {  // --exit-status
      if (v == "lenient") o.exit_rule = ExitRule::Lenient;
      else if (v == "strict") o.exit_rule = ExitRule::Strict;
      else if (v == "ignore") o.exit_rule = ExitRule::Ignore;
      else return r.invalid("lenient, strict or ignore", v);
    }
  }
  if (o.command.empty() || o.command[0].empty()) return "no program to grade (slowstart grade [options] -- COMMAND [ARGS...])";
  return std::nullopt;
}

// After a problem with the arguments: --output and --format as far as they
// can be read, so that the report that says so goes where it was asked to.
void salvage_report_options(const std::vector<std::string>& args, GradeOptions& o) {
  ArgReader r(args);
  std::string v;
  while (r.next() && r.option()) {
    const bool output = r.is("--output"), format = !output && r.is("--format");
    const bool valued = output || format || r.is("--tests") || r.is("--random") || r.is("--seed") ||
                        r.is("--timeout") || r.is("--max-output") || r.is("--jobs", "-j") ||
                        r.is("--exit-status") || r.is("--user") || r.is("--submission") || r.is("--engine-copies");
    if (!valued || r.value(v)) continue;
    if (output && !v.empty()) o.output = v;
    if (format && v == "json") o.format = ReportFormat::Json;
    if (format && v == "gradescope") o.format = ReportFormat::Gradescope;
    if (format && v == "junit") o.format = ReportFormat::Junit;
    if (format && v == "text") o.format = ReportFormat::Text;
  }
}

std::string stem(const std::string& name) { return name.substr(0, name.size() - 4); }

std::string join_path(const std::string& dir, const std::string& name) {
  return !dir.empty() && dir.back() == '/' ? dir + name : dir + "/" + name;
}

constexpr std::size_t kShown = 200;      // bytes of a line shown in a report
constexpr std::size_t kNameShown = 1000; // bytes of a test's name
// Room above an expected output that is over --max-output, so that a
// program printing a little more still fails on its output, not the cap.
constexpr std::size_t kCapRoom = 64 * 1024;
// stderr bytes a report can show (grade_report.cpp shows at most 2,000 and
// says "…" past them): the rest is dropped once a test is graded.
constexpr std::size_t kStderrHeld = 2001;

// True when stderr has a line as the SPEC's diagnostics begin: "line N: ".
bool has_diagnostic(std::string_view err) {
  std::size_t start = 0;
  while (start < err.size()) {
    std::size_t end = err.find('\n', start);
    if (end == std::string_view::npos) end = err.size();
    const std::string_view line = err.substr(start, end - start);
    if (line.substr(0, 5) == "line ") {
      std::size_t i = 5;
      while (i < line.size() && line[i] >= '0' && line[i] <= '9') ++i;
      if (i > 5 && i < line.size() && line[i] == ':') return true;
    }
    start = end + 1;
  }
  return false;
}

std::optional<Difference> first_difference(const GradeTest& t, std::string_view actual) {
  if (actual == t.expected) return std::nullopt;
  const auto e = output_lines(t.expected), a = output_lines(actual);
  Difference d;
  std::size_t i = 0;
  while (i < e.size() && i < a.size() && e[i] == a[i]) ++i;
  if (i == e.size() && i == a.size()) {
    d.newline_at_end = true;  // same lines: only the last newline differs
    i = e.empty() ? 0 : e.size() - 1;
  } else {
    if (i < e.size()) d.expected = visible(e[i], kShown);
    if (i < a.size()) d.actual = visible(a[i], kShown);
  }
  d.output_line = i + 1;
  if (t.expected_is_engine && i < t.printed_by.size()) {
    d.script_line = t.printed_by[i];
    d.script_text = visible(script_line(t.script, d.script_line), kShown);
  }
  return d;
}

// True when the output's lines end in CR LF where the expected output's
// end in LF alone: the lines are right but for a '\r' at their end.
bool crlf_lines(const GradeTest& t, std::string_view actual) {
  if (t.expected.find('\r') != std::string::npos || actual.find("\r\n") == std::string_view::npos) return false;
  std::string stripped;
  for (std::size_t i = 0; i < actual.size(); ++i)
    if (!(actual[i] == '\r' && i + 1 < actual.size() && actual[i + 1] == '\n')) stripped += actual[i];
  if (stripped == t.expected) return true;
  // Or the first line that differs is only its CR.
  const auto e = output_lines(t.expected), a = output_lines(actual);
  std::size_t i = 0;
  while (i < e.size() && i < a.size() && e[i] == a[i]) ++i;
  return i < e.size() && i < a.size() && a[i].size() == e[i].size() + 1 && a[i].back() == '\r' &&
         a[i].substr(0, e[i].size()) == e[i];
}

// A weight that is not a whole number (diagnosis.hpp), or lines ending in
// CR LF, as the report says it. Empty: none (or the expected output is an
// author's .out).
std::string bad_output(const GradeTest& t, std::string_view actual) {
  if (crlf_lines(t, actual))
    return "ends its lines in CR LF (\\r\\n) where the expected output has LF (\\n) alone: print \"\\n\" only";
  if (!t.expected_is_engine) return {};
  const WeightProblem p = slowstart::non_whole_weight(t.script, t.printed_by, actual);
  if (!p.output_line) return {};
  return "printed the weight \"" + visible(p.word, kShown) + "\" (output line " +
         decimal(static_cast<std::int64_t>(p.output_line)) + "): a weight is a whole number";
}

std::string quoted(const std::optional<std::string>& s) { return s ? "\"" + *s + "\"" : std::string(); }

std::string describe(const Difference& d, const GradeTest& t) {
  std::string where = "output line " + decimal(static_cast<std::int64_t>(d.output_line));
  if (d.script_line) where += " (printed by script line " + decimal(static_cast<std::int64_t>(d.script_line)) + ": " + d.script_text + ")";
  if (d.newline_at_end) {
    const bool expected_newline = !t.expected.empty() && t.expected.back() == '\n';
    return where + (expected_newline ? ": the last line has no newline at its end"
                                     : ": the output ends with a newline that the expected output does not have");
  }
  if (d.expected && d.actual) return where + ": expected " + quoted(d.expected) + ", got " + quoted(d.actual);
  if (d.expected) return where + ": expected " + quoted(d.expected) + ", got nothing (the output ended)";
  return where + ": expected nothing (the expected output has ended), got " + quoted(d.actual);
}

std::string seconds_text(std::int64_t ms) {
  std::string s = decimal(ms / 1000);
  if (ms % 1000) {
    std::string frac = decimal(1000 + ms % 1000).substr(1);
    while (frac.back() == '0') frac.pop_back();
    s += "." + frac;
  }
  return s + " s";
}

std::string size_text(std::size_t bytes) {
  if (bytes % (1 << 20) == 0) return decimal(static_cast<std::int64_t>(bytes >> 20)) + " MiB";
  if (bytes % (1 << 10) == 0) return decimal(static_cast<std::int64_t>(bytes >> 10)) + " KiB";
  return decimal(static_cast<std::int64_t>(bytes)) + " bytes";
}

}  // namespace

bool GradeRun::start(const std::vector<std::string>& args, const GradeEnv& env, const GradeIo& io, std::string& out,
                     std::string& err, int& status) {
  env_ = env;
  bool help = false;
  Problem p = parse_options(args, options_, help);
  if (help) {
    out = kGradeUsage;
    status = 0;
    return false;
  }
  if (p) salvage_report_options(args, options_);
  if (!p) p = load(io);
  if (!p) p = look_for_engine(io);
  if (p) {
    err = std::string(kPrefix) + *p + "\n";
    status = 2;
    return false;
  }
  // Honest limits: an expected output the cap would cut is warned about,
  // and its test's cap raised to hold it (add()).
  std::size_t over = 0, largest = 0;
  for (std::size_t i = 0; i < tests_.size(); ++i) {
    if (tests_[i].max_output == options_.max_output) continue;
    if (!over || tests_[i].expected.size() > tests_[largest].expected.size()) largest = i;
    ++over;
  }
  if (over) {
    const GradeTest& t = tests_[largest];
    const std::string size = decimal(static_cast<std::int64_t>(t.expected.size())) + " bytes";
    err = std::string(kPrefix) + "warning: " +
          (over == 1 ? "the expected output of '" + t.id + "' (" + size + ") is"
                     : decimal(static_cast<std::int64_t>(over)) + " tests' expected outputs (the largest: '" + t.id +
                           "', " + size + ") are") +
          " over --max-output " + size_text(options_.max_output) + ": " + (over == 1 ? "its" : "their") +
          " cap is raised to the expected output and 64 KiB more\n";
  }
  outcomes_.assign(tests_.size(), std::nullopt);
  verdicts_.assign(tests_.size(), TestVerdict{});
  evidence_.assign(tests_.size(), std::nullopt);
  return true;
}

unsigned GradeRun::jobs() const { return options_.jobs ? options_.jobs : std::max(1u, env_.cpus); }

std::string GradeRun::clamp_jobs(unsigned most, std::uint64_t file_limit) {
  most = std::max(1u, most);
  if (jobs() <= most) return {};
  const unsigned asked = jobs();
  options_.jobs = most;
  return std::string(kPrefix) + "-j " + decimal(asked) + " is more than the open-file limit (" +
         decimal(static_cast<std::int64_t>(file_limit)) + ") allows: running " + decimal(most) + " at a time\n";
}

bool GradeRun::needs_script_paths() const {
  for (std::size_t i = 1; i < options_.command.size(); ++i)
    if (options_.command[i].find("{}") != std::string::npos) return true;
  return false;
}

std::vector<std::string> GradeRun::argv(const std::string& script_path) const {
  std::vector<std::string> out = options_.command;
  for (std::size_t i = 1; i < out.size(); ++i) {
    std::string& a = out[i];
    for (std::size_t at = a.find("{}"); at != std::string::npos; at = a.find("{}", at + script_path.size()))
      a.replace(at, 2, script_path);
  }
  return out;
}

void GradeRun::add(std::string id, std::string title, std::string source, std::string path, std::string script,
                   std::optional<std::string> expected) {
  GradeTest t;
  // A name is escaped here, once, and shown the same in every format.
  t.id = visible(id, kNameShown);
  t.title = visible(title, kNameShown);
  t.source = std::move(source);
  t.path = std::move(path);
  t.script = std::move(script);
  RunOptions run;
  run.timeline = false;
  RunResult r = run_script(t.script, run);
  for (const OutputLine& o : r.output) {
    t.expected += o.text;
    t.expected += '\n';
    t.printed_by.push_back(o.line);
  }
  t.expected_exit = r.diagnostics.empty() ? 0 : 1;
  if (expected && *expected != t.expected) {
    t.expected = std::move(*expected);
    t.expected_is_engine = false;
  }
  t.max_output = options_.max_output;
  if (t.expected.size() >= options_.max_output) t.max_output = t.expected.size() + kCapRoom;
  tests_.push_back(std::move(t));
}

Problem GradeRun::load(const GradeIo& io) {
  if (options_.tests_dir.empty() || options_.builtin) {
    for (const SuiteTest& t : built_in_tests())
      add(std::string(t.id), std::string(t.title), "builtin", "", std::string(t.script), std::nullopt);
  }
  if (!options_.tests_dir.empty()) {
    const std::string& dir = options_.tests_dir;
    std::vector<std::string> names;
    if (Problem p = io.list_txt(dir, names)) return "cannot read '" + dir + "': " + *p;
    std::sort(names.begin(), names.end());
    if (names.empty()) return "no test scripts (*.txt) in '" + dir + "'";
    for (const std::string& name : names) {
      const std::string path = join_path(dir, name);
      std::string script, expected;
      if (io.read(dir, name, script) != ReadStatus::Ok) return "cannot read '" + path + "': " + script;
      const std::string out_name = stem(name) + ".out";
      const ReadStatus s = io.read(dir, out_name, expected);
      if (s == ReadStatus::Failed) return "cannot read '" + join_path(dir, out_name) + "': " + expected;
      add(stem(name), stem(name), "dir", path, std::move(script),
          s == ReadStatus::Ok ? std::optional<std::string>(std::move(expected)) : std::nullopt);
    }
  }
  for (std::uint64_t k = 0; k < options_.random; ++k)
    add(random_test_id(k), random_test_title(options_.seed, k), "random", "", random_script(options_.seed, k),
        std::nullopt);
  return std::nullopt;
}

Problem GradeRun::look_for_engine(const GradeIo& io) {
  const std::string& dir = options_.submission;
  if (dir.empty()) return std::nullopt;
  std::vector<std::string> files;
  EngineCopy too_large{"", "", ""};
  if (Problem p = io.list_files(dir, kSubmissionFiles, files)) {
    if (files.size() < kSubmissionFiles) return "--submission: cannot read '" + dir + "': " + *p;
    too_large.what = "more files than the " + decimal(static_cast<std::int64_t>(kSubmissionFiles)) +
                     " the grader looks through";
  }
  std::sort(files.begin(), files.end());
  EngineCopyFinder finder;
  std::uint64_t total = 0;
  constexpr std::size_t kChunk = std::size_t{1} << 20;
  std::string bytes;
  for (const std::string& name : files) {
    finder.start_file();
    const std::string path = join_path(dir, name);
    for (std::uint64_t offset = 0;; offset += bytes.size()) {
      if (total >= kSubmissionBytes) {
        too_large.what = "more bytes than the " + decimal(static_cast<std::int64_t>(kSubmissionBytes >> 30)) +
                         " GiB the grader looks through";
        break;
      }
      if (Problem p = io.read_at(path, offset, kChunk, bytes)) return "--submission: cannot read '" + path + "': " + *p;
      if (bytes.empty()) break;
      total += bytes.size();
      finder.feed(bytes);
    }
    EngineCopy copy;
    if (finder.found(copy)) {
      copy.file = visible(name, kShown);
      engine_copies_.push_back(std::move(copy));
    }
    if (!too_large.what.empty()) break;
  }
  if (!too_large.what.empty()) {
    // Padding must not hide a copy: a submission too large to look through counts as one.
    too_large.file = visible(dir, kShown);
    too_large.encoding = "too large to look through";
    engine_copies_.push_back(std::move(too_large));
  }
  if (options_.engine_copies == EngineCopies::Refuse && !engine_copies_.empty())
    return "the submission holds a copy of the slowstart engine (" + engine_copy_text(engine_copies_.front()) +
           "): a submission must compute its answers itself (--engine-copies refuse)";
  return std::nullopt;
}

void GradeRun::set_outcome(std::size_t i, RunOutcome outcome) {
  if (i >= outcomes_.size()) return;
  outcomes_[i] = std::move(outcome);
  RunOutcome& o = *outcomes_[i];
  const GradeTest& t = tests_[i];
  TestVerdict& v = verdicts_[i];
  v = TestVerdict{};
  v.test = &t;
  v.outcome = &o;
  o.out_bytes = o.out.size();
  if (!o.started) return;  // finish() reports it alone
  v.difference = first_difference(t, o.out);
  // Status 1 is the SPEC's "a line was rejected": with a diagnostic on
  // stderr it is the program's verdict on the script (a parsing mistake,
  // judged by its output), not a crash (an uncaught exception also exits 1).
  const bool rejected_a_line = o.exit_code == 1 && has_diagnostic(o.err);
  const bool error_exit = o.exit_code != 0 && o.exit_code != t.expected_exit && !rejected_a_line;
  if (o.timed_out) {
    v.status = Verdict::TimedOut;
    v.summary = "did not finish within " + seconds_text(options_.timeout_ms) + ": its process group was killed";
  } else if (o.out_over) {
    v.status = Verdict::OutputLimit;
    v.summary = "printed more than " + size_text(t.max_output) + " on stdout: its process group was killed";
  } else if (!o.signal.empty()) {
    v.status = Verdict::Crashed;
    v.summary = "killed by " + o.signal;
  } else if (options_.exit_rule != ExitRule::Ignore && error_exit) {
    v.status = Verdict::Crashed;
    v.summary = "exited with status " + decimal(o.exit_code) + " where the engine exits " + decimal(t.expected_exit);
  } else if (v.difference) {
    v.status = Verdict::Failed;
    v.summary = describe(*v.difference, t);
    v.bad_output = bad_output(t, o.out);
  } else if (options_.exit_rule == ExitRule::Strict && o.exit_code != t.expected_exit) {
    v.status = Verdict::Failed;
    v.summary = "exited with status " + decimal(o.exit_code) + ", but the engine exits " + decimal(t.expected_exit) +
                (t.expected_exit ? " (the script has a rejected line)" : "");
  } else {
    v.status = Verdict::Passed;
  }
  if (t.expected_is_engine) evidence_[i] = gather_evidence(t.script, t.expected, o.out, Scope::Program, v.problem());
  // Only what the report shows is kept.
  o.err_headline = stderr_headline(o.err);
  std::string().swap(o.out);
  if (o.err.size() > kStderrHeld) {
    o.err.resize(kStderrHeld);
    o.err.shrink_to_fit();
  }
}

namespace {

// Every test crashed the same way with nothing on stdout (`python3
// nosuch.py`: "can't open file", status 2): the program cannot run, which
// is one line, not the same stderr once per test. Empty: not so.
std::string cannot_run_at_all(const std::vector<std::optional<RunOutcome>>& outcomes,
                              const std::vector<TestVerdict>& verdicts) {
  if (outcomes.empty()) return {};
  for (std::size_t i = 0; i < outcomes.size(); ++i) {
    const RunOutcome* o = outcomes[i] ? &*outcomes[i] : nullptr;
    if (!o || verdicts[i].status != Verdict::Crashed || !o->signal.empty() || o->out_bytes ||
        o->exit_code != outcomes[0]->exit_code || o->err != outcomes[0]->err)
      return {};
  }
  std::string err = outcomes[0]->err;
  while (!err.empty() && (err.back() == '\n' || err.back() == '\r')) err.pop_back();
  std::string said;
  for (char c : err) said += c == '\n' ? std::string(" | ") : std::string(1, c);
  return "every test exited with status " + decimal(outcomes[0]->exit_code) + " and printed nothing" +
         (said.empty() ? std::string() : ", saying: " + visible(said, 500));
}

}  // namespace

int GradeRun::finish(std::int64_t wall_ms, std::string& out, std::string& err) {
  for (const auto& o : outcomes_) {
    if (o && !o->started && o->exhausted) {
      err = std::string(kPrefix) + "out of resources: cannot start '" + visible(options_.command[0], kShown) +
            "': " + o->start_error + "\n";
      return 2;
    }
    if (o && !o->started) {
      err = std::string(kPrefix) + "cannot run '" + visible(options_.command[0], kShown) + "': " + o->start_error + "\n";
      return 2;
    }
  }
  if (const std::string why = cannot_run_at_all(outcomes_, verdicts_); !why.empty()) {
    err = std::string(kPrefix) + "cannot run '" + visible(options_.command[0], kShown) + "': " + why + "\n";
    return 2;
  }
  GradeReport report = report_frame();
  report.ms = report.reproducible ? 0 : wall_ms;
  static const RunOutcome kNotRun{};

  std::vector<const TestEvidence*> pointers(tests_.size(), nullptr);
  for (std::size_t i = 0; i < tests_.size(); ++i) {
    TestVerdict v = verdicts_[i];
    if (!outcomes_[i]) {
      // Not run (the run stopped early): graded as a program that printed nothing.
      v.test = &tests_[i];
      v.outcome = &kNotRun;
      v.difference = first_difference(tests_[i], "");
      v.status = v.difference ? Verdict::Failed : Verdict::Passed;
      if (v.difference) v.summary = describe(*v.difference, tests_[i]);
    }
    if (v.status == Verdict::Passed) ++report.passed;
    if (evidence_[i]) pointers[i] = &*evidence_[i];
    report.tests.push_back(std::move(v));
  }
  RunDiagnosis d = diagnose_run(pointers);
  for (std::size_t i = 0; i < tests_.size(); ++i) report.tests[i].looks_like = d.per_test[i];
  report.looks_like = std::move(d.run);
  report.alike = alike_failures(report.tests);
  for (std::size_t g = 0; g < report.alike.size(); ++g)
    for (std::size_t i : report.alike[g].tests) report.tests[i].alike = static_cast<int>(g);
  out = format_report(report, options_.format);
  return report.passed == tests_.size() ? 0 : 1;
}

GradeReport GradeRun::report_frame() const {
  GradeReport report;
  report.command = options_.command;
  report.hostname = env_.hostname.empty() ? "localhost" : env_.hostname;
  report.reproducible = env_.source_date_epoch.has_value();
  report.timestamp = env_.source_date_epoch.value_or(env_.now);
  report.engine_copies = engine_copies_;
  report.seed = options_.seed;
  report.tests_dir = options_.tests_dir;
  return report;
}

std::string GradeRun::could_not_grade(std::string_view reason) const {
  GradeReport report = report_frame();
  report.could_not_grade = std::string(reason);
  return format_report(report, options_.format);
}

}  // namespace slowstart::grading
