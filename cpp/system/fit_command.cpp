#include "system/fit_command.hpp"

#include <cmath>
#include <cstdio>

#include "core/args.hpp"
#include "system/access_log.hpp"
#include "system/config_text.hpp"
#include "traffic/budget.hpp"

namespace slowstart::system {

const char* const kFitUsage =
    "usage: slowstart fit [options] [LOG | -]\n"
    "\n"
    "Fits the lab's cold start to a canary restart's requests: the warm\n"
    "service time, the cold factor, and whether warmth follows time or\n"
    "requests served, each with a 95 % band. Prints the simulate options to\n"
    "pass (the words go to standard error).\n"
    "\n"
    "LOG is a CSV with a header naming t (seconds since the backend started)\n"
    "and latency_ms, optionally in_flight; or, with --log-format, the proxy's\n"
    "own access log (docs/YOUR-SYSTEM.md gives each proxy's log line).\n"
    "\n"
    "options:\n"
    "  --json               one JSON object: service_ms, cold_factor, warm_by,\n"
    "                       warmup, warmup_requests, each with a _band\n"
    "  --log-format F       nginx, haproxy or envoy: read that access log\n"
    "  --backend ADDR       the canary in the access log (default: its only one)\n"
    "  --started EPOCH      when the canary started, seconds since 1970\n"
    "                       (default: its first request)\n"
    "  --convert            print the log as CSV (t,latency_ms,in_flight), no fit\n"
    "  --seed N             the bootstrap's seed (default 1)\n";

namespace {

std::string fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

// 12,345
std::string grouped(double v) {
  std::string s = fixed(std::round(v), 0);
  for (int i = static_cast<int>(s.size()) - 3; i > (s[0] == '-' ? 1 : 0); i -= 3) s.insert(static_cast<std::size_t>(i), 1, ',');
  return s;
}

double rounded(double v, int digits) {
  const double scale = std::pow(10.0, digits);
  return std::round(v * scale) / scale;
}

std::string band(const Band& b, int digits) {
  std::string s = "[";
  s += fixed(rounded(b.lo, digits), digits);
  s += ", ";
  s += fixed(rounded(b.hi, digits), digits);
  return s + ']';
}

struct FitArgs {
  std::string path;
  bool json = false, convert = false, help = false, log = false;
  AccessLogOptions access;
  std::uint64_t seed = 1;
};

Problem parse_fit_args(const std::vector<std::string>& args, FitArgs& out) {
  ArgReader r(args);
  std::string text;
  while (r.next()) {
    if (!r.option()) {
      if (!out.path.empty()) return std::string("one log at a time");
      out.path = r.arg();
    } else if (r.is("--help", "-h")) {
      if (Problem p = r.flag()) return p;
      out.help = true;
    } else if (r.is("--json")) {
      if (Problem p = r.flag()) return p;
      out.json = true;
    } else if (r.is("--convert")) {
      if (Problem p = r.flag()) return p;
      out.convert = true;
    } else if (r.is("--log-format")) {
      if (Problem p = r.value(text)) return p;
      if (Problem p = parse_log_format(text, out.access.format)) return p;
      out.log = true;
    } else if (r.is("--backend")) {
      if (Problem p = r.value(out.access.backend)) return p;
    } else if (r.is("--started")) {
      if (Problem p = r.value(text)) return p;
      double v = 0;
      if (!parse_real(text, v) || v < 0) return r.invalid("seconds since 1970", text);
      out.access.started = v;
    } else if (r.is("--seed")) {
      if (Problem p = r.value(text)) return p;
      if (!parse_whole(text, ~std::uint64_t{0}, out.seed)) return r.invalid("a whole number", text);
    } else {
      return r.unknown();
    }
  }
  if (!out.log && (!out.access.backend.empty() || out.access.started >= 0))
    return std::string("--backend and --started read an access log: add --log-format");
  return std::nullopt;
}

std::string convert(const CanaryLog& log) {
  std::string out = "t,latency_ms,in_flight\n";
  for (const CanaryRow& r : log.rows)
    out += fixed(r.t, 3) + ',' + fixed(r.latency_ms, 3) + ',' + (r.in_flight >= 0 ? fixed(r.in_flight, 0) : "") + '\n';
  return out;
}

}  // namespace

bool read_canary(std::string_view text, const AccessLogOptions* access, CanaryLog& out, std::string& problem) {
  return access ? read_access_log(text, *access, out, problem) : read_canary_csv(text, out, problem);
}

std::string fit_summary(const ColdFit& f, const CanaryLog& log) {
  const FitNumbers n = fit_numbers(f);
  std::string s = "slowstart fit: " + grouped(static_cast<double>(f.rows)) + " requests over " + fixed(f.span, 1) + " s\n";
  for (const std::string& note : log.notes) s += "  " + note + '\n';
  const ModelFit& m = f.best();
  s += "  warm service time     " + fixed(n.service_ms, 1) + " ms (95 %: " + fixed(m.service_band.lo, 1) + " to " +
       fixed(m.service_band.hi, 1) + ")\n";
  if (!f.cold) {
    s += "  no cold start: latency does not fall measurably after the start (cold factor 1)\n";
    return s;
  }
  s += "  cold factor           " + fixed(n.cold_factor, 2) + " (" + fixed(m.cold_band.lo, 2) + " to " +
       fixed(m.cold_band.hi, 2) + ")\n";
  s += "  warm-up by time       " + fixed(n.warmup, 1) + " s (" + fixed(f.time.warmup_band.lo, 1) + " to " +
       fixed(f.time.warmup_band.hi, 1) + ")\n";
  s += "  warm-up by requests   " + grouped(n.warmup_requests) + " (" + grouped(f.requests.warmup_band.lo) + " to " +
       grouped(f.requests.warmup_band.hi) + ")\n";
  const std::string gap = fixed(f.likelihood_gap, 1);
  if (!f.decided)
    s += "  time and requests served explain the data as well (log-likelihoods " + gap +
         " apart, under 2): the rate was too steady to tell; the options use time\n";
  else
    s += std::string("  ") + (f.by_requests ? "requests served explain" : "time explains") + " the data better than " +
         (f.by_requests ? "time" : "requests served") + ": log-likelihood higher by " + gap + " (about " +
         (f.likelihood_gap > 300 ? std::string("10^130 or more") : "10^" + fixed(f.likelihood_gap / std::log(10.0), 0)) +
         " times likelier)\n";
  return s;
}

FitNumbers fit_numbers(const ColdFit& f) {
  FitNumbers n{};
  n.by_requests = f.cold && f.by_requests;
  n.service_ms = rounded(f.best().service_ms, 1);
  n.cold_factor = f.cold ? rounded(f.best().cold_factor, 2) : 1.0;
  n.warmup = f.cold ? rounded(f.time.warmup, 1) : 0.0;
  n.warmup_requests = f.cold ? std::max(1.0, std::round(f.requests.warmup)) : 1.0;
  return n;
}

std::string fit_options(const ColdFit& f) {
  const FitNumbers n = fit_numbers(f);
  std::string o = "--service-ms " + fixed(n.service_ms, 1) + " --cold-factor " + fixed(n.cold_factor, 2);
  if (n.by_requests) o += " --warm-by requests --warmup-requests " + fixed(n.warmup_requests, 0);
  else o += " --warm-by time --warmup " + fixed(n.warmup, 1);
  return o;
}

std::string fit_json(const ColdFit& f) {
  if (!f.refused.empty()) return "{\"refused\": " + json_string(f.refused) + ", \"rows\": " + std::to_string(f.rows) + "}\n";
  const FitNumbers n = fit_numbers(f);
  const ModelFit& m = f.best();
  std::string j = "{\"rows\": " + std::to_string(f.rows) + ", \"span_s\": " + fixed(f.span, 3);
  j += ", \"service_ms\": " + fixed(n.service_ms, 1) + ", \"service_ms_band\": " + band(m.service_band, 1);
  j += ", \"cold_start\": " + std::string(f.cold ? "true" : "false");
  j += ", \"cold_factor\": " + fixed(n.cold_factor, 2) + ", \"cold_factor_band\": " + (f.cold ? band(m.cold_band, 2) : "[1.00, 1.00]");
  j += ", \"warm_by\": " + std::string(n.by_requests ? "\"requests\"" : "\"time\"");
  j += ", \"warmup\": " + fixed(n.warmup, 1) + ", \"warmup_band\": " + (f.cold ? band(f.time.warmup_band, 1) : "[0.0, 0.0]");
  j += ", \"warmup_requests\": " + fixed(n.warmup_requests, 0) +
       ", \"warmup_requests_band\": " + (f.cold ? band(f.requests.warmup_band, 0) : "[1, 1]");
  j += ", \"better\": " + std::string(!f.cold || !f.decided ? "null" : f.by_requests ? "\"requests\"" : "\"time\"");
  j += ", \"log_likelihood_gap\": " + fixed(f.likelihood_gap, 1);
  j += ", \"queue_correlation\": " + fixed(f.queue_correlation, 2);
  j += ", \"resamples\": " + std::to_string(f.resamples);
  j += ", \"options\": " + json_string(fit_options(f)) + "}\n";
  return j;
}

Problem read_file(const FileReader& read, const std::string& path, std::string& text) {
  if (Problem p = read(path, kMaxScriptBytes + 1, text)) return p;
  if (text.size() > kMaxScriptBytes)
    return "'" + path + "' too large: more than " + count_text(static_cast<double>(kMaxScriptBytes)) + " bytes (at most " +
           count_text(static_cast<double>(kMaxScriptBytes)) + ")";
  return std::nullopt;
}

int run_fit(const std::vector<std::string>& args, const FileReader& read, std::string& out, std::string& err) {
  FitArgs a;
  if (Problem p = parse_fit_args(args, a)) {
    err += "slowstart fit: " + *p + '\n';
    return 2;
  }
  if (a.help) {
    out += kFitUsage;
    return 0;
  }
  std::string text;
  if (Problem p = read_file(read, a.path, text)) {
    err += "slowstart: " + *p + '\n';
    return 2;
  }
  CanaryLog log;
  std::string problem;
  if (!read_canary(text, a.log ? &a.access : nullptr, log, problem)) {
    const std::string name = a.path.empty() || a.path == "-" ? "<stdin>" : a.path;
    err += "slowstart fit: " + name + ": " + problem + '\n';
    return 2;
  }
  if (a.convert) {
    out += convert(log);
    return 0;
  }
  const ColdFit f = fit_cold_start(log, a.seed);
  if (!f.refused.empty()) {
    err += "slowstart fit: cannot decide: " + f.refused + '\n';
    if (a.json) out += fit_json(f);
    return 1;
  }
  err += fit_summary(f, log);
  out += a.json ? fit_json(f) : fit_options(f) + '\n';
  return 0;
}

}  // namespace slowstart::system
