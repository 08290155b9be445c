#include "grading/grade_report.hpp"

#include "fast/decimal.hpp"
#include "core/validate.hpp"

namespace slowstart::grading {

namespace {

constexpr std::size_t kStderrShown = 2000;  // bytes of stderr in a report, per test
constexpr std::size_t kStderrLines = 20;

const char kHex[] = "0123456789abcdef";

void hex_byte(std::string& out, unsigned char c) {
  out += "\\x";
  out += kHex[c >> 4];
  out += kHex[c & 15];
}

// U+202A-U+202E, U+2066-U+2069, U+200E, U+200F, U+061C: they reorder text.
bool is_bidi_control(std::uint32_t cp) {
  return (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069) || cp == 0x200E || cp == 0x200F ||
         cp == 0x061C;
}

// Blanks other than the space, and zero-width characters: a line that holds
// one looks like one without it (a no-break space looks like a space).
bool is_invisible(std::uint32_t cp) {
  return cp == 0xA0 || cp == 0x1680 || (cp >= 0x2000 && cp <= 0x200D) || cp == 0x2028 || cp == 0x2029 ||
         cp == 0x202F || cp == 0x205F || cp == 0x2060 || cp == 0x3000 || cp == 0xFEFF;
}

// U+FDD0-U+FDEF and the last two of every plane (U+FFFE, U+FFFF, ...):
// XML 1.0 does not allow U+FFFE and U+FFFF, and none of them is text.
bool is_noncharacter(std::uint32_t cp) { return (cp >= 0xFDD0 && cp <= 0xFDEF) || (cp & 0xFFFE) == 0xFFFE; }

std::uint32_t code_point(std::string_view s, std::size_t i, std::size_t n) {
  const auto b = [&](std::size_t k) { return static_cast<std::uint32_t>(static_cast<unsigned char>(s[i + k])); };
  if (n == 2) return ((b(0) & 0x1F) << 6) | (b(1) & 0x3F);
  if (n == 3) return ((b(0) & 0x0F) << 12) | ((b(1) & 0x3F) << 6) | (b(2) & 0x3F);
  return ((b(0) & 0x07) << 18) | ((b(1) & 0x3F) << 12) | ((b(2) & 0x3F) << 6) | (b(3) & 0x3F);
}

std::string millis(std::int64_t ms) {
  std::string s = decimal(ms / 1000) + ".";
  s += decimal(1000 + ms % 1000).substr(1);
  return s;
}

// Howard Hinnant's days-to-civil: 2024-05-01T12:00:00 (UTC), no <chrono> calendar needed.
std::string iso_time(std::int64_t t) {
  std::int64_t days = t / 86400, secs = t % 86400;
  if (secs < 0) secs += 86400, --days;
  days += 719468;
  const std::int64_t era = (days >= 0 ? days : days - 146096) / 146097;
  const std::int64_t doe = days - era * 146097;
  const std::int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const std::int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const std::int64_t mp = (5 * doy + 2) / 153;
  const std::int64_t d = doy - (153 * mp + 2) / 5 + 1;
  const std::int64_t m = mp < 10 ? mp + 3 : mp - 9;
  const std::int64_t y = yoe + era * 400 + (m <= 2 ? 1 : 0);
  const auto two = [](std::int64_t v) { return decimal(100 + v).substr(1); };
  return decimal(y) + "-" + two(m) + "-" + two(d) + "T" + two(secs / 3600) + ":" + two(secs / 60 % 60) + ":" +
         two(secs % 60);
}

std::string json_string(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          out += "\\u00";
          out += kHex[static_cast<unsigned char>(c) >> 4];
          out += kHex[c & 15];
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

std::string xml_text(std::string_view s, bool attribute) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += attribute ? "&quot;" : "\""; break;
      case '\n': out += attribute ? "&#10;" : "\n"; break;
      case '\t': out += attribute ? "&#9;" : "\t"; break;
      default: out += c;
    }
  }
  return out;
}

