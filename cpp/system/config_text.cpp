#include "system/config_text.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/validate.hpp"

namespace slowstart::system {

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// A run of "<number><unit>" pairs; `unit_seconds` maps a unit (possibly
// empty) to its seconds, or a negative number when it is no unit.
// `fractions`: the numbers may have a decimal part.
template <typename Unit>
bool sum_of_parts(std::string_view text, bool fractions, Unit unit_seconds, double& seconds) {
  if (text.empty()) return false;
  double total = 0;
  std::size_t i = 0;
  while (i < text.size()) {
    const std::size_t start = i;
    while (i < text.size() && (is_digit(text[i]) || (fractions && text[i] == '.'))) ++i;
    if (i == start) return false;
    double number = 0;
    if (!decimal_number(text.substr(start, i - start), number)) return false;
    const std::size_t unit_start = i;
    while (i < text.size() && !is_digit(text[i]) && text[i] != '.') ++i;
    const double unit = unit_seconds(text.substr(unit_start, i - unit_start));
    if (unit < 0) return false;
    total += number * unit;
  }
  if (!std::isfinite(total) || total > 1e12) return false;
  seconds = total;
  return true;
}

}  // namespace

bool whole_number(std::string_view text, std::uint64_t max, std::uint64_t& out) {
  if (text.empty() || text.size() > 20) return false;
  std::uint64_t v = 0;
  for (const char c : text) {
    if (!is_digit(c)) return false;
    const auto d = static_cast<std::uint64_t>(c - '0');
    if (v > (max - d) / 10) return false;
    v = v * 10 + d;
  }
  out = v;
  return true;
}

bool decimal_number(std::string_view text, double& out) {
  if (text.empty() || text.size() > 40) return false;
  std::size_t dots = 0, digits = 0;
  for (const char c : text) {
    if (c == '.') ++dots;
    else if (is_digit(c)) ++digits;
    else return false;
  }
  if (dots > 1 || digits == 0) return false;
  const std::string s(text);
  out = std::strtod(s.c_str(), nullptr);
  return std::isfinite(out);
}

bool nginx_seconds(std::string_view text, double& seconds) {
  // ngx_parse_time: whole numbers only; units once each, largest first (not checked: nginx is lenient).
  return sum_of_parts(text, false, [](std::string_view u) -> double {
    if (u.empty() || u == "s") return 1;
    if (u == "ms") return 0.001;
    if (u == "m") return 60;
    if (u == "h") return 3600;
    if (u == "d") return 86400;
    if (u == "w") return 7 * 86400;
    if (u == "M") return 30 * 86400;
    if (u == "y") return 365 * 86400;
    return -1;
  }, seconds);
}

bool haproxy_seconds(std::string_view text, double& seconds) {
  // parse_time_err: one number and one unit; no unit is milliseconds.
  std::size_t digits = 0;
  while (digits < text.size() && is_digit(text[digits])) ++digits;
  if (digits == 0) return false;
  const std::string_view unit = text.substr(digits);
  double scale = -1;
  if (unit.empty() || unit == "ms") scale = 0.001;
  else if (unit == "us") scale = 1e-6;
  else if (unit == "s") scale = 1;
  else if (unit == "m") scale = 60;
  else if (unit == "h") scale = 3600;
  else if (unit == "d") scale = 86400;
  if (scale < 0) return false;
  double n = 0;
  if (!decimal_number(text.substr(0, digits), n)) return false;
  seconds = n * scale;
  return seconds <= 1e12;
}

bool go_seconds(std::string_view text, double& seconds) {
  if (text == "0") {
    seconds = 0;
    return true;
  }
  return sum_of_parts(text, true, [](std::string_view u) -> double {
    if (u == "s") return 1;
    if (u == "ms") return 0.001;
    if (u == "us" || u == "\xC2\xB5s" || u == "\xCE\xBCs") return 1e-6;
    if (u == "ns") return 1e-9;
    if (u == "m") return 60;
    if (u == "h") return 3600;
    if (u == "d") return 86400;
    return -1;
  }, seconds);
}

bool envoy_seconds(std::string_view text, double& seconds) {
  if (text.size() < 2 || text.back() != 's') return false;
  return decimal_number(text.substr(0, text.size() - 1), seconds) && seconds <= 1e12;
}

std::string number_text(double value) {
  if (value == std::floor(value) && std::fabs(value) < 1e15) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.0f", value);
    return buf;
  }
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6f", value);
  std::string s = buf;
  while (!s.empty() && s.back() == '0') s.pop_back();
  if (!s.empty() && s.back() == '.') s.pop_back();
  return s;
}

std::string script_name(std::string_view raw, std::string_view fallback, std::vector<std::string>& taken) {
  // Keep the valid UTF-8 sequences that a name may hold; anything else is '_'.
  std::string name;
  for (std::size_t i = 0; i < raw.size() && name.size() < 200;) {
    const std::size_t n = utf8_sequence_length(raw, i);
    const std::string_view seq = raw.substr(i, n ? n : 1);
    if (n == 0 || seq == "=" || seq == " " || seq == "\t" || check_name(seq)) name += '_';
    else name += seq;
    i += n ? n : 1;
  }
  if (name.empty()) name = std::string(fallback);
  std::string unique = name;
  for (int k = 2; std::find(taken.begin(), taken.end(), unique) != taken.end(); ++k)
    unique = name + "#" + std::to_string(k);
  taken.push_back(unique);
  return unique;
}

std::string printable(std::string_view text) {
  static const char kHex[] = "0123456789abcdef";
  std::string out;
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t n = utf8_sequence_length(text, i);
    const std::string_view seq = text.substr(i, n ? n : 1);
    // (A byte-order mark passes check_name but shows nothing: escaped, as quote() does.)
    const bool shown = n > 0 && seq != "\xEF\xBB\xBF" && (seq == " " || seq == "=" || !check_name(seq));
    if (shown) {
      out += seq;
    } else {
      for (const char c : seq) {
        const auto b = static_cast<unsigned char>(c);
        out += "\\x";
        out += kHex[b >> 4];
        out += kHex[b & 15];
      }
    }
    i += seq.size();
  }
  return out;
}

std::string json_string(std::string_view text) {
  static const char kHex[] = "0123456789abcdef";
  std::string out = "\"";
  for (const char c : text) {
    const auto b = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') out += '\\', out += c;
    else if (c == '\n') out += "\\n";
    else if (b < 0x20) out += std::string("\\u00") + kHex[b >> 4] + kHex[b & 15];
    else out += c;
  }
  return out + '"';
}

std::string directive_text(std::string_view text) {
  std::string out;
  bool space = false;
  for (const char c : text) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ', space = false;
    out += c;
  }
  // Printable and short: quote() escapes what a terminal should not see and
  // cuts at 60 bytes; its quotes go.
  const std::string q = quote(out);
  return q.size() >= 2 ? q.substr(1, q.size() - 2) : out;
}

}  // namespace slowstart::system
