#include "decimal.hpp"
#include "traffic.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <queue>
#include <unordered_map>

namespace slowstart {

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
    if (s.workers < 1 || s.workers > 10'000) return std::string("workers must be between 1 and 10000");
  }
  return std::nullopt;
}

namespace {

// Pass 1: the script's names, diagnostics and when the last ramp ends.
class ScanSink : public ScriptSink {
 public:
  void output(std::uint64_t, std::string_view) override {}
  void diagnostic(std::uint64_t line, std::string_view message) override {
    diagnostics.push_back({line, std::string(message)});
  }
  void applied(std::uint64_t, const Command& cmd, const Pool& pool) override {
    const double now = static_cast<double>(pool.now());
    end = std::max(end, now);
    if (cmd.op == Op::Pool) {
      for (std::size_t i = 0; i < pool.size(); ++i) id_of(pool.backend(i).name);
    } else if (cmd.op == Op::Add || cmd.op == Op::Up) {
      id_of(cmd.name);
      end = std::max(end, now + static_cast<double>(cmd.seconds));
    }
  }
  std::uint32_t id_of(const std::string& name) {
    auto [it, inserted] = ids.try_emplace(name, static_cast<std::uint32_t>(names.size()));
    if (inserted) names.push_back(name);
    return it->second;
  }
  std::vector<Diagnostic> diagnostics;
  std::vector<std::string> names;
  std::unordered_map<std::string, std::uint32_t> ids;
  double end = 0;
};

// Pass 2: replays the scenario and routes every request.
class Simulator : public ScriptSink {
 public:
  Simulator(const TrafficOptions& o, const ScanSink& scan, TrafficResult& r)
      : o_(o), ids_(scan.ids), r_(r), n_ids_(scan.names.size()) {
    active_.assign(n_ids_, 0);
    warm_since_.assign(n_ids_, -std::numeric_limits<double>::infinity());
    if (o_.service.enabled) free_at_.assign(n_ids_ * o_.service.workers, 0.0);
    latency_sum_.assign(r_.buckets * n_ids_, 0.0);
    total_requests_ = static_cast<std::uint64_t>(std::floor(o_.duration * o_.rps));
    if (static_cast<double>(total_requests_) < o_.duration * o_.rps) ++total_requests_;
  }

  void output(std::uint64_t, std::string_view) override {}
  void diagnostic(std::uint64_t, std::string_view) override {}

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
  // Copies the pool into position-aligned arrays; resets the scores the
  // command resets (ADD and UP: that backend; POOL: all).
  void sync(const Command& cmd, const Pool& pool) {
    const std::size_t n = pool.size();
    if (cmd.op == Op::Pool) {
      iscore_.assign(n, 0);
      dscore_.assign(n, 0.0);
    } else {
      iscore_.resize(n, 0);
      dscore_.resize(n, 0.0);
    }
    pos_id_.resize(n);
    backends_.resize(n);
    weights_.resize(n);
    ramping_.clear();
    next_refresh_ = -std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < n; ++i) {
      backends_[i] = pool.backend(i);
      pos_id_[i] = ids_.at(backends_[i].name);
    }
    if (cmd.op == Op::Add || cmd.op == Op::Up) {
      const auto i = static_cast<std::size_t>(pool.find(cmd.name));
      iscore_[i] = 0;
      dscore_[i] = 0.0;
      // (Re)joining: a cold start for the service model.
      warm_since_[pos_id_[i]] = static_cast<double>(pool.now());
    }
    for (std::size_t i = 0; i < n; ++i) {
      const Backend& b = backends_[i];
      if (may_ramp(b)) ramping_.push_back(static_cast<std::uint32_t>(i));
      else weights_[i] = b.up ? b.target * o_.curve.resolution : 0;
    }
  }

  bool may_ramp(const Backend& b) const {
    if (!b.up || !o_.slow_start || b.ramp == 0) return false;
    return !(o_.curve.kind == CurveKind::HAProxy && b.how != Joined::Up);
  }

  void refresh_ramping(double t) {
    std::size_t keep = 0;
    for (std::uint32_t i : ramping_) {
      const Backend& b = backends_[i];
      const double elapsed = t - static_cast<double>(b.joined);
      weights_[i] = curve_weight(o_.curve, b.target, b.ramp, elapsed, b.how == Joined::Up);
      if (elapsed < static_cast<double>(b.ramp)) ramping_[keep++] = i;  // still ramping
    }
    ramping_.resize(keep);
  }

