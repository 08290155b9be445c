#include "fast/decimal.hpp"
#include "traffic/traffic.hpp"

#include "fast/smooth_wrr.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <queue>

namespace slowstart {

Problem parse_policy(std::string_view text, Policy& out) {
  if (text == "wrr") out = Policy::SmoothWrr;
  else if (text == "least-request") out = Policy::LeastRequest;
  else return "policy must be wrr or least-request, got " + quote(text);
  return std::nullopt;
}

namespace {
std::string workers_problem() { return "workers must be between 1 and " + decimal(kMaxWorkers); }
}  // namespace

Problem set_workers(double workers, ServiceModel& service) {
  if (!(workers >= 1 && workers <= kMaxWorkers) || workers != std::floor(workers)) return workers_problem();
  service.workers = static_cast<std::uint32_t>(workers);
  return std::nullopt;
}

Problem check_traffic_options(const TrafficOptions& o) {
  if (!(o.rps > 0) || !std::isfinite(o.rps)) return std::string("rps must be a number above 0");
  if (!(o.duration >= 0) || !std::isfinite(o.duration))
    return std::string("duration must be a number of seconds, 0 or more");
  if (!(o.bucket > 0) || !std::isfinite(o.bucket))
    return std::string("bucket must be a number of seconds above 0");
  if (!(o.bias >= 0) || !std::isfinite(o.bias)) return std::string("bias must be a number, 0 or more");
  if (Problem p = check_curve(o.curve)) return p;
  const ServiceModel& s = o.service;
  if (s.enabled) {
    if (!(s.base_ms > 0) || !std::isfinite(s.base_ms))
      return std::string("service time must be a number of milliseconds above 0");
    if (!(s.cold_factor >= 1) || !std::isfinite(s.cold_factor))
      return std::string("cold factor must be a number, 1 or more");
    if (!(s.warmup >= 0) || !std::isfinite(s.warmup))
      return std::string("warm-up must be a number of seconds, 0 or more");
    if (s.workers < 1 || s.workers > kMaxWorkers) return workers_problem();
  }
  return std::nullopt;
}

namespace {

// Pass 1: the script's names, diagnostics and when the last ramp ends.
class ScanSink : public ScriptSink {
 public:
  void output(std::uint64_t, std::string_view) override {}
  void diagnostic(std::uint64_t line, std::string_view message, Span columns) override {
    diagnostics.push_back({line, std::string(message), columns});
  }
  void applied(std::uint64_t, const Command& cmd, const Pool& pool) override {
    const double now = static_cast<double>(pool.now());
    end = std::max(end, now);
    if (cmd.op == Op::Pool) {
      for (std::size_t i = 0; i < pool.size(); ++i) ids.id_of(pool.backend(i).name);
    } else if (cmd.op == Op::Add || cmd.op == Op::Up) {
      ids.id_of(cmd.name);
      end = std::max(end, now + static_cast<double>(cmd.seconds));
    }
  }
  std::vector<Diagnostic> diagnostics;
  NameIds ids;  // every backend the script names: the result's columns
  double end = 0;
};

// Pass 2: replays the scenario and routes every request.
//
// Every request goes through the engine's one pick (SmoothWrr, exact
// integer weights at the curve's resolution). A ramping backend's weight is
// the curve's at the request's millisecond; instead of recomputing it every
// millisecond, the simulation finds the next millisecond at which it
// changes (the curves never decrease) and waits for that.
class Simulator : public ScriptSink {
 public:
  Simulator(const TrafficOptions& o, const ScanSink& scan, TrafficResult& r)
      : o_(o), ids_(scan.ids), r_(r), n_ids_(scan.ids.names().size()) {
    active_.assign(n_ids_, 0);
    id_pos_.assign(n_ids_, kNone);
    warm_since_.assign(n_ids_, -std::numeric_limits<double>::infinity());
    if (o_.service.enabled) free_at_.assign(n_ids_ * o_.service.workers, 0.0);
    latency_sum_.assign(r_.buckets * n_ids_, 0.0);
    total_requests_ = static_cast<std::uint64_t>(std::floor(o_.duration * o_.rps));
    if (static_cast<double>(total_requests_) < o_.duration * o_.rps) ++total_requests_;
  }

  void output(std::uint64_t, std::string_view) override {}
  void diagnostic(std::uint64_t, std::string_view, Span) override {}

