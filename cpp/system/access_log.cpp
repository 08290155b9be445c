#include "system/access_log.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "core/args.hpp"
#include "system/config_text.hpp"
#include "system/yaml_tree.hpp"

namespace slowstart::system {

Problem parse_log_format(std::string_view text, LogFormat& out) {
  if (text == "nginx") out = LogFormat::Nginx;
  else if (text == "haproxy") out = LogFormat::HAProxy;
  else if (text == "envoy") out = LogFormat::Envoy;
  else return "log format must be nginx, haproxy or envoy, got " + quote(text);
  return std::nullopt;
}

double epoch_seconds(int year, int month, int day, int hour, int minute, double second) {
  // Days from 1970-01-01 of a proleptic Gregorian date (the civil calendar's
  // well-known arithmetic: years from March, so that February comes last).
  const int y = year - (month <= 2);
  const int era = (y >= 0 ? y : y - 399) / 400;
  const int yoe = y - era * 400;
  const int doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
  const int doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  const double days = static_cast<double>(era) * 146097 + doe - 719468;
  return days * 86400 + hour * 3600 + minute * 60 + second;
}

namespace {

// One line's tokens: words, "quoted" and [bracketed] ones, their marks kept.
struct Token {
  std::string text;
  char kind = ' ';  // ' ' a word, '"' quoted, '[' bracketed
};

std::vector<Token> tokens_of(std::string_view l) {
  std::vector<Token> out;
  std::size_t i = 0;
  while (i < l.size()) {
    while (i < l.size() && (l[i] == ' ' || l[i] == '\t' || l[i] == '\r')) ++i;
    if (i >= l.size()) break;
    Token t;
    if (l[i] == '"') {
      t.kind = '"';
      ++i;
      while (i < l.size() && l[i] != '"') {
        if (l[i] == '\\' && i + 1 < l.size()) ++i;
        t.text += l[i++];
      }
      ++i;
    } else if (l[i] == '[') {
      t.kind = '[';
      ++i;
      while (i < l.size() && l[i] != ']') t.text += l[i++];
      ++i;
    } else {
      // A word; a quoted part of it (key="a, b", as nginx writes a list of
      // tries in a quoted field) is kept whole, blanks and all.
      while (i < l.size() && l[i] != ' ' && l[i] != '\t' && l[i] != '\r') {
        if (l[i] == '"' && i > 0 && l[i - 1] == '=') {
          const std::size_t close = l.find('"', i + 1);
          if (close != std::string_view::npos) {
            t.text += l.substr(i, close + 1 - i);
            i = close + 1;
            continue;
          }
        }
        t.text += l[i++];
      }
    }
    out.push_back(std::move(t));
  }
  return out;
}

bool digits(std::string_view s, std::size_t from, std::size_t n) {
  if (from + n > s.size()) return false;
  for (std::size_t k = from; k < from + n; ++k)
    if (s[k] < '0' || s[k] > '9') return false;
  return true;
}
int number_at(std::string_view s, std::size_t from, std::size_t n) {
  int v = 0;
  for (std::size_t k = from; k < from + n; ++k) v = v * 10 + (s[k] - '0');
  return v;
}

int month_of(std::string_view m) {
  static constexpr std::string_view kMonths[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                                 "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  for (int i = 0; i < 12; ++i)
    if (m == kMonths[i]) return i + 1;
  return 0;
}

// Seconds and a fraction after "SS": ".123".
double seconds_with_fraction(std::string_view s, std::size_t at, std::size_t& end) {
  double sec = number_at(s, at, 2);
  end = at + 2;
  if (end < s.size() && s[end] == '.') {
    std::size_t k = end + 1;
    double scale = 0.1;
    while (k < s.size() && s[k] >= '0' && s[k] <= '9') sec += (s[k] - '0') * scale, scale /= 10, ++k;
    end = k;
  }
  return sec;
}

// +HHMM, +HH:MM or Z after a time: the offset in seconds (0 when absent).
double zone_offset(std::string_view s, std::size_t at) {
  while (at < s.size() && s[at] == ' ') ++at;
  if (at >= s.size() || (s[at] != '+' && s[at] != '-')) return 0;
  const double sign = s[at] == '-' ? -1 : 1;
  std::string_view z = s.substr(at + 1);
  if (digits(z, 0, 2) && digits(z, 2, 2)) return sign * (number_at(z, 0, 2) * 3600 + number_at(z, 2, 2) * 60);
  if (digits(z, 0, 2) && z.size() >= 5 && z[2] == ':' && digits(z, 3, 2))
    return sign * (number_at(z, 0, 2) * 3600 + number_at(z, 3, 2) * 60);
  return 0;
}

// A time stamp in any of the forms the logs use; false if it is none.
//   1733480000.123            $msec, %Ts.%ms
//   06/Dec/2026:10:00:00 +0100   $time_local;  06/Dec/2026:10:00:00.123  HAProxy's accept date
//   2026-12-06T10:00:00.123Z  ISO 8601 (Envoy's START_TIME, $time_iso8601)
bool time_of(std::string_view s, double& out, bool& whole_seconds) {
  whole_seconds = false;
  if (digits(s, 0, 9)) {
    double v = 0;
    if (decimal_number(s, v) && v > 1e8) {
      whole_seconds = s.find('.') == std::string_view::npos;
      out = v;
      return true;
    }
  }
  if (s.size() >= 20 && digits(s, 0, 2) && s[2] == '/' && s[6] == '/' && digits(s, 7, 4) && s[11] == ':' &&
      digits(s, 12, 2) && s[14] == ':' && digits(s, 15, 2) && s[17] == ':' && digits(s, 18, 2)) {
    const int month = month_of(s.substr(3, 3));
    if (!month) return false;
    std::size_t end = 0;
    const double sec = seconds_with_fraction(s, 18, end);
    whole_seconds = end == 20;
    out = epoch_seconds(number_at(s, 7, 4), month, number_at(s, 0, 2), number_at(s, 12, 2), number_at(s, 15, 2), sec) -
          zone_offset(s, end);
    return true;
  }
  if (s.size() >= 19 && digits(s, 0, 4) && s[4] == '-' && digits(s, 5, 2) && s[7] == '-' && digits(s, 8, 2) &&
      (s[10] == 'T' || s[10] == ' ') && digits(s, 11, 2) && s[13] == ':' && digits(s, 14, 2) && s[16] == ':' &&
      digits(s, 17, 2)) {
    std::size_t end = 0;
    const double sec = seconds_with_fraction(s, 17, end);
    whole_seconds = end == 19;
    out = epoch_seconds(number_at(s, 0, 4), number_at(s, 5, 2), number_at(s, 8, 2), number_at(s, 11, 2),
                        number_at(s, 14, 2), sec) -
          zone_offset(s, end);
    return true;
  }
  return false;
}

// "10.0.0.1:8080", "[::1]:80", "unix:/run/a.sock", "backend-b:8080".
bool looks_like_address(std::string_view s) {
  if (s.empty() || s == "-") return false;
  if (s.rfind("unix:", 0) == 0) return true;
  const std::size_t colon = s.rfind(':');
  return colon != std::string_view::npos && colon + 1 < s.size() && digits(s, colon + 1, s.size() - colon - 1);
}

// Splits nginx's lists: ", " between the tries of one request, " : "
// between its internal redirections ("a:80, b:80 : c:80").
std::vector<std::string> list_of(std::string_view s) {
  std::vector<std::string> out;
  std::string cur;
  const auto flush = [&] {
    if (!cur.empty()) out.push_back(cur);
    cur.clear();
  };
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (c == ',') {
      flush();
    } else if (c == ' ') {
      if (i + 2 < s.size() && s[i + 1] == ':' && s[i + 2] == ' ') flush(), i += 2;
    } else {
      cur += c;
    }
  }
  flush();
  return out;
}

// A list as nginx writes it, split into words ("a:80," "b:80" ":" "c:80"),
// joined back from word i on (i ends at its last word).
std::string joined_list(const std::vector<Token>& t, std::size_t& i) {
  std::string s = t[i].text;
  for (;;) {
    if (!s.empty() && s.back() == ',' && i + 1 < t.size()) {
      s += ' ' + t[++i].text;
    } else if (i + 2 < t.size() && t[i + 1].text == ":") {
      s += " : " + t[i + 2].text;
      i += 2;
    } else {
      return s;
    }
  }
}

// One attempt the log says a backend served.
struct Attempt {
  std::string backend;
  double start = 0, latency_ms = 0;
  bool whole_seconds = false;
  double stamp = 0;            // the line's time stamp, as written (whole seconds: spread below)
  std::uint32_t line = 0;      // the log's line
};

// JSON lines: the first of `keys` that the object has, as text.
std::string json_field(const YamlNode& n, std::initializer_list<std::string_view> keys) {
  for (const std::string_view k : keys)
    if (const YamlNode* v = n.get(k); v && v->is_scalar()) return v->text;
  return "";
}

bool parse_number(const std::string& s, double& v) { return parse_real(s, v) && std::isfinite(v); }

// ---- nginx -----------------------------------------------------------------

// Reads one line; false if it is not an nginx line this reader knows.
bool nginx_line(std::string_view line, std::vector<Attempt>& out) {
  double end = 0;
  bool whole = false;
  std::string addrs, times;
  if (!line.empty() && line.front() == '{') {
    YamlNode n;
    YamlError e;
    if (!read_yaml(line, n, e) || !n.is_map()) return false;
    const std::string ts = json_field(n, {"msec", "time_msec", "time", "timestamp", "time_iso8601", "time_local"});
    if (!time_of(ts, end, whole)) return false;
    addrs = json_field(n, {"upstream_addr", "upstream", "ua"});
    times = json_field(n, {"upstream_response_time", "urt"});
  } else {
    const std::vector<Token> t = tokens_of(line);
    std::size_t time_at = t.size();
    for (std::size_t i = 0; i < t.size(); ++i) {
      const std::size_t eq = t[i].text.find('=');
      if (t[i].kind == ' ' && eq != std::string::npos) {
        const std::string key = t[i].text.substr(0, eq);
        std::string value = t[i].text.substr(eq + 1);
        if (value.size() >= 2 && value.front() == '"' && value.back() == '"') value = value.substr(1, value.size() - 2);
        if (key == "msec" && time_of(value, end, whole)) time_at = i;
        else if (key == "upstream_addr" || key == "ua") addrs = value;
        else if (key == "urt" || key == "upstream_response_time") times = value;
        continue;
      }
      if (time_at == t.size() && time_of(t[i].text, end, whole)) time_at = i;
    }
    if (time_at == t.size()) return false;
    if (addrs.empty()) {  // positional: the first address list after the time, then its times
      for (std::size_t i = time_at + 1; i < t.size(); ++i) {
        std::size_t j = i;
        const std::string list = joined_list(t, j);
        const std::vector<std::string> items = list_of(list);
        if (items.empty() || !std::all_of(items.begin(), items.end(), [](const std::string& a) {
              return looks_like_address(a) || a == "-";
            })) {
          i = j;  // past the words joined: each word is looked at once
          continue;
        }
        addrs = list;
        if (j + 1 < t.size()) {
          std::size_t k = j + 1;
          times = joined_list(t, k);
        }
        break;
      }
    }
  }
  if (addrs.empty() || addrs == "-") return true;  // served without an upstream: nothing to read
  const std::vector<std::string> a = list_of(addrs), s = list_of(times);
  if (a.size() != s.size()) return false;
  std::vector<double> secs(s.size(), 0);
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == "-") secs[i] = -1;
    else if (!parse_number(s[i], secs[i]) || secs[i] < 0) return false;
  }
  // Each try started when the later ones had not: $msec minus their times.
  double later = 0;
  for (std::size_t i = s.size(); i-- > 0;) {
    if (secs[i] < 0) continue;
    later += secs[i];
    if (a[i] == "-" || secs[i] == 0) continue;
    out.push_back(Attempt{a[i], end - later, secs[i] * 1000, whole, end});
  }
  return true;
}

