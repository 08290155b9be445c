// Runs a CLI on one huge generated line and reports its peak memory (the
// 1 GB line test, tests/web/unit/huge-line.test.ts).
//
//   peak_rss KIND BYTES -- COMMAND [ARGS...]
//
// Feeds the command's stdin from this small process (so that the command's
// peak is its own, not a copy of a large parent's): `POOL a=1 b=2`, one line
// of KIND of about BYTES bytes, then `PICK` twice. Prints one JSON object:
// the command's peak resident set size in KiB (wait4's ru_maxrss), its exit
// status, the seconds it took, and its stdout and stderr (their lengths and
// their first bytes, up to 300, JSON-escaped).
//
// KINDs: comment ('#' and 'c's), token (one token of 'x's), number ('NOW ',
// zeros, then 5), args ('PICK' and ' a' repeated), names (a POOL line of
// distinct 'nK=1' entries: the memory a pool would keep).
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

std::string json_text(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s.substr(0, 300)) {
    if (c == '"' || c == '\\') out += '\\', out += static_cast<char>(c);
    else if (c < 0x20 || c >= 0x7F) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else out += static_cast<char>(c);
  }
  return out + "\"";
}

// The input, produced a block at a time.
class Input {
 public:
  Input(std::string kind, unsigned long long size) : kind_(std::move(kind)), size_(size) {}
  // The next block, or "" when done.
  std::string next() {
    if (stage_ == 0) {
      stage_ = 1;
      std::string head = "POOL a=1 b=2\n";
      if (kind_ == "comment") head += "#";
      else if (kind_ == "number") head += "NOW ";
      else if (kind_ == "args") head += "PICK";
      else if (kind_ == "names") head += "POOL";
      written_ = head.size() - 13;
      return head;
    }
    if (stage_ == 1 && written_ < size_) {
      std::string block;
      if (kind_ == "names") {
        for (int i = 0; i < 20000; ++i) block += " n" + std::to_string(name_++) + "=1";
      } else {
        if (repeated_.empty()) {
          const char* unit = kind_ == "comment" ? "c" : kind_ == "token" ? "x" : kind_ == "number" ? "0" : " a";
          while (repeated_.size() < (1u << 20)) repeated_ += unit;
        }
        block = repeated_;
      }
      written_ += block.size();
      return block;
    }
    if (stage_ == 1) {
      stage_ = 2;
      return std::string(kind_ == "number" ? "5" : "") + "\nPICK\nPICK\n";
    }
    return "";
  }

 private:
  std::string kind_, repeated_;
  unsigned long long size_, written_ = 0, name_ = 0;
  int stage_ = 0;
};

}  // namespace

int main(int argc, char** argv) {
  int dash = 1;
  while (dash < argc && std::strcmp(argv[dash], "--") != 0) ++dash;
  if (argc < 4 || dash != 3 || dash + 1 >= argc) {
    std::fprintf(stderr, "usage: peak_rss KIND BYTES -- COMMAND [ARGS...]\n");
    return 2;
  }
  signal(SIGPIPE, SIG_IGN);
  int in[2], out[2], err[2];
  if (pipe(in) || pipe(out) || pipe(err)) return 2;
  const auto start = std::chrono::steady_clock::now();
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(in[0], 0), dup2(out[1], 1), dup2(err[1], 2);
    for (int fd : {in[0], in[1], out[0], out[1], err[0], err[1]}) close(fd);
    execvp(argv[dash + 1], argv + dash + 1);
    _exit(127);
  }
  close(in[0]), close(out[1]), close(err[1]);
  for (int fd : {in[1], out[0], err[0]}) fcntl(fd, F_SETFL, O_NONBLOCK);
  Input input(argv[1], std::strtoull(argv[2], nullptr, 10));
  std::string pending = input.next(), stdout_text, stderr_text;
  unsigned long long stdout_length = 0, stderr_length = 0;
  bool writing = true, out_open = true, err_open = true;
  std::vector<char> buf(1 << 16);
  while (out_open || err_open) {
    std::vector<pollfd> fds;
    if (writing) fds.push_back({in[1], POLLOUT, 0});
    if (out_open) fds.push_back({out[0], POLLIN, 0});
    if (err_open) fds.push_back({err[0], POLLIN, 0});
    if (poll(fds.data(), fds.size(), -1) < 0) continue;
    for (const pollfd& p : fds) {
      if (p.fd == in[1] && (p.revents & (POLLOUT | POLLERR | POLLHUP))) {
        const ssize_t n = write(in[1], pending.data(), pending.size());
        if (n < 0 && errno != EAGAIN) writing = false;  // the command closed its stdin
        if (n > 0) pending.erase(0, static_cast<std::size_t>(n));
        if (writing && pending.empty()) pending = input.next();
        if (!writing || pending.empty()) writing = false, close(in[1]);
      } else if (p.revents & (POLLIN | POLLHUP | POLLERR)) {
        const bool is_out = p.fd == out[0];
        const ssize_t n = read(p.fd, buf.data(), buf.size());
        if (n <= 0) {
          if (n == 0 || errno != EAGAIN) (is_out ? out_open : err_open) = false;
          continue;
        }
        std::string& text = is_out ? stdout_text : stderr_text;
        if (text.size() < 300) text.append(buf.data(), std::min<std::size_t>(n, 300 - text.size()));
        (is_out ? stdout_length : stderr_length) += static_cast<unsigned long long>(n);
      }
    }
  }
  if (writing) close(in[1]);
  int status = 0;
  rusage usage{};
  wait4(pid, &status, 0, &usage);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf(
      "{\"peakKiB\":%ld,\"status\":%d,\"seconds\":%.2f,\"stdoutLength\":%llu,\"stdout\":%s,"
      "\"stderrLength\":%llu,\"stderr\":%s}\n",
      usage.ru_maxrss, WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status), seconds, stdout_length,
      json_text(stdout_text).c_str(), stderr_length, json_text(stderr_text).c_str());
  return 0;
}
