#include "cli/grade_processes.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <pwd.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "grading/grade_report.hpp"

namespace slowstart::cli {

using namespace slowstart::grading;

volatile sig_atomic_t g_stop = 0;

namespace {

int g_wake[2] = {-1, -1};
struct sigaction g_previous[3]{};
constexpr int kStops[] = {SIGINT, SIGTERM, SIGHUP};

void on_stop(int sig) {
  if (!g_stop) g_stop = sig;
  if (g_wake[1] >= 0) {
    const int saved = errno;
    [[maybe_unused]] const ssize_t n = write(g_wake[1], "x", 1);
    errno = saved;
  }
}

std::int64_t now_ms() {
  timespec t{};
  clock_gettime(CLOCK_MONOTONIC, &t);
  return static_cast<std::int64_t>(t.tv_sec) * 1000 + t.tv_nsec / 1'000'000;
}

void pause_ms(long ms) {
  timespec t{0, ms * 1'000'000};
  nanosleep(&t, nullptr);
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

void set_nonblocking(int fd) { fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK); }

void close_fd(int& fd) {
  if (fd >= 0) close(fd);
  fd = -1;
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

// In the child, before exec: every descriptor above 2 closed on exec (the
// grader's own, and any its caller left open: `exec 3>>log`, a harness's
// close_fds=False), so the program reaches none of them.
void close_above_stdio() {
#if defined(SYS_close_range)
  if (syscall(SYS_close_range, 3U, ~0U, 4U /* CLOSE_RANGE_CLOEXEC */) == 0) return;
#endif
  long most = sysconf(_SC_OPEN_MAX);
  if (most < 0 || most > 1 << 20) most = 1 << 20;
  for (int fd = 3; fd < most; ++fd) fcntl(fd, F_SETFD, FD_CLOEXEC);
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
    // The child: a session of its own (no controlling terminal), default
    // signals (the grader ignores SIGPIPE), the pipes as its stdio and
    // nothing else, then --user's identity. A failure is its errno through
    // `report` (closed by exec when it succeeds).
    int e = setsid() < 0 ? errno : 0;
    for (int sig = 1; sig < NSIG; ++sig) signal(sig, SIG_DFL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, nullptr);
    if (!e && (dup2(in[0], 0) < 0 || dup2(out[1], 1) < 0 || dup2(err[1], 2) < 0)) e = errno;
    if (!e) close_above_stdio();
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
  // Until exec (or its failure) closes `report`: so the program's session
  // and group exist before any kill can be aimed at them.
  int e = 0;
  ssize_t n;
  do n = read(report[0], &e, sizeof e);
  while (n < 0 && errno == EINTR);
  close(report[0]);
  if (n == static_cast<ssize_t>(sizeof e)) {
    waitpid(pid, nullptr, 0);  // it has _exit()ed or is about to
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

struct Proc {
  pid_t pid = 0, ppid = 0, pgrp = 0;
  char state = 0;
};

// A process's "pid (comm) S ppid pgrp ...", from /proc; false when it is gone.
bool read_stat(pid_t pid, Proc& p) {
  char path[64], buffer[512];
  std::snprintf(path, sizeof path, "/proc/%ld/stat", static_cast<long>(pid));
  const int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  const ssize_t n = read(fd, buffer, sizeof buffer - 1);
  close(fd);
  if (n <= 0) return false;
  buffer[n] = 0;
  const char* paren = std::strrchr(buffer, ')');  // comm may hold ')'
  long ppid = 0, pgrp = 0;
  if (!paren || std::sscanf(paren + 1, " %c %ld %ld", &p.state, &ppid, &pgrp) != 3) return false;
  p.pid = pid, p.ppid = static_cast<pid_t>(ppid), p.pgrp = static_cast<pid_t>(pgrp);
  return true;
}

template <typename Each>
void each_process(Each each) {
  DIR* d = opendir("/proc");
  if (!d) return;
  while (const dirent* e = readdir(d)) {
    char* end = nullptr;
    const long pid = std::strtol(e->d_name, &end, 10);
    if (pid > 0 && !*end) each(static_cast<pid_t>(pid));
  }
  closedir(d);
}

bool contains(const std::vector<pid_t>& list, pid_t pid) { return std::find(list.begin(), list.end(), pid) != list.end(); }

// Kills and collects the grader's children that are not a running test's
// program: what programs left behind outside their groups (reparented to
// the grader, a child subreaper), each with its process group unless that
// is a running program's. Their own children come to the grader in turn
// and go in the next round. Never waits on one process (WNOHANG), and
// stops after `budget_ms`: true when none is left.
bool kill_strays(const std::vector<pid_t>& programs, std::int64_t budget_ms) {
  const std::int64_t deadline = now_ms() + budget_ms;
  const pid_t self = getpid(), own_group = getpgrp();
  for (;;) {
    std::vector<Proc> found;
    std::size_t seen = 0;
    each_process([&](pid_t pid) {
      if (++seen % 64 == 0 && now_ms() > deadline) return;  // a round of a huge /proc stays within the budget
      Proc p;
      if (read_stat(pid, p) && p.ppid == self && !contains(programs, pid)) found.push_back(p);
    });
    if (found.empty()) return true;
    bool dying = false;
    for (const Proc& p : found) {
      if (p.state == 'Z') continue;
      if (p.pgrp > 1 && p.pgrp != own_group && !contains(programs, p.pgrp)) kill(-p.pgrp, SIGKILL);
      kill(p.pid, SIGKILL);
      dying = true;
    }
    for (const Proc& p : found) waitpid(p.pid, nullptr, WNOHANG);
    if (now_ms() >= deadline) return false;
    if (dying) pause_ms(1);  // a killed process takes a moment to become a zombie
  }
}

// The processes whose real or effective uid is `uid`, zombies aside.
std::size_t processes_of(uid_t uid) {
  std::size_t n = 0;
  each_process([&](pid_t pid) {
    char path[64], buffer[2048];
    std::snprintf(path, sizeof path, "/proc/%ld/status", static_cast<long>(pid));
    const int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return;
    const ssize_t got = read(fd, buffer, sizeof buffer - 1);
    close(fd);
    if (got <= 0) return;
    buffer[got] = 0;
    const char* state = std::strstr(buffer, "\nState:\t");
    const char* uids = std::strstr(buffer, "\nUid:\t");
    unsigned long real = 0, effective = 0;
    if (!uids || std::sscanf(uids + 6, "%lu %lu", &real, &effective) != 2) return;
    if (state && state[8] == 'Z') return;
    if (real == uid || effective == uid) ++n;
  });
  return n;
}

// --user: every process of that user, wherever it is: kill(-1) as the user,
// which the kernel does atomically against fork.
void kill_user(const RunAs& as) {
  if (!as.set) return;
  const pid_t pid = fork();
  if (pid == 0) {
    if (setgroups(0, nullptr) == 0 && setgid(as.gid) == 0 && setuid(as.uid) == 0) kill(-1, SIGKILL);
    _exit(0);
  }
  for (const std::int64_t until = now_ms() + 2000; pid > 0 && now_ms() < until; pause_ms(1))
    if (waitpid(pid, nullptr, WNOHANG) != 0) break;
}

// kill_user, then waits (a little) for the user's processes to be gone, and
// collects the ones that were the grader's children.
void clear_user(const RunAs& as) {
  if (!as.set) return;
  kill_user(as);
  for (const std::int64_t until = now_ms() + 2000; processes_of(as.uid) > 0 && now_ms() < until;) pause_ms(2);
  kill_strays({}, 500);
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

// How long a sweep of strays may take when a test ends, and at the end.
constexpr std::int64_t kSweepMs = 1000, kLastSweepMs = 5000;

}  // namespace

Problem run_as(const std::string& name, RunAs& as) {
  if (name.empty()) return std::nullopt;
  const passwd* pw = getpwnam(name.c_str());
  if (!pw) return "--user: there is no user '" + visible(name, 200) + "'";
  if (pw->pw_uid == 0) return "--user: '" + visible(name, 200) + "' is root: name an unprivileged user";
  if (geteuid() != 0) return "--user needs the grader to run as root (it runs as user " + std::to_string(geteuid()) + ")";
  as.set = true;
  as.name = name;
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

Problem UserClaim::claim(const RunAs& as) {
  if (!as.set) return std::nullopt;
  const std::string shown = "--user: another run is using '" + visible(as.name, 200) + "'";
  // The abstract socket "\0slowstart-grade-user-UID", its whole sun_path
  // (zeros after the name): the name as the Node CLI binds it (libuv gives
  // the whole sun_path's length), so that the two CLIs exclude each other.
  sockaddr_un a{};
  a.sun_family = AF_UNIX;
  const std::string name = "slowstart-grade-user-" + std::to_string(as.uid);
  std::memcpy(a.sun_path + 1, name.data(), name.size());
  fd_ = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd_ >= 0 && bind(fd_, reinterpret_cast<const sockaddr*>(&a), sizeof a) != 0) {
    const int e = errno;
    close_fd(fd_);
    if (e == EADDRINUSE) return shown + " (every process of the user is killed after each round of tests: give each run "
                                        "a user of its own)";
  }
  if (const std::size_t n = processes_of(as.uid))
    return shown + ": it has " + std::to_string(n) + (n == 1 ? " process" : " processes") +
           " running (every process of the user is killed after each round of tests: give each run a user of its own)";
  return std::nullopt;
}

UserClaim::~UserClaim() { close_fd(fd_); }

void install_stop_handlers() {
#ifdef __linux__
  prctl(PR_SET_CHILD_SUBREAPER, 1);  // orphans of the programs become ours, to be killed
#endif
  if (pipe2(g_wake, O_CLOEXEC | O_NONBLOCK) != 0) g_wake[0] = g_wake[1] = -1;
  struct sigaction stop{};
  stop.sa_handler = on_stop;
  sigemptyset(&stop.sa_mask);
  for (int k = 0; k < 3; ++k) sigaction(kStops[k], &stop, &g_previous[k]);
}

void restore_stop_handlers() {
  for (int k = 0; k < 3; ++k) sigaction(kStops[k], &g_previous[k], nullptr);
}

bool run_all(GradeRun& run, const std::vector<std::string>& paths, const RunAs& as) {
  const GradeOptions& o = run.options();
  std::vector<Child> running;
  std::size_t next = 0;
  bool cannot_start = false;
  while (((next < run.size() && !cannot_start) || !running.empty()) && !g_stop) {
    // With --user, a round of tests starts once the last one is over and
    // the user has no process left.
    const bool may_start = !as.set || running.empty();
    if (as.set && may_start && next > 0) clear_user(as);
    while (may_start && !cannot_start && !g_stop && next < run.size() && running.size() < run.jobs()) {
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
        // names the group, then collect it (a zombie: no wait).
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
    // is the grader's child now: killed before the next test starts. With
    // --user and no other test running, every process of the user goes at
    // once (atomic: a fork bomb cannot outrun it).
    if (ended && as.set && programs_of(running).empty()) kill_user(as);
    if (ended) kill_strays(programs_of(running), kSweepMs);

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
  for (Child& c : running) kill_group(c);
  for (const std::int64_t until = now_ms() + 2000; now_ms() < until;) {
    bool waiting = false;
    for (Child& c : running)
      if (!c.exited) c.exited = waitpid(c.pid, nullptr, WNOHANG) != 0, waiting = waiting || !c.exited;
    if (!waiting) break;
    pause_ms(1);
  }
  for (Child& c : running) close_fd(c.in), close_fd(c.out), close_fd(c.err), close_fd(c.pidfd);
  clear_user(as);
  return kill_strays({}, kLastSweepMs);
}

}  // namespace slowstart::cli
