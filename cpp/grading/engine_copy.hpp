// Finding a copy of the engine in a learner's submission (`slowstart grade
// --submission DIR`): a program that brings the engine along (its
// WebAssembly, its native build, or the package's JavaScript) can print the
// engine's answers instead of computing them, and no test can tell. The
// grader cannot prevent that (the package is public: every course page that
// embeds the element serves it), so it says so, in every report format, and
// a set-up may refuse such a submission (--engine-copies refuse).
//
// By content, not by name: a file is a copy when it holds enough of the
// engine's own strings (marks), written as they are, in base64 (standard or
// URL-safe, across line breaks and string quotes) or in hex. Every build of
// the engine holds the command table's sentences (core/command.hpp's
// kKeywords summaries: the WebAssembly modules, the native CLI, the element
// chunks); the package's JavaScript holds the engine module's export names
// and the lab module's function names. What it cannot see: a copy that is
// compressed (zip, gzip), encrypted, split across files, rewritten, or
// fetched at run time (docs/SECURITY.md says so).
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace slowstart::grading {

// What was found in one file.
struct EngineCopy {
  std::string file;      // the path below the submission's folder, shown as visible()
  std::string what;      // e.g. "the engine's command table (its WebAssembly or native build)"
  std::string encoding;  // "as it is", "in base64" or "in hex"
};

// Looks through one file at a time, fed in chunks of any size.
class EngineCopyFinder {
 public:
  EngineCopyFinder();
  void start_file();
  void feed(std::string_view chunk);
  // The mark with enough of its strings in the file, if any.
  bool found(EngineCopy& copy) const;

 private:
  struct Pattern {
    std::string bytes;
    std::uint16_t mark, string;
    std::uint8_t encoding;  // 0 as it is, 1 base64, 2 hex
    bool squeezed;          // searched in the text without blanks and quotes
  };
  void scan(std::string& carry, std::string_view chunk, bool squeezed);

  std::vector<Pattern> patterns_;
  std::vector<std::vector<std::uint16_t>> by_start_;  // [first two bytes]: patterns that start so
  std::vector<std::uint64_t> starts_;                 // a bit per first two bytes that some pattern starts with
  std::size_t longest_ = 0;
  std::string carry_, carry_squeezed_;
  std::vector<std::vector<std::uint8_t>> seen_;  // [mark][string]: 0, or the encoding + 1
};

// The limits of a submission looked through: past them it counts as a
// finding (too large to look through), so that padding does not hide a copy.
inline constexpr std::size_t kSubmissionFiles = 20'000;
inline constexpr std::uint64_t kSubmissionBytes = std::uint64_t{1} << 31;  // 2 GiB

}  // namespace slowstart::grading
