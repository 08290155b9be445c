// libFuzzer target for the script interpreter.
//
// Every input is run three ways and the results must agree:
//   1. slowstart::run_script with the timeline on (the WASM front end's path);
//   2. slowstart::Interpreter::feed_line, one line at a time, through a sink
//      that checks each callback as it happens (the full parser on every
//      line); feed_chunk + finish in chunks of pseudo-random sizes (the
//      streaming path); and the paths that take the interpreter's fast
//      path for whole lines (fast_line): run_script without the timeline,
//      and the CLIs' text sink in chunks, both checked against feed_line's;
//   3. a deliberately naive reference model of SPEC.md written here, with no
//      code shared with the engine (linear scans, __int128 for the ramp).
// On top of that, invariants that must hold for any input are checked:
//   - output and diagnostic line numbers are within 1..lines and never go
//     backwards; at most one diagnostic per line; rejected() == #diagnostics;
//   - output lines are valid UTF-8 with no '\n' or '\r';
//   - diagnostics are non-empty, short, valid UTF-8 and contain no control
//     characters (C0, DEL and C1) and no bidirectional controls;
//   - the timeline is internally consistent, stays within its caps, and
//     matches the model step by step (clock, winner, every cell).
// Any violation calls __builtin_trap() after printing what was wrong, so
// libFuzzer saves the input as a crash artifact.
//
// Build and run: tests/fuzz/run.sh [SECONDS]
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/interpreter.hpp"
#include "core/text_sink.hpp"
#include "spec/limits.hpp"
#include "core/timeline.hpp"

