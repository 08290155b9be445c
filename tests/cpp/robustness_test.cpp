// Robustness: the SPEC's "nothing may crash, hang, overflow or grow without
// bound on any input: a million-line script, a 10 MB line, binary garbage, or
// a 100,000-backend pool", with the exact results worked out by hand, plus the
// timeline's caps and "no allocation per pick".
//
// "No allocation" is counted by AllocationCounter (tests/support/
// allocation_counter.*, linked into the test binary), which replaces the
// global operator new/delete with thin malloc/free wrappers that count only
// while a counter is alive, so GoogleTest and the other tests are unaffected.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "../bench/gen_script.hpp"
#include "../support/allocation_counter.hpp"
#include "support/script_text.hpp"
#include "core/balancer.hpp"
#include "core/interpreter.hpp"
#include "spec/limits.hpp"
#include "core/pool.hpp"
#include "core/text_sink.hpp"
#include "core/timeline.hpp"

// ---------------------------------------------------------------------------
// Helpers.

namespace {

using slowstart::RunResult;
using slowstart::run_script;

// Valid UTF-8 (no overlongs, surrogates or values past U+10FFFF), and no C0
// control character or DEL: what every diagnostic must be.
bool printable_utf8(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x20 || c == 0x7F) return false;
    if (c < 0x80) { ++i; continue; }
    std::size_t n;
    std::uint32_t cp;
    if ((c & 0xE0) == 0xC0) n = 2, cp = c & 0x1F;
    else if ((c & 0xF0) == 0xE0) n = 3, cp = c & 0x0F;
    else if ((c & 0xF8) == 0xF0) n = 4, cp = c & 0x07;
    else return false;
    if (i + n > s.size()) return false;
    for (std::size_t k = 1; k < n; ++k) {
      const auto d = static_cast<unsigned char>(s[i + k]);
      if ((d & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (d & 0x3F);
    }
    static constexpr std::uint32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < kMin[n] || (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF) return false;
    i += n;
  }
  return true;
}

// Every diagnostic is printable, short, and line numbers strictly increase
// within 1..lines; output line numbers never decrease.
void expect_well_formed(const RunResult& r, std::uint64_t lines) {
  std::uint64_t prev = 0;
  for (const auto& d : r.diagnostics) {
    EXPECT_GT(d.line, prev);
    EXPECT_LE(d.line, lines);
    EXPECT_TRUE(printable_utf8(d.message)) << "line " << d.line;
    EXPECT_LE(d.message.size(), 400u) << "line " << d.line;
    prev = d.line;
  }
  prev = 0;
  for (const auto& o : r.output) {
    EXPECT_GE(o.line, std::max<std::uint64_t>(prev, 1));
    EXPECT_LE(o.line, lines);
    EXPECT_EQ(o.text.find('\n'), std::string::npos);
    prev = o.line;
  }
}

// A sink that only counts; with it the interpreter holds nothing per line.
class CountingSink : public slowstart::ScriptSink {
 public:
  void output(std::uint64_t, std::string_view) override { ++outputs; }
  void diagnostic(std::uint64_t, std::string_view, slowstart::Span) override { ++diagnostics; }
  void executed(std::uint64_t, slowstart::Op, const slowstart::Pool&, std::int32_t) override {
    ++executed_lines;
  }
  std::uint64_t outputs = 0, diagnostics = 0, executed_lines = 0;
};

std::string backend_name(std::size_t i) { return "b" + std::to_string(i); }

// "POOL b0=1 b1=1 ... b<n-1>=1"
std::string equal_pool_line(std::size_t n) {
  std::string s = "POOL";
  s.reserve(n * 10);
  for (std::size_t i = 0; i < n; ++i) {
    s += ' ';
    s += backend_name(i);
    s += "=1";
  }
  return s;
}

constexpr std::size_t kTenMB = 10u << 20;

}  // namespace

// ---------------------------------------------------------------------------
// A 10 MB line.

