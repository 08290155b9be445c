#include "system/canary_log.hpp"

#include <algorithm>
#include <cmath>
#include <queue>

#include "core/args.hpp"
#include "core/validate.hpp"

namespace slowstart::system {

namespace {

// One CSV record at a time (RFC 4180), with the line it starts on.
class CsvReader {
 public:
  explicit CsvReader(std::string_view s) : s_(s) {
    if (s_.substr(0, 3) == "\xEF\xBB\xBF") pos_ = 3;
  }

  // False at the end; `error` set when the record is malformed.
  bool next(std::vector<std::string>& fields, std::uint32_t& line, std::string& error) {
    fields.clear();
    // Skip blank lines between records.
    while (pos_ < s_.size() && (s_[pos_] == '\n' || s_[pos_] == '\r')) {
      if (s_[pos_] == '\n') ++line_;
      ++pos_;
    }
    if (pos_ >= s_.size()) return false;
    line = line_;
    std::string field;
    for (;;) {
      if (pos_ < s_.size() && s_[pos_] == '"') {
        ++pos_;
        for (;;) {
          if (pos_ >= s_.size()) {
            error = "line " + std::to_string(line) + ": a quoted field is not closed";
            return true;
          }
          const char c = s_[pos_++];
          if (c == '"') {
            if (pos_ < s_.size() && s_[pos_] == '"') {
              field += '"';
              ++pos_;
              continue;
            }
            break;
          }
          if (c == '\n') ++line_;
          field += c;
        }
        if (pos_ < s_.size() && s_[pos_] != ',' && s_[pos_] != '\n' && s_[pos_] != '\r') {
          error = "line " + std::to_string(line_) + ": text after a closing quote";
          return true;
        }
      } else {
        while (pos_ < s_.size() && s_[pos_] != ',' && s_[pos_] != '\n' && s_[pos_] != '\r') field += s_[pos_++];
      }
      fields.push_back(std::move(field));
      field.clear();
      if (pos_ < s_.size() && s_[pos_] == ',') {
        ++pos_;
        continue;
      }
      // The record's end: CRLF, LF or the end of the text.
      if (pos_ < s_.size() && s_[pos_] == '\r') ++pos_;
      if (pos_ < s_.size() && s_[pos_] == '\n') ++pos_, ++line_;
      return true;
    }
  }

 private:
  std::string_view s_;
  std::size_t pos_ = 0;
  std::uint32_t line_ = 1;
};

std::string trimmed_lower(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  std::string out(s);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

bool number_field(const std::string& raw, double& out) {
  std::string s = raw;
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.erase(s.begin());
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.pop_back();
  return parse_real(s, out);
}

}  // namespace

bool read_canary_csv(std::string_view text, CanaryLog& out, std::string& error) {
  out = CanaryLog{};
  CsvReader csv(text);
  std::vector<std::string> fields;
  std::uint32_t line = 0;
  if (!csv.next(fields, line, error)) {
    error = "the file is empty: a CSV starts with a header row naming t and latency_ms";
    return false;
  }
  if (!error.empty()) return false;
  int t = -1, latency = -1, in_flight = -1;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    const std::string name = trimmed_lower(fields[i]);
    if (name == "t" && t < 0) t = static_cast<int>(i);
    else if (name == "latency_ms" && latency < 0) latency = static_cast<int>(i);
    else if (name == "in_flight" && in_flight < 0) in_flight = static_cast<int>(i);
  }
  if (t < 0 || latency < 0) {
    // (The first eight names: a header of thousands would make a message no one reads.)
    constexpr std::size_t kShown = 8;
    std::string names;
    for (std::size_t i = 0; i < std::min(fields.size(), kShown); ++i) names += (names.empty() ? "" : ", ") + quote(fields[i]);
    if (fields.size() > kShown) names += " and " + std::to_string(fields.size() - kShown) + " more";
    error = "line " + std::to_string(line) + ": the header must name t and latency_ms (it names " +
            (names.empty() ? "nothing" : names) + ")";
    return false;
  }
  out.has_in_flight = in_flight >= 0;
  const std::size_t columns = fields.size();
  while (csv.next(fields, line, error)) {
    if (!error.empty()) return false;
    if (fields.size() == 1 && trimmed_lower(fields[0]).empty()) continue;  // a line of blanks
    if (fields.size() != columns) {
      error = "line " + std::to_string(line) + ": " + std::to_string(fields.size()) + " fields where the header has " +
              std::to_string(columns);
      return false;
    }
    if (out.rows.size() >= kMaxCanaryRows) {
      error = "line " + std::to_string(line) + ": more than 5,000,000 rows (the fit reads at most that many)";
      return false;
    }
    CanaryRow row;
    const auto field = [&](int column, std::string_view name, std::string_view rule, double& v, bool positive) {
      const std::string& text = fields[static_cast<std::size_t>(column)];
      if (!number_field(text, v) || !(positive ? v > 0 : v >= 0)) {
        error = "line " + std::to_string(line) + ": " + std::string(name) + " must be " + std::string(rule) + ", got " + quote(text);
        return false;
      }
      if (!(v <= kMaxCanaryValue)) {
        error = "line " + std::to_string(line) + ": " + std::string(name) + " must be at most 1000000000, got " + quote(text);
        return false;
      }
      return true;
    };
    if (!field(t, "t", "a number of seconds, 0 or more", row.t, false)) return false;
    if (!field(latency, "latency_ms", "a number of milliseconds above 0", row.latency_ms, true)) return false;
    // An empty in_flight is "not known" (a column some rows lack).
    if (in_flight >= 0 && trimmed_lower(fields[static_cast<std::size_t>(in_flight)]).empty()) out.has_in_flight = false;
    else if (in_flight >= 0 && !field(in_flight, "in_flight", "a number, 0 or more", row.in_flight, false)) return false;
    out.rows.push_back(row);
  }
  if (!error.empty()) return false;
  if (!out.has_in_flight)
    for (CanaryRow& r : out.rows) r.in_flight = -1;
  sort_by_time(out);
  return true;
}

void sort_by_time(CanaryLog& log) {
  std::stable_sort(log.rows.begin(), log.rows.end(), [](const CanaryRow& a, const CanaryRow& b) { return a.t < b.t; });
}

void count_in_flight(CanaryLog& log) {
  // In order of start: the ends of the requests still running, a min-heap.
  std::priority_queue<double, std::vector<double>, std::greater<>> ends;
  for (CanaryRow& r : log.rows) {
    while (!ends.empty() && ends.top() <= r.t) ends.pop();
    r.in_flight = static_cast<double>(ends.size());
    ends.push(r.t + r.latency_ms / 1000.0);
  }
  log.has_in_flight = true;
}

}  // namespace slowstart::system
