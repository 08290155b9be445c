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
#include "wasm/js_interop.hpp"
#include "wasm/js_rules.hpp"
#include "wasm/run_view.hpp"

using emscripten::val;
using namespace slowstart;
using namespace slowstart::wasm;

namespace {

// The health checks' parameters by their JavaScript names: read by
// traffic_from_js, written by traffic_defaults (one list for both).
struct HealthKey {
  const char* js;
  std::uint32_t HealthCheck::*count;  // a whole number, or
  double HealthCheck::*seconds;       // a number
};
constexpr HealthKey kHealthKeys[] = {
    {"maxFails", &HealthCheck::max_fails, nullptr},
    {"failTimeout", nullptr, &HealthCheck::fail_timeout},
    {"errorLimit", &HealthCheck::error_limit, nullptr},
    {"inter", nullptr, &HealthCheck::inter},
    {"rise", &HealthCheck::rise, nullptr},
    {"consecutive5xx", &HealthCheck::consecutive_5xx, nullptr},
    {"interval", nullptr, &HealthCheck::interval},
    {"baseEjectionTime", nullptr, &HealthCheck::base_ejection_time},
    {"maxEjectionTime", nullptr, &HealthCheck::max_ejection_time},
    {"maxEjectionPercent", nullptr, &HealthCheck::max_ejection_percent},
};

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
  num("timeoutMs", t.timeout_ms);
  num("stableMargin", t.stable_margin);
  if (val v = o["retries"]; !v.isUndefined()) {
    const double r = v.as<double>();
    if (!(r >= 0 && r <= kMaxRetries) || r != std::floor(r)) return "retries must be between 0 and " + std::to_string(kMaxRetries);
    t.retries = static_cast<std::uint32_t>(r);
  }
  if (val v = o["seed"]; !v.isUndefined()) {
    const double seed = v.as<double>();
    if (!(seed >= 0 && seed <= 9007199254740991.0) || seed != std::floor(seed)) return std::string("seed must be a whole number");
    t.seed = static_cast<std::uint64_t>(seed);
  }
  if (val v = o["rampBy"]; !v.isUndefined()) {
    if (Problem p = parse_ramp_by(v.as<std::string>(), t.ramp_by)) return p;
  }
  if (val hc = o["health"]; !hc.isUndefined() && !hc.isNull()) {
    HealthCheck& h = t.health;
    if (Problem p = parse_health(hc["kind"].as<std::string>(), h.kind)) return p;
    for (const HealthKey& key : kHealthKeys) {
      val v = hc[key.js];
      if (v.isUndefined()) continue;
      const double d = v.as<double>();
      if (key.seconds) {
        h.*key.seconds = d;
      } else {
        if (!(d >= 0 && d <= 1e6) || d != std::floor(d)) return std::string(key.js) + " must be a whole number";
        h.*key.count = static_cast<std::uint32_t>(d);
      }
    }
  }
  if (val s = o["service"]; !s.isUndefined() && !s.isNull() && !(s.isFalse())) {
    t.service.enabled = true;
    if (s.isTrue()) return std::nullopt;
    auto snum = [&](const char* key, double& out) {
      if (val v = s[key]; !v.isUndefined()) out = v.as<double>();
    };
    snum("baseMs", t.service.base_ms);
    snum("coldFactor", t.service.cold_factor);
    snum("warmup", t.service.warmup);
    snum("warmupRequests", t.service.warmup_requests);
    if (val w = s["warmBy"]; !w.isUndefined()) {
      if (Problem p = parse_warm_by(w.as<std::string>(), t.service.warm_by)) return p;
    }
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
  out.set("failed", typed_copy("Uint32Array", r.failed));
  out.set("retried", typed_copy("Uint32Array", r.retried));
  out.set("state", typed_copy("Uint8Array", r.state));
  out.set("ejections", typed_copy("Uint32Array", r.ejections));
  out.set("secondsEjected", typed_copy("Float64Array", r.seconds_ejected));
  out.set("stableAt", r.stable_at >= 0 ? val(r.stable_at) : val::null());
  out.set("unrouted", typed_copy("Uint32Array", r.unrouted));
  out.set("total", typed_copy("Uint32Array", r.total));
  out.set("diagnosticText", err);
  out.set("diagnosticLines", typed_copy("Uint32Array", err_lines));
  out.set("diagnosticColumns", typed_copy("Uint32Array", err_columns));
  return out;
}

// The simulation's defaults, said once (cpp/traffic/traffic.hpp): the
// service model and each health check's parameters.
val traffic_defaults() {
  const TrafficOptions t;
  const ServiceModel& s = t.service;
  val service = val::object();
  service.set("baseMs", s.base_ms);
  service.set("coldFactor", s.cold_factor);
  service.set("warmup", s.warmup);
  service.set("workers", s.workers);
  service.set("warmBy", std::string(warm_by_name(s.warm_by)));
  service.set("warmupRequests", s.warmup_requests);
  const HealthCheck& h = t.health;
  val health = val::object();
  for (const HealthKey& key : kHealthKeys) {
    if (key.seconds) health.set(key.js, h.*key.seconds);
    else health.set(key.js, h.*key.count);
  }
  val out = val::object();
  out.set("service", service);
  out.set("health", health);
  out.set("stableMargin", t.stable_margin);
  out.set("maxRetries", kMaxRetries);
  return out;
}

// `slowstart simulate ARGS` for the Node CLI: `read(path)` returns the
// script's bytes or throws; the result is {out, err, status}.
val simulate_command_text(val args, val read) {
  const auto list = emscripten::vecFromJSArray<std::string>(args);
  std::string out, err;
  const int status = system::run_simulate_system(
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
  emscripten::function("simulateCommand", &simulate_command_text);
}