namespace {

[[noreturn]] void fail(const char* what, std::uint64_t line = 0, std::string_view detail = {}) {
  std::fprintf(stderr, "\n*** INVARIANT VIOLATED: %s (line %llu)", what,
               static_cast<unsigned long long>(line));
  if (!detail.empty()) {
    std::fprintf(stderr, ": '");
    for (unsigned char c : detail.substr(0, 300)) {
      if (c >= 0x20 && c < 0x7F) std::fputc(c, stderr);
      else std::fprintf(stderr, "\\x%02x", c);
    }
    std::fprintf(stderr, "'%s", detail.size() > 300 ? "..." : "");
  }
  std::fprintf(stderr, "\n");
  __builtin_trap();
}

#define CHECK(cond, ...) \
  do {                   \
    if (!(cond)) fail(#cond, ##__VA_ARGS__); \
  } while (0)

// ---------------------------------------------------------------------------
// UTF-8, written independently of the engine's validator: decode to a code
// point and reject overlong forms, surrogates and values above U+10FFFF.
// Returns the sequence length, or 0 if invalid; sets cp.
std::size_t decode_utf8(std::string_view s, std::size_t i, std::uint32_t& cp) {
  const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = b(i);
  std::size_t n;
  if (c < 0x80) { cp = c; return 1; }
  if ((c & 0xE0) == 0xC0) { n = 2; cp = c & 0x1F; }
  else if ((c & 0xF0) == 0xE0) { n = 3; cp = c & 0x0F; }
  else if ((c & 0xF8) == 0xF0) { n = 4; cp = c & 0x07; }
  else return 0;
  if (i + n > s.size()) return 0;
  for (std::size_t k = 1; k < n; ++k) {
    if ((b(i + k) & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (b(i + k) & 0x3F);
  }
  static constexpr std::uint32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < kMin[n]) return 0;                     // overlong
  if (cp >= 0xD800 && cp <= 0xDFFF) return 0;     // surrogate
  if (cp > 0x10FFFF) return 0;
  return n;
}

bool is_c0_or_del(std::uint32_t cp) { return cp < 0x20 || cp == 0x7F; }
bool is_c1(std::uint32_t cp) { return cp >= 0x80 && cp <= 0x9F; }
// The SPEC's bidirectional controls: never in a name, never unescaped in a message.
bool is_bidi(std::uint32_t cp) {
  return cp == 0x061C || cp == 0x200E || cp == 0x200F || (cp >= 0x202A && cp <= 0x202E) ||
         (cp >= 0x2066 && cp <= 0x2069);
}

// Valid UTF-8 with no control character (C0, DEL, C1) and no bidirectional
// control. '\n' and '\r' are C0.
bool printable_utf8(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    std::uint32_t cp;
    const std::size_t n = decode_utf8(s, i, cp);
    if (n == 0 || is_c0_or_del(cp) || is_c1(cp) || is_bidi(cp)) return false;
    i += n;
  }
  return true;
}

// ---------------------------------------------------------------------------
// The reference model: SPEC.md read literally, plus the engine's documented
// choices (limits.hpp: NOW <= 10^12, at most 10^6 backends; validate.hpp:
// names are valid UTF-8 without C0, DEL or C1 controls or bidi controls).

constexpr std::int64_t kWeightLimit = 1'000'000;
constexpr std::int64_t kTimeLimit = 1'000'000'000'000;

struct ModelBackend {
  std::string name;
  std::int64_t target = 0, ramp = 0, joined = 0;
  bool up = true;
  std::int64_t score = 0;
};

struct Snapshot {
  std::vector<std::string> names;
  std::vector<std::uint8_t> up;
  std::vector<std::int64_t> weight;
};

struct ModelStep {
  std::uint64_t line;
  std::int64_t now;
  std::optional<std::string> winner;  // PICK only; "" never (names are non-empty)
  bool is_pick = false;
  bool pick_none = false;
  std::shared_ptr<const Snapshot> snap;
};

struct ModelResult {
  std::vector<std::pair<std::uint64_t, std::string>> output;
  std::vector<std::uint64_t> rejected;
  std::vector<ModelStep> steps;
  std::uint64_t lines = 0;
};

class Model {
 public:
  ModelResult run(std::string_view text) {
    // SPEC: a UTF-8 byte-order mark at the very start of a script is ignored.
    std::size_t start = text.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;
    while (start < text.size()) {
      std::size_t end = start;
      while (end < text.size() && text[end] != '\n') ++end;
      line(text.substr(start, end - start));
      start = end + 1;
    }
    return std::move(r_);
  }

 private:
  static std::optional<std::int64_t> number(std::string_view t, std::int64_t limit) {
    if (t.empty()) return std::nullopt;
    for (char c : t)
      if (c < '0' || c > '9') return std::nullopt;
    std::size_t z = 0;
    while (z + 1 < t.size() && t[z] == '0') ++z;
    t.remove_prefix(z);
    if (t.size() > 13) return std::nullopt;  // > 10^12 for sure
    std::int64_t v = 0;
    for (char c : t) v = v * 10 + (c - '0');
    if (v > limit) return std::nullopt;
    return v;
  }

  static bool good_name(std::string_view n) {
    if (n.empty()) return false;
    for (std::size_t i = 0; i < n.size();) {
      std::uint32_t cp;
      const std::size_t k = decode_utf8(n, i, cp);
      if (k == 0 || is_c0_or_del(cp) || is_c1(cp) || is_bidi(cp) || cp == '=' || cp == ' ' || cp == '\t')
        return false;
      i += k;
    }
    return true;
  }

  static bool entry(std::string_view t, std::string& name, std::int64_t& w) {
    if (std::count(t.begin(), t.end(), '=') != 1) return false;
    const std::size_t eq = t.find('=');
    if (!good_name(t.substr(0, eq))) return false;
    auto v = number(t.substr(eq + 1), kWeightLimit);
    if (!v) return false;
    name.assign(t.substr(0, eq));
    w = *v;
    return true;
  }

  std::int64_t eff(const ModelBackend& b) const {
    if (!b.up) return 0;
    if (b.ramp == 0) return b.target;
    const __int128 elapsed = now_ > b.joined ? now_ - b.joined : 0;
    const __int128 e = elapsed < b.ramp ? elapsed : b.ramp;
    return static_cast<std::int64_t>(e * b.target / b.ramp);
  }

  ModelBackend* find(std::string_view n) {
    for (auto& b : pool_)
      if (b.name == n) return &b;
    return nullptr;
  }

  void reject() { r_.rejected.push_back(r_.lines); }

  void line(std::string_view l) {
    ++r_.lines;
    if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
    std::vector<std::string_view> tok;
    for (std::size_t i = 0; i < l.size();) {
      if (l[i] == ' ' || l[i] == '\t') { ++i; continue; }
      std::size_t j = i;
      while (j < l.size() && l[j] != ' ' && l[j] != '\t') ++j;
      tok.push_back(l.substr(i, j - i));
      i = j;
    }
    if (tok.empty() || tok[0][0] == '#') return;
    const std::string_view k = tok[0];
    const std::size_t args = tok.size() - 1;
    ModelStep step;
    step.line = r_.lines;
    bool changes = true;
    if (k == "POOL") {
      std::vector<ModelBackend> next;
      std::set<std::string> seen;
      for (std::size_t i = 1; i < tok.size(); ++i) {
        ModelBackend b;
        if (!entry(tok[i], b.name, b.target)) return reject();
        if (!seen.insert(b.name).second) return reject();
        b.joined = now_;
        next.push_back(std::move(b));
      }
      if (next.size() > slowstart::kMaxBackends) return reject();
      pool_ = std::move(next);
    } else if (k == "NOW") {
      if (args != 1) return reject();
      auto v = number(tok[1], kTimeLimit);
      if (!v) return reject();
      now_ = *v;
    } else if (k == "ADD") {
      if (args != 2) return reject();
      ModelBackend b;
      if (!entry(tok[1], b.name, b.target)) return reject();
      auto ramp = number(tok[2], kTimeLimit);
      if (!ramp) return reject();
      b.ramp = *ramp;
      b.joined = now_;
      if (ModelBackend* old = find(b.name)) *old = std::move(b);
      else pool_.push_back(std::move(b));
    } else if (k == "DOWN") {
      if (args != 1) return reject();
      ModelBackend* b = find(tok[1]);
      if (!b) return reject();
      b->up = false;
    } else if (k == "UP") {
      if (args != 2) return reject();
      auto ramp = number(tok[2], kTimeLimit);
      ModelBackend* b = find(tok[1]);
      if (!ramp || !b) return reject();
      b->up = true;
      b->ramp = *ramp;
      b->joined = now_;
      b->score = 0;
    } else if (k == "WEIGHTS") {
      if (args != 0) return reject();
      changes = false;
      std::vector<const ModelBackend*> sorted;
      for (auto& b : pool_) sorted.push_back(&b);
      std::sort(sorted.begin(), sorted.end(),
                [](auto* a, auto* b) { return a->name < b->name; });
      std::string out;
      for (auto* b : sorted) {
        if (!out.empty()) out += ' ';
        out += b->name + "=" + std::to_string(eff(*b));
      }
      r_.output.emplace_back(r_.lines, out);
    } else if (k == "PICK") {
      if (args != 0) return reject();
      changes = false;
      std::int64_t total = 0;
      ModelBackend* best = nullptr;
      for (auto& b : pool_) {
        const std::int64_t w = eff(b);
        if (w <= 0) continue;
        b.score += w;
        total += w;
        if (!best || b.score > best->score) best = &b;
      }
      step.is_pick = true;
      if (best) {
        best->score -= total;
        step.winner = best->name;
        r_.output.emplace_back(r_.lines, best->name);
      } else {
        step.pick_none = true;
        r_.output.emplace_back(r_.lines, "NONE");
      }
    } else {
      return reject();
    }
    step.now = now_;
    if (changes || !last_) {
      auto s = std::make_shared<Snapshot>();
      for (auto& b : pool_) {
        s->names.push_back(b.name);
        s->up.push_back(b.up ? 1 : 0);
        s->weight.push_back(eff(b));
      }
      last_ = std::move(s);
    }
    step.snap = last_;
    r_.steps.push_back(std::move(step));
  }

  std::vector<ModelBackend> pool_;
  std::int64_t now_ = 0;
  std::shared_ptr<const Snapshot> last_;
  ModelResult r_;
};

// ---------------------------------------------------------------------------
// The streaming run (feed_chunk + finish), collecting plainly.

class PlainSink : public slowstart::ScriptSink {
 public:
  void output(std::uint64_t line, std::string_view text) override {
    output_.emplace_back(line, std::string(text));
  }
  void diagnostic(std::uint64_t line, std::string_view message, slowstart::Span columns) override {
    diagnostics_.emplace_back(line, std::string(message));
    columns_.push_back(columns);
  }
  std::vector<std::pair<std::uint64_t, std::string>> output_, diagnostics_;
  std::vector<slowstart::Span> columns_;
};

// ---------------------------------------------------------------------------
// The line-by-line run, checking every callback as it arrives.

class CheckingSink : public slowstart::ScriptSink {
 public:
  explicit CheckingSink(const slowstart::Interpreter*& interp) : interp_(interp) {}

  void output(std::uint64_t line, std::string_view text) override {
    check_line(line);
    CHECK(text.find('\n') == std::string_view::npos, line, text);
    CHECK(text.find('\r') == std::string_view::npos, line, text);
    CHECK(printable_utf8(text), line, text);
    output_.emplace_back(line, std::string(text));
  }
  void diagnostic(std::uint64_t line, std::string_view message, slowstart::Span columns) override {
    check_line(line);
    CHECK(columns.from < columns.to, line, message);  // a problem is somewhere on its line
    CHECK(!message.empty(), line);
    CHECK(message.size() <= 600, line, message);  // quoted input is capped
    CHECK(printable_utf8(message), line, message);
    CHECK(diagnostics_.empty() || diagnostics_.back().first < line, line, message);
    diagnostics_.emplace_back(line, std::string(message));
  }
  void executed(std::uint64_t line, slowstart::Op, const slowstart::Pool& pool,
                std::int32_t winner) override {
    check_line(line);
    CHECK(winner == slowstart::kNone ||
              (winner >= 0 && static_cast<std::size_t>(winner) < pool.size()),
          line);
    CHECK(diagnostics_.empty() || diagnostics_.back().first < line, line);
    ++executed_;
  }

  std::vector<std::pair<std::uint64_t, std::string>> output_, diagnostics_;
  std::uint64_t executed_ = 0;

 private:
  void check_line(std::uint64_t line) {
    CHECK(line >= 1 && line == interp_->lines(), line);  // the line being fed
    CHECK(line >= last_, line);
    last_ = line;
  }
  const slowstart::Interpreter*& interp_;
  std::uint64_t last_ = 0;
};

void check_timeline(const slowstart::Timeline& t, const ModelResult& m,
                    const slowstart::RunResult& r) {
  using slowstart::kNone;
  using slowstart::kNotAPick;
  const std::size_t steps = t.step_line.size();
  CHECK(t.step_now.size() == steps && t.step_winner.size() == steps && t.step_block.size() == steps);
  CHECK(t.cell_up.size() == t.cell_backend.size() && t.cell_weight.size() == t.cell_backend.size());
  CHECK(steps <= 1'000'000 && t.cell_backend.size() <= 4'000'000);
  if (!t.truncated) CHECK(steps == m.steps.size());
  CHECK(steps <= m.steps.size());
  // Names: unique, each a name that some backend had.
  {
    std::vector<std::string> n = t.names;
    std::sort(n.begin(), n.end());
    CHECK(std::adjacent_find(n.begin(), n.end()) == n.end());
  }
  for (std::size_t b = 0; b < t.block_start.size(); ++b) {
    CHECK(t.block_start[b] <= t.cell_backend.size());
    if (b) CHECK(t.block_start[b - 1] <= t.block_start[b]);
  }
  for (std::uint32_t id : t.cell_backend) CHECK(id < t.names.size());
  for (std::size_t s = 0; s < steps; ++s) {
    const ModelStep& ms = m.steps[s];
    const std::uint64_t line = t.step_line[s];
    CHECK(line == ms.line, line);
    CHECK(line >= 1 && line <= m.lines, line);
    if (s) CHECK(t.step_line[s - 1] < line && t.step_block[s - 1] <= t.step_block[s], line);
    CHECK(t.step_now[s] == ms.now, line);
    const std::int32_t w = t.step_winner[s];
    if (!ms.is_pick) {
      CHECK(w == kNotAPick, line);
    } else if (ms.pick_none) {
      CHECK(w == kNone, line);
    } else {
      CHECK(w >= 0 && static_cast<std::size_t>(w) < t.names.size(), line);
      CHECK(t.names[w] == *ms.winner, line, t.names[w]);
    }
    const std::uint32_t blk = t.step_block[s];
    CHECK(blk < t.block_start.size(), line);
    const std::size_t begin = t.block_start[blk];
    const std::size_t end =
        blk + 1 < t.block_start.size() ? t.block_start[blk + 1] : t.cell_backend.size();
    const Snapshot& snap = *ms.snap;
    CHECK(end - begin == snap.names.size(), line);
    for (std::size_t i = 0; i < snap.names.size(); ++i) {
      CHECK(t.names[t.cell_backend[begin + i]] == snap.names[i], line, snap.names[i]);
      CHECK(t.cell_up[begin + i] == snap.up[i], line, snap.names[i]);
      CHECK(t.cell_weight[begin + i] == snap.weight[i], line, snap.names[i]);
    }
  }
  (void)r;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);

  // 1. The whole-text path with the timeline.
  const slowstart::RunResult r = slowstart::run_script(text, {.timeline = true});

  // 2. Line by line, as the CLI does.
  const slowstart::Interpreter* ip = nullptr;
  CheckingSink sink(ip);
  slowstart::Interpreter interp(sink);
  ip = &interp;
  std::uint64_t fed = 0;
  std::vector<std::size_t> line_bytes;  // each line's length, without its '\n'
  for (std::size_t start = 0; start < text.size();) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    interp.feed_line(text.substr(start, end - start));
    line_bytes.push_back(end - start);
    ++fed;
    start = end + 1;
  }
  CHECK(interp.lines() == fed);
  CHECK(interp.rejected() == sink.diagnostics_.size());
  // The lines of the script as a whole: a byte-order mark alone is an
  // empty script (no line), though fed as a line it is one blank line.
  const std::uint64_t lines = text == "\xEF\xBB\xBF" ? 0 : fed;
  CHECK(sink.executed_ + sink.diagnostics_.size() <= fed);

