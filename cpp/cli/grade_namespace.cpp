#include "cli/grade_namespace.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#ifdef __linux__
#include <sched.h>
#endif

namespace slowstart::cli {

namespace {

// Every descriptor closed: nothing of the grader's or of the program's stays
// open in a process that never execs.
void close_all_from(unsigned first) {
#if defined(SYS_close_range)
  if (syscall(SYS_close_range, first, ~0U, 0U) == 0) return;
#endif
  for (int fd = static_cast<int>(first); fd < 1 << 16; ++fd) close(fd);
}

void on_child(int) {}  // only to wake ppoll: a process of the namespace ended

// The holder, PID 1 of the namespace: the lifeline as its stdin and nothing
// else open (it never execs: the grader's descriptors must not stay open in
// it), a session of its own (no program can move it to another group), and
// it collects every orphan of the namespace until the lifeline closes.
// Pids in the namespace continue from the holder's own pid as the machine
// sees it (/proc is the machine's), so that programs of tests running at
// once do not all get the same small pid (a program that names a file
// after its pid, `$$`, would meet another test's). Then says it is done.
void number_from_own_pid(int ready) {
  char self[32] = {};
  const ssize_t n = readlink("/proc/self", self, sizeof self - 1);
  const int fd = n > 0 ? open("/proc/sys/kernel/ns_last_pid", O_WRONLY | O_CLOEXEC) : -1;
  if (fd >= 0) {
    [[maybe_unused]] const ssize_t w = write(fd, self, static_cast<std::size_t>(n));
    close(fd);
  }
  [[maybe_unused]] const ssize_t w = write(ready, "x", 1);
}

[[noreturn]] void hold(int lifeline, int ready) {
  number_from_own_pid(ready);
  if (dup2(lifeline, 0) < 0) _exit(1);
  close_all_from(1);
  setsid();
  sigset_t child;
  sigemptyset(&child);
  sigaddset(&child, SIGCHLD);
  sigprocmask(SIG_BLOCK, &child, nullptr);
  struct sigaction wake{};
  wake.sa_handler = on_child;
  sigemptyset(&wake.sa_mask);
  sigaction(SIGCHLD, &wake, nullptr);
  sigset_t none;
  sigemptyset(&none);
  for (;;) {
    while (waitpid(-1, nullptr, WNOHANG) > 0) {
    }
    pollfd p{0, POLLIN, 0};
    // SIGCHLD unblocked only while waiting: none is missed between the reaping and the wait.
    const int n = ppoll(&p, 1, nullptr, &none);
    if (n > 0 || (n < 0 && errno != EINTR)) _exit(0);
  }
}

}  // namespace

int fork_into_namespace() {
  const pid_t program = fork();
  if (program < 0) return errno;
  if (program == 0) return 0;
  close_all_from(0);
  const rlimit no_core{0, 0};
  setrlimit(RLIMIT_CORE, &no_core);  // its own end by the program's signal leaves no core of its own
  int status = 0;
  while (waitpid(program, &status, 0) < 0)
    if (errno != EINTR) _exit(127);
  if (WIFEXITED(status)) _exit(WEXITSTATUS(status));
  const int sig = WTERMSIG(status);
  signal(sig, SIG_DFL);
  sigset_t just;
  sigemptyset(&just);
  sigaddset(&just, sig);
  sigprocmask(SIG_UNBLOCK, &just, nullptr);
  kill(getpid(), sig);
  _exit(128 + sig);
}

bool pid_namespace_works() {
#ifdef __linux__
  if (const char* off = std::getenv(kNoNamespaceSwitch); off && *off) return false;
  const pid_t probe = fork();
  if (probe == 0) {
    if (unshare(CLONE_NEWPID) != 0) _exit(1);
    const pid_t inside = fork();
    if (inside == 0) _exit(getpid() == 1 ? 0 : 1);
    int status = 0;
    _exit(inside > 0 && waitpid(inside, &status, 0) == inside && WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1);
  }
  int status = 0;
  if (probe < 0) return false;
  while (waitpid(probe, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
#else
  return false;
#endif
}

bool Lifeline::open() { return pipe2(fds_, O_CLOEXEC) == 0; }

Lifeline::~Lifeline() {
  for (int& fd : fds_)
    if (fd >= 0) close(fd), fd = -1;
}

pid_t enter_pid_namespace(int lifeline) {
#ifdef __linux__
  if (unshare(CLONE_NEWPID) != 0) return -errno;
  int ready[2];
  if (pipe2(ready, O_CLOEXEC) != 0) return -errno;
  const pid_t holder = fork();
  if (holder == 0) hold(lifeline, ready[1]);
  const int e = errno;
  close(ready[1]);
  char x;
  if (holder > 0)
    while (read(ready[0], &x, 1) < 0 && errno == EINTR) {
    }
  close(ready[0]);
  return holder < 0 ? -e : holder;
#else
  (void)lifeline;
  return -ENOSYS;
#endif
}

}  // namespace slowstart::cli
