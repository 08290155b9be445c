// The performance log (docs/performance-log.md) and the code that cites it:
// every id a comment in cpp/ or docs/PERFORMANCE.md names (PL-7) must have
// its entry in the log, the log's ids run 1, 2, 3, … in order (append-only:
// an entry is never renumbered or dropped), and target-specific code (an
// `#if` on __wasm__, __EMSCRIPTEN__ or __clang__) lives only in the fast
// path, cpp/fast/, and names its entry nearby (docs/PERFORMANCE.md's rule).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

const fs::path kRoot = SLOWSTART_SOURCE_DIR;

std::vector<std::string> lines_of(const fs::path& path) {
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << "cannot read " << path;
  std::vector<std::string> out;
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

// The ids a line names: "PL-" and digits, not inside a longer word
// ("MPL-2.0" is a licence, not an entry).
std::vector<int> ids_named(const std::string& line) {
  static const std::regex id(R"re((^|[^A-Za-z0-9_-])PL-([0-9]+)\b)re");
  std::vector<int> out;
  for (std::sregex_iterator it(line.begin(), line.end(), id), end; it != end; ++it)
    out.push_back(std::stoi((*it)[2]));
  return out;
}

// The ids the log defines: its entries' headings, "## PL-n · date · title".
std::vector<int> ids_defined(const std::vector<std::string>& log) {
  static const std::regex heading(R"re(^## PL-([0-9]+) · )re");
  std::vector<int> out;
  for (const std::string& line : log) {
    std::smatch m;
    if (std::regex_search(line, m, heading)) out.push_back(std::stoi(m[1]));
  }
  return out;
}

struct Citation {
  std::string where;  // file:line
  int id;
};

std::vector<Citation> citations(const fs::path& file, const std::string& shown) {
  std::vector<Citation> out;
  const auto text = lines_of(file);
  for (std::size_t i = 0; i < text.size(); ++i)
    for (int id : ids_named(text[i])) out.push_back({shown + ":" + std::to_string(i + 1), id});
  return out;
}

std::vector<fs::path> cpp_files() {
  std::vector<fs::path> out;
  for (const auto& entry : fs::recursive_directory_iterator(kRoot / "cpp"))
    if (entry.is_regular_file()) out.push_back(entry.path());
  return out;
}

// Which ids named anywhere in `named` the log lacks, as "file:line names PL-n".
std::vector<std::string> missing(const std::vector<Citation>& named, const std::vector<int>& defined) {
  const std::set<int> have(defined.begin(), defined.end());
  std::vector<std::string> out;
  for (const Citation& c : named)
    if (!have.count(c.id)) out.push_back(c.where + " names PL-" + std::to_string(c.id));
  return out;
}

TEST(PerformanceLog, IdsAreFoundAsWordsOnly) {
  EXPECT_EQ(ids_named("kept (PL-3; PL-12 re-measured it)"), (std::vector<int>{3, 12}));
  EXPECT_EQ(ids_named("PL-7 at the start"), std::vector<int>{7});
  EXPECT_TRUE(ids_named("license MPL-2.0, XPL-4, PL-x").empty());
  EXPECT_EQ(ids_defined({"## PL-1 · 2026-12-01 · a", "see PL-2", "### PL-3 · x", "## PL-4 · d · t"}),
            (std::vector<int>{1, 4}));
}

TEST(PerformanceLog, AnIdWithoutAnEntryIsReported) {
  // The check the tests below rely on, on made-up input: PL-9 has no entry.
  const auto report = missing({{"cpp/x.hpp:3", 2}, {"cpp/y.cpp:8", 9}}, {1, 2, 3});
  EXPECT_EQ(report, std::vector<std::string>{"cpp/y.cpp:8 names PL-9"});
}

TEST(PerformanceLog, EntriesAreNumberedOneTwoThreeInOrder) {
  const auto defined = ids_defined(lines_of(kRoot / "docs/performance-log.md"));
  ASSERT_FALSE(defined.empty());
  for (std::size_t i = 0; i < defined.size(); ++i)
    EXPECT_EQ(defined[i], static_cast<int>(i + 1)) << "entry " << i + 1 << " of docs/performance-log.md";
}

TEST(PerformanceLog, EveryIdNamedInCppHasItsEntry) {
  const auto defined = ids_defined(lines_of(kRoot / "docs/performance-log.md"));
  std::vector<Citation> named;
  for (const fs::path& file : cpp_files()) {
    const auto more = citations(file, fs::relative(file, kRoot).generic_string());
    named.insert(named.end(), more.begin(), more.end());
  }
  EXPECT_FALSE(named.empty()) << "no comment in cpp/ names a performance-log entry";
  for (const std::string& m : missing(named, defined)) ADD_FAILURE() << m << ", which docs/performance-log.md lacks";
}

TEST(PerformanceLog, EveryIdNamedInPerformanceMdHasItsEntry) {
  const auto defined = ids_defined(lines_of(kRoot / "docs/performance-log.md"));
  const auto named = citations(kRoot / "docs/PERFORMANCE.md", "docs/PERFORMANCE.md");
  for (const std::string& m : missing(named, defined)) ADD_FAILURE() << m << ", which docs/performance-log.md lacks";
}

TEST(PerformanceLog, TargetSpecificCodeIsInTheFastPathAndNamesItsEntry) {
  // The rule: a target-specific branch stays only where it earns it, inside
  // cpp/fast/, with its measurement in the log. Its entry is named within
  // the comment above it (the 12 lines before the #if) or beside it.
  static const std::regex target(R"re(^\s*#\s*(if|elif).*(__wasm__|__EMSCRIPTEN__|__clang__))re");
  for (const fs::path& file : cpp_files()) {
    const std::string shown = fs::relative(file, kRoot).generic_string();
    const auto text = lines_of(file);
    for (std::size_t i = 0; i < text.size(); ++i) {
      if (!std::regex_search(text[i], target)) continue;
      const std::string where = shown + ":" + std::to_string(i + 1);
      EXPECT_EQ(shown.rfind("cpp/fast/", 0), 0u) << where << ": target-specific code outside cpp/fast/";
      bool cited = false;
      for (std::size_t k = i >= 12 ? i - 12 : 0; k <= i + 2 && k < text.size(); ++k)
        cited = cited || !ids_named(text[k]).empty();
      EXPECT_TRUE(cited) << where << ": a target-specific branch names no performance-log entry near it";
    }
  }
}

}  // namespace