// ---- HAProxy ---------------------------------------------------------------

// option httplog: ... [accept_date] frontend backend/server TR/Tw/Tc/Tr/Ta status ...
bool haproxy_line(std::string_view line, std::vector<Attempt>& out) {
  const std::vector<Token> t = tokens_of(line);
  for (std::size_t i = 0; i + 3 < t.size(); ++i) {
    double accept = 0;
    bool whole = false;
    if (t[i].kind != '[' || !time_of(t[i].text, accept, whole)) continue;
    const std::string& server = t[i + 2].text;
    const std::size_t slash = server.find('/');
    std::vector<std::string> timers;
    std::string cur;
    for (const char c : t[i + 3].text + "/") {
      if (c == '/') timers.push_back(cur), cur.clear();
      else cur += c;
    }
    if (slash == std::string::npos || timers.size() != 5) return false;
    double v[5];
    for (int k = 0; k < 5; ++k)
      if (!parse_number(timers[static_cast<std::size_t>(k)], v[k])) return false;
    const std::string name = server.substr(slash + 1);
    if (name == "<NOSRV>" || v[3] < 0 || v[0] < 0 || v[1] < 0 || v[2] < 0) return true;  // no server answered
    out.push_back(Attempt{name, accept + (v[0] + v[1] + v[2]) / 1000, v[3], whole, accept});
    return true;
  }
  return false;
}