  void applied(std::uint64_t, const Command& cmd, const Pool& pool) override {
    // The scenario cannot go back in time: a change at an earlier clock
    // happens at the latest time reached (its ramp still counts from the
    // clock the script set).
    advance_to(static_cast<double>(pool.now()));
    sync(cmd, pool);
  }

  void finish() {
    advance_to(std::numeric_limits<double>::infinity());
    for (std::size_t k = 0; k < r_.buckets; ++k)
      for (std::size_t id = 0; id < n_ids_; ++id) {
        const std::size_t c = k * n_ids_ + id;
        r_.latency_ms[c] = r_.requests[c] ? latency_sum_[c] / r_.requests[c] : 0.0;
      }
  }

 private:
  // Least-request divides weights by (active + 1)^bias: kept in integers at
  // this finer scale, through the same pick.
  static constexpr double kRequestScale = 65536.0;

  // A backend whose weight changes at a millisecond `tick` (or at the next
  // request, for kNow).
  struct Change {
    std::int64_t tick;
    std::uint32_t pos, epoch;
    bool operator>(const Change& o) const { return tick > o.tick; }
  };
  static constexpr std::int64_t kNow = std::numeric_limits<std::int64_t>::min();

  // Takes the command's changes from the scenario's pool, which applied the
  // engine's rules: POOL starts over; ADD, DOWN, UP change one backend (ADD
  // appends a new name). Scores are the pool's after the change (a backend
  // that (re)joined starts with the pool's score on joining); the pool's own
  // picks (PICK lines) do not reach the simulation's.
  void sync(const Command& cmd, const Pool& pool) {
    if (cmd.op == Op::Pool) {
      for (std::uint32_t id : pos_id_) id_pos_[id] = kNone;
      const std::size_t n = pool.size();
      wrr_.reset(n);
      backends_.clear();
      pos_id_.clear();
      curve_.assign(n, 0);
      epoch_.assign(n, 0);
      changes_ = {};
      for (std::size_t i = 0; i < n; ++i) {
        backends_.push_back(pool.backend(i));
        pos_id_.push_back(ids_.find(backends_[i].name));
        id_pos_[pos_id_[i]] = static_cast<std::int32_t>(i);
        wrr_.set_score(i, pool.score(i));
        reweigh(i);
      }
      return;
    }
    if (cmd.op != Op::Add && cmd.op != Op::Down && cmd.op != Op::Up) return;
    const auto i = static_cast<std::size_t>(pool.find(cmd.name));
    if (i == backends_.size()) {  // ADD of a new name
      backends_.push_back(pool.backend(i));
      pos_id_.push_back(ids_.find(backends_[i].name));
      id_pos_[pos_id_[i]] = static_cast<std::int32_t>(i);
      wrr_.push_back();
      curve_.push_back(0);
      epoch_.push_back(0);
    }
    backends_[i] = pool.backend(i);
    if (cmd.op != Op::Down) {
      wrr_.set_score(i, pool.score(i));
      // (Re)joining: a cold start for the service model.
      warm_since_[pos_id_[i]] = static_cast<double>(pool.now());
    }
    reweigh(i);
  }

  bool may_ramp(const Backend& b) const {
    if (!b.up || !o_.slow_start || b.ramp == 0) return false;
    return !(o_.curve.kind == CurveKind::HAProxy && b.how != Joined::Up);
  }

  // Backend i changed: a fixed weight now, or a ramp weighed at the next request.
  void reweigh(std::size_t i) {
    ++epoch_[i];
    const Backend& b = backends_[i];
    if (may_ramp(b)) {
      changes_.push(Change{kNow, static_cast<std::uint32_t>(i), epoch_[i]});
    } else {
      curve_[i] = b.up ? b.target * o_.curve.resolution : 0;
      weigh(i);
    }
  }

  std::int64_t curve_at(const Backend& b, std::int64_t tick) const {
    return curve_weight_ms(o_.curve, b.target, b.ramp, tick - b.joined * 1000, b.how == Joined::Up);
  }

  // The ramps whose weight changes by `tick`: weighed at it, and the next
  // change found (gallop, then halve: the curve never decreases).
  void ramp_to(std::int64_t tick) {
    while (!changes_.empty() && changes_.top().tick <= tick) {
      const Change c = changes_.top();
      changes_.pop();
      if (c.epoch != epoch_[c.pos]) continue;
      const Backend& b = backends_[c.pos];
      const std::int64_t w = curve_[c.pos] = curve_at(b, tick);
      weigh(c.pos);
      const std::int64_t end = b.joined * 1000 + b.ramp * 1000;  // full weight from here on
      if (tick >= end) continue;
      std::int64_t same = tick, step = 1;
      while (same + step < end && curve_at(b, same + step) == w) same += step, step *= 2;
      std::int64_t differs = std::min(same + step, end);
      while (differs - same > 1) {
        const std::int64_t mid = same + (differs - same) / 2;
        (curve_at(b, mid) == w ? same : differs) = mid;
      }
      changes_.push(Change{differs, c.pos, c.epoch});
    }
  }

