// `slowstart grade` and `slowstart tests` in the native CLI: the order of
// things. Everything grading decides (the options, the tests, the
// comparison, the diagnosis, the report) is grade.cpp's and
// tests_command.cpp's, shared with the Node CLI (web/api/grade-cli.ts);
// running the program is grade_processes.cpp's, the files grade_files.cpp's.
//
// With --output a report is always left: the grader's, or one that says
// grading could not run (exit 2) or did not finish (written before the first
// test, replaced at the end), so an older report never stays in its place.
#include "cli/grade_native.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "cli/grade_files.hpp"
#include "cli/grade_namespace.hpp"
#include "cli/grade_processes.hpp"
#include "cli/stdio.hpp"
#include "grading/grade.hpp"
#include "grading/grade_report.hpp"
#include "grading/tests_command.hpp"

namespace slowstart::cli {

using namespace slowstart::grading;

namespace {

constexpr std::string_view kPrefix = "slowstart grade: ";

std::int64_t monotonic_ms() {
  timespec t{};
  clock_gettime(CLOCK_MONOTONIC, &t);
  return static_cast<std::int64_t>(t.tv_sec) * 1000 + t.tv_nsec / 1'000'000;
}

// How many tests may run at once with the open-file limit: each holds four
// descriptors (three pipes and a pidfd), and a start eight for a moment.
unsigned jobs_allowed(std::uint64_t& limit) {
  rlimit r{};
  if (getrlimit(RLIMIT_NOFILE, &r) != 0 || r.rlim_cur == RLIM_INFINITY) return 1u << 20;
  limit = r.rlim_cur;
  const std::uint64_t spare = r.rlim_cur > 32 ? r.rlim_cur - 32 : 0;
  return static_cast<unsigned>(std::min<std::uint64_t>(1u << 20, std::max<std::uint64_t>(1, spare / 4)));
}

// --output: `bytes` left at the report's path, or one line on stderr that
// says why not (then exit 2).
bool leave(const GradeRun& run, std::string_view bytes) {
  const std::string& path = run.options().output;
  if (Problem p = leave_report(path, bytes)) {
    std::fprintf(stderr, "slowstart grade: cannot write the report to '%s': %s\n", visible(path, 200).c_str(),
                 p->c_str());
    return false;
  }
  return true;
}

// Grading cannot run: `line` ("slowstart grade: why\n") on stderr, and with
// --output a report that says why. Exit status 2.
int cannot_grade(const GradeRun& run, std::string line) {
  const std::string said = line;
  put(line, stderr);
  if (!run.options().output.empty()) {
    std::string_view reason = said;
    if (reason.substr(0, kPrefix.size()) == kPrefix) reason.remove_prefix(kPrefix.size());
    while (!reason.empty() && reason.back() == '\n') reason.remove_suffix(1);
    leave(run, run.could_not_grade(reason));
  }
  return kCannotRun;
}

}  // namespace

int grade_command(const std::vector<std::string>& args) {
  GradeEnv env;
  const long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  env.cpus = cpus > 0 ? static_cast<unsigned>(cpus) : 1;
  char host[256] = {};
  if (gethostname(host, sizeof host - 1) == 0 && host[0]) env.hostname = host;
  env.now = static_cast<std::int64_t>(time(nullptr));
  if (const char* epoch = std::getenv("SOURCE_DATE_EPOCH"); epoch && *epoch)
    env.source_date_epoch = std::strtoll(epoch, nullptr, 10);

  GradeRun run;
  std::string out, err;
  int status = 0;
  if (!run.start(args, env, grade_io(), out, err, status)) {
    put(out, stdout);
    return status == kCannotRun ? cannot_grade(run, err) : (put(err, stderr), status);
  }
  put(err, stderr);  // a warning: an expected output over --max-output
  const std::string& output = run.options().output;
  if (!output.empty()) {
    // A FIFO, a device or a folder there is refused now, never opened.
    if (Problem p = report_target_problem(output)) {
      std::fprintf(stderr, "slowstart grade: cannot write the report to '%s': %s\n", visible(output, 200).c_str(),
                   p->c_str());
      return kCannotRun;
    }
  }
  RunAs as;
  if (Problem p = run_as(run.options().user, as)) return cannot_grade(run, std::string(kPrefix) + *p + "\n");
  UserClaim claim;
  if (Problem p = claim.claim(as)) return cannot_grade(run, std::string(kPrefix) + *p + "\n");
  std::uint64_t file_limit = 0;
  const unsigned allowed = jobs_allowed(file_limit);
  err = run.clamp_jobs(allowed, file_limit);
  put(err, stderr);
  // The report's place is taken before the first test: if the grader is
  // killed, what is left says so, not an older report.
  if (!output.empty() &&
      !leave(run, run.could_not_grade("grading started but did not finish (the grader was stopped before it "
                                      "wrote its report)")))
    return kCannotRun;
  install_stop_handlers();
  ScriptFiles files;
  std::vector<std::string> paths;
  if (Problem p = files.write(run, paths, as.set)) return cannot_grade(run, std::string(kPrefix) + *p + "\n");
  // Writing to a program that closed its stdin must not kill the grader.
  struct sigaction ignore{}, previous_pipe{};
  ignore.sa_handler = SIG_IGN;
  sigaction(SIGPIPE, &ignore, &previous_pipe);
  Lifeline lifeline;
  const bool namespaces = lifeline.open() && pid_namespace_works();
  err = run.containment_note(namespaces ? Containment::PidNamespace : Containment::Subreaper);
  put(err, stderr);
  const std::int64_t t0 = monotonic_ms();
  const bool all_killed = run_all(run, paths, as, namespaces ? lifeline.read_end() : -1);
  const std::int64_t wall = monotonic_ms() - t0;
  sigaction(SIGPIPE, &previous_pipe, nullptr);
  files.remove();
  if (const int sig = g_stop) {
    // Interrupted: the report says so; then end as that signal would have
    // (128 + its number in a shell).
    const char* name = sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "SIGHUP";
    if (!output.empty()) leave(run, run.could_not_grade(std::string("grading was interrupted by ") + name));
    std::fflush(stdout);
    signal(sig, SIG_DFL);
    sigset_t just;
    sigemptyset(&just);
    sigaddset(&just, sig);
    sigprocmask(SIG_UNBLOCK, &just, nullptr);
    raise(sig);
    return 128 + sig;
  }
  restore_stop_handlers();
  if (!all_killed) std::fputs(kStraysLeft, stderr);
  status = run.finish(wall, out, err);
  if (status == kCannotRun) return cannot_grade(run, err);
  put(err, stderr);
  if (!output.empty()) return leave(run, out) ? status : kCannotRun;
  put(out, stdout);
  return status;
}

int tests_command(const std::vector<std::string>& args) {
  std::string out, err, dir;
  std::vector<SuiteFile> files;
  bool force = false;
  int status = run_tests_command(args, out, err, dir, files, &force);
  if (status == 0 && !dir.empty()) {
    // mkdir -p for the last component is enough: the parent must exist.
    if (mkdir(dir.c_str(), 0777) != 0 && errno != EEXIST) {
      std::fprintf(stderr, "slowstart tests: cannot make '%s': %s\n", dir.c_str(), std::strerror(errno));
      return kCannotRun;
    }
    const int at = open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (at < 0) {
      std::fprintf(stderr, "slowstart tests: cannot open '%s': %s\n", dir.c_str(), std::strerror(errno));
      return kCannotRun;
    }
    // Everything checked before anything is written.
    for (const SuiteFile& f : files) {
      struct stat st{};
      if (fstatat(at, f.name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) continue;
      const std::string path = dir + "/" + f.name;
      err = S_ISLNK(st.st_mode) ? out_blocked(path, OutBlocker::Symlink)
            : !S_ISREG(st.st_mode) ? out_blocked(path, OutBlocker::NotRegular)
            : !force ? out_blocked(path, OutBlocker::Exists) : "";
      if (!err.empty()) {
        close(at);
        put(err, stderr);
        return kCannotRun;
      }
    }
    for (const SuiteFile& f : files) {
      const std::string path = dir + "/" + f.name;
      const int e = write_file(at, f.name, f.bytes, force ? O_TRUNC : O_EXCL);
      const bool ok = e == 0;
      if (!ok) {
        std::fprintf(stderr, "slowstart tests: cannot write '%s': %s\n", path.c_str(), std::strerror(e));
        close(at);
        return kCannotRun;
      }
    }
    close(at);
  }
  put(err, stderr);
  put(out, stdout);
  return status;
}

}  // namespace slowstart::cli
