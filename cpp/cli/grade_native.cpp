// `slowstart grade` and `slowstart tests` in the native CLI: the file access
// and the running of the learner's program. Everything else (the options,
// the tests, the comparison, the diagnosis, the report) is grade.cpp's and
// tests_command.cpp's, shared with the Node CLI (web/api/grade-cli.ts).
//
// Each test runs the program with posix_spawnp in a process group of its
// own, the script written to its stdin, stdout and stderr read through
// non-blocking pipes, up to `jobs` at a time from one poll() loop. At the
// time limit, or past the stdout cap, the whole group gets SIGKILL (so a
// shell script's children go too); when the program exits, what is left of
// its group is killed as well, so no leftover process holds the pipes open.
#include "cli/grade_native.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "grading/grade.hpp"
#include "cli/stdio.hpp"
#include "grading/tests_command.hpp"

extern char** environ;

namespace slowstart::cli {

// What grading decides (the room below); this file only runs processes.
using namespace slowstart::grading;

namespace {

std::int64_t now_ms() {
  timespec t{};
  clock_gettime(CLOCK_MONOTONIC, &t);
  return static_cast<std::int64_t>(t.tv_sec) * 1000 + t.tv_nsec / 1'000'000;
}

std::string signal_name(int sig) {
  switch (sig) {
    case SIGHUP: return "SIGHUP";
    case SIGINT: return "SIGINT";
    case SIGQUIT: return "SIGQUIT";
    case SIGILL: return "SIGILL";
    case SIGTRAP: return "SIGTRAP";
    case SIGABRT: return "SIGABRT";
    case SIGBUS: return "SIGBUS";
    case SIGFPE: return "SIGFPE";
    case SIGKILL: return "SIGKILL";
    case SIGUSR1: return "SIGUSR1";
    case SIGSEGV: return "SIGSEGV";
    case SIGUSR2: return "SIGUSR2";
    case SIGPIPE: return "SIGPIPE";
    case SIGALRM: return "SIGALRM";
    case SIGTERM: return "SIGTERM";
    case SIGXCPU: return "SIGXCPU";
    case SIGXFSZ: return "SIGXFSZ";
    case SIGSYS: return "SIGSYS";
    default: return "signal " + std::to_string(sig);
  }
}

ReadStatus read_file(const std::string& path, std::string& bytes) {
  FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) {
    const int e = errno;
    bytes = std::strerror(e);
    return e == ENOENT ? ReadStatus::Missing : ReadStatus::Failed;
  }
  bytes.clear();
  char buffer[1 << 16];
  std::size_t n;
  while ((n = std::fread(buffer, 1, sizeof buffer, f)) > 0) bytes.append(buffer, n);
  const bool failed = std::ferror(f);
  const int e = errno;
  std::fclose(f);
  if (failed) {
    bytes = std::strerror(e);
    return ReadStatus::Failed;
  }
  return ReadStatus::Ok;
}

Problem list_txt(const std::string& dir, std::vector<std::string>& names) {
  DIR* d = opendir(dir.c_str());
  if (!d) return std::string(std::strerror(errno));
  while (const dirent* e = readdir(d)) {
    const std::string name = e->d_name;
    if (name.size() <= 4 || name.compare(name.size() - 4, 4, ".txt") != 0) continue;
    struct stat st{};
    if (stat((dir + "/" + name).c_str(), &st) == 0 && S_ISREG(st.st_mode)) names.push_back(name);
  }
  closedir(d);
  return std::nullopt;
}

void set_nonblocking(int fd) { fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK); }

void close_fd(int& fd) {
  if (fd >= 0) close(fd);
  fd = -1;
}

// One run of the program, from spawn to its last byte.
struct Child {
  std::size_t test = 0;
  pid_t pid = -1;
  int in = -1, out = -1, err = -1, pidfd = -1;
  std::string_view input;
  std::size_t written = 0;
  std::int64_t started = 0, deadline = 0, drain_until = 0;
  bool exited = false;
  int wait_status = 0;
  RunOutcome r;
};