  std::int32_t pick_least_request() {
    // Envoy: a host's weight is divided by (active + 1)^bias; the slow-start
    // factor is already in weights_. Proportional choice by smooth WRR on the
    // resulting real-valued weights (deterministic, like the rest).
    std::int32_t best = kNone;
    double best_score = 0, total = 0;
    for (std::size_t i = 0; i < weights_.size(); ++i) {
      if (weights_[i] <= 0) continue;
      const double a = static_cast<double>(active_[pos_id_[i]]) + 1.0;
      const double w = static_cast<double>(weights_[i]) / (o_.bias == 1.0 ? a : std::pow(a, o_.bias));
      dscore_[i] += w;
      total += w;
      if (best == kNone || dscore_[i] > best_score) {
        best = static_cast<std::int32_t>(i);
        best_score = dscore_[i];
      }
    }
    if (best != kNone) dscore_[best] -= total;
    return best;
  }

  void complete_until(double t) {
    while (!done_.empty() && done_.top().first <= t) {
      --active_[done_.top().second];
      done_.pop();
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
    done_.emplace(end, id);
  }

  void advance_to(double until) {
    const double rps = o_.rps;
    const std::size_t samples_per_bucket = 10;
    while (next_ < total_requests_) {
      const double t = static_cast<double>(next_) / rps;
      if (t >= until) return;
      const auto k = std::min(r_.buckets - 1, static_cast<std::size_t>(t / o_.bucket));
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
      // Ramping weights are recomputed once per millisecond of simulated time
      // (the clock resolution of nginx and Envoy), not per request.
      if (!ramping_.empty() && t >= next_refresh_) {
        refresh_ramping(t);
        next_refresh_ = t + 0.001;
      }
      const std::int32_t p = o_.policy == Policy::LeastRequest
                                 ? pick_least_request()
                                 : smooth_pick(weights_.data(), iscore_.data(), weights_.size());
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
  const std::unordered_map<std::string, std::uint32_t>& ids_;
  TrafficResult& r_;
  std::size_t n_ids_;

  // Position-aligned with the pool.
  std::vector<Backend> backends_;
  std::vector<std::uint32_t> pos_id_;
  std::vector<std::int64_t> weights_;
  std::vector<std::int64_t> iscore_;  // smooth WRR
  std::vector<double> dscore_;        // least-request
  std::vector<std::uint32_t> ramping_;

  // By backend id (survive POOL).
  std::vector<std::uint32_t> active_;
  std::vector<double> warm_since_;
  std::vector<double> free_at_;  // workers' next free time, `workers` per id
  std::vector<double> latency_sum_;
  std::priority_queue<std::pair<double, std::uint32_t>, std::vector<std::pair<double, std::uint32_t>>,
                      std::greater<>>
      done_;

  std::uint64_t next_ = 0, total_requests_ = 0;
  double next_refresh_ = -std::numeric_limits<double>::infinity();
  std::uint64_t last_sample_ = std::numeric_limits<std::uint64_t>::max();
};

}  // namespace

TrafficResult simulate_traffic(std::string_view script, const TrafficOptions& options) {
  TrafficResult r;
  if (Problem p = check_traffic_options(options)) {
    r.diagnostics.push_back({0, *p});
    return r;
  }
  ScanSink scan;
  {
    Interpreter in(scan);
    in.feed_text(script);
  }
  r.diagnostics = std::move(scan.diagnostics);
  r.names = scan.names;
  TrafficOptions o = options;
  if (o.duration == 0) o.duration = scan.end + 10.0;
  const double requests = o.duration * o.rps;
  const double buckets = std::ceil(o.duration / o.bucket);
  if (requests > kMaxSimRequests) {
    r.diagnostics.push_back({0, "simulation too large: " + decimal(static_cast<std::int64_t>(requests)) +
                                    " requests (at most 200000000); lower rps or duration"});
    return r;
  }
  if (buckets * static_cast<double>(std::max<std::size_t>(1, r.names.size())) > kMaxSimCells) {
    r.diagnostics.push_back({0, "simulation too large: too many buckets x backends; widen the bucket"});
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
    in.feed_text(script);
  }
  sim.finish();
  return r;
}

}  // namespace slowstart
