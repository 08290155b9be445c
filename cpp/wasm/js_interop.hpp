// Small helpers shared by the two embind files: C++ errors as JS Errors,
// vectors as typed arrays, and option objects read from JS.
#pragma once
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <string>
#include <string_view>
#include <vector>

#include "engine/validate.hpp"
#include "engine/curves.hpp"
#include "engine/interpreter.hpp"

namespace slowstart::wasm {

using emscripten::val;

// Errors go back to JS as a returned Error object, never thrown through
// WebAssembly frames: a JS exception unwinding wasm skips the epilogues that
// restore the stack pointer, so every throw would leak stack until the
// module fails. The TS layer throws what it gets (web/api/raise.ts).
inline val js_error(const std::string& message) { return val::global("Error").new_(message); }

// undefined when fine, else an Error with the problem's text.
inline val outcome(const Problem& p) { return p ? js_error(*p) : val::undefined(); }

// Scripts come in through one buffer per module that JS writes straight into
// (TextEncoder.encodeInto or Uint8Array.set: native speed), instead of
// embind's std::string conversion, which copies byte by byte in JS.
inline std::string& input_buffer() {
  static std::string buffer;
  return buffer;
}

// A view of the input buffer resized to n bytes, for JS to fill at once.
// Valid until the next allocation in the module.
inline val input_view(double n) {
  std::string& b = input_buffer();
  b.resize(static_cast<std::size_t>(n));
  // Shrink after a huge script so its memory is not held forever.
  if (b.capacity() > (std::size_t{64} << 20) && b.size() < (std::size_t{1} << 20)) b.shrink_to_fit();
  return val(emscripten::typed_memory_view(b.size(), reinterpret_cast<std::uint8_t*>(b.data())));
}

// The first n bytes of the input buffer.
inline std::string_view input(double n) {
  const std::string& b = input_buffer();
  return std::string_view(b).substr(0, static_cast<std::size_t>(n));
}

// Text leaves as bytes (a Uint8Array copy) that JS decodes with TextDecoder
// or writes to a stream as they are, again avoiding embind's per-byte loop.
inline val bytes_of(std::string_view s) {
  return val::global("Uint8Array")
      .new_(emscripten::typed_memory_view(s.size(), reinterpret_cast<const std::uint8_t*>(s.data())));
}

// A copy of v as a new JS typed array of the given type (e.g. "Float64Array").
template <typename T>
val typed_copy(const char* type, const std::vector<T>& v) {
  return val::global(type).new_(emscripten::typed_memory_view(v.size(), v.data()));
}

// A curve from {kind, resolution, aggression, minWeightPercent}; undefined
// fields keep their defaults. The TS layer has checked the types.
inline Problem curve_from_js(const val& o, Curve& c) {
  c = Curve{};
  if (o.isUndefined() || o.isNull()) return std::nullopt;
  if (val k = o["kind"]; !k.isUndefined()) {
    if (Problem p = parse_curve_kind(k.as<std::string>(), c.kind)) return p;
  }
  if (val r = o["resolution"]; !r.isUndefined()) {
    const double d = r.as<double>();
    if (!(d >= 1 && d <= 1000 && d == static_cast<double>(static_cast<int>(d))))
      return "resolution must be 1, 16, 100 or 1000, got '" + r.call<std::string>("toString") + "'";
    c.resolution = static_cast<std::int64_t>(d);
  }
  if (val a = o["aggression"]; !a.isUndefined()) c.aggression = a.as<double>();
  if (val m = o["minWeightPercent"]; !m.isUndefined()) c.min_weight_percent = m.as<double>();
  return check_curve(c);
}

// Weights and clocks are at most 10^12: exact as doubles. Scores are exact
// up to 2^53 in magnitude; past that a double holds the nearest value it
// can (the README says so; Number.isSafeInteger tells them apart).
inline std::vector<double> to_doubles(const std::vector<std::int64_t>& v) {
  return std::vector<double>(v.begin(), v.end());
}

inline std::vector<std::uint32_t> to_u32(const std::vector<std::uint64_t>& v) {
  return std::vector<std::uint32_t>(v.begin(), v.end());
}

inline val timeline_to_js(const Timeline& t) {
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
  o.set("cellScore", typed_copy("Float64Array", to_doubles(t.cell_score)));
  o.set("stepScoresEnd", typed_copy("Uint32Array", t.step_scores_end));
  o.set("scoreCell", typed_copy("Uint32Array", t.score_cell));
  o.set("scoreValue", typed_copy("Float64Array", to_doubles(t.score_value)));
  o.set("scoredSteps", static_cast<double>(t.scored_steps));
  o.set("truncated", t.truncated);
  return o;
}

// A script run for JS: output and diagnostics as '\n'-joined text plus a
// line-number array each, and the timeline. Names never contain '\n' and
// diagnostics never contain control characters, so the join is lossless.
inline val run_to_js(std::string_view script, bool with_timeline, Rules* rules) {
  {
    RunOptions options;
    options.timeline = with_timeline;
    options.rules = rules;
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
    o.set("outputBytes", bytes_of(out));
    o.set("outputLines", typed_copy("Uint32Array", out_lines));
    o.set("diagnosticBytes", bytes_of(err));
    o.set("diagnosticLines", typed_copy("Uint32Array", err_lines));
    if (with_timeline) o.set("timeline", timeline_to_js(r.timeline));
    o.set("truncated", r.truncated);
    return o;
  }
}

}  // namespace slowstart::wasm