// ---- Envoy -----------------------------------------------------------------

bool envoy_line(std::string_view line, std::vector<Attempt>& out) {
  double start = 0;
  bool whole = false;
  std::string host, ms;
  if (!line.empty() && line.front() == '{') {
    YamlNode n;
    YamlError e;
    if (!read_yaml(line, n, e) || !n.is_map()) return false;
    if (!time_of(json_field(n, {"start_time", "timestamp", "time"}), start, whole)) return false;
    host = json_field(n, {"upstream_host", "upstream"});
    ms = json_field(n, {"response_duration", "upstream_service_time", "duration"});
  } else {
    const std::vector<Token> t = tokens_of(line);
    if (t.empty() || !time_of(t[0].text, start, whole)) return false;
    if (t.size() >= 3 && t[1].kind == ' ' && looks_like_address(t[1].text)) {
      // [%START_TIME%] %UPSTREAM_HOST% %RESPONSE_DURATION%
      host = t[1].text;
      ms = t[2].text;
    } else {
      // The default format: after the request, four numbers (bytes in, out,
      // duration, upstream service time), then five quoted fields, the last
      // of them the upstream host.
      const auto whole_number_token = [](const Token& x) {
        double v = 0;
        return x.kind == ' ' && parse_real(x.text, v) && v >= 0 && v == std::floor(v);
      };
      for (std::size_t i = 2; i + 3 < t.size(); ++i) {
        if (!whole_number_token(t[i]) || !whole_number_token(t[i + 1]) || !whole_number_token(t[i + 2]) ||
            !(whole_number_token(t[i + 3]) || t[i + 3].text == "-"))
          continue;
        ms = t[i + 3].text == "-" ? t[i + 2].text : t[i + 3].text;
        std::size_t quoted = 0;
        for (std::size_t k = i + 4; k < t.size(); ++k)
          if (t[k].kind == '"' && ++quoted == 5) host = t[k].text;
        break;
      }
      if (ms.empty()) return false;
    }
  }
  if (host.empty() || host == "-") return true;  // no upstream (a local reply)
  double v = 0;
  if (!parse_number(ms, v) || v < 0) return false;
  if (v > 0) out.push_back(Attempt{host, start, v, whole, start});
  return true;
}

}  // namespace

