// `slowstart grade [options] -- COMMAND [ARGS...]`: everything but running
// the learner's program, shared by the native CLI (cpp/cli/grade_native.cpp:
// fork/exec) and the Node CLI (web/api/grade-cli.ts: child_process, through
// the lab module), so both print the same report byte for byte.
//
// A front end calls start() with the arguments; runs the program once per
// test (test(i).script on stdin, argv(i, path) as its arguments); hands each
// outcome to set_outcome(); and prints what finish() gives.
#pragma once
#include <cstdint>
#include <functional>
#include <string_view>
#include <optional>
#include <string>
#include <vector>

#include "grading/alike.hpp"
#include "grading/diagnosis.hpp"
#include "grading/engine_copy.hpp"
#include "core/validate.hpp"

namespace slowstart::grading {

enum class ReportFormat { Text, Json, Gradescope, Junit };

struct GradeReport;  // grade_report.hpp

// What a non-zero exit status means (see kGradeUsage).
enum class ExitRule { Lenient, Strict, Ignore };

// --engine-copies: what a copy of the engine in --submission's folder does.
enum class EngineCopies { Flag, Refuse };

// A test's verdict. Its name (verdict_name) is what every report writes.
enum class Verdict : std::uint8_t { Passed, Failed, Crashed, TimedOut, OutputLimit };
std::string_view verdict_name(Verdict v);

struct GradeOptions {
  std::vector<std::string> command;  // COMMAND ARGS...
  std::string tests_dir;             // empty: the built-in suite
  bool builtin = false;              // with tests_dir: the built-in suite too
  std::uint64_t random = 0;          // generated scripts to add
  std::uint64_t seed = 1;
  std::int64_t timeout_ms = 5000;
  std::size_t max_output = std::size_t{16} << 20;  // stdout bytes kept per test
  unsigned jobs = 0;                               // 0: the number of CPUs
  ReportFormat format = ReportFormat::Text;
  ExitRule exit_rule = ExitRule::Lenient;
  std::string user;    // --user: run the program as this user (the grader must be root)
  std::string output;  // --output: the report's file, written once every program is dead
  std::string submission;  // --submission: the learner's files, looked through for a copy of the engine
  EngineCopies engine_copies = EngineCopies::Flag;
};

// How one run of the program went, as a front end saw it.
struct RunOutcome {
  bool started = true;      // false: it could not be started at all
  std::string start_error;  // then why, e.g. "No such file or directory"
  bool exhausted = false;   // ... because the grader ran out of a resource (files, processes, memory)
  std::string out;          // stdout, up to max_output bytes (dropped once graded)
  std::size_t out_bytes = 0;  // how much of it was kept
  bool out_over = false;    // it printed more (and was killed)
  std::string err;          // the start of stderr (kStderrKept bytes)
  bool err_cut = false;
  std::string err_headline;  // what stderr says went wrong (alike.hpp), kept when err is cut to what reports show
  int exit_code = 0;        // when it exited by itself
  std::string signal;       // e.g. "SIGSEGV" when a signal (not ours) ended it
  bool timed_out = false;   // killed at the time limit
  std::int64_t ms = 0;      // how long it ran
};

// What a front end says (on stderr, as a warning) when some process the
// program started could not be killed in the time a sweep has: only without
// --user, a program hopping from pid to pid faster than /proc can be read.
inline constexpr const char* kStraysLeft =
    "slowstart grade: warning: some processes the program started could not be killed (they changed pid faster "
    "than they could be found): grade with --user, whose kill is atomic\n";

// stderr bytes a front end keeps per run (the rest is read and dropped).
inline constexpr std::size_t kStderrKept = 64 * 1024;

struct GradeTest {
  std::string id;
  std::string title;
  std::string source;  // "builtin", "dir" or "random"
  std::string path;    // the script's file for "dir" tests
  std::string script;
  std::string expected;           // stdout
  bool expected_is_engine = true; // false: a .out beside the script says otherwise
  int expected_exit = 0;          // the engine's: 1 when a line is rejected
  std::size_t max_output = 0;     // stdout kept: --max-output, or room for `expected` when that is more
  std::vector<std::uint64_t> printed_by;  // engine output line i <- script line printed_by[i]
};

// Where the learner's stdout first differs from the expected one.
struct Difference {
  std::size_t output_line = 0;    // 1-based
  std::uint64_t script_line = 0;  // the script line that printed the expected line; 0: not known
  std::string script_text;        // that line of the script
  std::optional<std::string> expected, actual;  // nullopt: the output had ended
  bool newline_at_end = false;  // the lines agree; only the final newline differs
};

struct TestVerdict {
  const GradeTest* test = nullptr;
  const RunOutcome* outcome = nullptr;
  // Failed: wrong output or exit status; Crashed: a signal, or an error
  // exit where the engine exits 0.
  Verdict status = Verdict::Passed;
  std::string summary;  // one line: why it failed (empty when it passed)
  std::optional<Difference> difference;
  std::vector<MistakeIndex> looks_like;
  // The alike failure (alike.hpp) this test is part of: an index into the
  // report's list, or -1. Its stderr is then shown once, at the top.
  int alike = -1;
  // A wrong output that shows a problem in the program rather than a
  // classic mistake: a weight that is not a whole number ("a=2.5", "a=NaN").
  std::string bad_output;
  // The program crashed, was stopped, or printed something no rule can
  // explain: its output names no mistake, and the report says so first.
  bool problem() const {
    return status == Verdict::Crashed || status == Verdict::TimedOut || status == Verdict::OutputLimit ||
           !bad_output.empty();
  }
  // The one line that says what the problem is.
  const std::string& problem_text() const { return bad_output.empty() ? summary : bad_output; }
};

// File access, which each front end does its own way.
enum class ReadStatus { Ok, Missing, Failed };
struct GradeIo {
  // The names of the entries of `dir` whose names end in ".txt" and that
  // are regular files (or symbolic links to one).
  std::function<Problem(const std::string& dir, std::vector<std::string>& names)> list_txt;
  // The bytes of the file `name` in `dir` (Ok), or Missing, or Failed with
  // the reason in `bytes`. Only a regular file is read (a FIFO or a device
  // is "not a regular file"), and a symbolic link only when it leads to a
  // file inside `dir` (else kLinksOut): a tests' folder never shows the
  // grader's other files.
  std::function<ReadStatus(const std::string& dir, const std::string& name, std::string& bytes)> read;
  // The regular files below `dir`, as paths relative to it (symbolic links
  // are not followed, nor listed); more than `most`: a problem.
  std::function<Problem(const std::string& dir, std::size_t most, std::vector<std::string>& files)> list_files;
  // Up to `max` bytes of the file at `path` from `offset` (fewer at its
  // end, none past it), or a problem.
  std::function<Problem(const std::string& path, std::uint64_t offset, std::size_t max, std::string& bytes)> read_at;
};

// Why a tests' file is not read: it links out of its folder.
inline constexpr const char* kLinksOut = "a symbolic link that leads out of the folder";

struct GradeEnv {
  unsigned cpus = 1;
  std::string hostname = "localhost";
  std::int64_t now = 0;  // seconds since 1970, for the JUnit timestamp
  // SOURCE_DATE_EPOCH, when set: the timestamp, and every duration reported
  // as 0, so that reports are reproducible byte for byte.
  std::optional<std::int64_t> source_date_epoch;
};

class GradeRun {
 public:
  // False when nothing is to run: `out` (help, for stdout) or `err` (a
  // problem with the arguments or the tests, for stderr) and `status` say
  // what to do. True: `err` may hold a warning for stderr (an expected
  // output over --max-output: that test's cap is raised to hold it).
  bool start(const std::vector<std::string>& args, const GradeEnv& env, const GradeIo& io, std::string& out,
             std::string& err, int& status);

