// `slowstart grade` and `slowstart tests` in the native CLI: the file access
// and the running of the learner's program. Everything else (the options,
// the tests, the comparison, the diagnosis, the report) is grade.cpp's and
// tests_command.cpp's, shared with the Node CLI (web/api/grade-cli.ts).
//
// Each test runs the program (fork and exec; as --user's user when given)
// in a process group of its own, the script written to its stdin, stdout
// and stderr read through non-blocking pipes, up to `jobs` at a time from
// one poll() loop. At the time limit, or past the stdout cap, the whole
// group gets SIGKILL (so a shell script's children go too); when the
// program exits, what is left of its group is killed as well. The grader is
// a child subreaper (Linux): whatever a program left running outside its
// group (a double fork, setsid) becomes the grader's child and is killed
// once any test ends, and at the end of the run; with --user, every process
// of that user is killed at the end too. The report is written only then.
// SIGINT, SIGTERM and SIGHUP kill every program, remove the temporary
// files and end the grader with that signal.
#include "cli/grade_native.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "grading/grade.hpp"
#include "grading/grade_report.hpp"
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

// A test's file: only a regular file is read (a link to /dev/zero or a FIFO
// is refused, never read without end or waited on).
ReadStatus read_file(const std::string& path, std::string& bytes) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) {
    const int e = errno;
    bytes = std::strerror(e);
    return e == ENOENT ? ReadStatus::Missing : ReadStatus::Failed;
  }
  struct stat st{};
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    close(fd);
    bytes = "not a regular file";
    return ReadStatus::Failed;
  }
  bytes.clear();
  char buffer[1 << 16];
  for (;;) {
    const ssize_t n = read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      bytes = std::strerror(errno);
      close(fd);
      return ReadStatus::Failed;
    }
    if (n == 0) break;
    bytes.append(buffer, static_cast<std::size_t>(n));
  }
  close(fd);
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

// --user: who the program runs as.
struct RunAs {
  bool set = false;
  uid_t uid = 0;
  gid_t gid = 0;
  std::vector<gid_t> groups;
};

// A signal that ends the grader (SIGINT, SIGTERM, SIGHUP): the handler
// notes it and wakes poll() through a pipe.
volatile sig_atomic_t g_stop = 0;
int g_wake[2] = {-1, -1};

void on_stop(int sig) {
  if (!g_stop) g_stop = sig;
  if (g_wake[1] >= 0) {
    const int saved = errno;
    [[maybe_unused]] const ssize_t n = write(g_wake[1], "x", 1);
    errno = saved;
  }
}

bool exhausted(int e) { return e == EMFILE || e == ENFILE || e == EAGAIN || e == ENOMEM || e == ENOSPC; }

// One run of the program, from spawn to its last byte.
struct Child {
  std::size_t test = 0;
  pid_t pid = -1;
  int in = -1, out = -1, err = -1, pidfd = -1;
  std::string_view input;
  std::size_t written = 0, cap = 0;
  std::int64_t started = 0, deadline = 0, drain_until = 0;
  bool exited = false;
  int wait_status = 0;
  RunOutcome r;
};

// True when `command` names a file: a path, or a name found on PATH.
// (execvp says EACCES for a name it did not find when some folder on PATH
// is closed to --user's user: that is "not found" all the same.)
bool command_exists(const std::string& command) {
  if (command.find('/') != std::string::npos) return access(command.c_str(), F_OK) == 0;
  const char* path = std::getenv("PATH");
  std::string dirs = path && *path ? path : "/usr/local/bin:/usr/bin:/bin";
  std::size_t start = 0;
  while (start <= dirs.size()) {
    std::size_t end = dirs.find(':', start);
    if (end == std::string::npos) end = dirs.size();
    const std::string dir = end > start ? dirs.substr(start, end - start) : ".";
    if (access((dir + "/" + command).c_str(), F_OK) == 0) return true;
    start = end + 1;
  }
  return false;
}

void failed_start(Child& c, int e) {
  c.r.started = false;
  c.r.start_error = std::strerror(e);
  c.r.exhausted = exhausted(e);
}

