#include "traffic/simulate_command.hpp"

#include "core/args.hpp"
#include "core/text_sink.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

namespace slowstart::simulate_command {

const char* const kSimulateUsage =
    "usage: slowstart simulate [options] [FILE | -]\n"
    "\n"
    "Turns the script's POOL, NOW, ADD, DOWN and UP lines into a scenario in\n"
    "continuous time, sends requests at a fixed rate, and prints each\n"
    "backend's share of the requests per time bucket.\n"
    "\n"
    "options:\n"
    "  --rps N            requests per second (default 1000)\n"
    "  --duration S       seconds to simulate (default: 10 s past the last ramp)\n"
    "  --bucket S         width of a report row in seconds (default 1)\n"
    "  --curve NAME       linear (default, the SPEC), envoy or haproxy\n"
    "  --resolution R     internal weight scale: 1 (default), 16, 100 or 1000\n"
    "  --aggression A     envoy: curve aggression (default 1)\n"
    "  --min-weight P     envoy: floor of the ramp in percent (default 10)\n"
    "  --policy P         wrr (default), least-request (Envoy's weighted),\n"
    "                     random (weighted), p2c (two random, fewer active wins),\n"
    "                     least-conn (fewest active, no weights) or round-robin\n"
    "  --ramp-by HOW      scale (default: each policy's own way) or skip (leave a\n"
    "                     warming host out with probability 1 - ramp)\n"
    "  --seed N           seed of the random choices (default 1)\n"
    "  --bias B           least-request: active-request bias (default 1)\n"
    "  --no-slow-start    ignore the ramps: full weight at once\n"
    "  --service          model service: outstanding requests and latency\n"
    "  --service-ms MS    warm service time (default 200; implies --service)\n"
    "  --cold-factor F    service time multiplier when cold (default 5)\n"
    "  --warmup S         seconds for a cold backend to warm up (default 30)\n"
    "  --workers N        requests a backend serves at once (default 128)\n"
    "  --warm-by HOW      serving (default: seconds in service since the restart,\n"
    "                     paused while ejected), time or requests\n"
    "  --warmup-requests N  requests to warm up, for --warm-by requests (10000)\n"
    "  --timeout-ms MS    a request slower than this fails (implies --service)\n"
    "  --retries N        retry a failed request on another backend, 0-5 (default 0)\n"
    "  --health KIND      passive health check: none (default), nginx, haproxy\n"
    "                     or envoy, with that software's defaults:\n"
    "    nginx:   --max-fails N (1)  --fail-timeout S (10)\n"
    "    haproxy: --error-limit N (10)  --inter S (2)  --rise N (2)\n"
    "             (observe layer7, on-error mark-down)\n"
    "    envoy:   --consecutive-5xx N (5)  --interval S (10)\n"
    "             --base-ejection-time S (30)  --max-ejection-time S (300)\n"
    "             --max-ejection-percent P (10)\n"
    "  --stable-margin P  stable: latency within P % of the warm time (default 50)\n"
    "  --csv              CSV: time,backend,requests,share,outstanding,latency_ms\n"
    "                     (with --timeout-ms also failed,retried,state)\n"
    "  --summary json     one JSON object: options, unrouted, stable_at, and per\n"
    "                     backend requests, failed, retried, ejections and\n"
    "                     seconds_ejected\n";

namespace {

std::string fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

// Time labels without trailing zeros: 0, 0.25, 1.5, 10.
std::string time_label(double t) {
  std::string s = fixed(t, 3);
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  return s;
}

std::string pad_left(const std::string& s, std::size_t width) {
  return s.size() >= width ? s : std::string(width - s.size(), ' ') + s;
}

std::string state_name(std::uint8_t s) {
  static const char* const kNames[] = {"out", "serving", "ramping", "ejected"};
  return kNames[s & 3];
}

// Names never hold control characters (the SPEC): quotes and backslashes
// are all JSON needs escaped.
std::string json_text(std::string_view s) {
  std::string out = "\"";
  for (const char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + '"';
}

// Numbers as JSON: whole ones without a fraction, others with 3 decimals.
std::string json_number(double v) {
  if (v == std::floor(v) && std::fabs(v) < 1e15) return std::to_string(static_cast<long long>(v));
  return fixed(v, 3);
}

}  // namespace

Problem parse_simulate_args(const std::vector<std::string>& args, SimulateArgs& out) {
  TrafficOptions& o = out.options;
  ArgReader r(args);
  std::string text;
  // A number for the option just matched.
  const auto number = [&](double& v) -> Problem {
    if (Problem p = r.value(text)) return p;
    if (!parse_real(text, v)) return r.invalid("a number", text);
    return std::nullopt;
  };
  // A whole number for the option just matched, 0 ... max.
  const auto whole = [&](std::uint32_t& v, std::uint64_t max) -> Problem {
    if (Problem p = r.value(text)) return p;
    std::uint64_t n = 0;
    if (!parse_whole(text, max, n)) return r.invalid("a whole number from 0 to " + std::to_string(max), text);
    v = static_cast<std::uint32_t>(n);
    return std::nullopt;
  };
  HealthCheck& h = o.health;
  double v = 0;
  while (r.next()) {
    if (!r.option()) {
      if (!out.path.empty()) return std::string("one script at a time");
      out.path = r.arg();
    } else if (r.is("--help", "-h")) {
      if (Problem p = r.flag()) return p;
      out.help = true;
    } else if (r.is("--rps")) {
      if (Problem p = number(o.rps)) return p;
    } else if (r.is("--duration")) {
      if (Problem p = number(o.duration)) return p;
    } else if (r.is("--bucket")) {
      if (Problem p = number(o.bucket)) return p;
    } else if (r.is("--curve")) {
      if (Problem p = r.value(text)) return p;
      if (Problem p = parse_curve_kind(text, o.curve.kind)) return p;
    } else if (r.is("--resolution")) {
      if (Problem p = number(v)) return p;
      if (Problem p = set_resolution(v, text, o.curve)) return p;
    } else if (r.is("--aggression")) {
      if (Problem p = number(o.curve.aggression)) return p;
    } else if (r.is("--min-weight")) {
      if (Problem p = number(o.curve.min_weight_percent)) return p;
    } else if (r.is("--policy")) {
      if (Problem p = r.value(text)) return p;
      if (Problem p = parse_policy(text, o.policy)) return p;
    } else if (r.is("--bias")) {
      if (Problem p = number(o.bias)) return p;
    } else if (r.is("--no-slow-start")) {
      if (Problem p = r.flag()) return p;
      o.slow_start = false;
    } else if (r.is("--service")) {
      if (Problem p = r.flag()) return p;
      o.service.enabled = true;
    } else if (r.is("--service-ms")) {
      if (Problem p = number(o.service.base_ms)) return p;
      o.service.enabled = true;
    } else if (r.is("--cold-factor")) {
      if (Problem p = number(o.service.cold_factor)) return p;
      o.service.enabled = true;
    } else if (r.is("--warmup")) {
      if (Problem p = number(o.service.warmup)) return p;
      o.service.enabled = true;
    } else if (r.is("--workers")) {
      if (Problem p = number(v)) return p;
      if (Problem p = set_workers(v, o.service)) return p;
      o.service.enabled = true;
    } else if (r.is("--warm-by")) {
      if (Problem p = r.value(text)) return p;
      if (Problem p = parse_warm_by(text, o.service.warm_by)) return p;
      o.service.enabled = true;
    } else if (r.is("--warmup-requests")) {
      if (Problem p = number(o.service.warmup_requests)) return p;
      o.service.enabled = true;
    } else if (r.is("--timeout-ms")) {
      if (Problem p = number(o.timeout_ms)) return p;
      o.service.enabled = true;
    } else if (r.is("--retries")) {
      if (Problem p = whole(o.retries, kMaxRetries)) return p;
    } else if (r.is("--health")) {
      if (Problem p = r.value(text)) return p;
      if (Problem p = parse_health(text, h.kind)) return p;
    } else if (r.is("--max-fails")) {
      if (Problem p = whole(h.max_fails, 1'000'000)) return p;
    } else if (r.is("--fail-timeout")) {
      if (Problem p = number(h.fail_timeout)) return p;
    } else if (r.is("--error-limit")) {
      if (Problem p = whole(h.error_limit, 1'000'000)) return p;
    } else if (r.is("--inter")) {
      if (Problem p = number(h.inter)) return p;
    } else if (r.is("--rise")) {
      if (Problem p = whole(h.rise, 1'000'000)) return p;
    } else if (r.is("--consecutive-5xx")) {
      if (Problem p = whole(h.consecutive_5xx, 1'000'000)) return p;
    } else if (r.is("--interval")) {
      if (Problem p = number(h.interval)) return p;
    } else if (r.is("--base-ejection-time")) {
      if (Problem p = number(h.base_ejection_time)) return p;
    } else if (r.is("--max-ejection-time")) {
      if (Problem p = number(h.max_ejection_time)) return p;
    } else if (r.is("--max-ejection-percent")) {
      if (Problem p = number(h.max_ejection_percent)) return p;
    } else if (r.is("--ramp-by")) {
      if (Problem p = r.value(text)) return p;
      if (Problem p = parse_ramp_by(text, o.ramp_by)) return p;
    } else if (r.is("--seed")) {
      if (Problem p = r.value(text)) return p;
      if (!parse_whole(text, std::numeric_limits<std::uint64_t>::max(), o.seed))
        return r.invalid("a whole number", text);
    } else if (r.is("--stable-margin")) {
      if (Problem p = number(o.stable_margin)) return p;
    } else if (r.is("--summary")) {
      if (Problem p = r.value(text)) return p;
      if (text != "json") return r.invalid("json", text);
      out.summary = true;
    } else if (r.is("--csv")) {
      if (Problem p = r.flag()) return p;
      out.csv = true;
    } else {
      return r.unknown();
    }
  }
  return check_traffic_options(o);
}

std::string format_simulation(const TrafficResult& r, const SimulateArgs& args) {
  const std::size_t n = r.names.size();
  const bool service = args.options.service.enabled;
  const bool failures = args.options.timeout_ms > 0;
  std::string out;
  if (args.csv) {
    out += failures ? "time,backend,requests,share,outstanding,latency_ms,failed,retried,state\n"
                    : "time,backend,requests,share,outstanding,latency_ms\n";
    for (std::size_t k = 0; k < r.buckets; ++k)
      for (std::size_t id = 0; id < n; ++id) {
        const std::size_t c = k * n + id;
        out += time_label(static_cast<double>(k) * r.bucket) + ',' + r.names[id] + ',' +
               std::to_string(r.requests[c]) + ',' + fixed(r.share(k, id), 4) + ',' +
               (service ? fixed(r.outstanding[c], 1) : "") + ',' +
               (service ? fixed(r.latency_ms[c], 1) : "");
        if (failures)
          out += ',' + std::to_string(r.failed[c]) + ',' + std::to_string(r.retried[c]) + ',' + state_name(r.state[c]);
        out += '\n';
      }
    return out;
  }
  // Table: one row per bucket, a share column (and, with service, outstanding
  // and latency columns) per backend. Names are never cut.
  std::vector<std::size_t> width(n);
  out += pad_left("time", 8);
  for (std::size_t id = 0; id < n; ++id) {
    width[id] = std::max<std::size_t>(r.names[id].size(), 6);
    out += "  " + pad_left(r.names[id], width[id]);
    if (service) out += "  " + pad_left("out", 6) + "  " + pad_left("ms", 7);
    if (failures) out += "  " + pad_left("fail", 5) + "  " + pad_left("state", 8);
  }
  out += "  " + pad_left("none", 6) + '\n';
  for (std::size_t k = 0; k < r.buckets; ++k) {
    out += pad_left(time_label(static_cast<double>(k) * r.bucket), 8);
    for (std::size_t id = 0; id < n; ++id) {
      const std::size_t c = k * n + id;
      out += "  " + pad_left(fixed(100.0 * r.share(k, id), 1) + "%", width[id]);
      if (service) out += "  " + pad_left(fixed(r.outstanding[c], 1), 6) + "  " + pad_left(fixed(r.latency_ms[c], 0), 7);
      if (failures) out += "  " + pad_left(std::to_string(r.failed[c]), 5) + "  " + pad_left(state_name(r.state[c]), 8);
    }
    const double none = r.total[k] ? 100.0 * r.unrouted[k] / r.total[k] : 0.0;
    out += "  " + pad_left(fixed(none, 1) + "%", 6) + '\n';
  }
  return out;
}

std::string format_summary(const TrafficResult& r, const SimulateArgs& args) {
  const TrafficOptions& o = args.options;
  const ServiceModel& s = o.service;
  const HealthCheck& h = o.health;
  static const char* const kCurves[] = {"linear", "envoy", "haproxy"};
  std::string j = "{\"options\": {";
  j += "\"rps\": " + json_number(o.rps) + ", \"duration\": " + json_number(r.duration) +
       ", \"bucket\": " + json_number(r.bucket) + ", \"curve\": " + json_text(kCurves[static_cast<int>(o.curve.kind)]) +
       ", \"resolution\": " + json_number(static_cast<double>(o.curve.resolution));
  if (o.curve.kind == CurveKind::Envoy)
    j += ", \"aggression\": " + json_number(o.curve.aggression) +
         ", \"min_weight\": " + json_number(o.curve.min_weight_percent);
  j += ", \"policy\": " + json_text(policy_name(o.policy)) +
       ", \"ramp_by\": " + json_text(o.ramp_by == RampBy::Skip ? "skip" : "scale") +
       ", \"slow_start\": " + (o.slow_start ? "true" : "false") + ", \"seed\": " + std::to_string(o.seed);
  if (o.policy == Policy::LeastRequest) j += ", \"bias\": " + json_number(o.bias);
  if (s.enabled) {
    j += ", \"service\": {\"service_ms\": " + json_number(s.base_ms) + ", \"cold_factor\": " + json_number(s.cold_factor) +
         ", \"warmup\": " + json_number(s.warmup) + ", \"workers\": " + std::to_string(s.workers) +
         ", \"warm_by\": " + json_text(warm_by_name(s.warm_by));
    if (s.warm_by == WarmBy::Requests) j += ", \"warmup_requests\": " + json_number(s.warmup_requests);
    j += "}";
  } else {
    j += ", \"service\": null";
  }
  j += ", \"timeout_ms\": " + json_number(o.timeout_ms) + ", \"retries\": " + std::to_string(o.retries) +
       ", \"health\": {\"kind\": " + json_text(health_name(h.kind));
  switch (h.kind) {
    case HealthKind::None: break;
    case HealthKind::Nginx:
      j += ", \"max_fails\": " + std::to_string(h.max_fails) + ", \"fail_timeout\": " + json_number(h.fail_timeout);
      break;
    case HealthKind::HAProxy:
      j += ", \"observe\": \"layer7\", \"error_limit\": " + std::to_string(h.error_limit) +
           ", \"on_error\": \"mark-down\", \"inter\": " + json_number(h.inter) + ", \"rise\": " + std::to_string(h.rise);
      break;
    case HealthKind::Envoy:
      j += ", \"consecutive_5xx\": " + std::to_string(h.consecutive_5xx) + ", \"interval\": " + json_number(h.interval) +
           ", \"base_ejection_time\": " + json_number(h.base_ejection_time) +
           ", \"max_ejection_time\": " + json_number(h.max_ejection_time) +
           ", \"max_ejection_percent\": " + json_number(h.max_ejection_percent);
      break;
  }
  j += "}, \"stable_margin\": " + json_number(o.stable_margin) + "}";
  std::uint64_t unrouted = 0, total = 0;
  for (std::size_t k = 0; k < r.buckets; ++k) unrouted += r.unrouted[k], total += r.total[k];
  j += ", \"requests\": " + std::to_string(total) + ", \"unrouted\": " + std::to_string(unrouted) +
       ", \"stable_at\": " + (r.stable_at >= 0 ? json_number(r.stable_at) : std::string("null")) + ", \"backends\": [";
  const std::size_t n = r.names.size();
  for (std::size_t id = 0; id < n; ++id) {
    std::uint64_t requests = 0, failed = 0, retried = 0;
    for (std::size_t k = 0; k < r.buckets; ++k) {
      const std::size_t c = k * n + id;
      requests += r.requests[c], failed += r.failed[c], retried += r.retried[c];
    }
    j += id ? ",\n  {" : "\n  {";
    j += "\"name\": " + json_text(r.names[id]) + ", \"requests\": " + std::to_string(requests) +
         ", \"failed\": " + std::to_string(failed) + ", \"retried\": " + std::to_string(retried) +
         ", \"ejections\": " + std::to_string(r.ejections[id]) +
         ", \"seconds_ejected\": " + json_number(r.seconds_ejected[id]) + "}";
  }
  j += n ? "\n]}\n" : "]}\n";
  return j;
}

std::string format_diagnostics(const TrafficResult& r) {
  std::string err;
  for (const auto& d : r.diagnostics) append_diagnostic(err, d.line, d.message);
  if (r.problem) err += "slowstart simulate: " + *r.problem + '\n';
  return err;
}

}  // namespace slowstart::simulate_command

namespace slowstart::simulate_command {

int run_simulate(const std::vector<std::string>& args, const ScriptReader& read, std::string& out,
                 std::string& err) {
  SimulateArgs sim;
  if (Problem p = parse_simulate_args(args, sim)) {
    err += "slowstart simulate: " + *p + "\n";
    return 2;
  }
  if (sim.help) {
    out += kSimulateUsage;
    return 0;
  }
  std::string script;
  if (Problem p = read(sim.path, script)) {
    err += "slowstart: " + *p + '\n';
    return 2;
  }
  const TrafficResult r = simulate_traffic(script, sim.options);
  err += format_diagnostics(r);
  if (r.problem) return 2;
  out += sim.summary ? format_summary(r, sim) : format_simulation(r, sim);
  return r.diagnostics.empty() ? 0 : 1;
}

}  // namespace slowstart::simulate_command