  // Both paths agree exactly.
  CHECK(r.output.size() == sink.output_.size());
  for (std::size_t i = 0; i < r.output.size(); ++i) {
    CHECK(r.output[i].line == sink.output_[i].first, r.output[i].line);
    CHECK(r.output[i].text == sink.output_[i].second, r.output[i].line, r.output[i].text);
  }
  CHECK(r.diagnostics.size() == sink.diagnostics_.size());
  for (std::size_t i = 0; i < r.diagnostics.size(); ++i) {
    CHECK(r.diagnostics[i].line == sink.diagnostics_[i].first, r.diagnostics[i].line);
    CHECK(r.diagnostics[i].message == sink.diagnostics_[i].second, r.diagnostics[i].line);
    CHECK(r.diagnostics[i].line <= fed, r.diagnostics[i].line);
    // Where the problem is: inside its line, the same on every path.
    CHECK(r.diagnostics[i].columns.from < r.diagnostics[i].columns.to, r.diagnostics[i].line);
    CHECK(r.diagnostics[i].columns.to <= line_bytes[r.diagnostics[i].line - 1], r.diagnostics[i].line);
  }
  for (const auto& o : r.output) CHECK(o.line >= 1 && o.line <= fed, o.line);

  // 2b. Streamed in chunks of pseudo-random sizes (0 to 96 bytes, so that a
  // chunk boundary falls everywhere: inside tokens, between CR and LF),
  // as the CLIs do with their read buffers.
  {
    PlainSink cs;
    slowstart::Interpreter ci(cs);
    std::uint64_t h = 0x9E3779B97F4A7C15ull ^ size;
    for (std::size_t at = 0; at < size;) {
      h = h * 6364136223846793005ull + 1442695040888963407ull;
      const std::size_t len = std::min<std::size_t>((h >> 33) % 97, size - at);
      ci.feed_chunk(text.substr(at, len));
      at += len;
    }
    ci.finish();
    ci.finish();  // a second finish() must do nothing
    CHECK(ci.lines() == lines);
    CHECK(ci.rejected() == interp.rejected());
    CHECK(cs.output_ == sink.output_);
    CHECK(cs.diagnostics_ == sink.diagnostics_);
    CHECK(cs.columns_.size() == r.diagnostics.size());
    for (std::size_t i = 0; i < cs.columns_.size() && i < r.diagnostics.size(); ++i)
      CHECK(cs.columns_[i] == r.diagnostics[i].columns, r.diagnostics[i].line);
  }

