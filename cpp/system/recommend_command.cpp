#include "system/recommend_command.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/args.hpp"
#include "system/config_text.hpp"
#include "system/emit_config.hpp"
#include "system/recommend.hpp"
#include "system/simulate_from.hpp"
#include "system/yaml_tree.hpp"

namespace slowstart::system {

const char* const kRecommendUsage =
    "usage: slowstart recommend [options] [SCRIPT | -]\n"
    "\n"
    "Searches for the shortest slow-start window under which the script (a\n"
    "restart, a rolling deploy) goes by with no ejection and no error a client\n"
    "sees, across the cold start's bands (pushed a margin past their highs),\n"
    "the load +-10 % and the slower warm service time. Every number is a\n"
    "`slowstart simulate` run: the report says which.\n"
    "\n"
    "options (and every simulate option: the scenario):\n"
    "  --from FILE          the proxy's configuration (simulate --from; also\n"
    "                       --from-format, --from-pool)\n"
    "  --fit FILE           slowstart fit --json's object: the cold start and its bands\n"
    "  --service-ms-band LO,HI  --cold-factor-band LO,HI  --warmup-band LO,HI\n"
    "                       bands by hand (the warm-up's in requests when warming\n"
    "                       by requests); default: the value alone\n"
    "  --margin P           percent past the bands' highs to hold (default 20)\n"
    "  --load P             percent above and below the rate (default 10)\n"
    "  --max-window S       the longest window to try, seconds (default 3600)\n"
    "  --emit FORMAT        print the recommended settings as nginx, nginx-plus,\n"
    "                       haproxy, envoy, caddy or alb configuration (with\n"
    "                       --json: its \"emit\" string)\n"
    "  --json               one JSON object: window_s, the corners, the table, ...\n";

namespace {

constexpr double kRecommendBudget = 3e9;  // requests simulated in all

std::string fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

std::string json_text(std::string_view s) { return json_string(printable(s)); }

struct RecommendArgs {
  std::string fit_path;
  Band service{-1, -1}, cold{-1, -1}, warmup{-1, -1};
  double margin = 20, load = 10, max_window = 3600;
  bool json = false;
};

Problem band_of(const std::string& name, const std::string& text, Band& out) {
  const std::size_t comma = text.find(',');
  double lo = 0, hi = 0;
  if (comma == std::string::npos || !decimal_number(text.substr(0, comma), lo) ||
      !decimal_number(text.substr(comma + 1), hi) || lo > hi)
    return name + " takes LO,HI (two numbers, LO not above HI), got " + quote(text);
  out = Band{lo, hi};
  return std::nullopt;
}

Problem take_recommend_args(std::vector<std::string>& args, RecommendArgs& out) {
  std::vector<std::string> rest;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--") {
      rest.insert(rest.end(), args.begin() + static_cast<std::ptrdiff_t>(i), args.end());
      break;
    }
    std::string name = a, value;
    bool attached = false;
    if (const std::size_t eq = a.find('='); a.rfind("--", 0) == 0 && eq != std::string::npos)
      name = a.substr(0, eq), value = a.substr(eq + 1), attached = true;
    const auto take = [&]() -> Problem {
      if (attached) return std::nullopt;
      if (i + 1 >= args.size()) return name + " needs a value";
      value = args[++i];
      return std::nullopt;
    };
    const auto percent = [&](double& v) -> Problem {
      if (Problem p = take()) return p;
      if (!decimal_number(value, v) || v > 1000) return name + " takes a percent, 0 to 1000, got " + quote(value);
      return std::nullopt;
    };
    if (name == "--fit") {
      if (Problem p = take()) return p;
      out.fit_path = value;
    } else if (name == "--service-ms-band" || name == "--cold-factor-band" || name == "--warmup-band") {
      if (Problem p = take()) return p;
      Band& b = name == "--service-ms-band" ? out.service : name == "--cold-factor-band" ? out.cold : out.warmup;
      if (Problem p = band_of(name, value, b)) return p;
    } else if (name == "--margin") {
      if (Problem p = percent(out.margin)) return p;
    } else if (name == "--load") {
      if (Problem p = percent(out.load)) return p;
      if (out.load >= 100) return std::string("--load must be below 100 (percent)");
    } else if (name == "--max-window") {
      if (Problem p = take()) return p;
      std::uint64_t s = 0;
      if (!whole_number(value, 100'000, s) || s == 0) return "--max-window takes whole seconds, 1 to 100000, got " + quote(value);
      out.max_window = static_cast<double>(s);
    } else if (name == "--json") {
      if (attached) return std::string("--json takes no value");
      out.json = true;
    } else if (name == "--slow-start" || name == "--no-slow-start") {
      return std::string("recommend chooses the slow-start window: leave ") + name + " out";
    } else {
      rest.push_back(a);
    }
  }
  args = std::move(rest);
  return std::nullopt;
}

// fit --json's object: the service model and its bands.
struct FitFile {
  double service = 0, cold = 1, warmup = 0, warmup_requests = 1;
  Band service_band, cold_band, warmup_band, requests_band;
  bool by_requests = false;
};

Problem read_fit(const std::string& path, const std::string& text, FitFile& out) {
  YamlNode n;
  YamlError e;
  if (!read_yaml(text, n, e)) return path + ":" + std::to_string(e.line) + ":" + std::to_string(e.column) + ": " + e.message;
  if (!n.is_map()) return path + ": not slowstart fit --json's object";
  if (const YamlNode* r = n.get("refused")) return path + ": the fit refused: " + (r->is_scalar() ? r->text : "");
  const auto number = [&](const char* key, double& v) -> Problem {
    const YamlNode* x = n.get(key);
    if (!x || !x->is_scalar() || !parse_real(x->text, v)) return path + ": no number " + key + " (slowstart fit --json's object?)";
    return std::nullopt;
  };
  const auto band = [&](const char* key, Band& b) -> Problem {
    const YamlNode* x = n.get(key);
    if (!x || !x->is_seq() || x->seq.size() != 2 || !x->seq[0].is_scalar() || !x->seq[1].is_scalar() ||
        !parse_real(x->seq[0].text, b.lo) || !parse_real(x->seq[1].text, b.hi))
      return path + ": no band " + key + " ([low, high])";
    return std::nullopt;
  };
  for (const auto& [key, v] : {std::pair{"service_ms", &out.service}, {"cold_factor", &out.cold}, {"warmup", &out.warmup},
                               {"warmup_requests", &out.warmup_requests}})
    if (Problem p = number(key, *v)) return p;
  for (const auto& [key, b] : {std::pair{"service_ms_band", &out.service_band}, {"cold_factor_band", &out.cold_band},
                               {"warmup_band", &out.warmup_band}, {"warmup_requests_band", &out.requests_band}})
    if (Problem p = band(key, *b)) return p;
  const YamlNode* by = n.get("warm_by");
  out.by_requests = by && by->is_scalar() && by->text == "requests";
  return std::nullopt;
}

std::string counts(const Outcome& o) {
  if (o.ok() && o.failed_attempts == 0) return "no ejection, no failure";
  std::string s = std::to_string(o.ejections) + (o.ejections == 1 ? " ejection, " : " ejections, ");
  s += std::to_string(o.failed_attempts) + " requests timed out (" + std::to_string(o.client_errors) + " seen by clients)";
  return s;
}

std::string outcome_json(const Outcome& o) {
  return "{\"ejections\": " + std::to_string(o.ejections) + ", \"client_errors\": " + std::to_string(o.client_errors) +
         ", \"failed_attempts\": " + std::to_string(o.failed_attempts) + ", \"requests\": " + std::to_string(o.requests) + "}";
}

std::string command_line(const std::vector<std::string>& args) {
  std::string s;
  for (const std::string& a : args) {
    const bool plain = !a.empty() && a.find_first_of(" \t'\"\\$`!*?;&|<>()[]{}#~") == std::string::npos;
    s += (s.empty() ? "" : " ") + (plain ? a : "'" + a + "'");
  }
  return s;
}

}  // namespace

int run_recommend(const std::vector<std::string>& given, const FileReader& read, std::string& out, std::string& err) {
  std::vector<std::string> args = given;
  if (std::find(args.begin(), args.end(), "--help") != args.end() || std::find(args.begin(), args.end(), "-h") != args.end()) {
    out += kRecommendUsage;
    return 0;
  }
  const auto fail = [&](const std::string& message) {
    err += "slowstart recommend: " + message + '\n';
    return 2;
  };
  RecommendArgs ra;
  if (Problem p = take_recommend_args(args, ra)) return fail(*p);
  SystemArgs sa;
  if (Problem p = take_system_args(args, sa)) return fail(*p);
  for (const std::string& a : args)
    if (a == "--slow-start" || a.rfind("--slow-start=", 0) == 0 || a == "--no-slow-start")
      return fail("recommend chooses the slow-start window: leave " + a.substr(0, a.find('=')) + " out");
  if (sa.explain) return fail("--explain is simulate's");
  FromFile from;
  std::string problem;
  if (!sa.from.empty() && !read_from(sa, read, from, problem)) {
    err += problem + '\n';
    return 2;
  }
  const FromFile* f = sa.from.empty() ? nullptr : &from;
  Prepared p;
  if (!prepare(f, args, read, p, problem)) {
    err += problem + '\n';
    return 2;
  }
  TrafficOptions base = p.sim.options;
  base.service.enabled = true;
  const bool by_requests_opt = base.service.warm_by == WarmBy::Requests;
  // The cold start and its bands: the fit's, the options', the band flags'.
  Uncertainty u;
  u.margin = ra.margin, u.load = ra.load;
  bool by_requests = by_requests_opt;
  if (!ra.fit_path.empty()) {
    std::string text;
    if (Problem q = read_file(read, ra.fit_path, text)) return fail(*q);
    FitFile fit;
    if (Problem q = read_fit(ra.fit_path, text, fit)) return fail(*q);
    by_requests = fit.by_requests;
    base.service.base_ms = fit.service;
    base.service.cold_factor = fit.cold;
    base.service.warm_by = by_requests ? WarmBy::Requests : WarmBy::Time;
    base.service.warmup = fit.warmup;
    base.service.warmup_requests = fit.warmup_requests;
    u.service_ms = fit.service_band, u.cold_factor = fit.cold_band;
    u.warmup = by_requests ? fit.requests_band : fit.warmup_band;
  } else {
    u.service_ms = {base.service.base_ms, base.service.base_ms};
    u.cold_factor = {base.service.cold_factor, base.service.cold_factor};
    const double w = by_requests ? base.service.warmup_requests : base.service.warmup;
    u.warmup = {w, w};
  }
  if (ra.service.lo >= 0) u.service_ms = ra.service;
  if (ra.cold.lo >= 0) u.cold_factor = ra.cold;
  if (ra.warmup.lo >= 0) u.warmup = ra.warmup;
  if (!(u.service_ms.lo > 0)) return fail("the warm service time's band must be above 0 ms");
  if (u.cold_factor.lo < 1) return fail("the cold factor's band must be 1 or more");
  if (by_requests && u.warmup.lo < 1) return fail("the warm-up's band (requests) must be 1 or more");
  if (base.timeout_ms <= 0)
    return fail("the scenario has no timeout (--timeout-ms, or the file's): without one no request can fail, so "
                "there is no window to find; give the proxy's timeout");
  // Each run: the corner's model, the window as --slow-start (the balancer's rule decides which joins ramp).
  double simulated = 0;
  // The command that runs a corner: the file (when there is one) and the
  // command line as given (its script among them), then the corner's model.
  const double joined = last_join(p.body);
  const auto corner_args = [&](double window, const Corner& c) {
    std::vector<std::string> a = args;
    if (f) {
      std::vector<std::string> file = {"--from", f->path};
      if (!sa.from_format.empty()) file.insert(file.end(), {"--from-format", sa.from_format});
      if (!sa.from_pool.empty()) file.insert(file.end(), {"--from-pool", sa.from_pool});
      a.insert(a.begin(), file.begin(), file.end());
    }
    a.insert(a.end(), {"--service-ms", number_text(c.service_ms), "--cold-factor", number_text(c.cold_factor)});
    if (by_requests) a.insert(a.end(), {"--warm-by", "requests", "--warmup-requests", number_text(std::round(c.warmup))});
    else a.insert(a.end(), {"--warm-by", base.service.warm_by == WarmBy::Serving ? "serving" : "time", "--warmup", number_text(c.warmup)});
    a.insert(a.end(), {"--rps", number_text(c.rps)});
    // Window 0 is no slow start (--slow-start 0 would be the script's own ramps).
    if (window > 0) a.insert(a.end(), {"--slow-start", number_text(window)});
    else a.emplace_back("--no-slow-start");
    if (base.duration > 0 && run_until(base.duration, joined, window) != base.duration)
      a.insert(a.end(), {"--duration", number_text(run_until(base.duration, joined, window))});
    return a;
  };
  const Simulate simulate = [&](double window, const Corner& c) {
    Run run;
    TrafficOptions o = base;
    o.service.base_ms = c.service_ms;
    o.service.cold_factor = c.cold_factor;
    if (by_requests) o.service.warmup_requests = std::max(1.0, std::round(c.warmup));
    else o.service.warmup = c.warmup;
    o.rps = c.rps;
    o.duration = run_until(base.duration, joined, window);
    o.timeout_ms = base.timeout_ms * c.timeout_scale;
    if (c.check_scale != 1) {
      HealthCheck& h = o.health;
      const auto scale = [&](std::uint32_t& n) { n = static_cast<std::uint32_t>(std::ceil(n * c.check_scale)); };
      scale(h.max_fails), scale(h.error_limit), scale(h.consecutive_5xx);
    }
    // The window as the proxies configure it: the balancer's rule decides which joins ramp.
    o.slow_start_window = window;
    o.slow_start = window > 0;
    run.script = p.script;
    const TrafficResult r = simulate_traffic(run.script, o);
    if (r.problem) {
      run.problem = *r.problem;
      return run;
    }
    if (!r.diagnostics.empty()) {
      run.problem = "line " + std::to_string(r.diagnostics.front().line - p.prelude_lines) + ": " + r.diagnostics.front().message;
      return run;
    }
    run.outcome = outcome_of(r);
    simulated += static_cast<double>(run.outcome.requests);
    if (simulated > kRecommendBudget)
      run.problem = "the recommendation's runs passed 3,000,000,000 simulated requests in all: lower --rps or --duration";
    return run;
  };
  RecommendLimits limits;
  limits.max_window = ra.max_window;
  const Corner middle = middle_corner(u, base.rps);
  const Recommendation r = recommend(simulate, u, middle, base.timeout_ms, limits);
  if (r.problem) return fail(*r.problem);

  const Corner worst = worst_corner(u, base.rps);
  const std::vector<std::string> verify = corner_args(r.window_s, worst);
  const std::string unit = by_requests ? " requests" : " s";
  const int wd = by_requests ? 0 : 1;
  if (ra.json) {
    std::string j = "{\"window_s\": " + (r.found ? number_text(r.window_s) : std::string("null"));
    j += ", \"found\": " + std::string(r.found ? "true" : "false");
    j += ", \"margin_percent\": " + number_text(u.margin) + ", \"load_percent\": " + number_text(u.load);
    j += ", \"max_window_s\": " + number_text(r.max_window);
    j += ", \"warm_by\": " + std::string(by_requests ? "\"requests\"" : "\"time\"");
    j += ", \"bands\": {\"service_ms\": [" + number_text(u.service_ms.lo) + ", " + number_text(u.service_ms.hi) +
         "], \"cold_factor\": [" + number_text(u.cold_factor.lo) + ", " + number_text(worst.cold_factor) +
         "], \"warmup\": [" + number_text(u.warmup.lo) + ", " + number_text(worst.warmup) + "], \"rps\": [" +
         number_text(base.rps * (1 - u.load / 100)) + ", " + number_text(worst.rps) + "]}";
    j += ", \"without\": " + outcome_json(r.without.outcome);
    j += ", \"corners\": [";
    for (std::size_t i = 0; i < r.corners.size(); ++i) {
      const Corner& c = r.corners[i].corner;
      const std::vector<std::string> a = corner_args(r.window_s, c);
      j += std::string(i ? ", " : "") + "{\"service_ms\": " + number_text(c.service_ms) + ", \"cold_factor\": " +
           number_text(c.cold_factor) + ", \"warmup\": " + number_text(c.warmup) + ", \"rps\": " + number_text(c.rps) +
           ", \"outcome\": " + outcome_json(r.corners[i].outcome) + ", \"verify\": " +
           json_text("slowstart simulate " + command_line(a)) + "}";
    }
    j += "], \"sensitivity\": {\"windows\": [";
    for (std::size_t i = 0; i < r.table_windows.size(); ++i) j += (i ? ", " : "") + number_text(r.table_windows[i]);
    j += "], \"cold_factors\": [";
    for (std::size_t i = 0; i < r.table_cold.size(); ++i) j += (i ? ", " : "") + number_text(r.table_cold[i]);
    j += "], \"warmups\": [";
    for (std::size_t i = 0; i < r.table_warmup.size(); ++i) j += (i ? ", " : "") + number_text(r.table_warmup[i]);
    j += "], \"rps\": " + number_text(worst.rps) + ", \"outcomes\": [";
    for (std::size_t i = 0; i < r.table.size(); ++i) j += (i ? ", " : "") + outcome_json(r.table[i]);
    j += "]}, \"matters_more\": " + json_text(r.matters_more);
    j += ", \"longer_timeout\": " + outcome_json(r.longer_timeout) + ", \"looser_check\": " + outcome_json(r.looser_check);
    j += ", \"cold_request_ms\": " + fixed(r.cold_request_ms, 1);
    j += ", \"no_window\": " + (r.no_window.empty() ? std::string("null") : json_text(r.no_window));
    j += ", \"advice\": [";
    for (std::size_t i = 0; i < r.advice.size(); ++i) j += (i ? ", " : "") + json_text(r.advice[i]);
    j += "], \"options\": " + json_text(r.found ? "--slow-start " + number_text(r.window_s) : "");
    j += ", \"verify\": " + json_text("slowstart simulate " + command_line(verify));
    j += ", \"runs\": " + std::to_string(r.runs);
    if (!sa.emit.empty()) j += ", \"emit\": " + (r.found ? json_string(emit_text(sa.emit, f, p, r.window_s)) : std::string("null"));
    j += "}\n";
    out += j;
    return r.found ? 0 : 1;
  }
  // The report in words on standard error, the option on standard output
  // (as `slowstart fit` does): `simulate $(slowstart recommend ...)` works.
  std::string s;
  if (r.found)
    s += "slowstart recommend: a slow-start window of " + number_text(r.window_s) + " s\n";
  else
    s += "slowstart recommend: no window up to " + number_text(r.max_window) + " s helps\n  why: " + r.no_window + "\n";
  s += "  across: warm service " + fixed(u.service_ms.lo, 1) + " to " + fixed(u.service_ms.hi, 1) + " ms, cold factor " +
       fixed(u.cold_factor.lo, 2) + " to " + fixed(worst.cold_factor, 2) + ", warm-up " + fixed(u.warmup.lo, wd) +
       " to " + fixed(worst.warmup, wd) + unit + " (the highs " + number_text(u.margin) + " % past the bands'), load " +
       number_text(base.rps * (1 - u.load / 100)) + " to " + number_text(worst.rps) + " rps\n";
  s += "  without slow start (the bands' middle): " + counts(r.without.outcome) + "\n";
  s += "  at " + number_text(r.window_s) + " s, each corner:\n";
  for (const CornerOutcome& co : r.corners)
    s += "    cold " + fixed(co.corner.cold_factor, 2) + ", warm-up " + fixed(co.corner.warmup, wd) + unit + ", " +
         number_text(co.corner.rps) + " rps: " + counts(co.outcome) + "\n";
  s += "  ejections / requests seen failing by clients, at " + number_text(worst.rps) + " rps:\n";
  s += "    window   cold     warm-up: ";
  // A column as wide as its widest heading and a space ("371 requests" is
  // 12 characters: at 12 the headings ran together).
  std::size_t column = 12;
  for (const double w : r.table_warmup) column = std::max(column, (fixed(w, wd) + unit).size() + 1);
  for (const double w : r.table_warmup) {
    std::string cell = fixed(w, wd) + unit;
    cell.resize(column, ' ');
    s += cell;
  }
  while (s.back() == ' ') s.pop_back();
  s += "\n";
  std::size_t k = 0;
  for (const double w : r.table_windows)
    for (const double c : r.table_cold) {
      std::string row = "    " + number_text(w) + " s";
      row.resize(13, ' ');
      row += fixed(c, 2);
      row.resize(31, ' ');
      for (std::size_t x = 0; x < r.table_warmup.size(); ++x, ++k) {
        std::string cell = std::to_string(r.table[k].ejections) + " / " + std::to_string(r.table[k].client_errors);
        cell.resize(std::max(column, cell.size() + 1), ' ');
        row += cell;
      }
      while (!row.empty() && row.back() == ' ') row.pop_back();
      s += row + "\n";
    }
  const auto harm = [](const Outcome& o) {
    return std::to_string(o.ejections) + " ejections, " + std::to_string(o.failed_attempts) + " timed out";
  };
  s += "  without slow start, a timeout 1.5x longer: " + harm(r.longer_timeout) + "; a check twice as tolerant: " +
       harm(r.looser_check) + " (as is: " + harm(r.without.outcome) + ")";
  s += r.matters_more == "timeout" ? ": the timeout matters more\n"
       : r.matters_more == "check" ? ": the check's settings matter more\n"
       : r.matters_more == "both" ? ": both alike\n"
                                  : ": neither helps much\n";
  for (const std::string& a : r.advice) s += "  would help: " + a + "\n";
  s += "  check it: slowstart simulate " + command_line(verify) + "\n";
  err += s;
  if (r.found && !sa.emit.empty()) {
    out += "# slowstart recommend: a slow-start window of " + number_text(r.window_s) + " s, safe " + number_text(u.margin) +
           " % past the cold start's bands and at the load +-" + number_text(u.load) + " %\n";
    out += emit_text(sa.emit, f, p, r.window_s);
  } else if (r.found) {
    out += "--slow-start " + number_text(r.window_s) + "\n";
  }
  return r.found ? 0 : 1;
}

}  // namespace slowstart::system