namespace {
bool read_log(std::string_view text, const AccessLogOptions& options, CanaryLog& out, std::string& error);
}

bool read_access_log(std::string_view text, const AccessLogOptions& options, CanaryLog& out, std::string& error) {
  if (read_log(text, options, out, error)) return true;
  error = printable(error);  // backends' names come from the log
  return false;
}

namespace {
bool read_log(std::string_view text, const AccessLogOptions& options, CanaryLog& out, std::string& error) {
  out = CanaryLog{};
  std::vector<Attempt> attempts;
  std::uint32_t line_no = 0, bad = 0, first_bad = 0, lines = 0;
  for (std::size_t start = 0; start < text.size();) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    start = end + 1;
    ++line_no;
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.remove_suffix(1);
    if (line.empty()) continue;
    ++lines;
    bool ok = false;
    const std::size_t before = attempts.size();
    switch (options.format) {
      case LogFormat::Nginx: ok = nginx_line(line, attempts); break;
      case LogFormat::HAProxy: ok = haproxy_line(line, attempts); break;
      case LogFormat::Envoy: ok = envoy_line(line, attempts); break;
    }
    // A latency past kMaxCanaryValue ms (nginx's "0.096e200" s reads as a
    // number) is no request's: the line is one this reader does not know.
    if (ok && std::any_of(attempts.begin() + static_cast<std::ptrdiff_t>(before), attempts.end(),
                          [](const Attempt& a) { return !(a.latency_ms <= kMaxCanaryValue); })) {
      attempts.resize(before);
      ok = false;
    }
    for (std::size_t i = before; i < attempts.size(); ++i) attempts[i].line = line_no;
    if (!ok && bad++ == 0) first_bad = line_no;
    if (attempts.size() > kMaxCanaryRows) {
      error = "line " + std::to_string(line_no) + ": more than 5,000,000 requests (the fit reads at most that many)";
      return false;
    }
  }
  static const char* const kNames[] = {"nginx", "haproxy", "envoy"};
  const std::string name = kNames[static_cast<int>(options.format)];
  if (lines == 0) {
    error = "the log is empty";
    return false;
  }
  if (bad * 2 > lines) {
    error = "line " + std::to_string(first_bad) + ": not a line of an " + name +
            " access log this reader knows (" + std::to_string(bad) + " of " + std::to_string(lines) +
            " lines are not; docs/YOUR-SYSTEM.md gives the log format)";
    return false;
  }
  if (bad > 0)
    out.notes.push_back(std::to_string(bad) + " lines skipped, not " + name + " access lines (the first: line " +
                        std::to_string(first_bad) + ")");
  // The canary: the backend named, or the log's only one.
  std::map<std::string, std::size_t> counts;
  for (const Attempt& a : attempts) ++counts[a.backend];
  // The backends as a message lists them: the first eight by name, each cut
  // at 60 bytes (a log's names are anyone's bytes: a hunt's find was a
  // message of 2,000 bytes), then how many more.
  const auto backends = [&](bool with_requests) {
    constexpr std::size_t kShown = 8, kLongest = 60;
    std::string list;
    std::size_t k = 0;
    for (const auto& [b, n] : counts) {
      if (k++ == kShown) break;
      list += (list.empty() ? "" : ", ") + (b.size() <= kLongest ? b : b.substr(0, kLongest) + "...");
      if (with_requests) list += " " + std::to_string(n);
    }
    if (with_requests) list += " requests";
    if (counts.size() > kShown) list += ", and " + std::to_string(counts.size() - kShown) + " more";
    return list;
  };
  std::string canary = options.backend;
  if (canary.empty()) {
    if (counts.size() > 1) {
      error = "the log has " + std::to_string(counts.size()) + " backends (" + backends(true) +
              "): name the canary with --backend";
      return false;
    }
    if (counts.empty()) {
      error = "the log has no request served by a backend";
      return false;
    }
    canary = counts.begin()->first;
  } else if (!counts.count(canary)) {
    error = "no request went to " + quote(canary) + " (the log's backends: " + (counts.empty() ? "none" : backends(false)) + ")";
    return false;
  }
  // Stamps of whole seconds ([$time_local]): the lines of one stamp are
  // spread across its second in the order the log wrote them (its k-th of n
  // at (k + 0.5) / n), each try of a line moved alike. Left at the whole
  // second, every request of a second would look alike in time and differ
  // only in order, so the fit would find warmth following requests served
  // where it follows time (by 10^33 on a log of 3,000 requests).
  {
    std::map<double, std::vector<std::uint32_t>> lines_at;  // stamp -> its lines, in order
    for (const Attempt& a : attempts)
      if (a.whole_seconds) {
        std::vector<std::uint32_t>& l = lines_at[a.stamp];
        if (l.empty() || l.back() != a.line) l.push_back(a.line);
      }
    for (Attempt& a : attempts) {
      if (!a.whole_seconds) continue;
      const std::vector<std::uint32_t>& l = lines_at[a.stamp];
      const auto k = static_cast<double>(std::lower_bound(l.begin(), l.end(), a.line) - l.begin());
      a.start += (k + 0.5) / static_cast<double>(l.size());
    }
  }
  bool whole = false;
  double origin = options.started;
  for (const Attempt& a : attempts) {
    if (a.backend != canary) continue;
    whole |= a.whole_seconds;
    if (options.started < 0 && (origin < 0 || a.start < origin)) origin = a.start;
    out.rows.push_back(CanaryRow{a.start, a.latency_ms, -1});
  }
  for (CanaryRow& r : out.rows) r.t = std::max(0.0, r.t - origin);
  out.notes.push_back(std::to_string(out.rows.size()) + " requests to " +
                      printable(canary.size() <= 60 ? canary : canary.substr(0, 60) + "...") + (options.started < 0 ? ", t from its first" : ""));
  if (whole)
    out.notes.push_back("time stamps in whole seconds: the lines of each second spread across it in the log's order, and the "
                        "requests in flight not counted, so queueing is not checked (nginx: log $msec)");
  sort_by_time(out);
  count_in_flight(out);
  // Starts known to a fraction of a second only: who was in flight at a
  // start is a guess that made latency seem to rise with it (a correlation
  // of 0.5 on a log with no queue at all).
  if (whole) {
    out.has_in_flight = false;
    for (CanaryRow& r : out.rows) r.in_flight = -1;  // --convert leaves the column empty
  }
  for (std::string& note : out.notes) note = printable(note);
  return true;
}
}  // namespace

}  // namespace slowstart::system
