#include "traffic/simulate_command.hpp"

#include "core/args.hpp"
#include "core/text_sink.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>

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
    "  --policy P         wrr (default) or least-request (Envoy's weighted)\n"
    "  --bias B           least-request: active-request bias (default 1)\n"
    "  --no-slow-start    ignore the ramps: full weight at once\n"
    "  --service          model service: outstanding requests and latency\n"
    "  --service-ms MS    warm service time (default 200; implies --service)\n"
    "  --cold-factor F    service time multiplier when cold (default 5)\n"
    "  --warmup S         seconds for a cold backend to warm up (default 30)\n"
    "  --workers N        requests a backend serves at once (default 128)\n"
    "  --csv              CSV: time,backend,requests,share,outstanding,latency_ms\n";

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
  std::string out;
  if (args.csv) {
    out += "time,backend,requests,share,outstanding,latency_ms\n";
    for (std::size_t k = 0; k < r.buckets; ++k)
      for (std::size_t id = 0; id < n; ++id) {
        const std::size_t c = k * n + id;
        out += time_label(static_cast<double>(k) * r.bucket) + ',' + r.names[id] + ',' +
               std::to_string(r.requests[c]) + ',' + fixed(r.share(k, id), 4) + ',' +
               (service ? fixed(r.outstanding[c], 1) : "") + ',' +
               (service ? fixed(r.latency_ms[c], 1) : "") + '\n';
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
  }
  out += "  " + pad_left("none", 6) + '\n';
  for (std::size_t k = 0; k < r.buckets; ++k) {
    out += pad_left(time_label(static_cast<double>(k) * r.bucket), 8);
    for (std::size_t id = 0; id < n; ++id) {
      const std::size_t c = k * n + id;
      out += "  " + pad_left(fixed(100.0 * r.share(k, id), 1) + "%", width[id]);
      if (service) out += "  " + pad_left(fixed(r.outstanding[c], 1), 6) + "  " + pad_left(fixed(r.latency_ms[c], 0), 7);
    }
    const double none = r.total[k] ? 100.0 * r.unrouted[k] / r.total[k] : 0.0;
    out += "  " + pad_left(fixed(none, 1) + "%", 6) + '\n';
  }
  return out;
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
  out += format_simulation(r, sim);
  return r.diagnostics.empty() ? 0 : 1;
}

}  // namespace slowstart::simulate_command
