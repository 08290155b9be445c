#include "traffic/simulate_command.hpp"

#include "core/args.hpp"
#include "core/text_sink.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

namespace slowstart::simulate_command {

namespace {

// What the table does not hold: the report's own options.
constexpr const char* kReportUsage =
    "  --csv                 CSV, a row per bucket and backend:\n"
    "                        time,backend,requests,share,outstanding,latency_ms\n"
    "                        (with --timeout-ms also failed,retried,state), then\n"
    "                        p50_ms,p99_ms (the backend's attempts) and the\n"
    "                        bucket's client_requests,client_failed,\n"
    "                        client_error_rate,client_p50_ms,client_p99_ms\n"
    "  --summary json        one JSON object: the options in force, requests,\n"
    "                        unrouted, client_requests, client_failed,\n"
    "                        client_error_rate, client_p50_ms, client_p99_ms,\n"
    "                        stable_at, and per backend requests, failed, retried,\n"
    "                        ejections, seconds_ejected, p50_ms and p99_ms\n"
    "\n"
    "Latency (with the service model) is per bucket of arrival. A backend's is\n"
    "its attempts' (a timed-out one counts as the timeout); the client's is a\n"
    "request's whole wait, every attempt included. A request fails to the client\n"
    "when no backend takes it or its last attempt times out; client_error_rate is\n"
    "client_failed / client_requests (0 when no request was sent). p50 and p99\n"
    "are nearest-rank (rank ceil(p% of N)), read from log-scale histograms (128\n"
    "bins an octave): the largest latency in the bin of that rank, never below\n"
    "the exact value and at most 0.8 % above it; 0 in a bucket with none, null\n"
    "in the summary.\n"
    "  --help                this text\n";

}  // namespace

std::string simulate_usage() {
  return "usage: slowstart simulate [options] [FILE | -]\n"
         "\n"
         "Turns the script's POOL, NOW, ADD, DOWN and UP lines into a scenario in\n"
         "continuous time, sends requests at a fixed rate, and prints each\n"
         "backend's share of the requests per time bucket.\n"
         "\n" +
         options_usage() + kReportUsage;
}

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

// A bucket's or the run's error rate: 6 decimals (a rate of 1 in 10^6 shows).
std::string rate_text(std::uint64_t failed, std::uint64_t requests) {
  return fixed(TrafficResult::error_rate(failed, requests), 6);
}

std::string state_name(std::uint8_t s) { return name_of(static_cast<BackendState>(s & 3)); }

// A name as a CSV field (RFC 4180): a name may hold a comma or a quote (any
// non-blank characters but `=`), so such a name is quoted, its quotes doubled;
// every other name is written as it is (the recorded CSVs unchanged).
std::string csv_field(const std::string& name) {
  if (name.find_first_of(",\"") == std::string::npos) return name;
  std::string q = "\"";
  for (const char c : name) {
    if (c == '"') q += '"';
    q += c;
  }
  return q + '"';
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

// A run's percentile: null when it had no latency (negative).
std::string percentile_json(float ms) { return ms < 0 ? std::string("null") : json_number(ms); }

}  // namespace

Problem parse_simulate_args(const std::vector<std::string>& args, SimulateArgs& out) {
  TrafficOptions& o = out.options;
  ArgReader r(args);
  std::string text;
  while (r.next()) {
    if (!r.option()) {
      if (!out.path.empty()) return std::string("one script at a time");
      out.path = r.arg();
    } else if (r.is("--help", "-h")) {
      if (Problem p = r.flag()) return p;
      out.help = true;
    } else if (r.is("--summary")) {
      if (Problem p = r.value(text)) return p;
      if (text != "json") return r.invalid("json", text);
      out.summary = true;
    } else if (r.is("--csv")) {
      if (Problem p = r.flag()) return p;
      out.csv = true;
    } else if (const TrafficOption* option = find_option_by_flag(r.arg().substr(0, r.arg().find('=')));
               option && r.is(option->flag)) {
      if (option->kind == ValueKind::Switch) {
        if (Problem p = r.flag()) return p;
      } else if (Problem p = r.value(text)) {
        return p;
      }
      if (Problem p = set_option_text(*option, text, o)) return p;
      if (option->implies_service) o.service.enabled = true;
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
    // New columns go at the end of a row: readers take them by index.
    out += failures ? "time,backend,requests,share,outstanding,latency_ms,failed,retried,state"
                    : "time,backend,requests,share,outstanding,latency_ms";
    out += ",p50_ms,p99_ms,client_requests,client_failed,client_error_rate,client_p50_ms,client_p99_ms\n";
    for (std::size_t k = 0; k < r.buckets; ++k) {
      // The client's columns: the same on every backend's row of the bucket.
      const std::string client = ',' + std::to_string(r.client_requests[k]) + ',' + std::to_string(r.client_failed[k]) +
                                 ',' + rate_text(r.client_failed[k], r.client_requests[k]) + ',' +
                                 (service ? fixed(r.client_p50_ms[k], 1) : "") + ',' +
                                 (service ? fixed(r.client_p99_ms[k], 1) : "");
      for (std::size_t id = 0; id < n; ++id) {
        const std::size_t c = k * n + id;
        out += time_label(static_cast<double>(k) * r.bucket) + ',' + csv_field(r.names[id]) + ',' +
               std::to_string(r.requests[c]) + ',' + fixed(r.share(k, id), 4) + ',' +
               (service ? fixed(r.outstanding[c], 1) : "") + ',' +
               (service ? fixed(r.latency_ms[c], 1) : "");
        if (failures)
          out += ',' + std::to_string(r.service_cell(r.failed, c)) + ',' + std::to_string(r.service_cell(r.retried, c)) + ',' +
                 state_name(r.state[c]);
        out += ',' + (service ? fixed(r.p50_ms[c], 1) : "") + ',' + (service ? fixed(r.p99_ms[c], 1) : "") + client + '\n';
      }
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
      if (failures)
        out += "  " + pad_left(std::to_string(r.service_cell(r.failed, c)), 5) + "  " + pad_left(state_name(r.state[c]), 8);
    }
    const double none = r.total[k] ? 100.0 * r.unrouted[k] / r.total[k] : 0.0;
    out += "  " + pad_left(fixed(none, 1) + "%", 6) + '\n';
  }
  return out;
}

std::string format_summary(const TrafficResult& r, const SimulateArgs& args) {
  // The options in force: the duration and bucket the simulation used.
  TrafficOptions o = args.options;
  o.duration = r.duration;
  o.bucket = r.bucket;
  std::string j = "{\"options\": " + options_json(o);
  std::uint64_t unrouted = 0, total = 0, client_requests = 0, client_failed = 0;
  for (std::size_t k = 0; k < r.buckets; ++k) {
    unrouted += r.unrouted[k], total += r.total[k];
    client_requests += r.client_requests[k], client_failed += r.client_failed[k];
  }
  const std::string client_rate = rate_text(client_failed, client_requests);
  j += ", \"requests\": " + std::to_string(total) + ", \"unrouted\": " + std::to_string(unrouted) +
       ", \"client_requests\": " + std::to_string(client_requests) +
       ", \"client_failed\": " + std::to_string(client_failed) + ", \"client_error_rate\": " + client_rate +
       ", \"client_p50_ms\": " + percentile_json(r.run_client_p50_ms) +
       ", \"client_p99_ms\": " + percentile_json(r.run_client_p99_ms) +
       ", \"stable_at\": " + (r.stable_at >= 0 ? json_number(r.stable_at) : std::string("null")) + ", \"backends\": [";
  const std::size_t n = r.names.size();
  for (std::size_t id = 0; id < n; ++id) {
    std::uint64_t requests = 0, failed = 0, retried = 0;
    for (std::size_t k = 0; k < r.buckets; ++k) {
      const std::size_t c = k * n + id;
      requests += r.requests[c], failed += r.service_cell(r.failed, c), retried += r.service_cell(r.retried, c);
    }
    j += id ? ",\n  {" : "\n  {";
    j += "\"name\": " + json_text(r.names[id]) + ", \"requests\": " + std::to_string(requests) +
         ", \"failed\": " + std::to_string(failed) + ", \"retried\": " + std::to_string(retried) +
         ", \"ejections\": " + std::to_string(r.ejections[id]) +
         ", \"seconds_ejected\": " + json_number(r.seconds_ejected[id]) +
         ", \"p50_ms\": " + percentile_json(r.run_p50_ms[id]) + ", \"p99_ms\": " + percentile_json(r.run_p99_ms[id]) + "}";
  }
  j += n ? "\n]}\n" : "]}\n";
  return j;
}

std::string ignored_ramps_note(const std::vector<std::uint64_t>& lines) {
  if (lines.empty()) return "";
  constexpr std::size_t kShown = 10;
  std::string at;
  for (std::size_t k = 0; k < lines.size() && k < kShown; ++k) at += (k ? ", " : "") + std::to_string(lines[k]);
  if (lines.size() > kShown) at += " and " + std::to_string(lines.size() - kShown) + " more";
  return std::string("slowstart simulate: note: --slow-start sets every window (the balancer's rule decides which "
                     "joins and recoveries ramp): the ramp") +
         (lines.size() == 1 ? " written on line " + at + " is" : "s written on lines " + at + " are") + " not used\n";
}

std::string format_diagnostics(const TrafficResult& r) {
  std::string err;
  for (const auto& d : r.diagnostics) append_diagnostic(err, d.line, d.message);
  err += ignored_ramps_note(r.ignored_ramps);
  if (r.problem) err += "slowstart simulate: " + *r.problem + '\n';
  return err;
}

}  // namespace slowstart::simulate_command

namespace slowstart::simulate_command {

std::size_t report_bytes_bound(const ScenarioSize& size, const SimulateArgs& args) {
  if (args.summary) return 0;  // a line per backend: no more than the result itself
  const bool service = args.options.service.enabled;
  const bool failures = args.options.timeout_ms > 0;
  // The widest a time label, a count, a mean or a latency can print.
  constexpr double kTime = 24, kCount = 10, kMean = 14, kLatency = 18;
  double per_row = 0;
  if (args.csv) {  // a row per cell: its name quoted, every quote doubled at worst
    // The percentiles and the client's columns: two latencies, two counts,
    // a rate and two more latencies, with their commas.
    const double extra = 4 * kLatency + 2 * kCount + 10 + 7;
    per_row = size.backends * (kTime + kCount + 6 + kMean + kLatency + 6 + (failures ? 2 * kCount + 10 : 0) + 1 + 2 + extra) +
              2 * size.name_bytes;
  } else {  // a row per bucket: a column per backend, as wide as its name
    per_row = kTime + 10 + size.backends * (2 + 8 + (service ? 4 + kMean + kLatency : 0) + (failures ? 4 + kCount + 8 : 0)) +
              size.name_bytes;
  }
  return static_cast<std::size_t>(std::min((size.buckets + 1) * per_row, 1e18));
}

int run_simulate(const std::vector<std::string>& args, const ScriptReader& read, std::string& out,
                 std::string& err) {
  SimulateArgs sim;
  if (Problem p = parse_simulate_args(args, sim)) {
    err += "slowstart simulate: " + *p + "\n";
    return 2;
  }
  if (sim.help) {
    out += simulate_usage();
    return 0;
  }
  std::string script;
  // One byte past the budget's limit tells a script that is too long (and
  // /dev/zero is read no further).
  if (Problem p = read(sim.path, kMaxScriptBytes + 1, script)) {
    err += "slowstart: " + *p + '\n';
    return 2;
  }
  if (Problem p = script_too_large(script.size())) {
    err += "slowstart simulate: " + *p + '\n';
    return 2;
  }
  // The report's size is known before anything runs (the script's first pass).
  if (const TrafficMeasure m = measure_traffic(script, sim.options); !m.problem) {
    if (const std::size_t bytes = report_bytes_bound(m.size, sim); bytes > kMaxReportBytes) {
      TrafficResult refused;
      refused.diagnostics = m.diagnostics;
      refused.problem = "report too large: up to " + rough_text(static_cast<double>(bytes)) + " bytes (at most " +
                        count_text(static_cast<double>(kMaxReportBytes)) + "); widen the bucket, or use --summary json";
      err += format_diagnostics(refused);
      return 2;
    }
  }
  const TrafficResult r = simulate_traffic(script, sim.options);
  err += format_diagnostics(r);
  if (r.problem) return 2;
  out += sim.summary ? format_summary(r, sim) : format_simulation(r, sim);
  return r.diagnostics.empty() ? 0 : 1;
}

}  // namespace slowstart::simulate_command