std::string command_line(const std::vector<std::string>& command) {
  std::string s;
  for (const std::string& a : command) {
    if (!s.empty()) s += ' ';
    const bool plain = !a.empty() && a.find_first_of(" \t\"'\\$`") == std::string::npos;
    s += plain ? visible(a, 200) : "'" + visible(a, 200) + "'";
  }
  return s;
}

std::string plural(std::size_t n, std::string_view word) {
  return decimal(static_cast<std::int64_t>(n)) + " " + std::string(word) + (n == 1 ? "" : "s");
}

// Words wrapped at `width` columns (counting bytes), each line after the first indented.
std::string wrap(std::string_view text, std::size_t width, std::string_view indent) {
  std::string out, line;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find(' ', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view word = text.substr(start, end - start);
    if (!line.empty() && line.size() + 1 + word.size() > width) {
      out += line + "\n" + std::string(indent);
      line.clear();
    }
    if (!line.empty()) line += ' ';
    line.append(word);
    start = end + 1;
  }
  return out + line;
}

const Mistake& mistake(MistakeIndex m) { return mistakes()[m]; }

// The lines that explain a failed test, without indentation: the reason,
// the two differing lines, the mistake it looks like, the start of stderr.
std::vector<std::string> details(const TestVerdict& v) {
  std::vector<std::string> out;
  if (v.status == Verdict::Passed) return out;
  const Difference* d = v.difference ? &*v.difference : nullptr;
  const bool output_reason = v.status == Verdict::Failed && d;
  out.push_back(output_reason ? std::string(v.summary.substr(0, v.summary.find(": expected"))) : v.summary);
  if (!v.bad_output.empty()) out.push_back("problem: " + v.bad_output);
  if (d && !d->newline_at_end) {
    if (!output_reason) {
      std::string where = "its output first differs at output line " + decimal(static_cast<std::int64_t>(d->output_line));
      if (d->script_line) where += " (printed by script line " + decimal(static_cast<std::int64_t>(d->script_line)) + ": " + d->script_text + ")";
      out.push_back(where);
    }
    out.push_back("expected: " + (d->expected ? *d->expected : "(nothing: the expected output has ended)"));
    out.push_back("got:      " + (d->actual ? *d->actual : "(nothing: the output ended)"));
  }
  if (!v.looks_like.empty()) {
    std::string s = v.looks_like.size() > 1 ? "looks like one of: " : "looks like: ";
    for (std::size_t i = 0; i < v.looks_like.size(); ++i) s += (i ? ", " : "") + std::string(mistake(v.looks_like[i]).id);
    out.push_back(s);
  }
  const RunOutcome& o = *v.outcome;
  if (!o.err.empty()) {
    out.push_back("stderr:");
    std::string shown = visible(o.err, kStderrShown, true);
    std::size_t start = 0, lines = 0;
    while (start < shown.size() && lines < kStderrLines) {
      std::size_t end = shown.find('\n', start);
      if (end == std::string::npos) end = shown.size();
      out.push_back("| " + shown.substr(start, end - start));
      start = end + 1;
      ++lines;
    }
    if (start < shown.size() || o.err_cut || o.err.size() > kStderrShown) out.push_back("| …");
  }
  return out;
}

std::string details_text(const TestVerdict& v, std::string_view indent) {
  std::string s;
  for (const std::string& line : details(v)) s += std::string(indent) + line + "\n";
  return s;
}

std::size_t count_problems(const GradeReport& r) {
  std::size_t n = 0;
  for (const TestVerdict& v : r.tests) n += v.problem();
  return n;
}

