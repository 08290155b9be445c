#include "fast/decimal.hpp"
#include "traffic/traffic.hpp"

#include "core/split_mix64.hpp"
#include "fast/smooth_wrr.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <queue>

namespace slowstart {

__extension__ using i128 = __int128;  // as curves.cpp

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
// Every request goes through the policy's pick; WRR and least-request use
// the engine's one pick (SmoothWrr, exact integer weights at the curve's
// resolution). A ramping backend's weight is the curve's at the request's
// millisecond; instead of recomputing it every millisecond, the simulation
// finds the next millisecond at which it changes (the curves never
// decrease) and waits for that.
//
// With the service model, events happen in time order between arrivals:
// completions (a success, or a failure when the timeout passes first, then
// maybe a retry), and the health checks' timers (readmissions, Envoy's
// sweeps). docs/WHY-SLOW-START.md says where each health rule comes from.
class Simulator : public ScriptSink {
 public:
  Simulator(const TrafficOptions& o, const ScanSink& scan, TrafficResult& r)
      : o_(o), ids_(scan.ids), r_(r), n_ids_(scan.ids.names().size()), rng_(o.seed) {
    active_.assign(n_ids_, 0);
    id_pos_.assign(n_ids_, kNone);
    warm_since_.assign(n_ids_, -std::numeric_limits<double>::infinity());
    if (o_.service.enabled) busy_.resize(n_ids_);
    latency_sum_.assign(r_.buckets * n_ids_, 0.0);
    health_.assign(n_ids_, Health{});
    dip_listed_.assign(n_ids_, 0);
    total_requests_ = static_cast<std::uint64_t>(std::floor(o_.duration * o_.rps));
    if (static_cast<double>(total_requests_) < o_.duration * o_.rps) ++total_requests_;
    per_request_ = o_.service.enabled || o_.ramp_by == RampBy::Skip ||
                   (o_.policy != Policy::SmoothWrr && o_.policy != Policy::LeastRequest);
    if (o_.health.kind == HealthKind::Envoy) timers_.push(Timer{o_.health.interval, 0, 0, TimerKind::EnvoySweep});
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
    paint_lanes();
    find_stable();
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

  // An attempt's end as the proxy sees it: its response (a success) or its
  // timeout (a failure, then maybe a retry elsewhere).
  // Small (24 bytes): the backends a request tried are kept aside, in
  // tried_, only for an attempt that fails and will be retried.
  struct Done {
    double t;
    std::uint32_t id;
    std::uint32_t bucket;  // where the attempt arrived
    std::uint32_t slot;    // its request's entry in tried_, or kNoSlot
    bool failed;
    std::uint8_t tries;  // attempts made so far, this one included
    bool operator>(const Done& o) const { return t != o.t ? t > o.t : id > o.id; }
  };
  static constexpr std::uint32_t kNoSlot = std::numeric_limits<std::uint32_t>::max();

  enum class TimerKind : std::uint8_t { Readmit, NginxProbe, EnvoySweep };
  struct Timer {
    double t;
    std::uint32_t id, epoch;
    TimerKind kind;
    bool operator>(const Timer& o) const { return t != o.t ? t > o.t : id > o.id; }
  };

  // A backend's passive health, by id.
  struct Health {
    bool out = false;         // the balancer leaves it out of picks
    bool ejected = false;     // counted as an ejection (the lane's Ejected)
    bool probe = false;       // nginx: fail_timeout passed, the next pick is a probe
    double ejected_at = 0;
    std::uint32_t epoch = 0;  // bumped on every change: older timers are void
    std::uint32_t errors = 0; // consecutive failures (HAProxy, Envoy)
    std::uint32_t fails = 0;  // nginx's fails
    std::int64_t checked = 0, accessed = -1;  // nginx: whole seconds
    std::int64_t dip = 0;     // nginx: weight - effective_weight
    std::uint32_t multiplier = 0;  // Envoy: the ejection-time multiplier
    double readmitted_at = -1;
    double paused = 0;         // WarmBy::Serving: seconds ejected since the (re)start
    double served = 0;         // WarmBy::Requests: requests started since the (re)start
  };

  // Takes the command's changes from the scenario's pool, which applied the
  // engine's rules: POOL starts over; ADD, DOWN, UP change one backend (ADD
  // appends a new name). Scores are the pool's after the change (a backend
  // that (re)joined starts with the pool's score on joining); the pool's own
  // picks (PICK lines) do not reach the simulation's.
  void sync(const Command& cmd, const Pool& pool) {
    const double now = now_;
    if (cmd.op == Op::Pool) {
      for (std::uint32_t id : pos_id_) {
        id_pos_[id] = kNone;
        restart_health(id, now);
        log_state(now, id, BackendState::Out, 0);
      }
      const std::size_t n = pool.size();
      wrr_.reset(n);
      backends_.clear();
      pos_id_.clear();
      curve_.assign(n, 0);
      epoch_.assign(n, 0);
      joined_ms_.assign(n, 0);
      recovering_.assign(n, 0);
      changes_ = {};
      for (std::size_t i = 0; i < n; ++i) {
        backends_.push_back(pool.backend(i));
        pos_id_.push_back(ids_.find(backends_[i].name));
        id_pos_[pos_id_[i]] = static_cast<std::int32_t>(i);
        joined_ms_[i] = backends_[i].joined * 1000;
        recovering_[i] = backends_[i].how == Joined::Up;
        wrr_.set_score(i, pool.score(i));
        reweigh(i);
        log_joined(i);
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
      joined_ms_.push_back(0);
      recovering_.push_back(0);
    }
    backends_[i] = pool.backend(i);
    joined_ms_[i] = backends_[i].joined * 1000;
    recovering_[i] = backends_[i].how == Joined::Up;
    const std::uint32_t id = pos_id_[i];
    restart_health(id, now);
    if (cmd.op != Op::Down) {
      wrr_.set_score(i, pool.score(i));
      // (Re)joining: a cold start for the service model.
      warm_since_[id] = static_cast<double>(pool.now());
    }
    reweigh(i);
    log_joined(i);
  }

  bool may_ramp(std::size_t i) const {
    const Backend& b = backends_[i];
    if (!b.up || !o_.slow_start || b.ramp == 0) return false;
    return !(o_.curve.kind == CurveKind::HAProxy && !recovering_[i]);
  }

  // Backend i changed: a fixed weight now, or a ramp weighed at the next request.
  void reweigh(std::size_t i) {
    ++epoch_[i];
    const Backend& b = backends_[i];
    if (may_ramp(i)) {
      changes_.push(Change{kNow, static_cast<std::uint32_t>(i), epoch_[i]});
    } else {
      curve_[i] = b.up ? b.target * o_.curve.resolution : 0;
      weigh(i);
    }
  }

  std::int64_t curve_at(std::size_t i, std::int64_t tick) const {
    const Backend& b = backends_[i];
    return curve_weight_ms(o_.curve, b.target, b.ramp, tick - joined_ms_[i], recovering_[i]);
  }

  // The ramps whose weight changes by `tick`: weighed at it, and the next
  // change found (gallop, then halve: the curve never decreases).
  void ramp_to(std::int64_t tick) {
    while (!changes_.empty() && changes_.top().tick <= tick) {
      const Change c = changes_.top();
      changes_.pop();
      if (c.epoch != epoch_[c.pos]) continue;
      const Backend& b = backends_[c.pos];
      const std::int64_t w = curve_[c.pos] = curve_at(c.pos, tick);
      weigh(c.pos);
      const std::int64_t end = joined_ms_[c.pos] + b.ramp * 1000;  // full weight from here on
      if (tick >= end) continue;
      std::int64_t same = tick, step = 1;
      while (same + step < end && curve_at(c.pos, same + step) == w) same += step, step *= 2;
      std::int64_t differs = std::min(same + step, end);
      while (differs - same > 1) {
        const std::int64_t mid = same + (differs - same) / 2;
        (curve_at(c.pos, mid) == w ? same : differs) = mid;
      }
      changes_.push(Change{differs, c.pos, c.epoch});
    }
  }

  // The weight the pick sees: the curve's (the full weight when the skip
  // decorator applies the ramp instead), nginx's effective-weight dip, and
  // for least-request divided by (active + 1)^bias. 0 while the health check
  // leaves it out.
  void weigh(std::size_t i) {
    const Backend& b = backends_[i];
    const Health& h = health_[pos_id_[i]];
    std::int64_t w = o_.ramp_by == RampBy::Skip ? (b.up ? b.target * o_.curve.resolution : 0) : curve_[i];
    if (h.out) w = 0;
    if (h.dip > 0 && b.target > 0) w = static_cast<std::int64_t>(static_cast<i128>(w) * (b.target - h.dip) / b.target);
    if (o_.policy == Policy::LeastRequest && w > 0) {
      const double a = static_cast<double>(active_[pos_id_[i]]) + 1.0;
      w = static_cast<std::int64_t>(static_cast<double>(w) * kRequestScale / (o_.bias == 1.0 ? a : std::pow(a, o_.bias)));
    }
    wrr_.set_weight(i, w);
  }

  void active_changed(std::uint32_t id) {
    if (o_.policy == Policy::LeastRequest && id_pos_[id] != kNone) weigh(static_cast<std::size_t>(id_pos_[id]));
  }

  // ---- health ---------------------------------------------------------

  // The lane: every change of a backend's state, in time order.
  struct StateChange {
    double t;
    std::uint32_t id;
    BackendState state;
    double ramp_end;  // Ramping: when it becomes Serving
  };
  void log_state(double t, std::uint32_t id, BackendState s, double ramp_end) {
    lane_log_.push_back(StateChange{t, id, s, ramp_end});
  }
  // Backend i joined (or left) by the script, or was readmitted.
  void log_joined(std::size_t i) {
    const Backend& b = backends_[i];
    const std::uint32_t id = pos_id_[i];
    if (!b.up) return log_state(now_, id, BackendState::Out, 0);
    if (health_[id].out) return log_state(now_, id, BackendState::Ejected, 0);
    const double end = static_cast<double>(joined_ms_[i] + b.ramp * 1000) / 1000.0;
    if (may_ramp(i) && end > now_) return log_state(now_, id, BackendState::Ramping, end);
    log_state(now_, id, BackendState::Serving, 0);
  }

  // The script (re)started it, took it down or replaced the pool: the
  // balancer's passive state starts over (Envoy keeps its multiplier: the
  // host is the same address).
  void restart_health(std::uint32_t id, double now) {
    Health& h = health_[id];
    if (h.ejected) close_ejection(id, now);
    const std::uint32_t multiplier = h.multiplier;
    const std::uint32_t epoch = h.epoch + 1;
    h = Health{};
    h.multiplier = multiplier;
    h.epoch = epoch;
  }

  void close_ejection(std::uint32_t id, double now) {
    Health& h = health_[id];
    const double out = std::max(0.0, std::min(now, o_.duration) - h.ejected_at);
    r_.seconds_ejected[id] += out;
    h.paused += now - h.ejected_at;
    h.ejected = false;
  }

  void set_out(std::uint32_t id, bool out) {
    health_[id].out = out;
    if (id_pos_[id] != kNone) weigh(static_cast<std::size_t>(id_pos_[id]));
  }

  void eject(std::uint32_t id, double now) {
    Health& h = health_[id];
    if (!h.ejected) {
      ++r_.ejections[id];
      h.ejected = true;
      h.ejected_at = now;
      log_state(now, id, BackendState::Ejected, 0);
    }
    ++h.epoch;
    set_out(id, true);
  }

  // Back in the pool: a recovery (an UP) with the backend's ramp, when slow
  // start is on.
  void readmit(std::uint32_t id, double now) {
    Health& h = health_[id];
    if (h.ejected) close_ejection(id, now);
    ++h.epoch;
    h.errors = 0;
    h.probe = false;
    h.readmitted_at = now;
    h.out = false;
    if (id_pos_[id] == kNone) return;
    const auto i = static_cast<std::size_t>(id_pos_[id]);
    joined_ms_[i] = static_cast<std::int64_t>(std::floor(now * 1000.0));
    recovering_[i] = 1;
    reweigh(i);
    const double saved = now_;
    now_ = now;
    log_joined(i);
    now_ = saved;
  }

  static std::int64_t whole_second(double t) { return static_cast<std::int64_t>(std::floor(t)); }

  // The proxy saw attempt `id` fail (its timeout) or succeed at `t`;
  // `retried`: the failed request is being tried again on another backend.
  void report(std::uint32_t id, double t, bool failed, bool retried) {
    if (id_pos_[id] == kNone || !backends_[static_cast<std::size_t>(id_pos_[id])].up) return;
    Health& h = health_[id];
    const HealthCheck& c = o_.health;
    switch (c.kind) {
      case HealthKind::None:
        return;
      case HealthKind::Nginx: {
        // ngx_http_upstream_free_round_robin_peer: a failure counts, stamps
        // the time and lowers the effective weight by weight / max_fails; a
        // success clears the count only once the server was tried again after
        // its last failure.
        const std::int64_t now = whole_second(t);
        if (failed) {
          ++h.fails;
          h.accessed = h.checked = now;
          const std::size_t i = static_cast<std::size_t>(id_pos_[id]);
          const std::int64_t target = backends_[i].target;
          if (c.max_fails > 0) {
            h.dip = std::min<std::int64_t>(target, h.dip + target / c.max_fails);
            if (h.dip > 0 && !dip_listed_[id]) dipped_.push_back(id), dip_listed_[id] = 1;
          }
          if (c.max_fails > 0 && h.fails >= c.max_fails) {
            h.probe = false;
            eject(id, t);
            timers_.push(Timer{static_cast<double>(now) + c.fail_timeout + 1, id, h.epoch, TimerKind::NginxProbe});
          } else {
            weigh(i);
          }
        } else if (h.accessed < h.checked) {
          h.fails = 0;
          if (h.ejected || h.out) readmit(id, t);
        }
        return;
      }
      case HealthKind::HAProxy:
        // observe layer7: consecutive errors; error-limit of them and
        // on-error mark-down takes the server down at once; active checks
        // every `inter` (on a fixed grid from 0) bring it back after `rise`
        // successes. A timeout that is retried on another server (retry-on
        // response-timeout) is not an error it observes: recorded with
        // HAProxy 2.6 (tests/cpp/traffic_real/), 11 retried timeouts in a
        // row and the server stayed UP.
        if (failed && retried) return;
        if (!failed) {
          h.errors = 0;
        } else if (++h.errors >= c.error_limit && !h.out) {
          eject(id, t);
          const double up = (std::floor(t / c.inter) + c.rise) * c.inter;
          timers_.push(Timer{up, id, h.epoch, TimerKind::Readmit});
        }
        return;
      case HealthKind::Envoy:
        // consecutive_5xx: a timeout is a 5xx (locally originated errors map
        // to 5xx by default); ejection happens inline, exactly at the
        // threshold, if max_ejection_percent allows (always one host).
        if (!failed) {
          h.errors = 0;
        } else if (++h.errors == c.consecutive_5xx && !h.out) {
          std::size_t up = 0, out = 0;
          for (std::size_t i = 0; i < backends_.size(); ++i) {
            if (!backends_[i].up) continue;
            ++up;
            out += health_[pos_id_[i]].out;
          }
          if (out == 0 || 100.0 * static_cast<double>(out) / static_cast<double>(up) < c.max_ejection_percent) {
            const auto cap = static_cast<std::uint32_t>(
                std::ceil(std::max(c.max_ejection_time, c.base_ejection_time) / c.base_ejection_time));
            h.multiplier = std::min(h.multiplier + 1, cap);
            eject(id, t);
          }
        }
        return;
    }
  }

  // Envoy's interval sweep: a host whose ejection time passed is brought
  // back; a host in service for a whole interval has its multiplier lowered
  // by one.
  void envoy_sweep(double t) {
    const HealthCheck& c = o_.health;
    for (std::size_t i = 0; i < backends_.size(); ++i) {
      const std::uint32_t id = pos_id_[i];
      Health& h = health_[id];
      if (h.out) {
        const double time = std::min(c.base_ejection_time * h.multiplier, std::max(c.max_ejection_time, c.base_ejection_time));
        if (t >= h.ejected_at + time - 1e-9) readmit(id, t);
      } else if (h.multiplier > 0 && t - std::max(h.readmitted_at, 0.0) >= c.interval - 1e-9 && h.readmitted_at >= 0) {
        --h.multiplier;
      }
    }
    timers_.push(Timer{t + c.interval, 0, 0, TimerKind::EnvoySweep});
  }

  void fire(const Timer& timer) {
    if (timer.kind == TimerKind::EnvoySweep) return envoy_sweep(timer.t);
    Health& h = health_[timer.id];
    if (timer.epoch != h.epoch) return;
    if (timer.kind == TimerKind::Readmit) return readmit(timer.id, timer.t);
    // nginx: fail_timeout has passed; the server takes part again, and the
    // pick that chooses it is the probe.
    h.probe = true;
    set_out(timer.id, false);
  }

  // nginx: every pick raises each dipped effective weight by 1 (of the
  // servers it looked at), and the chosen server is stamped "checked".
  void nginx_after_pick(std::int32_t pos, double t) {
    if (o_.health.kind != HealthKind::Nginx) return;
    for (std::size_t k = 0; k < dipped_.size();) {
      const std::uint32_t id = dipped_[k];
      Health& h = health_[id];
      if (h.dip > 0 && !h.out && id_pos_[id] != kNone) {
        --h.dip;
        weigh(static_cast<std::size_t>(id_pos_[id]));
      }
      if (h.dip == 0 || id_pos_[id] == kNone) {
        h.dip = 0;
        dip_listed_[id] = 0;
        dipped_[k] = dipped_.back();
        dipped_.pop_back();
      } else {
        ++k;
      }
    }
    if (pos == kNone) return;
    const std::uint32_t id = pos_id_[static_cast<std::size_t>(pos)];
    Health& h = health_[id];
    const std::int64_t now = whole_second(t);
    if (now - h.checked > static_cast<std::int64_t>(o_.health.fail_timeout)) {
      h.checked = now;
      if (h.probe) {  // the probe is out: no more picks until it answers or fail_timeout passes again
        h.probe = false;
        ++h.epoch;
        set_out(id, true);
        timers_.push(Timer{static_cast<double>(now) + o_.health.fail_timeout + 1, id, h.epoch, TimerKind::NginxProbe});
      }
    }
  }

  // ---- the pick -------------------------------------------------------

  double uniform() { return static_cast<double>(rng_.next() >> 11) * 0x1.0p-53; }

  // How far into its ramp position i is at `tick` (1: not ramping).
  double ramp_of(std::size_t i, std::int64_t tick) const {
    if (!may_ramp(i)) return 1.0;
    const Backend& b = backends_[i];
    return ramp_factor(o_.curve, static_cast<double>(tick - joined_ms_[i]) / 1000.0, static_cast<double>(b.ramp),
                       recovering_[i]);
  }

  bool available(std::size_t i) const { return backends_[i].up && backends_[i].target > 0 && !health_[pos_id_[i]].out; }

  // The winner's position, or kNone: the policy's pick among the available
  // backends not in `tried`, with the ramp applied as o_.ramp_by says.
  std::int32_t pick(std::int64_t tick, const std::uint32_t* tried, std::size_t n_tried) {
    const bool weights = o_.policy == Policy::SmoothWrr || o_.policy == Policy::LeastRequest;
    const bool skip = o_.ramp_by == RampBy::Skip;
    if (weights && !skip && n_tried == 0) return wrr_.pick();  // the common case
    // The candidates: available, not tried; then the skip decorator.
    cand_.clear();
    for (std::size_t i = 0; i < backends_.size(); ++i) {
      if (!available(i)) continue;
      if (std::find(tried, tried + n_tried, pos_id_[i]) != tried + n_tried) continue;
      cand_.push_back(static_cast<std::uint32_t>(i));
    }
    if (skip && cand_.size() > 1) {  // never skip the only available host
      std::size_t kept = 0;
      for (const std::uint32_t i : cand_) {
        const double r = ramp_of(i, tick);
        if (r >= 1.0 || uniform() < r) cand_[kept++] = i;
      }
      cand_.resize(kept);
    }
    if (weights) {
      // The same pick with everyone else's weight at 0 for a moment.
      hidden_.clear();
      std::size_t c = 0;
      for (std::size_t i = 0; i < backends_.size(); ++i) {
        if (c < cand_.size() && cand_[c] == i) {
          ++c;
          continue;
        }
        if (wrr_.weight(i) != 0) hidden_.emplace_back(static_cast<std::uint32_t>(i), wrr_.weight(i)), wrr_.set_weight(i, 0);
      }
      const std::int32_t p = wrr_.pick();
      for (const auto& [i, w] : hidden_) wrr_.set_weight(i, w);
      return p;
    }
    if (cand_.empty()) return kNone;
    const auto score = [&](std::uint32_t i) {  // lower wins; the ramp divides it when scaling
      const double a = static_cast<double>(active_[pos_id_[i]]);
      if (skip || a == 0) return a;
      const double r = ramp_of(i, tick);
      return r > 0 ? a / r : std::numeric_limits<double>::infinity();
    };
    switch (o_.policy) {
      case Policy::Random: {
        double total = 0;
        for (const std::uint32_t i : cand_) total += weight_for_random(i, tick, skip);
        if (!(total > 0)) return kNone;
        double u = uniform() * total;
        for (const std::uint32_t i : cand_) {
          u -= weight_for_random(i, tick, skip);
          if (u < 0) return static_cast<std::int32_t>(i);
        }
        return static_cast<std::int32_t>(cand_.back());
      }
      case Policy::P2C: {
        if (cand_.size() == 1) return static_cast<std::int32_t>(cand_[0]);
        const auto a = static_cast<std::size_t>(rng_.below(cand_.size()));
        auto b = static_cast<std::size_t>(rng_.below(cand_.size() - 1));
        if (b >= a) ++b;
        return static_cast<std::int32_t>(score(cand_[b]) < score(cand_[a]) ? cand_[b] : cand_[a]);
      }
      case Policy::LeastConn: {
        std::int32_t best = kNone;
        double low = 0;
        std::uint64_t ties = 0;
        for (const std::uint32_t i : cand_) {
          const double s = score(i);
          if (best == kNone || s < low) {
            best = static_cast<std::int32_t>(i), low = s, ties = 1;
          } else if (s == low && rng_.below(++ties) == 0) {
            best = static_cast<std::int32_t>(i);
          }
        }
        return best;
      }
      case Policy::RoundRobin: {
        // Caddy's loop: the next host after the last one, the first available
        // wins. Scaling (the proposal) skips a warming host with probability
        // 1 - ramp, unless it is the only available one.
        const std::size_t n = backends_.size();
        const bool only = cand_.size() == 1;
        for (std::size_t k = 0; k < n; ++k) {
          robin_ = (robin_ + 1) % n;
          if (!std::binary_search(cand_.begin(), cand_.end(), static_cast<std::uint32_t>(robin_))) continue;
          if (!skip && !only) {
            const double r = ramp_of(robin_, tick);
            if (r < 1.0 && !(uniform() < r)) continue;
          }
          return static_cast<std::int32_t>(robin_);
        }
        return kNone;
      }
      default:
        return kNone;
    }
  }

  double weight_for_random(std::uint32_t i, std::int64_t tick, bool skip) const {
    const double w = static_cast<double>(backends_[i].target);
    return skip ? w : w * ramp_of(i, tick);
  }

  // ---- service --------------------------------------------------------

  // How cold backend `id` is at `t`: 1 the moment it (re)starts, 0 warm.
  double coldness(std::uint32_t id, double t) const {
    const ServiceModel& s = o_.service;
    const Health& h = health_[id];
    if (warm_since_[id] == -std::numeric_limits<double>::infinity()) return 0.0;  // in the POOL from the start: warm
    switch (s.warm_by) {
      case WarmBy::Requests:
        return std::max(0.0, 1.0 - h.served / s.warmup_requests);
      case WarmBy::Serving: {
        if (s.warmup <= 0) return 0.0;
        double since = t - warm_since_[id] - h.paused;
        if (h.ejected) since -= std::max(0.0, t - h.ejected_at);
        return std::max(0.0, 1.0 - since / s.warmup);
      }
      case WarmBy::Time:
        break;
    }
    if (s.warmup <= 0) return 0.0;
    return std::max(0.0, 1.0 - (t - warm_since_[id]) / s.warmup);
  }

  void complete_until(double t) {
    for (;;) {
      const bool done = !done_.empty() && done_.top().t <= t;
      const bool timer = !timers_.empty() && timers_.top().t <= t;
      if (!done && !timer) return;
      if (timer && (!done || timers_.top().t < done_.top().t)) {
        const Timer tm = timers_.top();
        timers_.pop();
        fire(tm);
        continue;
      }
      const Done d = done_.top();
      done_.pop();
      --active_[d.id];
      active_changed(d.id);
      const bool again = d.failed && d.tries <= o_.retries && d.t < o_.duration;
      report(d.id, d.t, d.failed, again);
      if (again) retry(d);
      else if (d.slot != kNoSlot) free_slots_.push_back(d.slot);
    }
  }

  // The attempt failed: the same request again on another backend, now.
  void retry(const Done& d) {
    const std::size_t k = bucket_of(d.t);
    ++r_.retried[d.bucket * n_ids_ + d.id];
    if (!changes_.empty()) ramp_to(tick_of(d.t));
    const std::int32_t p = pick(tick_of(d.t), tried_[d.slot].data(), d.tries);
    nginx_after_pick(p, d.t);
    ++r_.total[k];
    if (p == kNone) {
      ++r_.unrouted[k];
      free_slots_.push_back(d.slot);
      return;
    }
    const std::uint32_t id = pos_id_[static_cast<std::size_t>(p)];
    ++r_.requests[k * n_ids_ + id];
    serve(id, d.t, k, &d);
  }

  void serve(std::uint32_t id, double t, std::size_t k, const Done* previous) {
    const ServiceModel& s = o_.service;
    const std::size_t cell = k * n_ids_ + id;
    // The busy workers' end times, a min-heap: a request starts at once if
    // fewer than `workers` are busy at `t`, else when the first one ends.
    // (The same starts as a slot per worker, without touching idle ones:
    // requests reach a backend in time order.)
    std::vector<double>& busy = busy_[id];
    const auto later = std::greater<>();
    while (!busy.empty() && busy.front() <= t) {
      std::pop_heap(busy.begin(), busy.end(), later);
      busy.pop_back();
    }
    double start = t;
    if (busy.size() >= s.workers) {
      start = busy.front();
      std::pop_heap(busy.begin(), busy.end(), later);
      busy.pop_back();
    }
    double ms = s.base_ms;
    const double cold = coldness(id, start);
    if (cold > 0) ms *= 1.0 + (s.cold_factor - 1.0) * cold;
    health_[id].served += 1;
    const double end = start + ms / 1000.0;
    busy.push_back(end);
    std::push_heap(busy.begin(), busy.end(), later);
    Done d{end, id, static_cast<std::uint32_t>(k), kNoSlot, false, 1};
    if (previous) {
      d.tries = static_cast<std::uint8_t>(previous->tries + 1);
      d.slot = previous->slot;
    }
    const double latency_ms = (end - t) * 1000.0;
    if (o_.timeout_ms > 0 && latency_ms > o_.timeout_ms) {
      d.failed = true;
      if (d.tries <= o_.retries) {  // it may be retried: remember where it went
        if (d.slot == kNoSlot) {
          if (free_slots_.empty()) {
            d.slot = static_cast<std::uint32_t>(tried_.size());
            tried_.emplace_back();
          } else {
            d.slot = free_slots_.back();
            free_slots_.pop_back();
          }
        }
        tried_[d.slot][d.tries - 1] = id;
      }
      d.t = t + o_.timeout_ms / 1000.0;
      ++r_.failed[cell];
      latency_sum_[cell] += o_.timeout_ms;
    } else {
      latency_sum_[cell] += latency_ms;
    }
    ++active_[id];
    active_changed(id);
    done_.push(d);
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
    if (!per_request_) {
      route_runs(until);
      now_ = std::max(now_, std::min(until, o_.duration));
      return;
    }
    const double rps = o_.rps;
    const std::size_t samples_per_bucket = 10;
    const bool service = o_.service.enabled;
    while (next_ < total_requests_) {
      const double t = static_cast<double>(next_) / rps;
      if (t >= until) break;
      now_ = t;
      const auto k = bucket_of(t);
      if (service) {
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
      const std::int64_t tick = tick_of(t);
      if (!changes_.empty()) ramp_to(tick);
      const std::int32_t p = pick(tick, nullptr, 0);
      nginx_after_pick(p, t);
      ++r_.total[k];
      if (p == kNone) {
        ++r_.unrouted[k];
      } else {
        const std::uint32_t id = pos_id_[static_cast<std::size_t>(p)];
        ++r_.requests[k * n_ids_ + id];
        if (service) serve(id, t, k, nullptr);
      }
      ++next_;
    }
    // Events up to `until` (within the run) happen before the script's change there.
    if (service) complete_until(std::min(until, o_.duration));
    now_ = std::max(now_, std::min(until, o_.duration));
  }

  // Each backend's state per bucket: the worst its bucket saw.
  void paint_lanes() {
    std::stable_sort(lane_log_.begin(), lane_log_.end(),
                     [](const StateChange& a, const StateChange& b) { return a.id < b.id; });
    const auto paint = [&](std::uint32_t id, double from, double to, BackendState s) {
      if (!(to > from) || s == BackendState::Out) return;
      const std::size_t k0 = bucket_of(std::max(0.0, from));
      const std::size_t k1 = bucket_of(std::max(0.0, std::nextafter(to, -1.0)));
      for (std::size_t k = k0; k <= k1 && k < r_.buckets; ++k) {
        std::uint8_t& cell = r_.state[k * n_ids_ + id];
        cell = std::max(cell, static_cast<std::uint8_t>(s));
      }
    };
    for (std::size_t a = 0; a < lane_log_.size(); ++a) {
      const StateChange& c = lane_log_[a];
      const double end = (a + 1 < lane_log_.size() && lane_log_[a + 1].id == c.id) ? lane_log_[a + 1].t : r_.duration;
      if (c.state == BackendState::Ramping && c.ramp_end < end) {
        paint(c.id, c.t, c.ramp_end, BackendState::Ramping);
        paint(c.id, c.ramp_end, end, BackendState::Serving);
      } else {
        paint(c.id, c.t, end, c.state);
      }
    }
    for (std::uint32_t id = 0; id < n_ids_; ++id)
      if (health_[id].ejected) close_ejection(id, r_.duration);
  }

  void find_stable() {
    if (!o_.service.enabled) return;
    const double limit = o_.service.base_ms * (1.0 + o_.stable_margin / 100.0);
    r_.stable_at = -1;
    for (std::size_t k = r_.buckets; k-- > 0;) {
      bool calm = true;
      for (std::size_t id = 0; id < n_ids_ && calm; ++id) {
        const std::size_t c = k * n_ids_ + id;
        calm = r_.failed[c] == 0 && r_.state[c] != static_cast<std::uint8_t>(BackendState::Ejected) &&
               (r_.requests[c] == 0 || r_.latency_ms[c] <= limit);
      }
      if (!calm) return;
      r_.stable_at = static_cast<double>(k) * r_.bucket;
    }
  }

  const TrafficOptions& o_;
  const NameIds& ids_;
  TrafficResult& r_;
  std::size_t n_ids_;
  SplitMix64 rng_;
  bool per_request_ = false;
  double now_ = 0;  // the scenario's time reached

  // Position-aligned with the pool.
  std::vector<Backend> backends_;
  std::vector<std::uint32_t> pos_id_;
  std::vector<std::int64_t> curve_;   // the curve's weight (before least-request's division)
  std::vector<std::uint32_t> epoch_;  // bumped when a backend changes: older Changes are void
  std::vector<std::int64_t> joined_ms_;   // when its ramp started (a readmission restarts it)
  std::vector<std::uint8_t> recovering_;  // joined by UP or readmitted (HAProxy ramps only then)
  SmoothWrr wrr_;                     // the pick, with the weights it sees
  std::vector<std::int32_t> picks_;   // one millisecond's winners
  std::vector<std::uint32_t> cand_;   // one pick's candidates (positions, ascending)
  std::vector<std::pair<std::uint32_t, std::int64_t>> hidden_;
  std::priority_queue<Change, std::vector<Change>, std::greater<>> changes_;
  std::size_t robin_ = static_cast<std::size_t>(-1);

  // By backend id (survive POOL).
  std::vector<std::uint32_t> active_;
  std::vector<std::int32_t> id_pos_;  // its position now, or kNone
  std::vector<double> warm_since_;
  std::vector<std::vector<double>> busy_;  // by id: its busy workers' end times (a min-heap)
  std::vector<double> latency_sum_;
  std::vector<Health> health_;
  std::vector<std::uint32_t> dipped_;  // nginx: ids whose effective weight is below their weight
  std::vector<std::uint8_t> dip_listed_;  // by id: in dipped_
  std::vector<StateChange> lane_log_;
  std::priority_queue<Done, std::vector<Done>, std::greater<>> done_;
  std::vector<std::array<std::uint32_t, kMaxRetries + 1>> tried_;  // backends a retried request tried
  std::vector<std::uint32_t> free_slots_;
  std::priority_queue<Timer, std::vector<Timer>, std::greater<>> timers_;

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
  r.failed.assign(cells, 0);
  r.retried.assign(cells, 0);
  r.state.assign(cells, 0);
  r.unrouted.assign(r.buckets, 0);
  r.total.assign(r.buckets, 0);
  r.ejections.assign(r.names.size(), 0);
  r.seconds_ejected.assign(r.names.size(), 0.0);
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
