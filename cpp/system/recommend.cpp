#include "system/recommend.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/interpreter.hpp"

namespace slowstart::system {

namespace {

std::string two_decimals(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  return buf;
}

std::string ms_text(double ms) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0f", std::ceil(ms));
  return buf;
}

// The harm a run did: every timed-out attempt (a client waited for it) and
// every ejection (a backend out), for comparing variants.
std::uint64_t harm(const Outcome& o) { return o.failed_attempts + o.client_errors + 100 * o.ejections; }

}  // namespace

Corner middle_corner(const Uncertainty& u, double rps) {
  Corner c;
  c.service_ms = (u.service_ms.lo + u.service_ms.hi) / 2;
  c.cold_factor = (u.cold_factor.lo + u.cold_factor.hi) / 2;
  c.warmup = (u.warmup.lo + u.warmup.hi) / 2;
  c.rps = rps;
  return c;
}

Corner worst_corner(const Uncertainty& u, double rps) {
  Corner c;
  const double m = 1 + u.margin / 100;
  c.service_ms = u.service_ms.hi;
  c.cold_factor = 1 + (u.cold_factor.hi - 1) * m;
  c.warmup = u.warmup.hi * m;
  c.rps = rps * (1 + u.load / 100);
  return c;
}

Outcome outcome_of(const TrafficResult& r) {
  Outcome o;
  std::uint64_t retried = 0;
  for (const std::uint32_t e : r.ejections) o.ejections += e;
  for (const std::uint32_t f : r.failed) o.failed_attempts += f;
  for (const std::uint32_t x : r.retried) retried += x;
  std::uint64_t unrouted = 0;
  for (const std::uint32_t x : r.unrouted) unrouted += x;
  for (const std::uint32_t x : r.total) o.requests += x;
  o.client_errors = o.failed_attempts - std::min(retried, o.failed_attempts) + unrouted;
  return o;
}

namespace {
// When the script's last join or recovery starts its ramp.
class LastJoin : public ScriptSink {
 public:
  void output(std::uint64_t, std::string_view) override {}
  void diagnostic(std::uint64_t, std::string_view, Span) override {}
  void applied(std::uint64_t, const Command& cmd, const Pool&) override {
    if (cmd.op == Op::Now) now = static_cast<double>(cmd.seconds);
    if (cmd.op == Op::Add || cmd.op == Op::Up) last = std::max(last, now);
  }
  double now = 0, last = 0;
};
}  // namespace

double last_join(std::string_view script) {
  LastJoin sink;
  Interpreter in(sink);
  in.feed_text(script);
  in.finish();
  return sink.last;
}

double run_until(double duration, double last_join_s, double window) {
  if (duration == 0) return 0;
  return std::max(duration, last_join_s + window + 10);
}