// The run's conclusion, for the text report and Gradescope's "output":
// problems first, then the mistakes.
std::string conclusion(const GradeReport& r) {
  std::string s;
  const std::size_t problems = count_problems(r);
  if (problems) {
    s += wrap("Fix these first: in " + plural(problems, "test") +
                  " the program was stopped, ended in an error or printed a weight that is not a whole number, "
                  "so " + (problems == 1 ? "that test names" : "those tests name") + " no mistake.",
              78, "  ") + "\n";
    for (const TestVerdict& v : r.tests)
      if (v.problem()) s += "  " + v.test->id + ": " + v.problem_text() + "\n";
    s += "\n";
  }
  for (const auto& e : r.looks_like) {
    const Mistake& m = mistake(e.mistake);
    s += "Looks like: " + wrap(std::string(m.title) + " [" + std::string(m.id) + "]", 76, "  ") + "\n";
    s += "  " + wrap(m.why, 74, "  ") + "\n";
    std::string tests;
    for (std::size_t i : e.tests) tests += (tests.empty() ? "" : ", ") + r.tests[i].test->id;
    s += "  " + wrap("Seen in " + plural(e.tests.size(), "test") + ": " + tests + ".", 74, "  ") + "\n\n";
  }
  return s;
}

std::string counts(const GradeReport& r) {
  return plural(r.tests.size(), "test") + ", " + decimal(static_cast<std::int64_t>(r.passed)) + " passed, " +
         decimal(static_cast<std::int64_t>(r.tests.size() - r.passed)) + " failed";
}

std::string text_report(const GradeReport& r) {
  std::string s = "Grading " + command_line(r.command) + "\n\n";
  for (const TestVerdict& v : r.tests) {
    s += (v.status == Verdict::Passed ? "PASS " : "FAIL ") + v.test->id + ": " + v.test->title + "\n";
    s += details_text(v, "       ");
  }
  s += "\n" + conclusion(r) + counts(r) + ".\n";
  return s;
}

std::string json_report(const GradeReport& r) {
  std::string s = "{\n  \"format\": \"slowstart-grade\",\n  \"version\": 1,\n  \"command\": [";
  for (std::size_t i = 0; i < r.command.size(); ++i) s += (i ? ", " : "") + json_string(visible(r.command[i], 1000));
  const std::size_t problems = count_problems(r);
  s += "],\n  \"tests\": " + decimal(static_cast<std::int64_t>(r.tests.size())) +
       ",\n  \"passed\": " + decimal(static_cast<std::int64_t>(r.passed)) +
       ",\n  \"failed\": " + decimal(static_cast<std::int64_t>(r.tests.size() - r.passed)) +
       ",\n  \"problems\": " + decimal(static_cast<std::int64_t>(problems)) +
       ",\n  \"seconds\": " + millis(r.ms) + ",\n  \"looks_like\": [";
  for (std::size_t k = 0; k < r.looks_like.size(); ++k) {
    const auto& e = r.looks_like[k];
    const Mistake& m = mistake(e.mistake);
    s += k ? ",\n    {" : "\n    {";
    s += "\"id\": " + json_string(m.id) + ", \"title\": " + json_string(m.title) + ", \"why\": " + json_string(m.why) +
         ", \"tests\": [";
    for (std::size_t i = 0; i < e.tests.size(); ++i) s += (i ? ", " : "") + json_string(r.tests[e.tests[i]].test->id);
    s += "]}";
  }
  s += r.looks_like.empty() ? "],\n  \"results\": [" : "\n  ],\n  \"results\": [";
  for (std::size_t k = 0; k < r.tests.size(); ++k) {
    const TestVerdict& v = r.tests[k];
    const RunOutcome& o = *v.outcome;
    s += k ? ",\n    {" : "\n    {";
    s += "\"id\": " + json_string(v.test->id) + ", \"title\": " + json_string(v.test->title) +
         ", \"source\": " + json_string(v.test->source) + ", \"status\": " + json_string(verdict_name(v.status)) +
         ", \"passed\": " + (v.status == Verdict::Passed ? "true" : "false") + ", \"summary\": " + json_string(v.summary) +
         ", \"difference\": ";
    if (v.difference) {
      const Difference& d = *v.difference;
      s += "{\"output_line\": " + decimal(static_cast<std::int64_t>(d.output_line)) + ", \"script_line\": " +
           (d.script_line ? decimal(static_cast<std::int64_t>(d.script_line)) : "null") + ", \"script\": " +
           (d.script_line ? json_string(d.script_text) : "null") + ", \"expected\": " +
           (d.expected ? json_string(*d.expected) : "null") + ", \"actual\": " +
           (d.actual ? json_string(*d.actual) : "null") + ", \"newline_at_end\": " + (d.newline_at_end ? "true" : "false") +
           "}";
    } else {
      s += "null";
    }
    const bool exited = o.signal.empty() && !o.timed_out && !o.out_over;
    s += ", \"exit_code\": " + (exited ? decimal(o.exit_code) : std::string("null")) +
         ", \"expected_exit_code\": " + decimal(v.test->expected_exit) +
         ", \"signal\": " + (o.signal.empty() ? "null" : json_string(o.signal)) +
         ", \"stdout_bytes\": " + decimal(static_cast<std::int64_t>(o.out_bytes)) +
         ", \"stderr\": " + json_string(visible(o.err, kStderrShown, true)) +
         ", \"stderr_truncated\": " + (o.err_cut || o.err.size() > kStderrShown ? "true" : "false") +
         ", \"problem\": " + (v.problem() ? json_string(v.problem_text()) : std::string("null")) +
         ", \"looks_like\": [";
    for (std::size_t i = 0; i < v.looks_like.size(); ++i) s += (i ? ", " : "") + json_string(mistake(v.looks_like[i]).id);
    s += "], \"seconds\": " + millis(r.reproducible ? 0 : o.ms) + "}";
  }
  s += r.tests.empty() ? "]\n}\n" : "\n  ]\n}\n";
  return s;
}

