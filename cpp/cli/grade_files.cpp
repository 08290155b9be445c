#include "cli/grade_files.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>

namespace slowstart::cli {

using namespace slowstart::grading;

namespace {

std::string join(const std::string& dir, const std::string& name) {
  return !dir.empty() && dir.back() == '/' ? dir + name : dir + "/" + name;
}

// The path with every link resolved, or empty.
std::string resolved(const std::string& path) {
  char* r = realpath(path.c_str(), nullptr);
  if (!r) return {};
  std::string out = r;
  std::free(r);
  return out;
}

// A tests' file: only a regular file is read (a link to /dev/zero or a FIFO
// is refused, never read without end or waited on), and through a link only
// when it stays inside the folder.
ReadStatus read_test_file(const std::string& dir, const std::string& name, std::string& bytes) {
  const std::string path = join(dir, name);
  struct stat link{};
  if (lstat(path.c_str(), &link) == 0 && S_ISLNK(link.st_mode)) {
    const std::string target = resolved(path), folder = resolved(dir);
    if (!target.empty() && !folder.empty() && target.compare(0, folder.size() + 1, folder + "/") != 0) {
      bytes = kLinksOut;
      return ReadStatus::Failed;
    }
  }
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
    if (stat(join(dir, name).c_str(), &st) == 0 && S_ISREG(st.st_mode)) names.push_back(name);
  }
  closedir(d);
  return std::nullopt;
}

// The regular files below `at`/`prefix`, links not followed, at most `most`.
Problem walk(int at, const std::string& prefix, std::size_t most, int depth, std::vector<std::string>& files) {
  DIR* d = fdopendir(at);
  if (!d) {
    const int e = errno;
    close(at);
    return std::string(std::strerror(e));
  }
  Problem problem;
  while (const dirent* e = readdir(d)) {
    const std::string name = e->d_name;
    if (name == "." || name == "..") continue;
    struct stat st{};
    if (fstatat(dirfd(d), name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) continue;
    const std::string rel = prefix.empty() ? name : prefix + "/" + name;
    if (S_ISREG(st.st_mode)) {
      if (files.size() >= most) {
        problem = "more than " + std::to_string(most) + " files";
        break;
      }
      files.push_back(rel);
    } else if (S_ISDIR(st.st_mode) && depth < 64) {
      const int sub = openat(dirfd(d), name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      if (sub < 0) continue;
      if ((problem = walk(sub, rel, most, depth + 1, files))) break;
    }
  }
  closedir(d);
  return problem;
}

Problem list_files(const std::string& dir, std::size_t most, std::vector<std::string>& files) {
  const int at = open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (at < 0) return std::string(std::strerror(errno));
  return walk(at, "", most, 0, files);
}

Problem read_at(const std::string& path, std::uint64_t offset, std::size_t max, std::string& bytes) {
  bytes.clear();
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY | O_NOFOLLOW);
  if (fd < 0) return std::string(std::strerror(errno));
  struct stat st{};
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    close(fd);
    return std::string("not a regular file");
  }
  bytes.resize(max);
  std::size_t got = 0;
  while (got < max) {
    const ssize_t n = pread(fd, bytes.data() + got, max - got, static_cast<off_t>(offset + got));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int e = errno;
      close(fd);
      return std::string(std::strerror(e));
    }
    if (n == 0) break;
    got += static_cast<std::size_t>(n);
  }
  close(fd);
  bytes.resize(got);
  return std::nullopt;
}

}  // namespace

GradeIo grade_io() { return GradeIo{list_txt, read_test_file, list_files, read_at}; }

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

Problem ScriptFiles::write(const GradeRun& run, std::vector<std::string>& paths, bool copy_all) {
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

void ScriptFiles::remove() {
  for (const std::string& f : files_) unlink(f.c_str());
  files_.clear();
  if (!dir_.empty()) rmdir(dir_.c_str());
  dir_.clear();
}

Problem report_target_problem(const std::string& path) {
  struct stat st{};
  if (lstat(path.c_str(), &st) != 0) return std::nullopt;  // not there yet (or the write will say why)
  if (S_ISLNK(st.st_mode)) return std::string("a symbolic link (a report is never written through one)");
  if (!S_ISREG(st.st_mode)) return std::string("not a regular file");
  return std::nullopt;
}

Problem leave_report(const std::string& path, std::string_view bytes) {
  if (Problem p = report_target_problem(path)) return p;
  const std::size_t slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "" : path.substr(0, slash + 1);
  const std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  std::string temp = dir + "." + base + ".slowstart-XXXXXX";
  const int fd = mkostemp(temp.data(), O_CLOEXEC);
  if (fd < 0) {
    const int e = errno;
    unlink(path.c_str());  // an older report there is not this run's: it goes (a full disk, above all)
    return std::string(std::strerror(e));
  }
  int e = fchmod(fd, 0644) == 0 ? 0 : errno;
  for (std::size_t done = 0; !e && done < bytes.size();) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) e = n < 0 ? errno : EIO;
    else done += static_cast<std::size_t>(n);
  }
  if (!e && fsync(fd) != 0) e = errno;  // a full disk may only say so here
  if (close(fd) != 0 && !e) e = errno;
  if (!e && rename(temp.c_str(), path.c_str()) != 0) e = errno;
  if (e) {
    unlink(temp.c_str());
    // The report is this run's or nothing: an older one left there (an
    // all-pass grade.xml committed, a results.json of an earlier run) would
    // be read as this run's.
    unlink(path.c_str());
    return std::string(std::strerror(e));
  }
  return std::nullopt;
}

}  // namespace slowstart::cli
