// The lab module's grading functions: the mistake catalogue, the built-in
// suite, and the diagnosis (cpp/grading/{mistakes,suite,diagnosis}.*), for the
// implement mode, the compare box and the Node CLI's `slowstart grade`.
// Thin: it converts, the engine decides.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <string>
#include <vector>

#include "grading/grade.hpp"
#include "grading/tests_command.hpp"
#include "grading/diagnosis.hpp"
#include "grading/suite.hpp"
#include "wasm/js_interop.hpp"

using emscripten::val;
using namespace slowstart;
using namespace slowstart::wasm;

namespace {

const char* scope_name(Scope s) { return s == Scope::Rules ? "rules" : "program"; }

Scope scope_of(const std::string& s) { return s == "rules" ? Scope::Rules : Scope::Program; }

val ids_of(const std::vector<MistakeIndex>& list) {
  val out = val::array();
  for (MistakeIndex m : list) out.call<void>("push", std::string(mistakes()[m].id));
  return out;
}

std::vector<MistakeIndex> indices_of(const val& ids) {
  std::vector<MistakeIndex> out;
  const auto n = ids["length"].as<unsigned>();
  for (unsigned i = 0; i < n; ++i)
    if (const Mistake* m = find_mistake(ids[i].as<std::string>()))
      out.push_back(static_cast<MistakeIndex>(m - mistakes().data()));
  return out;
}

// [{id, title, why, scope}] in catalogue order.
val catalogue() {
  val out = val::array();
  for (const Mistake& m : mistakes()) {
    val o = val::object();
    o.set("id", std::string(m.id));
    o.set("title", std::string(m.title));
    o.set("why", std::string(m.why));
    o.set("scope", std::string(scope_name(m.scope)));
    out.call<void>("push", o);
  }
  return out;
}

// [{id, title, scope, script}] in suite order.
val suite() {
  val out = val::array();
  for (const SuiteTest& t : built_in_tests()) {
    val o = val::object();
    o.set("id", std::string(t.id));
    o.set("title", std::string(t.title));
    o.set("scope", std::string(scope_name(t.scope)));
    o.set("script", std::string(t.script));
    out.call<void>("push", o);
  }
  return out;
}

val evidence_to_js(const TestEvidence& e) {
  val o = val::object();
  o.set("pass", e.pass);
  o.set("problem", e.problem);
  o.set("named", ids_of(e.named));
  o.set("ruledOut", ids_of(e.ruled_out));
  return o;
}

// The script is in the input buffer; expected and actual are stdout texts.
val test_evidence(double length, std::string expected, std::string actual, std::string scope, bool problem) {
  return evidence_to_js(gather_evidence(input(length), expected, actual, scope_of(scope), problem));
}

// tests: [evidence | undefined | null] -> {perTest: [[id]], run: [{mistake, tests}]}
val diagnose(val tests) {
  const auto n = tests["length"].as<unsigned>();
  std::vector<TestEvidence> evidence(n);
  std::vector<const TestEvidence*> pointers(n, nullptr);
  for (unsigned i = 0; i < n; ++i) {
    val t = tests[i];
    if (t.isUndefined() || t.isNull()) continue;
    evidence[i].pass = t["pass"].as<bool>();
    evidence[i].problem = t["problem"].as<bool>();
    evidence[i].named = indices_of(t["named"]);
    evidence[i].ruled_out = indices_of(t["ruledOut"]);
    pointers[i] = &evidence[i];
  }
  const RunDiagnosis d = diagnose_run(pointers);
  val per_test = val::array();
  for (const auto& list : d.per_test) per_test.call<void>("push", ids_of(list));
  val run = val::array();
  for (const auto& entry : d.run) {
    val e = val::object();
    e.set("mistake", std::string(mistakes()[entry.mistake].id));
    val indices = val::array();
    for (std::size_t t : entry.tests) indices.call<void>("push", static_cast<double>(t));
    e.set("tests", indices);
    run.call<void>("push", e);
  }
  val o = val::object();
  o.set("perTest", per_test);
  o.set("run", run);
  return o;
}

// The mistakes whose stdout is exactly `actual` for the script in the input
// buffer (the compare box): one test's evidence, narrowed as a run of one.
val name_mistakes(double length, std::string actual) {
  const std::string_view script = input(length);
  const TestEvidence e = gather_evidence(script, reference_stdout(script), actual, Scope::Program, false);
  return ids_of(diagnose_run({&e}).per_test[0]);
}

// A weight in `actual` that is not a whole number, on a line printed for a
// WEIGHTS of the script in the input buffer (the compare box puts it before
// any mistake, as `slowstart grade` does): {outputLine, weight}, or null.
val weight_problem(double length, std::string actual) {
  const std::string_view script = input(length);
  RunOptions run;
  run.timeline = false;
  std::vector<std::uint64_t> printed_by;
  for (const OutputLine& o : run_script(script, run).output) printed_by.push_back(o.line);
  const WeightProblem p = non_whole_weight(script, printed_by, actual);
  if (!p.output_line) return val::null();
  val o = val::object();
  o.set("outputLine", static_cast<double>(p.output_line));
  o.set("weight", std::string(p.word));
  return o;
}

// `slowstart grade` for the Node CLI (web/api/grade-cli.ts): the same
// GradeRun as the native CLI's; the Node side runs the processes.
class GradeSession {
 public:
  // args: (string | Uint8Array)[] (the bytes the shell passed); env: {cpus,
  // hostname, now, sourceDateEpoch?, listTxt(dir: Uint8Array): Uint8Array[]
  // | string (a problem), read(path: Uint8Array): Uint8Array | null
  // (missing) | string (a problem)}: file names are bytes, whatever they
  // are. Returns {ok, out, err, status}.
  val start(val args, val env) {
    grading::GradeEnv e;
    e.cpus = env["cpus"].as<unsigned>();
    e.hostname = env["hostname"].as<std::string>();
    e.now = static_cast<std::int64_t>(env["now"].as<double>());
    if (val epoch = env["sourceDateEpoch"]; !epoch.isUndefined() && !epoch.isNull())
      e.source_date_epoch = static_cast<std::int64_t>(epoch.as<double>());
    val list = env["listTxt"], read = env["read"], list_files = env["listFiles"], read_at = env["readAt"];
    grading::GradeIo io;
    io.list_txt = [list](const std::string& dir, std::vector<std::string>& names) -> Problem {
      val r = list(bytes_of(dir));
      if (r.typeOf().as<std::string>() == "string") return r.as<std::string>();
      names = emscripten::vecFromJSArray<std::string>(r);
      return std::nullopt;
    };
    io.read = [read](const std::string& dir, const std::string& name, std::string& bytes) {
      val r = read(bytes_of(dir), bytes_of(name));
      if (r.isNull()) return grading::ReadStatus::Missing;
      bytes = r.as<std::string>();  // Uint8Array: the bytes; a string: the problem
      return r.typeOf().as<std::string>() == "string" ? grading::ReadStatus::Failed : grading::ReadStatus::Ok;
    };
    io.list_files = [list_files](const std::string& dir, std::size_t most, std::vector<std::string>& files) -> Problem {
      // {files: Uint8Array[], problem?: string}
      val r = list_files(bytes_of(dir), static_cast<double>(most));
      files = emscripten::vecFromJSArray<std::string>(r["files"]);
      if (val p = r["problem"]; !p.isUndefined() && !p.isNull()) return p.as<std::string>();
      return std::nullopt;
    };
    io.read_at = [read_at](const std::string& path, std::uint64_t offset, std::size_t max, std::string& bytes) -> Problem {
      val r = read_at(bytes_of(path), static_cast<double>(offset), static_cast<double>(max));
      if (r.typeOf().as<std::string>() == "string") return r.as<std::string>();
      bytes = r.as<std::string>();
      return std::nullopt;
    };
    std::string out, err;
    int status = 0;
    const bool ok = run_.start(emscripten::vecFromJSArray<std::string>(args), e, io, out, err, status);
    val o = val::object();
    o.set("ok", ok);
    o.set("out", bytes_of(out));
    o.set("err", bytes_of(err));
    o.set("status", status);
    return o;
  }
  double size() const { return static_cast<double>(run_.size()); }
  double jobs() const { return run_.jobs(); }
  double timeoutMs() const { return static_cast<double>(run_.options().timeout_ms); }
  double maxOutput(double i) const { return static_cast<double>(run_.test(static_cast<std::size_t>(i)).max_output); }
  std::string user() const { return run_.options().user; }
  val output() const { return bytes_of(run_.options().output); }
  // A warning for stderr when -j asks for more than `most`, or "".
  std::string clampJobs(double most, double file_limit) {
    return run_.clamp_jobs(static_cast<unsigned>(most), static_cast<std::uint64_t>(file_limit));
  }
  bool needsScriptPaths() const { return run_.needs_script_paths(); }
  // {id, script (bytes), path (bytes)}
  val test(double i) const {
    const grading::GradeTest& t = run_.test(static_cast<std::size_t>(i));
    val o = val::object();
    o.set("id", t.id);
    o.set("script", bytes_of(t.script));
    o.set("path", bytes_of(t.path));
    return o;
  }
  // The program's arguments as bytes (a path need not be UTF-8).
  val argv(std::string script_path) const {
    val list = val::array();
    for (const std::string& a : run_.argv(script_path)) list.call<void>("push", bytes_of(a));
    return list;
  }
  // o: {started, startError, exhausted?, out, outOver, err, errCut, exitCode, signal, timedOut, ms}
  void setOutcome(double i, val o) {
    grading::RunOutcome r;
    r.started = o["started"].as<bool>();
    r.start_error = o["startError"].as<std::string>();
    r.exhausted = o["exhausted"].isTrue();
    r.out = o["out"].as<std::string>();
    r.out_over = o["outOver"].as<bool>();
    r.err = o["err"].as<std::string>();
    r.err_cut = o["errCut"].as<bool>();
    r.exit_code = o["exitCode"].as<int>();
    r.signal = o["signal"].as<std::string>();
    r.timed_out = o["timedOut"].as<bool>();
    r.ms = static_cast<std::int64_t>(o["ms"].as<double>());
    run_.set_outcome(static_cast<std::size_t>(i), std::move(r));
  }
  // The report that says grading could not run, and why (bytes).
  val couldNotGrade(std::string reason) const { return bytes_of(run_.could_not_grade(reason)); }
  // {out (bytes), err, status}
  val finish(double wall_ms) {
    std::string out, err;
    const int status = run_.finish(static_cast<std::int64_t>(wall_ms), out, err);
    val o = val::object();
    o.set("out", bytes_of(out));
    o.set("err", bytes_of(err));
    o.set("status", status);
    return o;
  }

