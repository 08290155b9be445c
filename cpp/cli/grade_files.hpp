// The file side of `slowstart grade` and `slowstart tests` in the native CLI:
// the tests' folder and the submission as grade.hpp's GradeIo reads them,
// the scripts written for "{}", and the report file (--output). The Node
// CLI does the same in web/api/grade-files.ts.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "grading/grade.hpp"

namespace slowstart::cli {

// The tests' folder and the submission, read as GradeIo says: regular files
// only, a tests' file through a symbolic link only when it stays inside its
// folder, the submission without following any link.
grading::GradeIo grade_io();

// Writes a whole file, never through a symbolic link (O_NOFOLLOW), mode
// 0644; `flags` adds O_EXCL or O_TRUNC; `at`: the folder `path` is in, or
// AT_FDCWD. 0, or the errno of what failed.
int write_file(int at, const std::string& path, std::string_view bytes, int flags);

// Scripts on disk for "{}": a dir test has its file; the others are written
// to a temporary directory, removed afterwards. With --user every script is
// copied there (the tests' folder may be closed to that user), the folder
// readable by the user and writable by nobody else.
class ScriptFiles {
 public:
  Problem write(const grading::GradeRun& run, std::vector<std::string>& paths, bool copy_all);
  void remove();
  ~ScriptFiles() { remove(); }

 private:
  std::string dir_;
  std::vector<std::string> files_;
};

// --output's file. A report is written to a new file beside it and renamed
// into place, so the file is always a whole report (never half of one, never
// an older one once grading ends), and nothing is written through a link:
// the rename replaces the name itself. A target that is there and is not a
// regular file (a FIFO, a device, a folder, a symbolic link) is refused at
// once, never opened (so never waited on).
// Why `path` cannot take a report ("not a regular file"), or nothing.
Problem report_target_problem(const std::string& path);
// Leaves `bytes` at `path` as above, or says why it could not.
Problem leave_report(const std::string& path, std::string_view bytes);

}  // namespace slowstart::cli