TEST(Robustness, TenMegabyteGarbageTokenGetsOneShortDiagnostic) {
  const std::string script = std::string(kTenMB, 'x') + "\nPOOL a=1\nPICK\n";
  const RunResult r = run_script(script);
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(r.diagnostics[0].line, 1u);
  EXPECT_EQ(r.diagnostics[0].message,
            "unknown command '" + std::string(slowstart::kMaxQuoted, 'x') + "...'");
  ASSERT_EQ(r.output.size(), 1u);
  EXPECT_EQ(r.output[0].line, 3u);
  EXPECT_EQ(r.output[0].text, "a");
}

TEST(Robustness, TenMegabyteLinesOfEveryOtherKind) {
  std::string script;
  script += std::string(kTenMB / 2, ' ') + std::string(kTenMB / 2, '\t') + "\r\n";  // 1: blank
  script += "#" + std::string(kTenMB, 'c') + "\n";                                  // 2: comment
  script += "POOL a=10\n";                                                           // 3
  script += "ADD b=10 20\n";                                                         // 4
  script += "NOW " + std::string(kTenMB, '0') + "5\n";   // 5: leading zeros: NOW 5
  script += "WEIGHTS\n";                                 // 6
  script += "NOW " + std::string(kTenMB, '9') + "\n";    // 7: over the limit
  script += "PICK" + std::string(kTenMB / 2, ' ') + std::string(kTenMB / 2, 'y') + "\n";  // 8
  std::string many_args = "PICK";                        // 9: ~1.7M tokens
  while (many_args.size() < kTenMB) many_args += " x\t";
  script += many_args + "\n";
  const std::string big_name(kTenMB, 'n');
  script += "ADD " + big_name + "=3 0\n";                // 10: a 10 MB name is a name
  script += "DOWN a\nDOWN b\nPICK\n";                    // 11, 12, 13
  script += "DOWN " + std::string(kTenMB, 'q') + "\n";   // 14: no such backend
  script += "WEIGHTS";                                   // 15, no final newline

  const RunResult r = run_script(script);
  expect_well_formed(r, 15);
  ASSERT_EQ(r.diagnostics.size(), 4u);
  EXPECT_EQ(r.diagnostics[0].line, 7u);
  EXPECT_EQ(r.diagnostics[0].message, "time must be at most 1000000000000, got '" +
                                          std::string(slowstart::kMaxQuoted, '9') + "...'");
  EXPECT_EQ(r.diagnostics[1].line, 8u);
  EXPECT_EQ(r.diagnostics[1].message, "unexpected argument '" +
                                          std::string(slowstart::kMaxQuoted, 'y') +
                                          "...' (usage: PICK)");
  EXPECT_EQ(r.diagnostics[2].line, 9u);
  EXPECT_EQ(r.diagnostics[2].message, "unexpected argument 'x' (usage: PICK)");
  EXPECT_EQ(r.diagnostics[3].line, 14u);
  EXPECT_EQ(r.diagnostics[3].message,
            "no backend named '" + std::string(slowstart::kMaxQuoted, 'q') + "...'");

  ASSERT_EQ(r.output.size(), 3u);
  EXPECT_EQ(r.output[0].line, 6u);
  EXPECT_EQ(r.output[0].text, "a=10 b=2");  // 10 * 5 / 20 = 2.5 -> 2
  EXPECT_EQ(r.output[1].line, 13u);
  EXPECT_TRUE(r.output[1].text == big_name);  // not EXPECT_EQ: no 10 MB failure message
  EXPECT_EQ(r.output[2].line, 15u);
  EXPECT_TRUE(r.output[2].text == "a=0 b=0 " + big_name + "=3");
  EXPECT_FALSE(r.timeline.truncated);
  EXPECT_EQ(r.timeline.step_line.size(), 9u);  // lines 3 4 5 6 10 11 12 13 15

  // The CLIs' path: 64 KiB chunks (every long line spans ~160 of them) into
  // the shared TextSink, which pauses the interpreter whenever 64 KiB of
  // text waits, give the same bytes once drained.
  std::uint64_t lines = 0;
  const auto [out, err] = slowstart::testing::cli_text(script, 65536, &lines);
  EXPECT_EQ(lines, 15u);
  std::string expected_out, expected_err;
  for (const auto& o : r.output) expected_out += o.text + "\n";
  for (const auto& d : r.diagnostics)
    expected_err += "line " + std::to_string(d.line) + ": " + d.message + "\n";
  EXPECT_TRUE(out == expected_out);
  EXPECT_EQ(err, expected_err);
}