  const GradeOptions& options() const { return options_; }
  unsigned jobs() const;
  // At most `most` tests at once (what `file_limit`, the open-file limit,
  // allows a front end): a warning for stderr when -j asked for more.
  std::string clamp_jobs(unsigned most, std::uint64_t file_limit);
  std::size_t size() const { return tests_.size(); }
  const GradeTest& test(std::size_t i) const { return tests_[i]; }
  // True when an argument holds "{}": the front end must give each test's
  // script a path (a dir test has its own; write the others to files).
  bool needs_script_paths() const;
  // COMMAND ARGS... with "{}" replaced by the script's path.
  std::vector<std::string> argv(const std::string& script_path) const;

  // Grades test i at once and keeps only what the report shows (stdout is
  // dropped), so memory does not grow with the number of tests.
  void set_outcome(std::size_t i, RunOutcome outcome);
  // Once every outcome is in (`wall_ms`: how long running them took): the
  // report for stdout and the status (0 all passed, 1 some failed); or, when
  // the program could not start, one line for stderr and status 2.
  int finish(std::int64_t wall_ms, std::string& out, std::string& err);

  // The copies of the engine found in --submission's folder (flagged in the report).
  const std::vector<EngineCopy>& engine_copies() const { return engine_copies_; }

  // A report that says grading could not run, and why (`reason`: a line
  // without "slowstart grade: "), in --format's form: what --output holds
  // when grade exits 2, so that no older report stays in its place.
  std::string could_not_grade(std::string_view reason) const;

 private:
  Problem load(const GradeIo& io);
  Problem look_for_engine(const GradeIo& io);
  // A report with what every report says before its tests (the command, the host, the engine's copies).
  GradeReport report_frame() const;
  void add(std::string id, std::string title, std::string source, std::string path, std::string script,
           std::optional<std::string> expected);

  GradeOptions options_;
  GradeEnv env_;
  std::vector<GradeTest> tests_;
  std::vector<std::optional<RunOutcome>> outcomes_;
  std::vector<TestVerdict> verdicts_;
  std::vector<std::optional<TestEvidence>> evidence_;
  std::vector<EngineCopy> engine_copies_;
};

extern const char* const kGradeUsage;

}  // namespace slowstart::grading
