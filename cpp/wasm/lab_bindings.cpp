// The lab module's embind file: the traffic simulation
// (cpp/traffic/traffic.*), `slowstart simulate` for the Node CLI, and script
// runs with other rules (ramp curves, or a learner's JavaScript). A separate,
// lazily loaded module, so that the engine every page loads stays small.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <memory>
#include <string>
#include <vector>

#include "traffic/simulate_command.hpp"
#include "traffic/traffic.hpp"
#include "wasm/js_interop.hpp"
#include "wasm/js_rules.hpp"
#include "wasm/run_view.hpp"

using emscripten::val;
using namespace slowstart;
using namespace slowstart::wasm;

namespace {

Problem traffic_from_js(const val& o, TrafficOptions& t) {
  t = TrafficOptions{};
  auto num = [&](const char* key, double& out) {
    if (val v = o[key]; !v.isUndefined()) out = v.as<double>();
  };
  num("rps", t.rps);
  num("duration", t.duration);
  num("bucket", t.bucket);
  num("bias", t.bias);
  if (Problem p = curve_from_js(o["curve"], t.curve)) return p;
  if (val p = o["policy"]; !p.isUndefined()) {
    if (Problem problem = parse_policy(p.as<std::string>(), t.policy)) return problem;
  }
  if (val s = o["slowStart"]; !s.isUndefined()) t.slow_start = s.as<bool>();
  if (val s = o["service"]; !s.isUndefined() && !s.isNull() && !(s.isFalse())) {
    t.service.enabled = true;
    if (s.isTrue()) return std::nullopt;
    auto snum = [&](const char* key, double& out) {
      if (val v = s[key]; !v.isUndefined()) out = v.as<double>();
    };
    snum("baseMs", t.service.base_ms);
    snum("coldFactor", t.service.cold_factor);
    snum("warmup", t.service.warmup);
    if (val w = s["workers"]; !w.isUndefined()) {
      if (Problem p = set_workers(w.as<double>(), t.service)) return p;
    }
  }
  return std::nullopt;
}

// simulate(script, options): the traffic simulation's columns.
// Returns the columns, or an Error (bad options, or a simulation too large).
val simulate(double length, val options) {
  const std::string_view script = input(length);
  TrafficOptions o;
  if (Problem p = traffic_from_js(options, o)) return js_error(*p);
  const TrafficResult r = simulate_traffic(script, o);  // checks the options first
  if (r.problem) return js_error(*r.problem);
  std::string err;
  std::vector<std::uint32_t> err_lines, err_columns;
  for (const auto& d : r.diagnostics) {
    if (!err_lines.empty()) err += '\n';
    err += d.message;
    err_lines.push_back(static_cast<std::uint32_t>(d.line));
    err_columns.push_back(static_cast<std::uint32_t>(d.columns.from));
    err_columns.push_back(static_cast<std::uint32_t>(d.columns.to));
  }
  val out = val::object();
  out.set("names", val::array(r.names));
  out.set("bucket", r.bucket);
  out.set("buckets", static_cast<double>(r.buckets));
  out.set("duration", r.duration);
  out.set("requests", typed_copy("Uint32Array", r.requests));
  out.set("outstanding", typed_copy("Float64Array", r.outstanding));
  out.set("latencyMs", typed_copy("Float64Array", r.latency_ms));
  out.set("unrouted", typed_copy("Uint32Array", r.unrouted));
  out.set("total", typed_copy("Uint32Array", r.total));
  out.set("diagnosticText", err);
  out.set("diagnosticLines", typed_copy("Uint32Array", err_lines));
  out.set("diagnosticColumns", typed_copy("Uint32Array", err_columns));
  return out;
}

// `slowstart simulate ARGS` for the Node CLI: `read(path)` returns the
// script's bytes or throws; the result is {out, err, status}.
val simulate_command_text(val args, val read) {
  const auto list = emscripten::vecFromJSArray<std::string>(args);
  std::string out, err;
  const int status = simulate_command::run_simulate(
      list,
      [&](const std::string& path, std::string& text) -> Problem {
        val r = read(path);
        if (r.typeOf().as<std::string>() == "string") return r.as<std::string>();  // a problem
        text = r.as<std::string>();  // Uint8Array: raw bytes
        return std::nullopt;
      },
      out, err);
  val o = val::object();
  o.set("out", out);
  o.set("err", err);
  o.set("status", status);
  return o;
}

// A script run with other rules: {curve: {...}} or {effective, pick}.
// Returns the run, or an Error for a bad curve.
val run_with_rules(double length, bool with_timeline, val rules) {
  const std::string_view script = input(length);
  std::unique_ptr<Rules> custom;
  if (val c = rules["curve"]; !c.isUndefined()) {
    Curve curve;
    if (Problem p = curve_from_js(c, curve)) return js_error(*p);
    custom = std::make_unique<CurveRules>(curve);
  } else {
    custom = std::make_unique<JsRules>(rules["effective"], rules["pick"], rules["onJoin"]);
  }
  // The run's RunView (run_view.hpp), read by web/api/run-view.ts.
  return val(static_cast<double>(publish_run(script, with_timeline, custom.get())));
}

}  // namespace

EMSCRIPTEN_BINDINGS(slowstart_lab) {
  emscripten::function("inputBuffer", &input_view);
  emscripten::function("runWithRules", &run_with_rules);
  emscripten::function("releaseRun", &release_run);
  emscripten::function("simulate", &simulate);
  emscripten::function("simulateCommand", &simulate_command_text);
}