TEST(Robustness, PoolLineOfAMegabyteAndTheBackendLimit) {
  // 100,000 entries, ~1.2 MB; weights 0..9 so that the sum is known.
  std::string pool = "POOL";
  for (std::size_t i = 0; i < 100'000; ++i) pool += " node" + std::to_string(i) + "=" + std::to_string(i % 10);
  ASSERT_GT(pool.size(), 1'000'000u);
  CountingSink sink;
  slowstart::Interpreter in(sink);
  in.feed_line(pool);
  ASSERT_EQ(in.rejected(), 0u);
  ASSERT_EQ(in.pool().size(), 100'000u);
  std::int64_t sum = 0;
  for (std::size_t i = 0; i < in.pool().size(); ++i) sum += in.pool().weight(i);
  EXPECT_EQ(sum, 10'000 * 45);

  // The same line with one duplicate at the very end is rejected whole and
  // leaves the pool as it was.
  in.feed_line(pool + " node7=1");
  EXPECT_EQ(in.rejected(), 1u);
  EXPECT_EQ(in.pool().size(), 100'000u);
  EXPECT_EQ(in.pool().backend(99'999).name, "node99999");

  // One more than the limit: rejected on the count alone (the entries are
  // not even looked at, so this is fast).
  std::string over = "POOL";
  over.reserve((slowstart::kMaxBackends + 1) * 2 + 4);
  for (std::size_t i = 0; i <= slowstart::kMaxBackends; ++i) over += " x";
  const RunResult r = run_script(over);
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(r.diagnostics[0].message, "a pool holds at most 1000000 backends");
  // From the entry past the limit (" x" number k starts at column 2k + 3)
  // to the end of the line (4 + 2 * 1,000,001 bytes).
  EXPECT_EQ(r.diagnostics[0].columns, (slowstart::Span{2'000'005, 2'000'006}));
}

// ---------------------------------------------------------------------------
// Binary garbage.

TEST(Robustness, EveryByteValueInABackendName) {
  // Line k (for each byte value b except '\n'): "ADD n<b>=1 0". It is
  // accepted exactly when b is printable ASCII other than '=' (0x21..0x7E):
  // blanks split the token, '=' makes two, C0/DEL are control characters,
  // and a lone byte >= 0x80 is not UTF-8.
  std::string script;
  std::vector<std::uint64_t> expected_rejected;
  std::string expected_weights;
  std::uint64_t line = 0;
  for (int b = 0; b < 256; ++b) {
    if (b == '\n') continue;
    ++line;
    script += "ADD n";
    script += static_cast<char>(b);
    script += "=1 0\n";
    if (b >= 0x21 && b <= 0x7E && b != '=') {
      if (!expected_weights.empty()) expected_weights += ' ';
      expected_weights += "n";
      expected_weights += static_cast<char>(b);  // byte order == b order
      expected_weights += "=1";
    } else {
      expected_rejected.push_back(line);
    }
  }
  script += "WEIGHTS\n";  // line 256
  const RunResult r = run_script(script);
  expect_well_formed(r, 256);
  ASSERT_EQ(r.diagnostics.size(), 255u - 93u);
  for (std::size_t i = 0; i < expected_rejected.size(); ++i)
    EXPECT_EQ(r.diagnostics[i].line, expected_rejected[i]);
  ASSERT_EQ(r.output.size(), 1u);
  EXPECT_EQ(r.output[0].line, 256u);
  EXPECT_EQ(r.output[0].text, expected_weights);
  // Spot checks of the wording: bytes are shown as \xNN, never raw.
  auto message_for = [&](int b) {
    const std::uint64_t l = static_cast<std::uint64_t>(b < '\n' ? b + 1 : b);
    for (const auto& d : r.diagnostics)
      if (d.line == l) return d.message;
    return std::string("(accepted)");
  };
  EXPECT_EQ(message_for(0), "backend name must not contain control characters, got 'n\\x00'");
  EXPECT_EQ(message_for('\r'), "backend name must not contain control characters, got 'n\\x0d'");
  EXPECT_EQ(message_for(0x7F), "backend name must not contain control characters, got 'n\\x7f'");
  EXPECT_EQ(message_for(0xFF), "backend name must be valid UTF-8, got 'n\\xff'");
  EXPECT_EQ(message_for(' '), "unexpected argument '0' (usage: ADD <name>=<weight> <ramp>)");
}

TEST(Robustness, AllByteValuesInOneRun) {
  std::string script;
  for (int b = 0; b < 256; ++b) script += static_cast<char>(b);
  // Line 1 is bytes 0..9; '\t' (9) ends its first token. Line 2 is 11..255.
  const RunResult r = run_script(script);
  expect_well_formed(r, 2);
  ASSERT_EQ(r.diagnostics.size(), 2u);
  EXPECT_EQ(r.diagnostics[0].line, 1u);
  EXPECT_EQ(r.diagnostics[0].message,
            "unknown command '\\x00\\x01\\x02\\x03\\x04\\x05\\x06\\x07\\x08'");
  EXPECT_EQ(r.diagnostics[1].line, 2u);
  EXPECT_EQ(r.diagnostics[1].message,
            "unknown command '\\x0b\\x0c\\x0d\\x0e\\x0f\\x10\\x11\\x12\\x13\\x14\\x15\\x16"
            "\\x17\\x18\\x19\\x1a\\x1b\\x1c\\x1d\\x1e\\x1f'");
  EXPECT_TRUE(r.output.empty());
}

TEST(Robustness, AMegabyteOfNulBytes) {
  const std::string script(1u << 20, '\0');
  const RunResult r = run_script(script);
  ASSERT_EQ(r.diagnostics.size(), 1u);
  std::string shown;
  for (std::size_t i = 0; i < slowstart::kMaxQuoted; ++i) shown += "\\x00";
  EXPECT_EQ(r.diagnostics[0].message, "unknown command '" + shown + "...'");
}

TEST(Robustness, FourMegabytesOfRandomBytes) {
  slowstart_bench::SplitMix64 rng(42);
  std::string script(4u << 20, '\0');
  for (std::size_t i = 0; i < script.size(); i += 8) {
    const std::uint64_t v = rng.next();
    for (std::size_t k = 0; k < 8; ++k) script[i + k] = static_cast<char>(v >> (8 * k));
  }
  // Sprinkle valid commands so that the pool is not always empty.
  for (std::size_t at = 1000; at + 64 < script.size(); at += 4099) {
    const std::string_view cmd = (at / 4099) % 3 == 0 ? "\nPOOL a=1 b=2\n"
                                 : (at / 4099) % 3 == 1 ? "\nPICK\n"
                                                        : "\nWEIGHTS\n";
    script.replace(at, cmd.size(), cmd);
  }
  const std::uint64_t lines = static_cast<std::uint64_t>(
      std::count(script.begin(), script.end(), '\n') + (script.back() != '\n'));
  const RunResult r = run_script(script);
  expect_well_formed(r, lines);
  CountingSink sink;
  slowstart::Interpreter in(sink);
  in.feed_text(script);
  EXPECT_EQ(in.lines(), lines);
  EXPECT_EQ(sink.diagnostics, r.diagnostics.size());
  EXPECT_EQ(sink.outputs, r.output.size());
  EXPECT_GT(r.output.size(), 600u);  // the sprinkled PICK and WEIGHTS lines
  EXPECT_GT(r.diagnostics.size(), 10'000u);
}

// ---------------------------------------------------------------------------
// A million-line script.

TEST(Robustness, MillionLineMixedScript) {
  const auto g = slowstart_bench::generate_mixed_script(1'000'000, 7, /*record_bad_lines=*/true);
  const auto& st = g.stats;
  ASSERT_EQ(st.lines, 1'000'000u);
  // The generator's mix, roughly: make sure each class is really there.
  EXPECT_GT(st.picks, 500'000u);
  EXPECT_GT(st.weights, 30'000u);
  EXPECT_GT(st.diagnostics, 80'000u);
  EXPECT_GT(st.ignored, 50'000u);
  EXPECT_GT(st.crlf, 80'000u);

  CountingSink sink;
  slowstart::Interpreter in(sink);
  in.feed_text(g.text);
  EXPECT_EQ(in.lines(), st.lines);
  EXPECT_EQ(in.rejected(), st.diagnostics);
  EXPECT_EQ(sink.outputs, st.outputs);
  EXPECT_EQ(sink.executed_lines, st.executed);
  EXPECT_EQ(st.executed + st.diagnostics + st.ignored, st.lines);

  const RunResult r = run_script(g.text);
  ASSERT_EQ(r.diagnostics.size(), g.bad_lines.size());
  for (std::size_t i = 0; i < g.bad_lines.size(); ++i)
    ASSERT_EQ(r.diagnostics[i].line, g.bad_lines[i]) << "diagnostic #" << i;
  ASSERT_EQ(r.output.size(), st.outputs);
  expect_well_formed(r, st.lines);
  // The picks are real: every base backend wins some.
  std::vector<std::string> winners;
  for (const auto& o : r.output)
    if (o.text.size() == 3 && o.text[0] == 's') winners.push_back(o.text);
  std::sort(winners.begin(), winners.end());
  winners.erase(std::unique(winners.begin(), winners.end()), winners.end());
  EXPECT_EQ(winners.size(), 16u);
  // The timeline stays within its caps whatever happens.
  const auto& t = r.timeline;
  EXPECT_LE(t.step_line.size(), 1'000'000u);
  EXPECT_LE(t.cell_backend.size(), 4'000'000u);
  if (!t.truncated) EXPECT_EQ(t.step_line.size(), st.executed);
}

// ---------------------------------------------------------------------------
// A 100,000-backend pool.

TEST(Robustness, HundredThousandBackendPool) {
  constexpr std::size_t N = 100'000;
  std::string script = equal_pool_line(N) + "\n";  // line 1
  for (int i = 0; i < 1000; ++i) script += "PICK\n";  // 2..1001
  script +=
      "DOWN b1000\n"           // 1002
      "PICK\n"                 // 1003
      "UP b1000 0\n"           // 1004
      "PICK\n"                 // 1005
      "ADD new=100000 10\n"    // 1006: appended, weight 0 at the moment of joining
      "WEIGHTS\n"              // 1007
      "NOW 5\n"                // 1008: new = 100000 * 5 / 10 = 50000
      "PICK\n"                 // 1009
      "PICK\n"                 // 1010
      "DOWN b99999\n"          // 1011
      "WEIGHTS\n";             // 1012
  const RunResult r = run_script(script);
  EXPECT_TRUE(r.diagnostics.empty());
  ASSERT_EQ(r.output.size(), 1000u + 6u);

  // Equal weights: smooth WRR is plain round robin in pool order.
  for (std::size_t i = 0; i < 1000; ++i) {
    ASSERT_EQ(r.output[i].line, i + 2);
    ASSERT_EQ(r.output[i].text, backend_name(i));
  }
  // b1000 is DOWN: the next in order takes its turn.
  EXPECT_EQ(r.output[1000].text, "b1001");
  // b1000 comes back with score 0, behind everyone still waiting at 1002.
  EXPECT_EQ(r.output[1001].text, "b1002");
  // WEIGHTS: sorted by name in byte order, not pool order.
  std::vector<std::string> names;
  for (std::size_t i = 0; i < N; ++i) names.push_back(backend_name(i));
  names.push_back("new");
  std::sort(names.begin(), names.end());
  auto weights_line = [&](std::string_view new_weight, std::string_view down) {
    std::string s;
    for (const auto& n : names) {
      if (!s.empty()) s += ' ';
      s += n;
      s += '=';
      s += n == "new" ? std::string(new_weight) : n == down ? "0" : "1";
    }
    return s;
  };
  EXPECT_EQ(r.output[1002].line, 1007u);
  EXPECT_TRUE(r.output[1002].text == weights_line("0", ""));
  EXPECT_EQ(r.output[1002].text.substr(0, 22), "b0=1 b1=1 b10=1 b100=1");
  // At 50000 against 1's, new wins at once, then drops to -100000 and waits.
  EXPECT_EQ(r.output[1003].text, "new");
  EXPECT_EQ(r.output[1004].text, "b1003");
  EXPECT_TRUE(r.output[1005].text == weights_line("50000", "b99999"));

  // The timeline of a pool this big: one 100,001-cell block per change.
  EXPECT_FALSE(r.timeline.truncated);
  EXPECT_EQ(r.timeline.names.size(), N + 1);
}

TEST(Robustness, HundredThousandBackendBalancer) {
  constexpr std::size_t N = 100'000;
  slowstart::Balancer b;
  std::vector<std::pair<std::string, std::int64_t>> entries;
  for (std::size_t i = 0; i < N; ++i) entries.emplace_back(backend_name(i), 3);
  ASSERT_FALSE(b.set_pool(entries));
  std::vector<std::int32_t> out(2000);
  b.pick_many(out.size(), out.data());
  for (std::size_t i = 0; i < out.size(); ++i) ASSERT_EQ(out[i], static_cast<std::int32_t>(i));
  // Weights as text and as numbers agree, sorted by name.
  const auto w = b.weights();
  ASSERT_EQ(w.size(), N);
  EXPECT_EQ(w[0].first, "b0");
  EXPECT_EQ(w[1].first, "b1");
  EXPECT_EQ(w[2].first, "b10");
  EXPECT_EQ(w.back().first, "b99999");
  // Bad arguments return the script's own message and change nothing.
  EXPECT_EQ(b.down("nope"), "no backend named 'nope'");
  EXPECT_EQ(b.add("x", 1'000'001, 0), "weight must be at most 1000000, got '1000001'");
  EXPECT_EQ(b.pool().size(), N);
  // All DOWN but one: it gets every pick.
  for (std::size_t i = 0; i < N; ++i)
    if (i != 77'777) ASSERT_FALSE(b.down(backend_name(i)));
  b.pick_many(100, out.data());
  for (std::size_t i = 0; i < 100; ++i) ASSERT_EQ(out[i], 77'777);
}

// ---------------------------------------------------------------------------
// The timeline's caps.

TEST(Robustness, TimelineCellCapWithAHugePool) {
  // Each non-PICK line snapshots the 100,000-backend pool: POOL plus 39 NOWs
  // fill exactly 4,000,000 cells; the 40th NOW would pass the cap.
  std::string script = equal_pool_line(100'000) + "\n";
  for (int i = 1; i <= 45; ++i) script += "NOW " + std::to_string(i) + "\n";
  script += "PICK\n";
  const RunResult r = run_script(script);
  EXPECT_TRUE(r.diagnostics.empty());
  ASSERT_EQ(r.output.size(), 1u);  // output is not affected by the cap
  EXPECT_EQ(r.output[0].text, "b0");
  const auto& t = r.timeline;
  EXPECT_TRUE(t.truncated);
  EXPECT_EQ(t.block_start.size(), 40u);
  EXPECT_EQ(t.cell_backend.size(), 4'000'000u);
  EXPECT_EQ(t.cell_up.size(), 4'000'000u);
  EXPECT_EQ(t.cell_weight.size(), 4'000'000u);
  ASSERT_EQ(t.step_line.size(), 40u);
  EXPECT_EQ(t.step_line.back(), 40u);
  EXPECT_EQ(t.step_now.back(), 39);
  EXPECT_EQ(t.names.size(), 100'000u);
}

TEST(Robustness, TimelineStepCapWithAMillionPicks) {
  std::string script = "POOL a=2 b=1\n";
  script.reserve(script.size() + 1'000'005 * 5);
  for (int i = 0; i < 1'000'005; ++i) script += "PICK\n";
  const RunResult r = run_script(script);
  ASSERT_EQ(r.output.size(), 1'000'005u);  // every PICK still answers
  EXPECT_EQ(r.output[0].text, "a");
  EXPECT_EQ(r.output[1].text, "b");
  EXPECT_EQ(r.output[2].text, "a");
  EXPECT_EQ(r.output.back().text, "a");  // (1,000,005 - 1) % 3 == 2: the 3rd of a b a
  const auto& t = r.timeline;
  EXPECT_TRUE(t.truncated);
  EXPECT_EQ(t.step_line.size(), 1'000'000u);  // POOL + 999,999 PICKs
  EXPECT_EQ(t.step_line.back(), 1'000'000u);
  EXPECT_EQ(t.block_start.size(), 1u);        // the PICKs share the POOL's block
  EXPECT_EQ(t.cell_backend.size(), 2u);
  EXPECT_EQ(t.step_winner[0], slowstart::kNotAPick);
  EXPECT_EQ(t.step_winner[1], 0);
  EXPECT_EQ(t.step_winner[2], 1);
}

// ---------------------------------------------------------------------------
// No allocation per pick.

TEST(Robustness, AllocationCounterCountsAllocations) {
  // The counter itself works (so that a 0 below means something).
  static void* volatile sink;
  AllocationCounter c;
  auto* v = new std::vector<int>(100);
  sink = v;
  delete v;
  const std::uint64_t n = c.count();
  EXPECT_EQ(n, 2u);  // the vector object and its buffer
}

TEST(Robustness, PicksDoNotAllocate) {
  slowstart::Balancer b;
  std::vector<std::pair<std::string, std::int64_t>> entries;
  for (int i = 0; i < 1000; ++i) entries.emplace_back(backend_name(i), 1 + i % 7);
  ASSERT_FALSE(b.set_pool(entries));
  for (int i = 0; i < 1000; i += 10) ASSERT_FALSE(b.up(backend_name(i), 1000));  // ramping
  for (int i = 5; i < 1000; i += 50) ASSERT_FALSE(b.down(backend_name(i)));
  ASSERT_FALSE(b.set_now(400));
  std::vector<std::int32_t> out(100'000);
  std::uint64_t checksum = 0;
  std::uint64_t allocations;
  {
    AllocationCounter c;
    for (int i = 0; i < 100'000; ++i) checksum += static_cast<std::uint32_t>(b.pick());
    b.pick_many(out.size(), out.data());
    allocations = c.count();
  }
  EXPECT_EQ(allocations, 0u);
  EXPECT_GT(checksum, 0u);
  // The picks were real: a DOWN backend never wins, a ramping one does.
  EXPECT_EQ(std::count(out.begin(), out.end(), 5), 0);
  EXPECT_GT(std::count(out.begin(), out.end(), 10), 0);
}

TEST(Robustness, InterpretedPickLinesDoNotAllocate) {
  // Steady state of the interpreter on PICK lines: tokens, command and pool
  // are reused, the winner's name is passed as a view.
  CountingSink sink;
  slowstart::Interpreter in(sink);
  in.feed_line("POOL a=5 b=1 c=1");
  in.feed_line("ADD d=10 20");
  in.feed_line("NOW 7");
  in.feed_line("PICK");  // warm-up: the token vector gets its capacity
  std::uint64_t allocations;
  {
    AllocationCounter c;
    for (int i = 0; i < 100'000; ++i) in.feed_line("PICK");
    for (int i = 0; i < 1000; ++i) in.feed_line("  PICK\t\r");
    allocations = c.count();
  }
  EXPECT_EQ(allocations, 0u);
  EXPECT_EQ(sink.outputs, 101'001u);
  EXPECT_EQ(in.rejected(), 0u);
}

TEST(Robustness, InterpretedRejectedAndWeightsLinesDoNotAllocate) {
  // Steady state of the CLIs' path (the interpreter into the shared TextSink)
  // on a script of bad lines of every kind and WEIGHTS lines: each message is
  // written into a buffer the parser keeps, then into the sink's byte
  // buffer, so after one round (the buffers reach their sizes) nothing is
  // allocated, however many lines are rejected.
  const std::string long_token(100, 'x');
  const std::string lines[] = {
      "pick",              // unknown command, with a hint
      "FOO bar",           // unknown command
      long_token,          // unknown command, quoted up to 60 bytes
      "PICK extra",        // one argument too many
      "NOW",               // missing argument
      "NOW -1",            // not an integer
      "NOW 1000000000001", // over the limit
      "ADD x 5",           // no '='
      "ADD =5 1",          // empty name
      "ADD a=1=2 1",       // two '='
      "ADD a\x01=1 1",     // a control character, escaped in the message
      "ADD e=1000001 1",   // weight over the limit
      "ADD e=1 soon",      // ramp not an integer
      "POOL a=1 b=2 a=3",  // duplicate name
      "DOWN nobody",       // no such backend (found when applied)
      "UP nobody 5",
      "DOWN " + long_token,  // longer than any name in the pool
      "UP a x",
      "WEIGHTS",
      "WEIGHTS",
  };
  constexpr std::size_t kLines = sizeof lines / sizeof lines[0];
  // Hand-worked from the SPEC's messages; `first` is the round's first line.
  const auto expected_err = [&](std::uint64_t first) {
    const std::string q60 = "'" + std::string(60, 'x') + "...'";
    const std::string msgs[] = {
        "unknown command 'pick' (use PICK)",
        "unknown command 'FOO'",
        "unknown command " + q60,
        "unexpected argument 'extra' (usage: PICK)",
        "missing argument (usage: NOW <seconds>)",
        "time must be a non-negative integer, got '-1'",
        "time must be at most 1000000000000, got '1000000000001'",
        "expected <name>=<weight>, got 'x'",
        "backend name is empty in '=5'",
        "expected one '=' in <name>=<weight>, got 'a=1=2'",
        "backend name must not contain control characters, got 'a\\x01'",
        "weight must be at most 1000000, got '1000001'",
        "ramp must be a non-negative integer, got 'soon'",
        "duplicate backend name 'a' in POOL",
        "no backend named 'nobody'",
        "no backend named 'nobody'",
        "no backend named " + q60,
        "ramp must be a non-negative integer, got 'x'",
    };
    std::string err;
    for (std::size_t i = 0; i < sizeof msgs / sizeof msgs[0]; ++i)
      err += "line " + std::to_string(first + i) + ": " + msgs[i] + "\n";
    return err;
  };
  const std::string weights = "a=5 b=1 c=1 d=5\n";  // d half-way up its ramp to 10

  slowstart::TextSink sink;
  slowstart::Interpreter in(sink);
  in.feed_line("POOL a=5 b=1 c=1");
  in.feed_line("ADD d=10 20");
  in.feed_line("NOW 10");
  const std::uint64_t setup = in.lines();
  for (const std::string& l : lines) in.feed_line(l);  // warm-up round
  EXPECT_EQ(sink.err.view(), expected_err(setup + 1));
  EXPECT_EQ(sink.out.view(), weights + weights);
  constexpr int kRounds = 10'000;
  std::uint64_t allocations;
  {
    AllocationCounter c;
    for (int round = 0; round < kRounds; ++round) {
      sink.out.clear();  // drained, as the CLIs do
      sink.err.clear();
      for (const std::string& l : lines) in.feed_line(l);
    }
    allocations = c.count();
  }
  EXPECT_EQ(allocations, 0u);
  EXPECT_EQ(in.rejected(), (kRounds + 1) * (kLines - 2));
  // The last round's text is still exact.
  EXPECT_EQ(sink.err.view(), expected_err(setup + 1 + kRounds * kLines));
  EXPECT_EQ(sink.out.view(), weights + weights);
}
