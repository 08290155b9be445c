// The one Emscripten file: embind glue from the engine to JavaScript.
//
// Deliberately thin. It knows nothing of the rules: it converts arguments,
// turns slowstart::Error into a JS Error with the same message, and hands
// bulk results over as single strings and typed arrays (one copy each)
// rather than one JS object per line. The typed TS API in web/api builds the
// friendly shapes on top.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <memory>
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

// Runs the first `length` bytes of the input buffer.
val run(double length, bool with_timeline) { return run_to_js(input(length), with_timeline, nullptr); }

// Streams a script in the CLI's exact text format (used by the Node CLI).
class TextRunner {
 public:
  TextRunner() : interpreter_(sink_) {}
  // Feeds the first `length` bytes of the input buffer. Returns how many were
  // taken: less than all when 64 KiB of text is waiting; drain it with
  // take*() and feed the rest again.
  double feed(double length) { return static_cast<double>(interpreter_.feed_chunk(input(length))); }
  void finish() { interpreter_.finish(); }
  // The waiting stdout / stderr bytes, as Uint8Arrays.
  val take_output() { return take(sink_.out); }
  val take_diagnostics() { return take(sink_.err); }
  double rejected() const { return static_cast<double>(interpreter_.rejected()); }

 private:
  static val take(std::string& text) {
    val bytes = bytes_of(text);
    text.clear();
    return bytes;
  }
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
  val pick_many(double count) {
    const auto n = static_cast<std::size_t>(count);
    // An uninitialised buffer: every slot is written by the picks (a vector's
    // resize would zero it first, element by element in WebAssembly).
    if (n > capacity_) {
      scratch_.reset(new std::int32_t[n]);
      capacity_ = n;
    }
    b_.pick_many(n, scratch_.get());
    val out = val::global("Int32Array").new_(emscripten::typed_memory_view(n, scratch_.get()));
    // Don't keep a huge buffer alive after one large batch.
    if (capacity_ > (std::size_t{1} << 20)) {
      scratch_.reset();
      capacity_ = 0;
    }
    return out;
  }

 private:
  Balancer b_;
  std::unique_ptr<std::int32_t[]> scratch_;
  std::size_t capacity_ = 0;
};

}  // namespace

EMSCRIPTEN_BINDINGS(slowstart) {
  emscripten::function("inputBuffer", &input_view);
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