  // The weight the pick sees: the curve's, and for least-request divided by
  // (active + 1)^bias.
  void weigh(std::size_t i) {
    std::int64_t w = curve_[i];
    if (o_.policy == Policy::LeastRequest && w > 0) {
      const double a = static_cast<double>(active_[pos_id_[i]]) + 1.0;
      w = static_cast<std::int64_t>(static_cast<double>(w) * kRequestScale / (o_.bias == 1.0 ? a : std::pow(a, o_.bias)));
    }
    wrr_.set_weight(i, w);
  }

  void active_changed(std::uint32_t id) {
    if (o_.policy == Policy::LeastRequest && id_pos_[id] != kNone) weigh(static_cast<std::size_t>(id_pos_[id]));
  }

  void complete_until(double t) {
    while (!done_.empty() && done_.top().first <= t) {
      const std::uint32_t id = done_.top().second;
      done_.pop();
      --active_[id];
      active_changed(id);
    }
  }

  void serve(std::uint32_t id, double t, std::size_t cell) {
    const ServiceModel& s = o_.service;
    double* slots = &free_at_[static_cast<std::size_t>(id) * s.workers];
    double* slot = std::min_element(slots, slots + s.workers);
    const double start = std::max(t, *slot);
    double ms = s.base_ms;
    if (s.warmup > 0) {
      const double cold = std::max(0.0, 1.0 - (start - warm_since_[id]) / s.warmup);
      ms *= 1.0 + (s.cold_factor - 1.0) * cold;
    }
    const double end = start + ms / 1000.0;
    *slot = end;
    latency_sum_[cell] += (end - t) * 1000.0;
    ++active_[id];
    active_changed(id);
    done_.emplace(end, id);
  }

  // Request j arrives at j / rps; its bucket and millisecond.
  double arrival(std::uint64_t j) const { return static_cast<double>(j) / o_.rps; }
  std::size_t bucket_of(double t) const { return std::min(r_.buckets - 1, static_cast<std::size_t>(t / o_.bucket)); }
  static std::int64_t tick_of(double t) { return static_cast<std::int64_t>(std::floor(t * 1000.0)); }

  // Routing only (no service model): the requests of one millisecond share
  // their weights and their bucket, so they are picked in one tight run.
  void route_runs(double until) {
    while (next_ < total_requests_) {
      const double t = arrival(next_);
      if (t >= until) return;
      const std::size_t k = bucket_of(t);
      const std::int64_t tick = tick_of(t);
      if (!changes_.empty()) ramp_to(tick);
      // The run ends at the first request of another millisecond or bucket,
      // or at `until` (found from an estimate, then checked request by request).
      const auto same = [&](std::uint64_t j) {
        const double tj = arrival(j);
        return tj < until && tick_of(tj) == tick && bucket_of(tj) == k;
      };
      std::uint64_t end = std::min<std::uint64_t>(
          total_requests_, next_ + 1 + static_cast<std::uint64_t>(std::max(0.0, o_.rps / 1000.0 - 1.0)));
      while (end < total_requests_ && same(end)) ++end;
      while (end > next_ + 1 && !same(end - 1)) --end;
      const std::uint32_t* ids = pos_id_.data();
      std::uint32_t* counts = &r_.requests[k * n_ids_];
      std::uint32_t unrouted = 0;
      picks_.resize(static_cast<std::size_t>(end - next_));
      wrr_.pick_many(picks_.size(), picks_.data());
      for (const std::int32_t p : picks_) {
        if (p == kNone) ++unrouted;
        else ++counts[ids[p]];
      }
      r_.total[k] += static_cast<std::uint32_t>(end - next_);
      r_.unrouted[k] += unrouted;
      next_ = end;
    }
  }

