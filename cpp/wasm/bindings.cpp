// The engine module's exports: plain C functions over the engine, for the
// typed API (web/api/engine-abi.ts) to call.
//
// Deliberately thin. It knows nothing of the rules: it passes bytes in
// through one input buffer, and hands results out as an address and a
// length in the module's memory (text, typed columns, a run's RunView) for
// JavaScript to copy once. No embind here: its runtime and class machinery
// were about a third of this module, which has a 40 KB (gzipped) budget,
// and every call through it cost more than the work of a pick. (The lab
// module, which has no such budget, keeps embind for its richer options.)
//
// Objects (a streaming text runner, a balancer) are their addresses; the TS
// layer frees each exactly once.
#include <emscripten/emscripten.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cli/usage.hpp"
#include "fast/cold.hpp"
#include "core/balancer.hpp"
#include "core/interpreter.hpp"
#include "core/text_sink.hpp"
#include "wasm/input_buffer.hpp"
#include "wasm/run_view.hpp"

using namespace slowstart;
using namespace slowstart::wasm;

namespace {

// The length of the bytes the last call returned the address of.
std::uint32_t g_length = 0;
// The last change's problem, for ss_problem(); a line handed out.
std::string g_problem, g_text;

const char* bytes(std::string_view s) {
  g_length = static_cast<std::uint32_t>(s.size());
  return s.data();
}

// 0 when fine; 1 with the message kept for ss_problem().
int outcome(const Problem& p) {
  if (!p) return 0;
  g_problem = *p;
  return 1;
}

// Streams a script in the CLI's exact text format (the Node CLI).
class TextRunner {
 public:
  TextRunner() : interpreter_(sink_) {}
  std::size_t feed(std::string_view chunk) { return interpreter_.feed_chunk(chunk); }
  void finish() { interpreter_.finish(); }
  // The waiting text, handed out in a spare buffer that the next take
  // reuses (so a long run allocates nothing here once warm).
  const char* take(bool diagnostics) {
    ByteBuffer& text = diagnostics ? sink_.err : sink_.out;
    taken_.swap(text);
    text.clear();
    return bytes(taken_.view());
  }
  double rejected() const { return static_cast<double>(interpreter_.rejected()); }

 private:
  TextSink sink_;
  Interpreter interpreter_;
  ByteBuffer taken_;
};

// The imperative balancer. Numbers come as decimal text, so that every check
// (and message) is the script parser's own.
class JsBalancer {
 public:
  Balancer b;
  std::vector<double> weights;
  std::unique_ptr<std::int32_t[]> picks;
  std::size_t capacity = 0;
};

}  // namespace

