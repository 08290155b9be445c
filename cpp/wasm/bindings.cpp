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
#include "engine/text_sink.hpp"

using emscripten::val;
using namespace slowstart;

namespace {

[[noreturn]] void throw_js(const char* message) {
  val::global("Error").new_(std::string(message)).throw_();
  __builtin_unreachable();
}

// Calls f, turning any C++ exception into a JS Error.
template <typename F>
auto guarded(F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const std::bad_alloc&) {
    throw_js("out of memory");
  } catch (const std::exception& e) {
    throw_js(e.what());
  }
}

// A copy of v as a new JS typed array of the given type (e.g. "Float64Array").
template <typename T>
val typed_copy(const char* type, const std::vector<T>& v) {
  return val::global(type).new_(emscripten::typed_memory_view(v.size(), v.data()));
}

std::vector<double> to_doubles(const std::vector<std::int64_t>& v) {
  return std::vector<double>(v.begin(), v.end());  // |values| <= 10^12: exact
}

std::vector<std::uint32_t> to_u32(const std::vector<std::uint64_t>& v) {
  return std::vector<std::uint32_t>(v.begin(), v.end());
}

val timeline_to_js(const Timeline& t) {
  val o = val::object();
  o.set("names", val::array(t.names));
  o.set("stepLine", typed_copy("Uint32Array", to_u32(t.step_line)));
  o.set("stepNow", typed_copy("Float64Array", to_doubles(t.step_now)));
  o.set("stepWinner", typed_copy("Int32Array", t.step_winner));
  o.set("stepBlock", typed_copy("Uint32Array", t.step_block));
  o.set("blockStart", typed_copy("Uint32Array", t.block_start));
  o.set("cellBackend", typed_copy("Uint32Array", t.cell_backend));
  o.set("cellUp", typed_copy("Uint8Array", t.cell_up));
  o.set("cellWeight", typed_copy("Float64Array", to_doubles(t.cell_weight)));
  o.set("truncated", t.truncated);
  return o;
}

// run(script): output and diagnostics as '\n'-joined text plus a line-number
// array each, and the timeline. Names never contain '\n' and diagnostics
// never contain control characters, so the join is lossless.
val run(const std::string& script, bool with_timeline) {
  return guarded([&] {
    RunOptions options;
    options.timeline = with_timeline;
    RunResult r = run_script(script, options);
    std::string out, err;
    std::vector<std::uint32_t> out_lines, err_lines;
    out_lines.reserve(r.output.size());
    for (const auto& o : r.output) {
      if (!out_lines.empty()) out += '\n';
      out += o.text;
      out_lines.push_back(static_cast<std::uint32_t>(o.line));
    }
    for (const auto& d : r.diagnostics) {
      if (!err_lines.empty()) err += '\n';
      err += d.message;
      err_lines.push_back(static_cast<std::uint32_t>(d.line));
    }
    val o = val::object();
    o.set("outputText", out);
    o.set("outputLines", typed_copy("Uint32Array", out_lines));
    o.set("diagnosticText", err);
    o.set("diagnosticLines", typed_copy("Uint32Array", err_lines));
    if (with_timeline) o.set("timeline", timeline_to_js(r.timeline));
    return o;
  });
}

// Streams a script in the CLI's exact text format (used by the Node CLI).
class TextRunner {
 public:
  TextRunner() : interpreter_(sink_) {}
  // A chunk of bytes (a Uint8Array is passed through unchanged).
  void feed(const std::string& chunk) {
    guarded([&] { interpreter_.feed_chunk(chunk); });
  }
  void finish() {
    guarded([&] { interpreter_.finish(); });
  }
  std::string take_output() { return std::exchange(sink_.out, {}); }
  std::string take_diagnostics() { return std::exchange(sink_.err, {}); }
  double rejected() const { return static_cast<double>(interpreter_.rejected()); }

 private:
  TextSink sink_;
  Interpreter interpreter_;
};

// The imperative balancer, with numbers passed as decimal text so that every
// check (and message) is the script parser's own.
class JsBalancer {
 public:
  void set_pool(val names, val weights) {
    guarded([&] {
      const auto n = emscripten::vecFromJSArray<std::string>(names);
      const auto w = emscripten::vecFromJSArray<std::string>(weights);
      std::vector<std::pair<std::string, std::string>> entries;
      entries.reserve(n.size());
      for (std::size_t i = 0; i < n.size() && i < w.size(); ++i) entries.emplace_back(n[i], w[i]);
      b_.set_pool_text(entries);
    });
  }
  void set_now(const std::string& t) {
    guarded([&] { b_.set_now_text(t); });
  }
  void add(const std::string& name, const std::string& w, const std::string& ramp) {
    guarded([&] { b_.add_text(name, w, ramp); });
  }
  void down(const std::string& name) {
    guarded([&] { b_.down(name); });
  }
  void up(const std::string& name, const std::string& ramp) {
    guarded([&] { b_.up_text(name, ramp); });
  }
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
  // Winners' pool indices (-1 for none) as an Int32Array of length n.
  val pick_many(int n) {
    return guarded([&] {
      if (n < 0) throw Error("count must be a non-negative integer");
      scratch_.resize(static_cast<std::size_t>(n));
      b_.pick_many(scratch_.size(), scratch_.data());
      val out = typed_copy("Int32Array", scratch_);
      // Don't keep a huge buffer alive after one large batch.
      if (scratch_.capacity() > (1u << 20)) std::vector<std::int32_t>().swap(scratch_);
      return out;
    });
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