  // 2c. The fast path for whole lines (Interpreter::fast_line), which
  // feed_line never takes: a run without the timeline (a sink that takes no
  // steps), and the CLIs' text sink fed in chunks (lines within a chunk take
  // it, lines across chunks the parser). Both agree with feed_line's run.
  {
    const slowstart::RunResult quick = slowstart::run_script(text, {.timeline = false});
    CHECK(quick.output.size() == sink.output_.size());
    for (std::size_t i = 0; i < quick.output.size() && i < sink.output_.size(); ++i) {
      CHECK(quick.output[i].line == sink.output_[i].first, quick.output[i].line);
      CHECK(quick.output[i].text == sink.output_[i].second, quick.output[i].line, quick.output[i].text);
    }
    CHECK(quick.diagnostics.size() == r.diagnostics.size());
    for (std::size_t i = 0; i < quick.diagnostics.size() && i < r.diagnostics.size(); ++i) {
      CHECK(quick.diagnostics[i].line == r.diagnostics[i].line, quick.diagnostics[i].line);
      CHECK(quick.diagnostics[i].message == r.diagnostics[i].message, quick.diagnostics[i].line);
      CHECK(quick.diagnostics[i].columns == r.diagnostics[i].columns, quick.diagnostics[i].line);
    }
    std::string want_out, want_err;
    for (const auto& [line, t] : sink.output_) want_out.append(t).append("\n");
    for (const auto& [line, message] : sink.diagnostics_)
      want_err.append("line ").append(std::to_string(line)).append(": ").append(message).append("\n");
    slowstart::TextSink ts;
    slowstart::Interpreter ti(ts);
    std::string got_out, got_err;
    std::uint64_t h = 0x243F6A8885A308D3ull ^ size;
    for (std::size_t at = 0; at < size;) {
      h = h * 6364136223846793005ull + 1442695040888963407ull;
      // Mostly whole lines per chunk (up to 1 KiB), sometimes a cut anywhere.
      const std::size_t len = std::min<std::size_t>(1 + (h >> 33) % ((h & 3) == 0 ? 97 : 1024), size - at);
      std::string_view chunk = text.substr(at, len);
      while (!chunk.empty()) {
        chunk.remove_prefix(ti.feed_chunk(chunk));
        got_out.append(ts.out.view());
        got_err.append(ts.err.view());
        ts.out.clear();
        ts.err.clear();
      }
      at += len;
    }
    ti.finish();
    got_out.append(ts.out.view());
    got_err.append(ts.err.view());
    CHECK(ti.lines() == lines);
    CHECK(ti.rejected() == interp.rejected());
    CHECK(got_out == want_out);
    CHECK(got_err == want_err);
  }

  // 3. The reference model agrees on every output line and on which lines
  // were rejected (not on the wording of the messages).
  const ModelResult m = Model().run(text);
  CHECK(m.lines == lines);
  CHECK(m.rejected.size() == r.diagnostics.size(), m.rejected.empty() ? 0 : m.rejected[0]);
  for (std::size_t i = 0; i < m.rejected.size(); ++i)
    CHECK(m.rejected[i] == r.diagnostics[i].line, m.rejected[i]);
  CHECK(m.output.size() == r.output.size());
  for (std::size_t i = 0; i < m.output.size(); ++i) {
    CHECK(m.output[i].first == r.output[i].line, m.output[i].first);
    CHECK(m.output[i].second == r.output[i].text, m.output[i].first, r.output[i].text);
  }
  CHECK(m.steps.size() == sink.executed_);

  check_timeline(r.timeline, m, r);

  if (const char* self = std::getenv("SLOWSTART_FUZZ_SELFTEST")) {
    // run.sh --selftest: prove that LeakSanitizer is active by leaking once.
    if (std::strcmp(self, "leak") == 0 && size > 0) {
      static char* volatile leaked;
      leaked = new char[64];
      leaked = nullptr;
    }
  }
  return 0;
}