// (Exports that change or describe are compiled for size, SLOWSTART_COLD:
// a call from JavaScript costs more than their work; the runs and picks
// are what must be fast.)
extern "C" {

// The input buffer resized to n bytes: its address, for JS to fill.
EMSCRIPTEN_KEEPALIVE char* ss_input(std::uint32_t n) { return input_resize(n); }
EMSCRIPTEN_KEEPALIVE std::uint32_t ss_length() { return g_length; }
EMSCRIPTEN_KEEPALIVE const char* ss_problem() { return bytes(g_problem); }
EMSCRIPTEN_KEEPALIVE const char* ss_version() { return bytes(slowstart::cli::kVersion); }
EMSCRIPTEN_KEEPALIVE const char* ss_usage() { return bytes(slowstart::cli::kUsage); }
// The language's keywords (command.hpp), one a line: word, usage, summary,
// the fewest and the most arguments ("any": no limit) and each argument's
// kind (entry, name or number; with no limit the last repeats), separated by
// tabs (none of them holds a tab or a newline).
EMSCRIPTEN_KEEPALIVE SLOWSTART_COLD const char* ss_keywords() {
  constexpr std::string_view kKinds[] = {"entry", "name", "number"};  // ArgKind's order
  g_text.clear();
  for (const Keyword& k : keywords()) {
    for (std::string_view field : {k.word, k.usage, k.summary}) {
      g_text.append(field);
      g_text += '\t';
    }
    g_text += static_cast<char>('0' + k.min_args);  // (one digit: at most 2)
    g_text += '\t';
    if (k.max_args == SIZE_MAX) g_text.append("any");
    else g_text += static_cast<char>('0' + k.max_args);
    g_text += '\t';
    for (std::size_t i = 0; i < k.kind_count; ++i) {
      if (i > 0) g_text += ' ';
      g_text.append(kKinds[static_cast<std::size_t>(k.kinds[i])]);
    }
    g_text += '\n';
  }
  return bytes(g_text);
}

// Runs the first `length` bytes of the input buffer; the RunView's address.
// `timeline`: 0 none; 1 without its score changes (this module runs the
// SPEC's rules only, so its reader works them out from the winners,
// run-view.ts's deriveScores: recording them was most of a run's work,
// PL-29); 2 with them (what the tests check that reader against).
EMSCRIPTEN_KEEPALIVE std::uint32_t ss_run(std::uint32_t length, int timeline) {
  return publish_run(input(length), timeline != 0, nullptr, run_columns_into, timeline == 2);
}
EMSCRIPTEN_KEEPALIVE void ss_release_run() { release_run(); }

EMSCRIPTEN_KEEPALIVE SLOWSTART_COLD TextRunner* ss_runner_new() { return new TextRunner; }
EMSCRIPTEN_KEEPALIVE void ss_runner_delete(TextRunner* r) { delete r; }
// Feeds the first `length` bytes of the input buffer. Returns how many were
// taken: less than all when 64 KiB of text is waiting; take it and feed the
// rest again.
EMSCRIPTEN_KEEPALIVE std::uint32_t ss_runner_feed(TextRunner* r, std::uint32_t length) {
  return static_cast<std::uint32_t>(r->feed(input(length)));
}
EMSCRIPTEN_KEEPALIVE void ss_runner_finish(TextRunner* r) { r->finish(); }
EMSCRIPTEN_KEEPALIVE const char* ss_runner_take(TextRunner* r, int diagnostics) { return r->take(diagnostics != 0); }
EMSCRIPTEN_KEEPALIVE double ss_runner_rejected(TextRunner* r) { return r->rejected(); }

EMSCRIPTEN_KEEPALIVE SLOWSTART_COLD JsBalancer* ss_balancer_new() { return new JsBalancer; }
EMSCRIPTEN_KEEPALIVE void ss_balancer_delete(JsBalancer* b) { delete b; }

// The changes read their arguments from the input buffer's first `length`
// bytes (strings, see input_strings) and return 0, or 1 and ss_problem().
EMSCRIPTEN_KEEPALIVE SLOWSTART_COLD int ss_balancer_set_pool(JsBalancer* b, std::uint32_t length) {
  return outcome(b->b.set_pool_text(input_strings(length)));  // name, weight, name, weight, ...
}
// setPool's fast path: the names as strings in the first `length` bytes,
// their weights as 32-bit integers at `weights_at` (4-aligned). 0: applied;
// 2: not a plain pool, nothing changed (send it as text, which words the problem).
EMSCRIPTEN_KEEPALIVE SLOWSTART_COLD int ss_balancer_set_pool_numbers(JsBalancer* b, std::uint32_t length, std::uint32_t weights_at) {
  const auto names = input_strings(length);
  const std::string_view in = input(weights_at + 4 * names.size());
  if (in.size() != weights_at + 4 * names.size()) return 2;
  std::vector<std::int64_t> weights(names.size());
  for (std::size_t i = 0; i < names.size(); ++i) {
    std::uint32_t w;
    std::memcpy(&w, in.data() + weights_at + 4 * i, sizeof w);
    weights[i] = w;
  }
  return b->b.set_plain_pool(names, weights) ? 0 : 2;
}
EMSCRIPTEN_KEEPALIVE SLOWSTART_COLD int ss_balancer_set_now(JsBalancer* b, std::uint32_t length) {
  const auto s = input_strings(length);
  return outcome(s.size() == 1 ? b->b.set_now_text(s[0]) : Problem("bad arguments"));
}
EMSCRIPTEN_KEEPALIVE SLOWSTART_COLD int ss_balancer_add(JsBalancer* b, std::uint32_t length) {
  const auto s = input_strings(length);
  return outcome(s.size() == 3 ? b->b.add_text(s[0], s[1], s[2]) : Problem("bad arguments"));
}
EMSCRIPTEN_KEEPALIVE SLOWSTART_COLD int ss_balancer_down(JsBalancer* b, std::uint32_t length) {
  const auto s = input_strings(length);
  return outcome(s.size() == 1 ? b->b.down(s[0]) : Problem("bad arguments"));
}
EMSCRIPTEN_KEEPALIVE SLOWSTART_COLD int ss_balancer_up(JsBalancer* b, std::uint32_t length) {
  const auto s = input_strings(length);
  return outcome(s.size() == 2 ? b->b.up_text(s[0], s[1]) : Problem("bad arguments"));
}

EMSCRIPTEN_KEEPALIVE double ss_balancer_now(JsBalancer* b) { return static_cast<double>(b->b.pool().now()); }
EMSCRIPTEN_KEEPALIVE std::uint32_t ss_balancer_size(JsBalancer* b) {
  return static_cast<std::uint32_t>(b->b.pool().size());
}
EMSCRIPTEN_KEEPALIVE const char* ss_balancer_name(JsBalancer* b, std::uint32_t i) {
  return bytes(b->b.pool().backend(i).name);
}
// Every name in pool order, joined with '\n' (no name holds one).
EMSCRIPTEN_KEEPALIVE SLOWSTART_COLD const char* ss_balancer_names(JsBalancer* b) {
  const Pool& pool = b->b.pool();
  g_text.clear();
  for (std::size_t i = 0; i < pool.size(); ++i) {
    if (i > 0) g_text += '\n';
    g_text += pool.backend(i).name;
  }
  return bytes(g_text);
}
EMSCRIPTEN_KEEPALIVE SLOWSTART_COLD const char* ss_balancer_weights_line(JsBalancer* b) {
  g_text = b->b.weights_line();
  return bytes(g_text);
}
// Effective weights in pool order: the address of ss_balancer_size() doubles.
EMSCRIPTEN_KEEPALIVE SLOWSTART_COLD const double* ss_balancer_pool_weights(JsBalancer* b) {
  const Pool& pool = b->b.pool();
  b->weights.resize(pool.size());
  for (std::size_t i = 0; i < pool.size(); ++i) b->weights[i] = static_cast<double>(pool.weight(i));
  return b->weights.data();
}
// WEIGHTS' order (byte order of name): the address of ss_balancer_size()
// pool positions, valid until the next change.
EMSCRIPTEN_KEEPALIVE const std::uint32_t* ss_balancer_by_name(JsBalancer* b) { return b->b.by_name().data(); }
EMSCRIPTEN_KEEPALIVE int ss_balancer_pick(JsBalancer* b) { return b->b.pick(); }
// n picks: the address of n winners' pool indices (kNone where no backend
// took part). The TS layer has checked n and asks for at most 2^20 at a time.
EMSCRIPTEN_KEEPALIVE const std::int32_t* ss_balancer_pick_many(JsBalancer* b, std::uint32_t n) {
  // Uninitialised: every slot is written (a vector would zero it first,
  // element by element in WebAssembly).
  if (n > b->capacity) {
    b->picks.reset(new std::int32_t[n]);
    b->capacity = n;
  }
  b->b.pick_many(n, b->picks.get());
  return b->picks.get();
}

}  // extern "C"