// Gradescope's results.json (gradescope-autograders.readthedocs.io/en/latest/specs/):
// a point per test, status passed or failed, the details as the test's text
// output, the run's conclusion as the submission's output.
std::string gradescope_report(const GradeReport& r) {
  std::string s = "{\n  \"execution_time\": " + decimal(r.reproducible ? 0 : (r.ms + 999) / 1000) +
                  ",\n  \"output\": " + json_string(conclusion(r) + counts(r) + ".\n") +
                  ",\n  \"output_format\": \"text\",\n  \"test_output_format\": \"text\",\n"
                  "  \"test_name_format\": \"text\",\n  \"tests\": [";
  for (std::size_t k = 0; k < r.tests.size(); ++k) {
    const TestVerdict& v = r.tests[k];
    const bool pass = v.status == Verdict::Passed;
    s += k ? ",\n    {" : "\n    {";
    s += "\"name\": " + json_string(v.test->title + " (" + v.test->id + ")") +
         ", \"number\": " + json_string(decimal(static_cast<std::int64_t>(k + 1))) +
         ", \"score\": " + (pass ? "1" : "0") + ", \"max_score\": 1, \"status\": " + (pass ? "\"passed\"" : "\"failed\"") +
         ", \"output\": " + json_string(pass ? "Passed." : details_text(v, "")) + ", \"tags\": [";
    for (std::size_t i = 0; i < v.looks_like.size(); ++i) s += (i ? ", " : "") + json_string(mistake(v.looks_like[i]).id);
    s += "]}";
  }
  s += r.tests.empty() ? "]\n}\n" : "\n  ]\n}\n";
  return s;
}