// Starts the program; false (and r.started false) when it cannot start.
bool spawn(const std::vector<std::string>& argv, Child& c) {
  int in[2], out[2], err[2];
  if (pipe2(in, O_CLOEXEC) != 0) return c.r.started = false, c.r.start_error = std::strerror(errno), false;
  if (pipe2(out, O_CLOEXEC) != 0) {
    close(in[0]), close(in[1]);
    return c.r.started = false, c.r.start_error = std::strerror(errno), false;
  }
  if (pipe2(err, O_CLOEXEC) != 0) {
    close(in[0]), close(in[1]), close(out[0]), close(out[1]);
    return c.r.started = false, c.r.start_error = std::strerror(errno), false;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in[0], 0);
  posix_spawn_file_actions_adddup2(&actions, out[1], 1);
  posix_spawn_file_actions_adddup2(&actions, err[1], 2);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  // Its own process group (killed as one), and default signals: the grader
  // ignores SIGPIPE, which the program must not inherit.
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
  posix_spawnattr_setpgroup(&attr, 0);
  sigset_t defaults, mask;
  sigfillset(&defaults);
  sigemptyset(&mask);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  posix_spawnattr_setsigmask(&attr, &mask);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const int rc = posix_spawnp(&c.pid, args[0], &actions, &attr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  close(in[0]), close(out[1]), close(err[1]);
  c.in = in[1], c.out = out[0], c.err = err[0];
  if (rc != 0) {
    close_fd(c.in), close_fd(c.out), close_fd(c.err);
    c.r.started = false;
    c.r.start_error = std::strerror(rc);
    return false;
  }
  set_nonblocking(c.in), set_nonblocking(c.out), set_nonblocking(c.err);
#ifdef SYS_pidfd_open
  c.pidfd = static_cast<int>(syscall(SYS_pidfd_open, c.pid, 0));  // -1 on old kernels: we poll then
#endif
  if (c.input.empty()) close_fd(c.in);
  return true;
}

void kill_group(const Child& c) {
  if (c.pid > 0) kill(-c.pid, SIGKILL);
}

// Reads what is there; false at end of file or on an error.
bool drain(int fd, std::string& into, std::size_t keep, bool& over) {
  char buffer[1 << 16];
  for (;;) {
    const ssize_t n = read(fd, buffer, sizeof buffer);
    if (n > 0) {
      const std::size_t room = keep > into.size() ? keep - into.size() : 0;
      into.append(buffer, std::min(room, static_cast<std::size_t>(n)));
      if (static_cast<std::size_t>(n) > room) over = true;
      if (over) return true;
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    return n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK);
  }
}

// Runs every test, `jobs` at a time. Stops starting tests once the program
// cannot be started (GradeRun::finish then reports that alone).
void run_all(GradeRun& run, const std::vector<std::string>& paths) {
  const GradeOptions& o = run.options();
  std::vector<Child> running;
  std::size_t next = 0;
  bool cannot_start = false;
  while ((next < run.size() && !cannot_start) || !running.empty()) {
    while (!cannot_start && next < run.size() && running.size() < run.jobs()) {
      Child c;
      c.test = next++;
      c.input = run.test(c.test).script;
      c.started = now_ms();
      c.deadline = c.started + o.timeout_ms;
      if (!spawn(run.argv(paths[c.test]), c)) {
        cannot_start = true;
        run.set_outcome(c.test, std::move(c.r));
        for (Child& other : running) kill_group(other), other.r.timed_out = true;
        break;
      }
      running.push_back(std::move(c));
    }
    if (running.empty()) break;

    std::vector<pollfd> fds;
    std::int64_t wake = INT64_MAX;
    const std::int64_t now = now_ms();
    for (const Child& c : running) {
      if (c.in >= 0) fds.push_back({c.in, POLLOUT, 0});
      if (c.out >= 0) fds.push_back({c.out, POLLIN, 0});
      if (c.err >= 0) fds.push_back({c.err, POLLIN, 0});
      if (!c.exited && c.pidfd >= 0) fds.push_back({c.pidfd, POLLIN, 0});
      wake = std::min(wake, c.exited ? c.drain_until : c.deadline);
      if (!c.exited && c.pidfd < 0) wake = std::min(wake, now + 10);  // no pidfd: look every 10 ms
    }
    const int timeout = static_cast<int>(std::max<std::int64_t>(0, std::min<std::int64_t>(wake - now, 60'000)));
    if (poll(fds.data(), fds.size(), timeout) < 0 && errno != EINTR) break;

    for (Child& c : running) {
      if (c.in >= 0) {
        const std::size_t left = c.input.size() - c.written;
        const ssize_t n = write(c.in, c.input.data() + c.written, std::min<std::size_t>(left, 1 << 16));
        if (n > 0) c.written += static_cast<std::size_t>(n);
        if ((n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) || c.written == c.input.size())
          close_fd(c.in);  // all written, or the program closed its stdin (EPIPE)
      }
      if (c.out >= 0) {
        bool over = false;
        const bool open = drain(c.out, c.r.out, o.max_output, over);
        if (over && !c.r.out_over) c.r.out_over = true, kill_group(c);
        if (!open || over) close_fd(c.out);
      }
      if (c.err >= 0) {
        bool over = false;
        std::string& err = c.r.err;
        if (!drain(c.err, err, kStderrKept, over)) close_fd(c.err);
        if (over) c.r.err_cut = true;
      }
      const std::int64_t t = now_ms();
      siginfo_t info{};
      if (!c.exited && waitid(P_PID, static_cast<id_t>(c.pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
          info.si_pid == c.pid) {
        // Kill what it left behind (so the pipes close) while its pid still
        // names the group, then collect it.
        kill_group(c);
        waitpid(c.pid, &c.wait_status, 0);
        c.exited = true;
        c.r.ms = t - c.started;
        close_fd(c.pidfd);
        close_fd(c.in);
        c.drain_until = t + 1000;
      }
      if (!c.exited && t >= c.deadline && !c.r.timed_out) {
        c.r.timed_out = true;
        kill_group(c);
      }
      if (c.exited && t >= c.drain_until) close_fd(c.out), close_fd(c.err);  // a grandchild keeps them open
    }

    for (std::size_t k = 0; k < running.size();) {
      Child& c = running[k];
      if (!(c.exited && c.in < 0 && c.out < 0 && c.err < 0)) {
        ++k;
        continue;
      }
      if (c.r.timed_out || c.r.out_over) {
        // Ended by us: the signal is ours, not the program's.
      } else if (WIFSIGNALED(c.wait_status)) {
        c.r.signal = signal_name(WTERMSIG(c.wait_status));
      } else if (WIFEXITED(c.wait_status)) {
        c.r.exit_code = WEXITSTATUS(c.wait_status);
      }
      run.set_outcome(c.test, std::move(c.r));
      running.erase(running.begin() + static_cast<std::ptrdiff_t>(k));
    }
  }
}

// Scripts on disk for "{}": a dir test has its file; the others are written
// to a temporary directory, removed afterwards.
class ScriptFiles {
 public:
  Problem write(const GradeRun& run, std::vector<std::string>& paths) {
    paths.assign(run.size(), std::string());
    if (!run.needs_script_paths()) return std::nullopt;
    const char* tmp = std::getenv("TMPDIR");
    std::string dir = std::string(tmp && *tmp ? tmp : "/tmp") + "/slowstart-grade-XXXXXX";
    if (!mkdtemp(dir.data())) return "cannot make a temporary directory: " + std::string(std::strerror(errno));
    dir_ = dir;
    for (std::size_t i = 0; i < run.size(); ++i) {
      const GradeTest& t = run.test(i);
      if (!t.path.empty()) {
        paths[i] = t.path;
        continue;
      }
      const std::string path = dir_ + "/" + t.id + ".txt";
      FILE* f = std::fopen(path.c_str(), "wb");
      const bool ok = f && std::fwrite(t.script.data(), 1, t.script.size(), f) == t.script.size();
      if (f && std::fclose(f) != 0) return "cannot write '" + path + "': " + std::strerror(errno);
      if (!ok) return "cannot write '" + path + "': " + std::strerror(errno);
      files_.push_back(path);
      paths[i] = path;
    }
    return std::nullopt;
  }
  ~ScriptFiles() {
    for (const std::string& f : files_) unlink(f.c_str());
    if (!dir_.empty()) rmdir(dir_.c_str());
  }

 private:
  std::string dir_;
  std::vector<std::string> files_;
};

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
  GradeIo io{list_txt, read_file};

  GradeRun run;
  std::string out, err;
  int status = 0;
  if (!run.start(args, env, io, out, err, status)) {
    put(err, stderr);
    put(out, stdout);
    return status;
  }
  ScriptFiles files;
  std::vector<std::string> paths;
  if (Problem p = files.write(run, paths)) {
    std::fprintf(stderr, "slowstart grade: %s\n", p->c_str());
    return kCannotRun;
  }
  // Writing to a program that closed its stdin must not kill the grader.
  struct sigaction ignore{}, previous{};
  ignore.sa_handler = SIG_IGN;
  sigaction(SIGPIPE, &ignore, &previous);
  const std::int64_t t0 = now_ms();
  run_all(run, paths);
  const std::int64_t wall = now_ms() - t0;
  sigaction(SIGPIPE, &previous, nullptr);
  status = run.finish(wall, out, err);
  put(err, stderr);
  put(out, stdout);
  return status;
}

int tests_command(const std::vector<std::string>& args) {
  std::string out, err, dir;
  std::vector<SuiteFile> files;
  int status = run_tests_command(args, out, err, dir, files);
  if (status == 0 && !dir.empty()) {
    // mkdir -p for the last component is enough: the parent must exist.
    if (mkdir(dir.c_str(), 0777) != 0 && errno != EEXIST) {
      std::fprintf(stderr, "slowstart tests: cannot make '%s': %s\n", dir.c_str(), std::strerror(errno));
      return kCannotRun;
    }
    for (const SuiteFile& f : files) {
      const std::string path = dir + "/" + f.name;
      FILE* file = std::fopen(path.c_str(), "wb");
      bool ok = file && std::fwrite(f.bytes.data(), 1, f.bytes.size(), file) == f.bytes.size();
      if (file && std::fclose(file) != 0) ok = false;
      if (!ok) {
        std::fprintf(stderr, "slowstart tests: cannot write '%s': %s\n", path.c_str(), std::strerror(errno));
        return kCannotRun;
      }
    }
  }
  put(err, stderr);
  put(out, stdout);
  return status;
}

}  // namespace slowstart::cli
