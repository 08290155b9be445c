#include "cli/stdio.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>

namespace slowstart::cli {

namespace {

int g_write_errno = 0;  // the first write error seen (0: none yet)
bool g_reported = false;  // write_failed() has said it once

bool failed(std::FILE* stream) {
  if (!std::ferror(stream)) return false;
  if (g_write_errno == 0) g_write_errno = errno != 0 ? errno : EIO;
  return true;
}

bool is_open(int fd) { return ::fcntl(fd, F_GETFD) != -1 || errno != EBADF; }

// As if the kernel had sent SIGPIPE at the failed write, which is what happens
// unless SIGPIPE is ignored or blocked: undo both, then raise it.
[[noreturn]] void die_of_sigpipe() {
  std::signal(SIGPIPE, SIG_DFL);
  sigset_t pipe;
  sigemptyset(&pipe);
  sigaddset(&pipe, SIGPIPE);
  sigprocmask(SIG_UNBLOCK, &pipe, nullptr);
  std::raise(SIGPIPE);
  std::_Exit(128 + SIGPIPE);  // not reached
}

}  // namespace

bool standard_streams_open() {
  if (!is_open(STDERR_FILENO)) return false;  // nowhere to say it
  if (is_open(STDOUT_FILENO)) return true;
  std::fprintf(stderr, "slowstart: write error: %s\n", std::strerror(EBADF));
  return false;
}

namespace {
template <class Text>
bool put_text(Text& text, std::FILE* to) {
  if (!text.empty()) {
    errno = 0;
    std::fwrite(text.data(), 1, text.size(), to);
    text.clear();
  }
  return !failed(to);
}
}  // namespace

bool put(std::string& text, std::FILE* to) { return put_text(text, to); }
bool put(slowstart::ByteBuffer& text, std::FILE* to) { return put_text(text, to); }

bool flush_standard_streams() {
  errno = 0;
  std::fflush(stdout);
  const bool out_failed = failed(stdout);
  errno = 0;
  std::fflush(stderr);
  return !failed(stderr) && !out_failed;
}

int write_failed() {
  // EPIPE from a pipe, ECONNRESET from a socket whose reader closed it with
  // bytes unread (what a parent's socketpair stdio gives): the reader is gone.
  if (g_write_errno == EPIPE || g_write_errno == ECONNRESET) die_of_sigpipe();
  if (g_reported) return kCannotRun;
  g_reported = true;
  // If stderr is the stream that failed, this fails too: the status still says it.
  std::fprintf(stderr, "slowstart: write error: %s\n", std::strerror(g_write_errno != 0 ? g_write_errno : EIO));
  std::fflush(stderr);
  return kCannotRun;
}

}  // namespace slowstart::cli
