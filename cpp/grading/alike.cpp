#include "grading/alike.hpp"

#include <algorithm>

#include "fast/decimal.hpp"
#include "grading/grade.hpp"
#include "grading/grade_report.hpp"

namespace slowstart::grading {

namespace {

// stderr's lines (diagnosis.hpp's output_lines), without the blanks and CR at their ends.
std::vector<std::string_view> lines_of(std::string_view text) {
  std::vector<std::string_view> out = output_lines(text);
  for (std::string_view& line : out)
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t')) line.remove_suffix(1);
  return out;
}

bool word_char(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '$';
}

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

// "SyntaxError: ...", "ZeroDivisionError", "java.lang.NullPointerException: ...",
// "error: ...", "panic: ...", "Exception in thread ...".
bool reads_like_error(std::string_view line) {
  while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
  for (std::string_view p : {"error:", "Error:", "ERROR:", "fatal:", "panic:", "Exception in thread", "Segmentation fault"})
    if (starts_with(line, p)) return true;
  std::size_t i = 0;
  while (i < line.size() && word_char(line[i])) ++i;
  const std::string_view word = line.substr(0, i);
  if (i < line.size() && line[i] != ':') return false;
  for (std::string_view end : {"Error", "Exception", "Interrupt", "Exit"})
    if (word.size() >= end.size() && word.substr(word.size() - end.size()) == end) return true;
  return false;
}

std::string_view base_name(std::string_view path) {
  const std::size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

bool all_digits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// Where the error is, when stderr says so the way Python ('  File "x.py",
// line 4') or Node (a first line "/path/x.mjs:4") does: "x.py, line 4".
std::string location(const std::vector<std::string_view>& lines) {
  for (std::size_t k = lines.size(); k-- > 0;) {
    std::string_view line = lines[k];
    const std::size_t file = line.find("File \"");
    if (file == std::string_view::npos) continue;
    line.remove_prefix(file + 6);
    const std::size_t quote = line.find("\", line ");
    if (quote == std::string_view::npos) continue;
    std::string_view number = line.substr(quote + 8);
    number = number.substr(0, number.find(','));
    if (all_digits(number)) return std::string(base_name(line.substr(0, quote))) + ", line " + std::string(number);
  }
  if (!lines.empty()) {
    const std::string_view first = lines[0];
    const std::size_t colon = first.rfind(':');
    if (colon != std::string_view::npos && all_digits(first.substr(colon + 1)) &&
        (starts_with(first, "/") || starts_with(first, "file://")))
      return std::string(base_name(first.substr(0, colon))) + ", line " + std::string(first.substr(colon + 1));
  }
  return {};
}

// The way a test's program ended, as far as grouping goes; empty: no group
// (it passed, or printed something, which differs from test to test).
std::string ending(const TestVerdict& v) {
  const RunOutcome& o = *v.outcome;
  if (v.status == Verdict::Passed || !o.started) return {};
  if (o.timed_out || o.out_over) return v.summary.substr(0, v.summary.find(':'));  // "did not finish within 5 s"
  if (o.out_bytes) return {};
  if (!o.signal.empty()) return "was killed by " + o.signal + " before printing anything";
  return "exited with status " + decimal(o.exit_code) + " and printed nothing";
}

}  // namespace

std::string stderr_headline(std::string_view err) {
  std::vector<std::string_view> lines = lines_of(err);
  std::string_view chosen;
  for (std::string_view line : lines) {
    if (line.empty() || starts_with(line, "Node.js v")) continue;
    if (reads_like_error(line) || chosen.empty() || !reads_like_error(chosen)) chosen = line;
  }
  while (!chosen.empty() && (chosen.front() == ' ' || chosen.front() == '\t')) chosen.remove_prefix(1);
  if (chosen.empty()) return {};
  std::string headline(chosen);
  const std::string where = location(lines);
  if (!where.empty() && headline.find(where) == std::string::npos) headline += " (" + where + ")";
  return visible(headline, 300);
}

std::vector<AlikeFailure> alike_failures(const std::vector<TestVerdict>& verdicts) {
  std::vector<AlikeFailure> groups;
  std::vector<std::string> endings;
  std::vector<bool> taken(verdicts.size(), false);
  for (std::size_t i = 0; i < verdicts.size(); ++i) {
    if (taken[i]) continue;
    const std::string end = ending(verdicts[i]);
    if (end.empty()) continue;
    const RunOutcome& a = *verdicts[i].outcome;
    AlikeFailure g;
    g.tests.push_back(i);
    for (std::size_t j = i + 1; j < verdicts.size(); ++j) {
      if (taken[j]) continue;
      const RunOutcome& b = *verdicts[j].outcome;
      if (ending(verdicts[j]) == end && b.err == a.err && b.err_cut == a.err_cut) {
        g.tests.push_back(j);
        taken[j] = true;
      }
    }
    if (g.tests.size() < 2) continue;
    const std::size_t n = g.tests.size();
    g.summary = (n == verdicts.size() ? "In all " + decimal(static_cast<std::int64_t>(n)) + " tests"
                                      : "In " + decimal(static_cast<std::int64_t>(n)) + " of " +
                                            decimal(static_cast<std::int64_t>(verdicts.size())) + " tests") +
                " the program " + end;
    if (!a.err_headline.empty()) g.summary += ": " + a.err_headline;
    groups.push_back(std::move(g));
  }
  std::stable_sort(groups.begin(), groups.end(),
                   [](const AlikeFailure& x, const AlikeFailure& y) { return x.tests.size() > y.tests.size(); });
  return groups;
}

}  // namespace slowstart::grading
