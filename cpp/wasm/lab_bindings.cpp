// The lab module's embind file: the traffic simulation
// (cpp/traffic/traffic.*), `slowstart simulate` for the Node CLI, and script
// runs with other rules (ramp curves, or a learner's JavaScript). A separate,
// lazily loaded module, so that the engine every page loads stays small.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "system/simulate_from.hpp"
#include "traffic/simulate_command.hpp"
#include "traffic/traffic.hpp"
#include "wasm/command_text.hpp"
#include "wasm/js_interop.hpp"
#include "wasm/js_rules.hpp"
#include "wasm/traffic_options_js.hpp"
#include "wasm/run_view.hpp"

using emscripten::val;
using namespace slowstart;
using namespace slowstart::wasm;

namespace {

// The work budget's limits (cpp/traffic/budget.hpp).
val simulation_limits() {
  val limits = val::object();
  limits.set("scriptBytes", static_cast<double>(kMaxScriptBytes));
  limits.set("requests", kMaxSimRequests);
  limits.set("steps", kMaxWorkSteps);
  limits.set("cells", kMaxSimCells);
  limits.set("inFlight", kMaxInFlight);
  limits.set("latencyBins", kMaxLatencyBins);
  limits.set("minInterval", kMinInterval);
  return limits;
}

// simulate(script, options): the traffic simulation's columns.
// Returns the columns, or an Error (bad options, or a simulation too large).
val simulate(double length, val options) {
  const std::string_view script = input(length);
  TrafficOptions o;
  if (JsCheck p = traffic_from_js(options, o)) return js_error(p->message, p->code);
  const TrafficResult r = simulate_traffic(script, o);  // checks the options first
  if (r.problem) return r.too_large ? js_error(*r.problem, "TOO_LARGE") : js_error(*r.problem);
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
  // The service model's cells: a routing-only run leaves them empty
  // (result.hpp); the API's arrays keep their type and length, zeros made by
  // JavaScript itself rather than copied out of the module.
  const double cells = static_cast<double>(r.requests.size());
  const auto service_cells = [cells](const char* type, const auto& v) {
    return v.empty() ? val::global(type).new_(cells) : typed_copy(type, v);
  };
  out.set("outstanding", service_cells("Float64Array", r.outstanding));
  out.set("latencyMs", service_cells("Float64Array", r.latency_ms));
  out.set("failed", service_cells("Uint32Array", r.failed));
  out.set("retried", service_cells("Uint32Array", r.retried));
  out.set("state", typed_copy("Uint8Array", r.state));
  out.set("ejections", typed_copy("Uint32Array", r.ejections));
  out.set("secondsEjected", typed_copy("Float64Array", r.seconds_ejected));
  out.set("stableAt", r.stable_at >= 0 ? val(r.stable_at) : val::null());
  out.set("unrouted", typed_copy("Uint32Array", r.unrouted));
  out.set("total", typed_copy("Uint32Array", r.total));
  out.set("p50Ms", service_cells("Float32Array", r.p50_ms));
  out.set("p99Ms", service_cells("Float32Array", r.p99_ms));
  out.set("clientRequests", typed_copy("Uint32Array", r.client_requests));
  out.set("clientFailed", typed_copy("Uint32Array", r.client_failed));
  out.set("clientP50Ms", typed_copy("Float32Array", r.client_p50_ms));
  out.set("clientP99Ms", typed_copy("Float32Array", r.client_p99_ms));
  val ignored = val::array();
  for (const std::uint64_t line : r.ignored_ramps) ignored.call<void>("push", static_cast<double>(line));
  out.set("ignoredRamps", ignored);
  // Over the run: null when there was no latency (as in --summary json).
  const auto run_ms = [](float ms) { return ms < 0 ? val::null() : val(static_cast<double>(ms)); };
  val run_p50 = val::array(), run_p99 = val::array();
  for (std::size_t id = 0; id < r.names.size(); ++id) {
    run_p50.call<void>("push", run_ms(r.run_p50_ms[id]));
    run_p99.call<void>("push", run_ms(r.run_p99_ms[id]));
  }
  out.set("runP50Ms", run_p50);
  out.set("runP99Ms", run_p99);
  out.set("runClientP50Ms", run_ms(r.run_client_p50_ms));
  out.set("runClientP99Ms", run_ms(r.run_client_p99_ms));
  out.set("diagnosticText", err);
  out.set("diagnosticLines", typed_copy("Uint32Array", err_lines));
  out.set("diagnosticColumns", typed_copy("Uint32Array", err_columns));
  return out;
}

// simulationSize(script, options): what a simulation would cost, without
// running it (the script's first pass): {duration, requests, backends,
// buckets, cells, sweeps, steps, problem, tooLarge, limits}. An Error for bad
// options; over the budget is not an error here (`tooLarge`, `problem`).
val simulation_size(double length, val options) {
  const std::string_view script = input(length);
  TrafficOptions o;
  if (JsCheck p = traffic_from_js(options, o)) return js_error(p->message, p->code);
  const TrafficMeasure m = measure_traffic(script, o);
  if (m.problem && !m.too_large) return js_error(*m.problem);
  val out = val::object();
  out.set("duration", m.size.duration);
  out.set("requests", m.size.requests);
  out.set("backends", m.size.backends);
  out.set("buckets", m.size.buckets);
  out.set("cells", m.size.cells);
  out.set("sweeps", m.size.sweeps);
  out.set("steps", m.size.steps);
  out.set("problem", m.problem ? val(*m.problem) : val::null());
  out.set("tooLarge", m.too_large);
  out.set("limits", simulation_limits());
  return out;
}

// The simulation's defaults, said once (the option table): every option by
// its API key, and the most retries.
val traffic_defaults() {
  val out = traffic_option_defaults_js();
  out.set("maxRetries", kMaxRetries);
  return out;
}

// The arguments of `slowstart simulate` that give these options (the
// table's to_arguments): an array of strings, or an Error for bad options.
val simulate_arguments(val options) {
  TrafficOptions o;
  if (JsCheck p = traffic_from_js(options, o)) return js_error(p->message, p->code);
  if (Problem p = check_traffic_options(o)) return js_error(*p);
  val out = val::array();
  for (const std::string& arg : to_arguments(o)) out.call<void>("push", arg);
  return out;
}

// `slowstart simulate ARGS` for the Node CLI (command_text.hpp).
val simulate_command_text(val args, val read) { return command_text(args, read, system::run_simulate_system); }

// A script run with other rules: {curve: {...}} or {effective, pick}.
// Returns the run, or an Error for a bad curve.
val run_with_rules(double length, bool with_timeline, val rules) {
  const std::string_view script = input(length);
  std::unique_ptr<Rules> custom;
  if (val c = rules["curve"]; !c.isUndefined()) {
    // The curve's options are the traffic options' (the table's curve.* keys).
    val options = val::object();
    options.set("curve", c);
    TrafficOptions o;
    if (JsCheck p = traffic_from_js(options, o)) return js_error(p->message, p->code);
    if (Problem p = check_curve(o.curve)) return js_error(*p);
    // A script run prints the script's integers unless told otherwise (WEIGHTS
    // as the SPEC has them); simulations default to the curve's own resolution.
    if (o.curve.resolution == 0) o.curve.resolution = 1;
    custom = std::make_unique<CurveRules>(o.curve);
  } else {
    custom = std::make_unique<JsRules>(rules["effective"], rules["pick"], rules["onJoin"]);
  }
  // The run's RunView (run_view.hpp), read by web/api/run-view.ts.
  return val(static_cast<double>(publish_run(script, with_timeline, custom.get())));
}

// A script run with a light timeline (TimelineRecorder::record_light): the
// web page's background run of a script whose whole timeline passed the
// engine's cap. Returns the run (its RunView's address).
double run_light(double length) {
  return static_cast<double>(publish_run(input(length), true, nullptr, run_columns_light_into));
}

}  // namespace

EMSCRIPTEN_BINDINGS(slowstart_lab) {
  emscripten::function("inputBuffer", &input_view);
  emscripten::function("runWithRules", &run_with_rules);
  emscripten::function("runLight", &run_light);
  emscripten::function("releaseRun", &release_run);
  emscripten::function("simulate", &simulate);
  emscripten::function("trafficDefaults", &traffic_defaults);
  emscripten::function("trafficOptionTable", &traffic_option_table_js);
  emscripten::function("simulationSize", &simulation_size);
  emscripten::function("simulationLimits", &simulation_limits);
  emscripten::function("simulateArguments", &simulate_arguments);
  emscripten::function("simulateCommand", &simulate_command_text);
}