  void advance_to(double until) {
    if (!o_.service.enabled) return route_runs(until);
    const double rps = o_.rps;
    const std::size_t samples_per_bucket = 10;
    while (next_ < total_requests_) {
      const double t = static_cast<double>(next_) / rps;
      if (t >= until) return;
      const auto k = bucket_of(t);
      if (o_.service.enabled) {
        complete_until(t);
        // Sample outstanding requests at fixed points of each bucket.
        const auto sample = static_cast<std::uint64_t>(t / (o_.bucket / samples_per_bucket));
        if (sample != last_sample_) {
          last_sample_ = sample;
          const auto sk = static_cast<std::size_t>(sample / samples_per_bucket);
          if (sk < r_.buckets) {
            for (std::size_t id = 0; id < n_ids_; ++id)
              r_.outstanding[sk * n_ids_ + id] += static_cast<double>(active_[id]) / samples_per_bucket;
          }
        }
      }
      // Ramps are weighed at the request's millisecond (the clock resolution
      // of nginx and Envoy).
      if (!changes_.empty()) ramp_to(tick_of(t));
      const std::int32_t p = wrr_.pick();
      ++r_.total[k];
      if (p == kNone) {
        ++r_.unrouted[k];
      } else {
        const std::uint32_t id = pos_id_[static_cast<std::size_t>(p)];
        const std::size_t cell = k * n_ids_ + id;
        ++r_.requests[cell];
        if (o_.service.enabled) serve(id, t, cell);
      }
      ++next_;
    }
  }

  const TrafficOptions& o_;
  const NameIds& ids_;
  TrafficResult& r_;
  std::size_t n_ids_;

  // Position-aligned with the pool.
  std::vector<Backend> backends_;
  std::vector<std::uint32_t> pos_id_;
  std::vector<std::int64_t> curve_;   // the curve's weight (before least-request's division)
  std::vector<std::uint32_t> epoch_;  // bumped when a backend changes: older Changes are void
  SmoothWrr wrr_;                     // the pick, with the weights it sees
  std::vector<std::int32_t> picks_;   // one millisecond's winners
  std::priority_queue<Change, std::vector<Change>, std::greater<>> changes_;

  // By backend id (survive POOL).
  std::vector<std::uint32_t> active_;
  std::vector<std::int32_t> id_pos_;  // its position now, or kNone
  std::vector<double> warm_since_;
  std::vector<double> free_at_;  // workers' next free time, `workers` per id
  std::vector<double> latency_sum_;
  std::priority_queue<std::pair<double, std::uint32_t>, std::vector<std::pair<double, std::uint32_t>>,
                      std::greater<>>
      done_;

  std::uint64_t next_ = 0, total_requests_ = 0;
  std::uint64_t last_sample_ = std::numeric_limits<std::uint64_t>::max();
};

}  // namespace

TrafficResult simulate_traffic(std::string_view script, const TrafficOptions& options) {
  TrafficResult r;
  if ((r.problem = check_traffic_options(options))) return r;
  // The script's own pool only says who is in it and since when: its rules
  // are the curve's plain ones (no pick index to keep up; the simulation
  // weighs and picks itself).
  CurveRules rules(options.curve);
  ScanSink scan;
  {
    Interpreter in(scan);
    in.set_rules(&rules);
    in.feed_text(script);
  }
  r.diagnostics = std::move(scan.diagnostics);
  r.names = scan.ids.names();
  TrafficOptions o = options;
  if (o.duration == 0) o.duration = scan.end + 10.0;
  const double requests = o.duration * o.rps;
  const double buckets = std::ceil(o.duration / o.bucket);
  if (requests > kMaxSimRequests) {
    r.problem = "simulation too large: " + decimal(static_cast<std::int64_t>(requests)) + " requests (at most " +
                decimal(static_cast<std::int64_t>(kMaxSimRequests)) + "); lower rps or duration";
    return r;
  }
  if (buckets * static_cast<double>(std::max<std::size_t>(1, r.names.size())) > kMaxSimCells) {
    r.problem = "simulation too large: too many buckets x backends; widen the bucket";
    return r;
  }
  r.duration = o.duration;
  r.bucket = o.bucket;
  r.buckets = static_cast<std::size_t>(std::max(1.0, buckets));
  const std::size_t cells = r.buckets * r.names.size();
  r.requests.assign(cells, 0);
  r.outstanding.assign(cells, 0.0);
  r.latency_ms.assign(cells, 0.0);
  r.unrouted.assign(r.buckets, 0);
  r.total.assign(r.buckets, 0);
  Simulator sim(o, scan, r);
  {
    Interpreter in(sim);
    in.set_rules(&rules);
    in.feed_text(script);
  }
  sim.finish();
  return r;
}

}  // namespace slowstart