Recommendation recommend(const Simulate& simulate, const Uncertainty& u, const Corner& middle, double timeout_ms,
                         const RecommendLimits& limits) {
  Recommendation r;
  r.max_window = limits.max_window;
  const auto run = [&](double window, const Corner& c, Outcome& out) {
    if (r.problem) return false;
    if (r.runs >= limits.max_runs) {
      r.problem = "more than " + std::to_string(limits.max_runs) + " runs: stopped";
      return false;
    }
    ++r.runs;
    const Run x = simulate(window, c);
    if (x.problem) {
      r.problem = x.problem;
      return false;
    }
    out = x.outcome;
    return true;
  };
  const Corner worst = worst_corner(u, middle.rps);
  r.cold_request_ms = worst.service_ms * worst.cold_factor;
  r.without.corner = middle;
  if (!run(0, middle, r.without.outcome)) return r;

  // The search, on the worst corner: the shortest whole-second window that passes.
  Outcome o;
  const auto passes = [&](double w) { return run(w, worst, o) && o.ok(); };
  double found = -1;
  if (passes(0)) {
    found = 0;
  } else if (!r.problem && passes(limits.max_window)) {
    double lo = 0, hi = limits.max_window;  // lo fails, hi passes
    while (hi - lo > 1 && !r.problem) {
      const double mid = std::floor((lo + hi) / 2);
      (passes(mid) ? hi : lo) = mid;
    }
    found = hi;
  }
  if (r.problem) return r;

  // Every corner at the window (longer when one fails: the assumption that
  // longer is never worse may not hold for every corner).
  const double m = 1 + u.margin / 100;
  const double cold_hi = 1 + (u.cold_factor.hi - 1) * m, warm_hi = u.warmup.hi * m;
  std::vector<Corner> corners;
  for (const double cold : {u.cold_factor.lo, cold_hi})
    for (const double warm : {u.warmup.lo, warm_hi})
      for (const double load : {1 - u.load / 100, 1 + u.load / 100}) {
        Corner c;
        c.service_ms = u.service_ms.hi, c.cold_factor = cold, c.warmup = warm, c.rps = middle.rps * load;
        corners.push_back(c);
      }
  while (found >= 0) {
    r.corners.clear();
    bool all = true;
    for (const Corner& c : corners) {
      CornerOutcome co{c, {}};
      if (!run(found, c, co.outcome)) return r;
      all &= co.outcome.ok();
      r.corners.push_back(co);
    }
    if (all) break;
    if (found >= limits.max_window) {
      found = -1;
      break;
    }
    found = std::min(limits.max_window, std::max(found + 1, std::ceil(found * 1.25)));
  }
  r.found = found >= 0;
  r.window_s = r.found ? found : limits.max_window;

  // The table around it.
  const double w = r.window_s;
  // No window needed: 0 and two common ones (a table of 1800 and 3600 s would
  // say nothing more and cost hours of simulated traffic). None found: how
  // the longest ones fare too.
  if (r.found && w > 0) r.table_windows = {std::floor(w / 2), w, std::min(limits.max_window, 2 * w)};
  else if (r.found) r.table_windows = {0, std::min(limits.max_window, 10.0), std::min(limits.max_window, 30.0)};
  else r.table_windows = {0, std::floor(limits.max_window / 2), limits.max_window};
  r.table_cold = {u.cold_factor.lo, (u.cold_factor.lo + cold_hi) / 2, cold_hi};
  r.table_warmup = {u.warmup.lo, (u.warmup.lo + warm_hi) / 2, warm_hi};
  for (const double tw : r.table_windows)
    for (const double cold : r.table_cold)
      for (const double warm : r.table_warmup) {
        Corner c = worst;
        c.cold_factor = cold, c.warmup = warm;
        Outcome t;
        if (!run(tw, c, t)) return r;
        r.table.push_back(t);
      }

  // What matters more without slow start: a longer timeout, or a looser check.
  Corner longer = middle, looser = middle;
  longer.timeout_scale = 1.5;
  looser.check_scale = 2;
  if (!run(0, longer, r.longer_timeout) || !run(0, looser, r.looser_check)) return r;
  const std::uint64_t base = harm(r.without.outcome), t = harm(r.longer_timeout), c = harm(r.looser_check);
  r.matters_more = t < c && t < base ? "timeout" : c < t && c < base ? "check" : t == c && t < base ? "both" : "neither";

  // When no window helps: why, and what would.
  if (!r.found) {
    if (timeout_ms > 0 && worst.service_ms >= timeout_ms) {
      // Not a cold start at all: a warm request misses the timeout too, so
      // pre-warming would not help either.
      r.no_window = "even a warm request takes " + ms_text(worst.service_ms) + " ms, longer than the " + ms_text(timeout_ms) +
                    " ms timeout: every request fails, warm or cold";
      r.advice.push_back("a timeout above " + ms_text(worst.service_ms * 1.2) + " ms");
    } else if (timeout_ms > 0 && r.cold_request_ms > timeout_ms) {
      r.no_window = "a cold request takes " + ms_text(r.cold_request_ms) + " ms (" + ms_text(worst.service_ms) +
                    " ms warm x cold factor " + two_decimals(worst.cold_factor) +
                    "), longer than the " + ms_text(timeout_ms) +
                    " ms timeout: every request a cold backend gets fails, however few slow start sends it";
      r.advice.push_back("pre-warm the backend before it is marked ready (send it warm-up requests first, so that "
                         "it joins warm)");
      r.advice.push_back("a timeout above " + ms_text(r.cold_request_ms * 1.2) + " ms");
    } else {
      Corner warm = worst;
      warm.cold_factor = 1;
      Outcome o2;
      if (!run(0, warm, o2)) return r;
      if (!o2.ok()) {
        r.no_window = "the pool fails even warm at this load (+" + std::to_string(static_cast<int>(u.load)) +
                      " %): it lacks capacity, and no window adds any";
        r.advice.push_back("more backends or workers, or less load");
      } else {
        r.no_window = "no window up to " + std::to_string(static_cast<long long>(limits.max_window)) +
                      " s keeps every request and every backend in at the worst corner";
        r.advice.push_back(r.matters_more == "check" ? "a looser health check (more failures before ejecting)"
                                                     : "a longer timeout");
        r.advice.push_back("pre-warming before readiness");
      }
    }
  }
  return r;
}

}  // namespace slowstart::system