// JUnit XML as the Apache Ant JUnit schema has it (the strictest common
// form; Jenkins, GitLab and GitHub reporters read it): every required
// attribute, <properties>, <system-out> and <system-err> present. A wrong
// output is a <failure>; a crash, a timeout or too much output an <error>.
std::string junit_report(const GradeReport& r) {
  std::size_t failures = 0, errors = 0;
  for (const TestVerdict& v : r.tests) {
    if (v.status == Verdict::Failed) ++failures;
    else if (v.status != Verdict::Passed) ++errors;
  }
  std::string s = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n";
  s += "  <testsuite name=\"slowstart grade\" package=\"slowstart\" id=\"0\" timestamp=\"" + iso_time(r.timestamp) +
       "\" hostname=\"" + xml_text(visible(r.hostname, 200), true) + "\" tests=\"" +
       decimal(static_cast<std::int64_t>(r.tests.size())) + "\" failures=\"" +
       decimal(static_cast<std::int64_t>(failures)) + "\" errors=\"" + decimal(static_cast<std::int64_t>(errors)) +
       "\" time=\"" + millis(r.ms) + "\">\n    <properties>\n";
  s += "      <property name=\"command\" value=\"" + xml_text(command_line(r.command), true) + "\"/>\n";
  for (const auto& e : r.looks_like)
    s += "      <property name=\"looks-like\" value=\"" + std::string(mistake(e.mistake).id) + "\"/>\n";
  s += "    </properties>\n";
  for (const TestVerdict& v : r.tests) {
    s += "    <testcase name=\"" + xml_text(v.test->id + ": " + v.test->title, true) +
         "\" classname=\"slowstart." + v.test->source + "\" time=\"" + millis(r.reproducible ? 0 : v.outcome->ms) + "\"";
    if (v.status == Verdict::Passed) {
      s += "/>\n";
      continue;
    }
    const std::string element = v.status == Verdict::Failed ? "failure" : "error";
    const std::string type = v.status == Verdict::Failed ? (v.difference ? "wrong-output" : "wrong-exit-status")
                                                         : std::string(verdict_name(v.status));
    s += ">\n      <" + element + " type=\"" + type + "\" message=\"" + xml_text(v.summary, true) + "\">" +
         xml_text(details_text(v, ""), false) + "</" + element + ">\n    </testcase>\n";
  }
  s += "    <system-out>" + xml_text(conclusion(r) + counts(r) + ".\n", false) + "</system-out>\n";
  s += "    <system-err></system-err>\n  </testsuite>\n</testsuites>\n";
  return s;
}

}  // namespace

std::string visible(std::string_view text, std::size_t max, bool newlines) {
  std::string out;
  const std::size_t n = text.size() < max ? text.size() : max;
  std::size_t i = 0;
  while (i < n) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c == '\n' && newlines) {
      out += '\n';
      ++i;
    } else if (c == '\t') {
      out += newlines ? "\t" : "\\t";
      ++i;
    } else if (c == '\r') {
      out += "\\r";
      ++i;
    } else if (c < 0x20 || c == 0x7F) {
      hex_byte(out, c);
      ++i;
    } else if (c < 0x80) {
      out += static_cast<char>(c);
      ++i;
    } else {
      const std::size_t len = utf8_sequence_length(text, i);
      if (len == 0 || i + len > n) {
        hex_byte(out, c);
        ++i;
        continue;
      }
      const std::uint32_t cp = code_point(text, i, len);
      if ((cp >= 0x80 && cp < 0xA0) || is_bidi_control(cp) || is_invisible(cp) || is_noncharacter(cp)) {
        out += "\\u{";
        std::string hex;
        for (std::uint32_t v = cp; v; v >>= 4) hex.insert(hex.begin(), kHex[v & 15]);
        out += hex + "}";
      } else {
        out.append(text.substr(i, len));
      }
      i += len;
    }
  }
  if (text.size() > max) out += "…";
  return out;
}

std::string format_report(const GradeReport& report, ReportFormat format) {
  switch (format) {
    case ReportFormat::Json: return json_report(report);
    case ReportFormat::Gradescope: return gradescope_report(report);
    case ReportFormat::Junit: return junit_report(report);
    case ReportFormat::Text: break;
  }
  return text_report(report);
}

}  // namespace slowstart::grading
