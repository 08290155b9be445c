#include "grading/diagnosis.hpp"

#include <algorithm>
#include <string>

namespace slowstart {

std::vector<std::string_view> output_lines(std::string_view text) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    out.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

namespace {

// True when the learner's output shows that it does not make this mistake:
// where the mistake departs from the reference, the learner does not.
bool rules_out(std::string_view expected, std::string_view actual, std::string_view mistaken) {
  if (mistaken == expected) return false;  // this test cannot tell
  if (actual == expected) return true;
  const auto e = output_lines(expected), a = output_lines(actual), m = output_lines(mistaken);
  // Line by line only when the three line up (a command prints at most one
  // line, so equal counts mean line i of each was printed by the same command).
  if (e.size() != a.size() || e.size() != m.size()) return false;
  for (std::size_t i = 0; i < e.size(); ++i)
    if (m[i] != e[i] && a[i] == e[i]) return true;
  return false;
}

}  // namespace

TestEvidence gather_evidence(std::string_view script, std::string_view expected, std::string_view actual,
                             Scope scope, bool problem) {
  TestEvidence ev;
  ev.pass = !problem && actual == expected;
  ev.problem = problem;
  if (problem || script.size() > kMaxDiagnosedBytes) return ev;
  const auto all = mistakes();
  for (std::size_t i = 0; i < all.size(); ++i) {
    if (scope == Scope::Rules && all[i].scope != Scope::Rules) continue;
    const std::string mine = mistake_stdout(all[i], script);
    const auto index = static_cast<MistakeIndex>(i);
    if (!ev.pass && mine == actual) ev.named.push_back(index);
    if (rules_out(expected, actual, mine)) ev.ruled_out.push_back(index);
  }
  return ev;
}

std::string_view script_line(std::string_view script, std::uint64_t n) {
  std::size_t start = 0;
  for (std::uint64_t i = 1; i < n && start <= script.size(); ++i) {
    const std::size_t nl = script.find('\n', start);
    if (nl == std::string_view::npos) return {};
    start = nl + 1;
  }
  std::string_view line = script.substr(std::min(start, script.size()));
  line = line.substr(0, line.find('\n'));
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return line;
}

namespace {

// True for a whole number as a program may print one: digits, maybe after
// a minus sign.
bool whole_number(std::string_view s) {
  if (!s.empty() && s[0] == '-') s.remove_prefix(1);
  if (s.empty()) return false;
  for (char c : s)
    if (c < '0' || c > '9') return false;
  return true;
}

// True for what a program prints for a number that is not whole: a
// decimal ("2.5", "2.0", "-1e3", ".5") or a non-finite value ("NaN",
// "Infinity", "inf"). Anything else after '=' is wrong output, not a weight.
bool printed_number(std::string_view s) {
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) s.remove_prefix(1);
  std::string lower;
  for (char c : s) lower += static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c);
  if (lower == "nan" || lower == "inf" || lower == "infinity") return true;
  std::size_t i = 0, digits = 0;
  while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i, ++digits;
  if (i < s.size() && s[i] == '.') {
    ++i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i, ++digits;
  }
  if (digits == 0) return false;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '-' || s[i] == '+')) ++i;
    const std::size_t exponent = i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
    if (i == exponent) return false;
  }
  return i == s.size();
}

}  // namespace

WeightProblem non_whole_weight(std::string_view script, const std::vector<std::uint64_t>& printed_by,
                               std::string_view actual) {
  const auto lines = output_lines(actual);
  for (std::size_t i = 0; i < lines.size() && i < printed_by.size(); ++i) {
    std::string_view command = script_line(script, printed_by[i]);
    command.remove_prefix(std::min(command.size(), command.find_first_not_of(" \t")));
    if (command.substr(0, 7) != "WEIGHTS") continue;
    std::string_view line = lines[i];
    while (!line.empty()) {
      const std::size_t space = line.find(' ');
      const std::string_view word = line.substr(0, space);
      const std::size_t eq = word.rfind('=');
      const std::string_view value = eq == std::string_view::npos ? std::string_view() : word.substr(eq + 1);
      if (eq != std::string_view::npos && !whole_number(value) && printed_number(value)) return {i + 1, word};
      if (space == std::string_view::npos) break;
      line.remove_prefix(space + 1);
    }
  }
  return {};
}

RunDiagnosis diagnose_run(const std::vector<const TestEvidence*>& tests) {
  const std::size_t count = mistakes().size();
  std::vector<bool> ruled_out(count, false);
  for (const TestEvidence* t : tests)
    if (t)
      for (MistakeIndex m : t->ruled_out) ruled_out[m] = true;

  RunDiagnosis d;
  d.per_test.resize(tests.size());
  std::vector<std::vector<std::size_t>> tests_of(count);
  for (std::size_t i = 0; i < tests.size(); ++i) {
    const TestEvidence* t = tests[i];
    if (!t || t->pass || t->problem) continue;
    for (MistakeIndex m : t->named)
      if (!ruled_out[m]) d.per_test[i].push_back(m), tests_of[m].push_back(i);
  }
  // Outranked: named in a strict subset of the tests another one is named in.
  std::vector<bool> outranked(count, false);
  for (std::size_t m = 0; m < count; ++m) {
    for (std::size_t other = 0; other < count && !outranked[m] && !tests_of[m].empty(); ++other) {
      const auto &mine = tests_of[m], &theirs = tests_of[other];
      if (other != m && theirs.size() > mine.size() &&
          std::includes(theirs.begin(), theirs.end(), mine.begin(), mine.end()))
        outranked[m] = true;
    }
  }
  for (auto& list : d.per_test) {
    std::vector<MistakeIndex> kept;
    for (MistakeIndex m : list)
      if (!outranked[m]) kept.push_back(m);
    if (!kept.empty()) list = std::move(kept);
  }
  // The run: by first appearance, then most tests first.
  for (std::size_t i = 0; i < d.per_test.size(); ++i) {
    for (MistakeIndex m : d.per_test[i]) {
      auto it = std::find_if(d.run.begin(), d.run.end(), [&](const auto& e) { return e.mistake == m; });
      if (it == d.run.end()) it = d.run.insert(d.run.end(), {m, {}});
      it->tests.push_back(i);
    }
  }
  std::stable_sort(d.run.begin(), d.run.end(),
                   [](const auto& a, const auto& b) { return a.tests.size() > b.tests.size(); });
  return d;
}

}  // namespace slowstart