 private:
  grading::GradeRun run_;
};

// `slowstart tests ARGS`: {out, err, status, dir, force, files: [{name, bytes}]}.
val tests_command(val args) {
  std::string out, err, dir;
  std::vector<grading::SuiteFile> files;
  bool force = false;
  const int status =
      grading::run_tests_command(emscripten::vecFromJSArray<std::string>(args), out, err, dir, files, &force);
  val list = val::array();
  for (const auto& f : files) {
    val file = val::object();
    file.set("name", f.name);
    file.set("bytes", bytes_of(f.bytes));
    list.call<void>("push", file);
  }
  val o = val::object();
  o.set("out", bytes_of(out));
  o.set("err", bytes_of(err));
  o.set("status", status);
  o.set("dir", dir);
  o.set("force", force);
  o.set("files", list);
  return o;
}

// Why `slowstart tests --out` writes nothing: why is "exists", "symlink" or
// "not-regular" (tests_command.hpp's words, shared with the native CLI).
std::string tests_out_blocked(std::string path, std::string why) {
  const grading::OutBlocker b = why == "exists"    ? grading::OutBlocker::Exists
                                : why == "symlink" ? grading::OutBlocker::Symlink
                                                   : grading::OutBlocker::NotRegular;
  return grading::out_blocked(path, b);
}

}  // namespace

