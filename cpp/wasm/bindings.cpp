// The one Emscripten file: embind glue from the engine to JavaScript.
//
// Deliberately thin. It knows nothing of the rules: it converts arguments,
// turns slowstart::Error into a JS Error with the same message, and hands
// bulk results over as single strings and typed arrays (one copy each)
// rather than one JS object per line. The typed TS API in web/api builds the
// friendly shapes on top.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <string>
#include <vector>

#include "engine/balancer.hpp"
#include "engine/interpreter.hpp"
#include "cli/usage.hpp"
#include "js_interop.hpp"
#include "engine/text_sink.hpp"

using emscripten::val;
using namespace slowstart;
using namespace slowstart::wasm;

namespace {

val run(const std::string& script, bool with_timeline) {
  return run_to_js(script, with_timeline, nullptr);
}

// Streams a script in the CLI's exact text format (used by the Node CLI).
class TextRunner {
 public:
  TextRunner() : interpreter_(sink_) {}
  // A chunk of bytes (a Uint8Array is passed through unchanged). Returns how
  // many bytes were taken: less than all when 64 KiB of text is waiting;
  // drain it with take*() and feed the rest again.
  double feed(const std::string& chunk) { return static_cast<double>(interpreter_.feed_chunk(chunk)); }
  void finish() { interpreter_.finish(); }
  std::string take_output() { return std::exchange(sink_.out, {}); }
  std::string take_diagnostics() { return std::exchange(sink_.err, {}); }
  double rejected() const { return static_cast<double>(interpreter_.rejected()); }

 private:
  TextSink sink_;
  Interpreter interpreter_;
};

// The imperative balancer, with numbers passed as decimal text so that every
// check (and message) is the script parser's own. Each change returns
// undefined, or an Error for the TS layer to throw.
class JsBalancer {
 public:
  val set_pool(val names, val weights) {
    const auto n = emscripten::vecFromJSArray<std::string>(names);
    const auto w = emscripten::vecFromJSArray<std::string>(weights);
    std::vector<std::pair<std::string, std::string>> entries;
    entries.reserve(n.size());
    for (std::size_t i = 0; i < n.size() && i < w.size(); ++i) entries.emplace_back(n[i], w[i]);
    return outcome(b_.set_pool_text(entries));
  }
  val set_now(const std::string& t) { return outcome(b_.set_now_text(t)); }
  val add(const std::string& name, const std::string& w, const std::string& ramp) {
    return outcome(b_.add_text(name, w, ramp));
  }
  val down(const std::string& name) { return outcome(b_.down(name)); }
  val up(const std::string& name, const std::string& ramp) { return outcome(b_.up_text(name, ramp)); }
  double now() const { return static_cast<double>(b_.pool().now()); }
  int size() const { return static_cast<int>(b_.pool().size()); }
  std::string name(int i) const { return b_.pool().backend(static_cast<std::size_t>(i)).name; }
  std::string weights_line() const { return b_.weights_line(); }
  // Effective weights in pool order.
  val weights() const {
    std::vector<double> w(b_.pool().size());
    for (std::size_t i = 0; i < w.size(); ++i) w[i] = static_cast<double>(b_.pool().weight(i));
    return typed_copy("Float64Array", w);
  }
  int pick() { return b_.pick(); }
  // Winners' pool indices (-1 for none) as an Int32Array of length n (the
  // TS layer has checked n).
  val pick_many(double n) {
    scratch_.resize(static_cast<std::size_t>(n));
    b_.pick_many(scratch_.size(), scratch_.data());
    val out = typed_copy("Int32Array", scratch_);
    // Don't keep a huge buffer alive after one large batch.
    if (scratch_.capacity() > (1u << 20)) std::vector<std::int32_t>().swap(scratch_);
    return out;
  }

 private:
  Balancer b_;
  std::vector<std::int32_t> scratch_;
};

}  // namespace

EMSCRIPTEN_BINDINGS(slowstart) {
  emscripten::function("run", &run);
  emscripten::constant("version", std::string(slowstart::cli::kVersion));
  emscripten::constant("usage", std::string(slowstart::cli::kUsage));
  emscripten::class_<TextRunner>("TextRunner")
      .constructor<>()
      .function("feed", &TextRunner::feed)
      .function("finish", &TextRunner::finish)
      .function("takeOutput", &TextRunner::take_output)
      .function("takeDiagnostics", &TextRunner::take_diagnostics)
      .function("rejected", &TextRunner::rejected);
  emscripten::class_<JsBalancer>("Balancer")
      .constructor<>()
      .function("setPool", &JsBalancer::set_pool)
      .function("setNow", &JsBalancer::set_now)
      .function("add", &JsBalancer::add)
      .function("down", &JsBalancer::down)
      .function("up", &JsBalancer::up)
      .function("now", &JsBalancer::now)
      .function("size", &JsBalancer::size)
      .function("name", &JsBalancer::name)
      .function("weightsLine", &JsBalancer::weights_line)
      .function("weights", &JsBalancer::weights)
      .function("pick", &JsBalancer::pick)
      .function("pickMany", &JsBalancer::pick_many);
}