// Starts the program; false (and r.started false) when it cannot start.
bool spawn(const std::vector<std::string>& argv, const RunAs& as, Child& c) {
  int in[2], out[2], err[2], report[2];
  int made = 0;
  int* pipes[] = {in, out, err, report};
  for (int* p : pipes) {
    if (pipe2(p, O_CLOEXEC) != 0) {
      const int e = errno;
      for (int k = 0; k < made; ++k) close(pipes[k][0]), close(pipes[k][1]);
      failed_start(c, e);
      return false;
    }
    ++made;
  }
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const pid_t pid = fork();
  if (pid == 0) {
    // The child: its own process group, default signals (the grader ignores
    // SIGPIPE), the pipes as its stdio, then --user's identity. A failure
    // is its errno through `report` (closed by exec when it succeeds).
    setpgid(0, 0);
    for (int sig = 1; sig < NSIG; ++sig) signal(sig, SIG_DFL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, nullptr);
    int e = 0;
    if (dup2(in[0], 0) < 0 || dup2(out[1], 1) < 0 || dup2(err[1], 2) < 0) e = errno;
    if (!e && as.set &&
        (setgroups(as.groups.size(), as.groups.data()) != 0 || setgid(as.gid) != 0 || setuid(as.uid) != 0))
      e = errno;
    if (!e) {
      execvp(args[0], args.data());
      e = errno;
    }
    [[maybe_unused]] const ssize_t n = write(report[1], &e, sizeof e);
    _exit(127);
  }
  const int fork_errno = errno;
  close(in[0]), close(out[1]), close(err[1]), close(report[1]);
  c.in = in[1], c.out = out[0], c.err = err[0];
  if (pid < 0) {
    close(report[0]);
    close_fd(c.in), close_fd(c.out), close_fd(c.err);
    failed_start(c, fork_errno);
    return false;
  }
  c.pid = pid;
  setpgid(pid, pid);  // also here, so that no kill can come before the child's own call
  int e = 0;
  ssize_t n;
  do n = read(report[0], &e, sizeof e);
  while (n < 0 && errno == EINTR);
  close(report[0]);
  if (n == static_cast<ssize_t>(sizeof e)) {
    waitpid(pid, nullptr, 0);
    if (e == EACCES && !command_exists(argv[0])) e = ENOENT;
    close_fd(c.in), close_fd(c.out), close_fd(c.err);
    failed_start(c, e);
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

// The grader's children that are not a running test's program: what a
// program left behind outside its group, reparented to the grader (a child
// subreaper). Read from /proc; empty where there is none.
std::vector<pid_t> strays(const std::vector<pid_t>& programs) {
  std::vector<pid_t> found;
  DIR* d = opendir("/proc");
  if (!d) return found;
  const pid_t self = getpid();
  while (const dirent* e = readdir(d)) {
    char* end = nullptr;
    const long pid = std::strtol(e->d_name, &end, 10);
    if (pid <= 0 || *end) continue;
    char path[64], buffer[512];
    std::snprintf(path, sizeof path, "/proc/%ld/stat", pid);
    const int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) continue;
    const ssize_t n = read(fd, buffer, sizeof buffer - 1);
    close(fd);
    if (n <= 0) continue;
    buffer[n] = 0;
    const char* paren = std::strrchr(buffer, ')');  // "pid (comm) S ppid ..."; comm may hold ')'
    if (!paren) continue;
    char state = 0;
    long ppid = 0;
    if (std::sscanf(paren + 1, " %c %ld", &state, &ppid) != 2 || ppid != self) continue;
    if (std::find(programs.begin(), programs.end(), static_cast<pid_t>(pid)) == programs.end())
      found.push_back(static_cast<pid_t>(pid));
  }
  closedir(d);
  return found;
}

// Kills and collects every stray (their children become the grader's in
// turn, and go in the next round), until none is left.
void kill_strays(const std::vector<pid_t>& programs) {
  for (int round = 0; round < 10'000; ++round) {
    const std::vector<pid_t> found = strays(programs);
    if (found.empty()) return;
    for (pid_t p : found) kill(p, SIGKILL);
    for (pid_t p : found) waitpid(p, nullptr, 0);
  }
}

// --user: every process of that user, wherever it is (kill(-1) as the user).
void kill_user(const RunAs& as) {
  if (!as.set) return;
  const pid_t pid = fork();
  if (pid == 0) {
    if (setgroups(0, nullptr) == 0 && setgid(as.gid) == 0 && setuid(as.uid) == 0) kill(-1, SIGKILL);
    _exit(0);
  }
  if (pid > 0) waitpid(pid, nullptr, 0);
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

std::vector<pid_t> programs_of(const std::vector<Child>& running) {
  std::vector<pid_t> pids;
  for (const Child& c : running)
    if (!c.exited) pids.push_back(c.pid);
  return pids;
}

// Runs every test, `jobs` at a time. Stops starting tests once the program
// cannot be started (GradeRun::finish then reports that alone), or when a
// signal says stop (then it returns at once, every program killed).
void run_all(GradeRun& run, const std::vector<std::string>& paths, const RunAs& as) {
  const GradeOptions& o = run.options();
  std::vector<Child> running;
  std::size_t next = 0;
  bool cannot_start = false;
  while (((next < run.size() && !cannot_start) || !running.empty()) && !g_stop) {
    while (!cannot_start && !g_stop && next < run.size() && running.size() < run.jobs()) {
      Child c;
      c.test = next++;
      c.input = run.test(c.test).script;
      c.cap = run.test(c.test).max_output;
      c.started = now_ms();
      c.deadline = c.started + o.timeout_ms;
      if (!spawn(run.argv(paths[c.test]), as, c)) {
        cannot_start = true;
        run.set_outcome(c.test, std::move(c.r));
        for (Child& other : running) kill_group(other), other.r.timed_out = true;
        break;
      }
      running.push_back(std::move(c));
    }
    if (running.empty()) break;

    std::vector<pollfd> fds;
    if (g_wake[0] >= 0) fds.push_back({g_wake[0], POLLIN, 0});
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
    if (g_stop) break;

    bool ended = false;
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
        const bool open = drain(c.out, c.r.out, c.cap, over);
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
        ended = true;
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
    // What an ended program left outside its group (double fork, setsid)
    // is the grader's child now: killed before the next test starts.
    if (ended) kill_strays(programs_of(running));

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
  // Stopped by a signal, or done: nothing the tests started lives on.
  for (Child& c : running) {
    kill_group(c);
    if (!c.exited) waitpid(c.pid, nullptr, 0);
    close_fd(c.in), close_fd(c.out), close_fd(c.err), close_fd(c.pidfd);
  }
  kill_strays({});
  kill_user(as);
  kill_strays({});
}

// Writes a whole file, never through a symbolic link (O_NOFOLLOW), mode
// 0644; `flags` adds O_EXCL or O_TRUNC; `at`: the folder `path` is in, or
// AT_FDCWD. 0, or the errno of what failed.
int write_file(int at, const std::string& path, std::string_view bytes, int flags) {
  const int fd = openat(at, path.c_str(), O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC | flags, 0644);
  if (fd < 0) return errno;
  int e = 0;
  for (std::size_t done = 0; !e && done < bytes.size();) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) e = n < 0 ? errno : EIO;
    else done += static_cast<std::size_t>(n);
  }
  if (close(fd) != 0 && !e) e = errno;
  return e;
}

// Scripts on disk for "{}": a dir test has its file; the others are written
// to a temporary directory, removed afterwards. With --user every script is
// copied there (the tests' folder may be closed to that user), the folder
// readable by the user and writable by nobody else.
class ScriptFiles {
 public:
  Problem write(const GradeRun& run, std::vector<std::string>& paths, bool copy_all) {
    paths.assign(run.size(), std::string());
    if (!run.needs_script_paths()) return std::nullopt;
    const char* tmp = std::getenv("TMPDIR");
    const std::string base = tmp && *tmp ? tmp : "/tmp";
    std::string dir = base + "/slowstart-grade-XXXXXX";
    if (!mkdtemp(dir.data()))
      return "cannot make a temporary folder in '" + base + "' (TMPDIR): " + std::string(std::strerror(errno));
    dir_ = dir;
    if (copy_all) chmod(dir_.c_str(), 0711);
    for (std::size_t i = 0; i < run.size(); ++i) {
      const GradeTest& t = run.test(i);
      if (!t.path.empty() && !copy_all) {
        paths[i] = t.path;
        continue;
      }
      const std::string path = dir_ + "/test-" + std::to_string(i + 1) + ".txt";
      const int e = write_file(AT_FDCWD, path, t.script, O_EXCL);
      files_.push_back(path);
      if (e) return "cannot write '" + path + "': " + std::strerror(e);
      if (copy_all) fchmodat(AT_FDCWD, path.c_str(), 0644, 0);
      paths[i] = path;
    }
    return std::nullopt;
  }
  void remove() {
    for (const std::string& f : files_) unlink(f.c_str());
    files_.clear();
    if (!dir_.empty()) rmdir(dir_.c_str());
    dir_.clear();
  }
  ~ScriptFiles() { remove(); }

 private:
  std::string dir_;
  std::vector<std::string> files_;
};

// --user NAME: the user's ids and groups, or why it cannot be.
Problem run_as(const std::string& name, RunAs& as) {
  if (name.empty()) return std::nullopt;
  const passwd* pw = getpwnam(name.c_str());
  if (!pw) return "--user: there is no user '" + visible(name, 200) + "'";
  if (pw->pw_uid == 0) return "--user: '" + visible(name, 200) + "' is root: name an unprivileged user";
  if (geteuid() != 0) return "--user needs the grader to run as root (it runs as user " + std::to_string(geteuid()) + ")";
  as.set = true;
  as.uid = pw->pw_uid;
  as.gid = pw->pw_gid;
  int n = 64;
  as.groups.resize(static_cast<std::size_t>(n));
  if (getgrouplist(pw->pw_name, pw->pw_gid, as.groups.data(), &n) < 0) {
    as.groups.resize(static_cast<std::size_t>(n));
    getgrouplist(pw->pw_name, pw->pw_gid, as.groups.data(), &n);
  }
  as.groups.resize(static_cast<std::size_t>(std::max(n, 0)));
  return std::nullopt;
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

// The report into --output's file: opened only now (every program is dead),
// never through a symbolic link, and not inherited by anything.
int write_report(const std::string& path, std::string& out) {
  if (const int e = write_file(AT_FDCWD, path, out, O_TRUNC)) {
    std::fprintf(stderr, "slowstart grade: cannot write the report to '%s': %s\n", visible(path, 200).c_str(),
                 std::strerror(e));
    return kCannotRun;
  }
  out.clear();
  return 0;
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
  GradeIo io{list_txt, read_file};

  GradeRun run;
  std::string out, err;
  int status = 0;
  if (!run.start(args, env, io, out, err, status)) {
    put(err, stderr);
    put(out, stdout);
    return status;
  }
  put(err, stderr);  // a warning: an expected output over --max-output
  RunAs as;
  if (Problem p = run_as(run.options().user, as)) {
    std::fprintf(stderr, "slowstart grade: %s\n", p->c_str());
    return kCannotRun;
  }
  std::uint64_t file_limit = 0;
  const unsigned allowed = jobs_allowed(file_limit);
  err = run.clamp_jobs(allowed, file_limit);
  put(err, stderr);
#ifdef __linux__
  prctl(PR_SET_CHILD_SUBREAPER, 1);  // orphans of the programs become ours, to be killed
#endif
  // Stopping signals: noted, then every program killed and the files removed.
  if (pipe2(g_wake, O_CLOEXEC | O_NONBLOCK) != 0) g_wake[0] = g_wake[1] = -1;
  struct sigaction stop{}, previous[3]{};
  stop.sa_handler = on_stop;
  sigemptyset(&stop.sa_mask);
  const int stops[] = {SIGINT, SIGTERM, SIGHUP};
  for (int k = 0; k < 3; ++k) sigaction(stops[k], &stop, &previous[k]);
  ScriptFiles files;
  std::vector<std::string> paths;
  if (Problem p = files.write(run, paths, as.set)) {
    std::fprintf(stderr, "slowstart grade: %s\n", p->c_str());
    return kCannotRun;
  }
  // Writing to a program that closed its stdin must not kill the grader.
  struct sigaction ignore{}, previous_pipe{};
  ignore.sa_handler = SIG_IGN;
  sigaction(SIGPIPE, &ignore, &previous_pipe);
  const std::int64_t t0 = now_ms();
  run_all(run, paths, as);
  const std::int64_t wall = now_ms() - t0;
  sigaction(SIGPIPE, &previous_pipe, nullptr);
  files.remove();
  if (const int sig = g_stop) {
    // Interrupted: end as that signal would have (128 + its number in a shell).
    std::fflush(stdout);
    signal(sig, SIG_DFL);
    sigset_t just;
    sigemptyset(&just);
    sigaddset(&just, sig);
    sigprocmask(SIG_UNBLOCK, &just, nullptr);
    raise(sig);
    return 128 + sig;
  }
  for (int k = 0; k < 3; ++k) sigaction(stops[k], &previous[k], nullptr);
  status = run.finish(wall, out, err);
  put(err, stderr);
  if (!run.options().output.empty() && status != kCannotRun) {
    if (const int failed = write_report(run.options().output, out)) return failed;
  }
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