EMSCRIPTEN_BINDINGS(slowstart_grading) {
  emscripten::class_<GradeSession>("GradeSession")
      .constructor<>()
      .function("start", &GradeSession::start)
      .function("size", &GradeSession::size)
      .function("jobs", &GradeSession::jobs)
      .function("timeoutMs", &GradeSession::timeoutMs)
      .function("maxOutput", &GradeSession::maxOutput)
      .function("needsScriptPaths", &GradeSession::needsScriptPaths)
      .function("user", &GradeSession::user)
      .function("output", &GradeSession::output)
      .function("clampJobs", &GradeSession::clampJobs)
      .function("test", &GradeSession::test)
      .function("argv", &GradeSession::argv)
      .function("setOutcome", &GradeSession::setOutcome)
      .function("couldNotGrade", &GradeSession::couldNotGrade)
      .function("finish", &GradeSession::finish);
  // What both CLIs say when a process the program started could not be killed.
  emscripten::constant("straysLeft", std::string(slowstart::grading::kStraysLeft));
  // Why a tests' file behind a symbolic link out of its folder is not read.
  emscripten::constant("linksOut", std::string(slowstart::grading::kLinksOut));
  // stderr bytes a front end keeps per run (the Node CLI's grade-cli.ts).
  emscripten::constant("stderrKept", static_cast<std::uint32_t>(slowstart::grading::kStderrKept));
  emscripten::function("testsCommand", &tests_command);
  emscripten::function("testsOutBlocked", &tests_out_blocked);
  emscripten::function("mistakeCatalogue", &catalogue);
  emscripten::function("builtInSuite", &suite);
  emscripten::function("testEvidence", &test_evidence);
  emscripten::function("diagnoseRun", &diagnose);
  emscripten::function("nameMistakes", &name_mistakes);
  emscripten::function("weightProblem", &weight_problem);
}
