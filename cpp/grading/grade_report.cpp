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

// Characters that show as nothing, or as a blank: a line that holds one
// looks like one without it (a no-break space looks like a space, a name
// ending in U+3164 HANGUL FILLER like one without it). Blanks other than the
// space; Unicode's Default_Ignorable_Code_Point (zero-width characters,
// fillers, variation selectors, tags, the soft hyphen); format characters
// (Cf) that draw nothing; and the Braille blank.
bool is_invisible(std::uint32_t cp) {
  static constexpr std::uint32_t kRanges[][2] = {
      {0x00A0, 0x00A0},   {0x00AD, 0x00AD},   {0x034F, 0x034F},   {0x0600, 0x0605},   {0x061C, 0x061C},
      {0x06DD, 0x06DD},   {0x070F, 0x070F},   {0x0890, 0x0891},   {0x08E2, 0x08E2},   {0x115F, 0x1160},
      {0x1680, 0x1680},   {0x17B4, 0x17B5},   {0x180B, 0x180F},   {0x2000, 0x200F},   {0x2028, 0x202F},
      {0x205F, 0x206F},   {0x2800, 0x2800},   {0x3000, 0x3000},   {0x3164, 0x3164},   {0xFE00, 0xFE0F},
      {0xFEFF, 0xFEFF},   {0xFFA0, 0xFFA0},   {0xFFF0, 0xFFFB},   {0x110BD, 0x110BD}, {0x110CD, 0x110CD},
      {0x13430, 0x1343F}, {0x1BCA0, 0x1BCA3}, {0x1D173, 0x1D17A}, {0xE0000, 0xE0FFF},
  };
  for (const auto& r : kRanges)
    if (cp >= r[0] && cp <= r[1]) return true;
  return false;
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

// The start of a program's stderr as "| " lines (at most kStderrLines, "| …" when cut).
std::vector<std::string> stderr_block(const RunOutcome& o) {
  std::vector<std::string> out;
  const std::string shown = visible(o.err, kStderrShown, true);
  std::size_t start = 0, lines = 0;
  while (start < shown.size() && lines < kStderrLines) {
    std::size_t end = shown.find('\n', start);
    if (end == std::string::npos) end = shown.size();
    out.push_back("| " + shown.substr(start, end - start));
    start = end + 1;
    ++lines;
  }
  if (start < shown.size() || o.err_cut || o.err.size() > kStderrShown) out.push_back("| …");
  return out;
}

// The command line that reruns a test on its script saved as `file`.
std::string rerun_command(const std::vector<std::string>& command, const std::string& file) {
  std::vector<std::string> args = command;
  for (std::size_t i = 1; i < args.size(); ++i)
    for (std::size_t at = args[i].find("{}"); at != std::string::npos; at = args[i].find("{}", at + file.size()))
      args[i].replace(at, 2, file);
  return command_line(args) + " < " + file;
}

// Where the whole script of a test is, for one whose report shows a part.
std::string whole_script(const GradeReport& r, const GradeTest& t) {
  if (t.source == "builtin") return "slowstart tests --out DIR writes every built-in test as DIR/" + t.id + ".txt";
  if (t.source == "random")
    return "slowstart tests --out DIR --random " + t.id.substr(t.id.find('-') + 1) + " --seed " + decimal(r.seed) +
           " writes it as DIR/" + t.id + ".txt";
  return "it is " + t.id + ".txt in the tests' folder";
}

constexpr std::size_t kScriptLines = 30;   // script lines shown for a failed test
constexpr std::size_t kScriptBytes = 4000;

// A failed test's script as a report shows it: its first kScriptLines
// lines, escaped (a line over 200 bytes cut); `cut`: not all of it is
// shown as it is; `lines`: how many it has.
std::string shown_script(std::string_view script, bool& cut, std::size_t& lines) {
  std::string out;
  cut = false;
  lines = 0;
  std::size_t start = 0;
  while (start < script.size()) {
    std::size_t end = script.find('\n', start);
    if (end == std::string_view::npos) end = script.size();
    std::string_view line = script.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    ++lines;
    if (lines <= kScriptLines && out.size() < kScriptBytes) {
      out += visible(line, 200) + "\n";
      if (line.size() > 200) cut = true;
    } else {
      cut = true;
    }
    start = end + 1;
  }
  return out;
}

// The script in the JSON report: as shown_script, "…" where it is cut.
std::string script_json(std::string_view script) {
  bool cut = false;
  std::size_t lines = 0;
  std::string s = shown_script(script, cut, lines);
  return cut ? s + "…" : s;
}

// The lines that explain a failed test, without indentation: the reason,
// the two differing lines, the mistake it looks like, the start of stderr
// (or where it is shown, for a failure alike in many tests), the script.
std::vector<std::string> details(const TestVerdict& v, const GradeReport& r) {
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
  if (!o.err.empty() && v.alike >= 0) {
    out.push_back("stderr: shown once at the top (the same in " +
                  plural(r.alike[static_cast<std::size_t>(v.alike)].tests.size(), "test") + ")");
  } else if (!o.err.empty()) {
    out.push_back("stderr:");
    for (const std::string& line : stderr_block(o)) out.push_back(line);
  }
  bool cut = false;
  std::size_t lines = 0;
  const std::string script = shown_script(v.test->script, cut, lines);
  const std::string file = v.test->id + ".txt";
  out.push_back("script (to rerun the test, save it as " + file + " and run " + rerun_command(r.command, file) + "):");
  std::size_t start = 0;
  while (start < script.size()) {
    const std::size_t end = script.find('\n', start);
    out.push_back("| " + script.substr(start, end - start));
    start = end + 1;
  }
  if (cut) out.push_back("| … (" + plural(lines, "line") + " in all: " + whole_script(r, *v.test) + ")");
  return out;
}

std::string details_text(const TestVerdict& v, const GradeReport& r, std::string_view indent) {
  std::string s;
  for (const std::string& line : details(v, r)) s += std::string(indent) + line + "\n";
  return s;
}

std::size_t count_problems(const GradeReport& r) {
  std::size_t n = 0;
  for (const TestVerdict& v : r.tests) n += v.problem();
  return n;
}

// "a, b, c, d, e and 25 more": at most five of the tests' ids.
std::string some_ids(const GradeReport& r, const std::vector<std::size_t>& tests) {
  std::string s;
  const std::size_t shown = tests.size() > 6 ? 5 : tests.size();
  for (std::size_t k = 0; k < shown; ++k)
    s += (k == 0 ? "" : k + 1 == tests.size() ? " and " : ", ") + r.tests[tests[k]].test->id;
  if (shown < tests.size()) s += " and " + decimal(static_cast<std::int64_t>(tests.size() - shown)) + " more";
  return s;
}

// The run's conclusion, for the text report and Gradescope's "output":
// problems first (three or more alike said once), then the mistakes, then
// the failures that no mistake explains.
std::string conclusion(const GradeReport& r) {
  std::string s;
  const std::size_t problems = count_problems(r);
  if (problems) {
    s += wrap("Fix these first: in " + plural(problems, "test") +
                  " the program was stopped, ended in an error or printed a weight that is not a whole number, "
                  "so " + (problems == 1 ? "that test names" : "those tests name") + " no mistake.",
              78, "  ") + "\n";
    std::vector<bool> said(r.tests.size(), false);
    for (std::size_t i = 0; i < r.tests.size(); ++i) {
      if (!r.tests[i].problem() || said[i]) continue;
      std::vector<std::size_t> same;
      for (std::size_t j = i; j < r.tests.size(); ++j)
        if (r.tests[j].problem() && r.tests[j].problem_text() == r.tests[i].problem_text()) same.push_back(j);
      if (same.size() < 3) same = {i};
      for (std::size_t j : same) said[j] = true;
      const std::string who = same.size() == 1 ? r.tests[i].test->id
                                               : plural(same.size(), "test") + " (" + some_ids(r, same) + ")";
      s += "  " + (same.size() == 1 ? who + ": " + r.tests[i].problem_text()
                                    : wrap(who + ": " + r.tests[i].problem_text(), 76, "    ")) + "\n";
    }
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
  // Failures no mistake of the catalogue explains: where to start, not a bare count.
  std::vector<std::size_t> unexplained;
  for (std::size_t i = 0; i < r.tests.size(); ++i) {
    const TestVerdict& v = r.tests[i];
    // (A failure alike in many tests is said at the top.)
    if (v.status != Verdict::Passed && !v.problem() && v.looks_like.empty() && v.alike < 0) unexplained.push_back(i);
  }
  if (!unexplained.empty()) {
    const TestVerdict& first = r.tests[unexplained.front()];
    const bool authored = !first.test->expected_is_engine;
    s += wrap((r.looks_like.empty() ? "Not a classic mistake: " : "Not a classic mistake either: ") +
                  std::string(unexplained.size() == 1 ? "1 test fails" : plural(unexplained.size(), "test") + " fail") +
                  (authored ? " against the expected output of the tests' folder" : "") +
                  " in a way no mistake of the catalogue explains: " + some_ids(r, unexplained) +
                  ". Start with " + first.test->id + ": " + first.summary +
                  ". Its script is under it above: run your program on it and compare what it prints, line by "
                  "line, with the expected output.",
              78, "  ") +
         "\n\n";
  }
  return s;
}

// What every report says first: a copy of the engine in the submission,
// then the failures that are all the same (`stderr`: with their stderr, once).
std::string lead(const GradeReport& r, bool stderr) {
  std::string s;
  if (!r.engine_copies.empty()) {
    s += wrap("Warning: the submission holds a copy of the slowstart engine, so what it prints may be the engine's "
              "answers rather than its own:",
              78, "  ") + "\n";
    for (const EngineCopy& c : r.engine_copies) s += "  " + wrap(engine_copy_text(c) + ".", 76, "    ") + "\n";
    s += "\n";
  }
  for (const AlikeFailure& a : r.alike) {
    s += wrap(a.summary + ".", 78, "  ") + "\n";
    const RunOutcome& o = *r.tests[a.tests.front()].outcome;
    if (stderr && !o.err.empty()) {
      s += "  Its stderr, the same in each of them:\n";
      for (const std::string& line : stderr_block(o)) s += "  " + line + "\n";
    }
    s += "\n";
  }
  return s;
}

std::string counts(const GradeReport& r) {
  return plural(r.tests.size(), "test") + ", " + decimal(static_cast<std::int64_t>(r.passed)) + " passed, " +
         decimal(static_cast<std::int64_t>(r.tests.size() - r.passed)) + " failed";
}

std::string text_report(const GradeReport& r) {
  std::string s = "Grading " + command_line(r.command) + "\n\n";
  if (r.could_not_grade) return s + lead(r, true) + "Could not grade: " + *r.could_not_grade + "\n";
  s += lead(r, true);
  for (const TestVerdict& v : r.tests) {
    s += (v.status == Verdict::Passed ? "PASS " : "FAIL ") + v.test->id + ": " + v.test->title + "\n";
    s += details_text(v, r, "       ");
  }
  s += "\n" + conclusion(r) + counts(r) + ".\n";
  return s;
}

std::string json_report(const GradeReport& r) {
  std::string s = "{\n  \"format\": \"slowstart-grade\",\n  \"version\": 1,\n  \"command\": [";
  for (std::size_t i = 0; i < r.command.size(); ++i) s += (i ? ", " : "") + json_string(visible(r.command[i], 1000));
  const std::size_t problems = count_problems(r);
  s += "],\n  \"could_not_grade\": " + (r.could_not_grade ? json_string(*r.could_not_grade) : std::string("null")) +
       ",\n  \"engine_copies\": [";
  for (std::size_t k = 0; k < r.engine_copies.size(); ++k) {
    const EngineCopy& c = r.engine_copies[k];
    s += (k ? ",\n    {" : "\n    {") + std::string("\"file\": ") + json_string(c.file) +
         ", \"what\": " + json_string(c.what) + ", \"encoding\": " + json_string(c.encoding) + "}";
  }
  s += r.engine_copies.empty() ? "],\n  \"alike\": [" : "\n  ],\n  \"alike\": [";
  for (std::size_t k = 0; k < r.alike.size(); ++k) {
    const AlikeFailure& a = r.alike[k];
    s += (k ? ",\n    {" : "\n    {") + std::string("\"summary\": ") + json_string(a.summary) + ", \"tests\": [";
    for (std::size_t i = 0; i < a.tests.size(); ++i) s += (i ? ", " : "") + json_string(r.tests[a.tests[i]].test->id);
    s += "], \"stderr\": " + json_string(visible(r.tests[a.tests.front()].outcome->err, kStderrShown, true)) + "}";
  }
  s += r.alike.empty() ? "]" : "\n  ]";
  s += ",\n  \"tests\": " + decimal(static_cast<std::int64_t>(r.tests.size())) +
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
    s += "], \"seconds\": " + millis(r.reproducible ? 0 : o.ms) + ", \"script\": " +
         (v.status == Verdict::Passed ? std::string("null") : json_string(script_json(v.test->script))) + "}";
  }
  s += r.tests.empty() ? "]\n}\n" : "\n  ]\n}\n";
  return s;
}

// Gradescope's results.json (gradescope-autograders.readthedocs.io/en/latest/specs/):
// a point per test, status passed or failed, the details as the test's text
// output, the run's conclusion as the submission's output.
std::string gradescope_report(const GradeReport& r) {
  if (r.could_not_grade) {
    // No tests, a score of 0: Gradescope shows the reason as the submission's output.
    return "{\n  \"score\": 0,\n  \"execution_time\": 0,\n  \"output\": " +
           json_string(lead(r, false) + "Could not grade: " + *r.could_not_grade + "\n") +
           ",\n  \"output_format\": \"text\",\n  \"tests\": []\n}\n";
  }
  std::string s = "{\n  \"execution_time\": " + decimal(r.reproducible ? 0 : (r.ms + 999) / 1000) +
                  ",\n  \"output\": " + json_string(lead(r, true) + conclusion(r) + counts(r) + ".\n") +
                  ",\n  \"output_format\": \"text\",\n  \"test_output_format\": \"text\",\n"
                  "  \"test_name_format\": \"text\",\n  \"tests\": [";
  for (std::size_t k = 0; k < r.tests.size(); ++k) {
    const TestVerdict& v = r.tests[k];
    const bool pass = v.status == Verdict::Passed;
    s += k ? ",\n    {" : "\n    {";
    s += "\"name\": " + json_string(v.test->title + " (" + v.test->id + ")") +
         ", \"number\": " + json_string(decimal(static_cast<std::int64_t>(k + 1))) +
         ", \"score\": " + (pass ? "1" : "0") + ", \"max_score\": 1, \"status\": " + (pass ? "\"passed\"" : "\"failed\"") +
         ", \"output\": " + json_string(pass ? "Passed." : details_text(v, r, "")) + ", \"tags\": [";
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
// Grading that could not run is one test case, "grading", in error: a CI
// job shows the reason, never an older report's passes.
std::string junit_report(const GradeReport& r) {
  std::size_t failures = 0, errors = r.could_not_grade ? 1 : 0;
  for (const TestVerdict& v : r.tests) {
    if (v.status == Verdict::Failed) ++failures;
    else if (v.status != Verdict::Passed) ++errors;
  }
  std::string s = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n";
  s += "  <testsuite name=\"slowstart grade\" package=\"slowstart\" id=\"0\" timestamp=\"" + iso_time(r.timestamp) +
       "\" hostname=\"" + xml_text(visible(r.hostname, 200), true) + "\" tests=\"" +
       decimal(static_cast<std::int64_t>(r.tests.size() + (r.could_not_grade ? 1 : 0))) + "\" failures=\"" +
       decimal(static_cast<std::int64_t>(failures)) + "\" errors=\"" + decimal(static_cast<std::int64_t>(errors)) +
       "\" time=\"" + millis(r.ms) + "\">\n    <properties>\n";
  s += "      <property name=\"command\" value=\"" + xml_text(command_line(r.command), true) + "\"/>\n";
  for (const EngineCopy& c : r.engine_copies)
    s += "      <property name=\"engine-copy\" value=\"" + xml_text(engine_copy_text(c), true) + "\"/>\n";
  for (const AlikeFailure& a : r.alike)
    s += "      <property name=\"alike\" value=\"" + xml_text(a.summary, true) + "\"/>\n";
  for (const auto& e : r.looks_like)
    s += "      <property name=\"looks-like\" value=\"" + std::string(mistake(e.mistake).id) + "\"/>\n";
  s += "    </properties>\n";
  if (r.could_not_grade) {
    const std::string why = "Could not grade: " + *r.could_not_grade;
    s += "    <testcase name=\"grading\" classname=\"slowstart.grade\" time=\"0.000\">\n      <error "
         "type=\"could-not-grade\" message=\"" + xml_text(why, true) + "\">" + xml_text(lead(r, false) + why + "\n", false) +
         "</error>\n    </testcase>\n";
    s += "    <system-out>" + xml_text(lead(r, false) + why + "\n", false) + "</system-out>\n";
    s += "    <system-err></system-err>\n  </testsuite>\n</testsuites>\n";
    return s;
  }
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
    // A failure alike in many tests says so where CI servers show a failure: its message.
    const std::string& message = v.alike >= 0 ? r.alike[static_cast<std::size_t>(v.alike)].summary : v.summary;
    s += ">\n      <" + element + " type=\"" + type + "\" message=\"" + xml_text(message, true) + "\">" +
         xml_text(details_text(v, r, ""), false) + "</" + element + ">\n    </testcase>\n";
  }
  s += "    <system-out>" + xml_text(lead(r, true) + conclusion(r) + counts(r) + ".\n", false) + "</system-out>\n";
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

std::string engine_copy_text(const EngineCopy& c) {
  if (c.encoding == "too large to look through")
    return c.file + " is too large to look through for a copy of the engine: it has " + c.what;
  return c.file + " holds " + c.what + ", " + c.encoding;
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
