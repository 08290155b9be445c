#include "traffic/traffic.hpp"

#include "core/split_mix64.hpp"
#include "fast/decimal.hpp"
#include "fast/smooth_wrr.hpp"
#include "traffic/budget.hpp"
#include "traffic/client_view.hpp"
#include "traffic/event_queue.hpp"
#include "traffic/fleet.hpp"
#include "traffic/health_envoy.hpp"
#include "traffic/health_haproxy.hpp"
#include "traffic/health_nginx.hpp"
#include "traffic/lanes.hpp"
#include "traffic/least_conn.hpp"
#include "traffic/policies.hpp"
#include "traffic/ramps.hpp"
#include "traffic/retries_envoy.hpp"
#include "traffic/slow_start_rule.hpp"
#include "traffic/service_model.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <queue>
#include <tuple>

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
  void applied(std::uint64_t line, const Command& cmd, const Pool& pool) override {
    const double now = static_cast<double>(pool.now());
    end = std::max(end, now);
    if (cmd.op == Op::Pool) {
      for (std::size_t i = 0; i < pool.size(); ++i) ids.id_of(pool.backend(i).name);
      // --slow-start: the pool's ramps, when the balancer ramps a start or a reload.
      if (options && window_mode(*options) &&
          balancer_ramps(*options, pools++ ? Entry::Reload : Entry::Start) == RampDecision::Ramp)
        end = std::max(end, now + options->slow_start_window);
    } else if (cmd.op == Op::Add || cmd.op == Op::Up) {
      ids.id_of(cmd.name);
      if (!options || !window_mode(*options)) {
        end = std::max(end, now + static_cast<double>(cmd.seconds));
        return;
      }
      if (cmd.seconds > 0) ramp_lines.push_back(line);  // not used: the window decides
      if (balancer_ramps(*options, cmd.op == Op::Add ? Entry::Add : Entry::Up) == RampDecision::Ramp)
        end = std::max(end, now + options->slow_start_window);
    }
  }
  const TrafficOptions* options = nullptr;  // for --slow-start's window (none: the script's ramps)
  std::vector<Diagnostic> diagnostics;
  NameIds ids;  // every backend the script names: the result's columns
  double end = 0;
  std::size_t pools = 0;
  std::vector<std::uint64_t> ramp_lines;  // ADD and UP lines whose ramp --slow-start replaces
};

// Pass 2: replays the scenario and routes every request: the event loop.
//
// Every request goes through the policy's pick; WRR and least-request use
// the engine's one pick (SmoothWrr, exact integer weights at the curve's
// resolution), the others are policies.hpp's. A ramping backend's weight is
// the curve's at the request's millisecond; instead of recomputing it every
// millisecond, the simulation finds the next millisecond at which it changes
// (the curves never decrease) and waits for that.
//
// With the service model (service_model.*), events happen in time order
// between arrivals: completions (a success, or a failure when the timeout
// passes first, then maybe a retry), and the health checks' timers
// (HAProxy's active checks, nginx's fail_timeout, Envoy's sweeps). Each balancer's check
// is its own unit (health_nginx.*, health_haproxy.*, health_envoy.*); they
// change the fleet (fleet.hpp) through this loop's FleetEvents.
class Simulator : public ScriptSink, FleetEvents {
 public:
  Simulator(const TrafficOptions& o, const ScanSink& scan, TrafficResult& r, const RunLimits& limits)
      : o_(o),
        policy_(resolve_policy(o.policy, o.health.kind)),
        ids_(scan.ids),
        r_(r),
        n_ids_(scan.ids.names().size()),
        rng_(o.seed),
        meter_(limits.steps),
        in_flight_limit_(limits.in_flight),
        latency_bins_limit_(limits.latency_bins),
        slice_(std::max<std::uint64_t>(1, limits.slice)),
        long_runs_(limits.long_runs),
        service_(o.service, n_ids_),
        nginx_(o.health, n_ids_, meter_),
        haproxy_(o.health, n_ids_),
        envoy_(o.health, n_ids_, meter_, o.seed),
        client_(r, o.service.enabled) {
    fleet_.active.assign(n_ids_, 0);
    fleet_.id_pos.assign(n_ids_, kNone);
    fleet_.passive.assign(n_ids_, Passive{});
    kept_start_ms_.assign(n_ids_, 0);
    kept_window_.assign(n_ids_, 0);
    if (policy_ == Policy::HAProxyLeastConn) leastconn_.resize(n_ids_);
    if (o_.service.enabled) latency_sum_.assign(r_.buckets * n_ids_, 0.0);  // (routing only: no latency)
    total_requests_ = static_cast<std::uint64_t>(std::floor(o_.duration * o_.rps));
    if (static_cast<double>(total_requests_) < o_.duration * o_.rps) ++total_requests_;
    // Least-request picks one by one: with equal weights Envoy's pick is a
    // random two-choice (E4), which a run of weighted picks cannot be.
    per_request_ = o_.service.enabled || o_.ramp_by == RampBy::Skip || !weighted() || policy_ == Policy::LeastRequest;
    // The budget's costs (budget.hpp): what each pick one by one costs, and a
    // scanning pick's pass over the pool (counted for every backend the script names).
    steps_per_pick_ = kStepsPerAttempt + (picks_scan(o_) ? kStepsPerScanned * static_cast<double>(n_ids_) : 0);
    if (o_.health.kind == HealthKind::Envoy) timers_.push(Timer{o_.health.interval, 0, 0, TimerKind::EnvoySweep});
  }

  void output(std::uint64_t, std::string_view) override {}
  void diagnostic(std::uint64_t, std::string_view, Span) override {}

  void applied(std::uint64_t, const Command& cmd, const Pool& pool) override {
    // The scenario cannot go back in time: a change at an earlier clock
    // happens at the latest time reached (its ramp still counts from the
    // clock the script set).
    advance_to(static_cast<double>(pool.now()));
    if (stopped_) return;
    sync(cmd, pool);
    update_panic();
  }

  // The work the run has counted so far (budget.hpp), the script's and the cells' included.
  WorkMeter& meter() { return meter_; }

  // Why the run stopped before its end (over the work budget, or too many
  // attempts in flight), or nothing.
  const Problem& stopped() const { return stopped_; }

  void finish() {
    advance_to(std::numeric_limits<double>::infinity());
    if (stopped_) return;
    // Attempts still out at the end: a failed one is the client's failure
    // (no retry past the end); a successful one was answered when served.
    for (; !done_.empty(); done_.pop())
      if (done_.top().failed) answer_failed(done_.top());
    // Retries still waiting out their back-off: no retry past the end either.
    for (; !due_retries_.empty(); due_retries_.pop()) answer_failed(due_retries_.top().failed);
    meter_.add(kStepsPerLatencyBin * static_cast<double>(client_.finish()));
    if (o_.service.enabled)
      for (std::size_t k = 0; k < r_.buckets; ++k)
        for (std::size_t id = 0; id < n_ids_; ++id) {
          const std::size_t c = k * n_ids_ + id;
          r_.latency_ms[c] = r_.requests[c] ? latency_sum_[c] / r_.requests[c] : 0.0;
        }
    paint_lanes(lane_log_, r_);
    for (std::uint32_t id = 0; id < n_ids_; ++id)
      if (fleet_.passive[id].ejected) close_ejection(id, r_.duration);
    if (o_.service.enabled) find_stable(r_, o_.service.base_ms * (1.0 + o_.stable_margin / 100.0));
  }

 private:
  // Least-request divides weights by (active + 1)^bias: kept in integers at
  // this finer scale, through the same pick.
  static constexpr double kRequestScale = 65536.0;

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
    // Answered, but no sooner than --unhealthy-latency-ms: the check counts
    // it as a failure (Caddy's unhealthy_latency), the client gets the answer.
    bool slow = false;
    // A total order on every field: equal times are common (a backend's
    // timeouts, a queue's answers), and a heap pops ties in an order of its
    // own (libstdc++'s and libc++'s differ), which the retry circuit breaker
    // sees: the native and WebAssembly engines gave different results.
    // Two attempts equal in every field are interchangeable.
    bool operator>(const Done& o) const {
      return std::tie(t, id, tries, failed, slow, slot, bucket) > std::tie(o.t, o.id, o.tries, o.failed, o.slow, o.slot, o.bucket);
    }
  };
  static constexpr std::uint32_t kNoSlot = std::numeric_limits<std::uint32_t>::max();

  // The policies that pick by weight, through SmoothWrr.
  bool weighted() const {
    switch (policy_) {
      case Policy::SmoothWrr:
      case Policy::LeastRequest:
      case Policy::StaticRr:
        return true;
      case Policy::Random:
      case Policy::P2C:
      case Policy::LeastConn:
      case Policy::RoundRobin:
      case Policy::CaddyLeastConn:
      case Policy::NginxLeastConn:
      case Policy::HAProxyLeastConn:
        return false;
    }
    return false;
  }

  // ---- the script's changes --------------------------------------------

  // Takes the command's changes from the scenario's pool, which applied the
  // engine's rules: POOL starts over; ADD, DOWN, UP change one backend (ADD
  // appends a new name). Scores are the pool's after the change (a backend
  // that (re)joined starts with the pool's score on joining); the pool's own
  // picks (PICK lines) do not reach the simulation's.
  void sync(const Command& cmd, const Pool& pool) {
    const double now = now_;
    if (cmd.op == Op::Pool) {
      const bool reload = pools_++ > 0;
      std::vector<std::uint8_t> had(window_mode(o_) ? n_ids_ : 0, 0);  // in the pool before (a reload keeps it)
      for (std::uint32_t id : fleet_.pos_id) {
        if (!had.empty()) had[id] = 1;
        fleet_.id_pos[id] = kNone;
        restart_health(id, now);
        log_state(now, id, BackendState::Out, 0);
      }
      const std::size_t n = pool.size();
      wrr_.reset(n);
      tie_scores_.assign(n, 0);
      slow_start_.assign(n, 0);
      slow_starting_ = 0;
      fleet_.backends.clear();
      fleet_.pos_id.clear();
      ramps_.reset(n);
      for (std::size_t i = 0; i < n; ++i) {
        fleet_.backends.push_back(pool.backend(i));
        fleet_.pos_id.push_back(ids_.find(fleet_.backends[i].name));
        fleet_.id_pos[fleet_.pos_id[i]] = static_cast<std::int32_t>(i);
        ramps_.joined(i);
        if (window_mode(o_)) window_join(i, reload && had[fleet_.pos_id[i]] ? Entry::Reload : Entry::Start);
        wrr_.set_score(i, pool.score(i));
        tie_scores_[i] = pool.score(i);
        reweigh_position(i);
        log_joined(i);
      }
      return;
    }
    if (cmd.op != Op::Add && cmd.op != Op::Down && cmd.op != Op::Up) return;
    const auto i = static_cast<std::size_t>(pool.find(cmd.name));
    if (i == fleet_.backends.size()) {  // ADD of a new name
      fleet_.backends.push_back(pool.backend(i));
      fleet_.pos_id.push_back(ids_.find(fleet_.backends[i].name));
      fleet_.id_pos[fleet_.pos_id[i]] = static_cast<std::int32_t>(i);
      wrr_.push_back();
      tie_scores_.push_back(0);
      ramps_.push_back();
    }
    fleet_.backends[i] = pool.backend(i);
    ramps_.joined(i);
    if (window_mode(o_) && cmd.op != Op::Down) window_join(i, cmd.op == Op::Add ? Entry::Add : Entry::Up);
    const std::uint32_t id = fleet_.pos_id[i];
    restart_health(id, now);
    if (cmd.op != Op::Down) {
      wrr_.set_score(i, pool.score(i));
      tie_scores_[i] = pool.score(i);
      // (Re)joining: a cold start for the service model.
      service_.started(id, static_cast<double>(pool.now()));
    }
    reweigh_position(i);
    log_joined(i);
  }

  // ---- weights and ramps ------------------------------------------------

  // --slow-start: position i (re)joined by `entry`; the balancer's rule says
  // whether it ramps over the window from its join, keeps the ramp it had
  // before a reload, or has its full weight now.
  void window_join(std::size_t i, Entry entry) {
    const std::uint32_t id = fleet_.pos_id[i];
    const std::int64_t at = fleet_.backends[i].joined * 1000;
    switch (balancer_ramps(o_, entry)) {
      case RampDecision::Ramp: ramps_.begin(i, at, window_s()); break;
      case RampDecision::Keep: ramps_.begin(i, kept_start_ms_[id], kept_window_[id]); break;
      case RampDecision::None: ramps_.begin(i, at, 0); break;
    }
    kept_start_ms_[id] = ramps_.start_ms(i);
    kept_window_[id] = ramps_.window(i);
  }
  std::int64_t window_s() const { return static_cast<std::int64_t>(o_.slow_start_window); }

  // How a health check's readmission counts for the balancer's rule: the lab's
  // HAProxy check is active; nginx's and Envoy's are passive (an ejection
  // ran out), unless Envoy's is told to ramp as an active check would.
  Entry readmission() const {
    switch (o_.health.kind) {
      case HealthKind::HAProxy: return Entry::CheckRecovery;
      case HealthKind::Envoy: return o_.health.ramp_after_ejection ? Entry::CheckRecovery : Entry::PassiveReturn;
      case HealthKind::Nginx:
      case HealthKind::None: return Entry::PassiveReturn;
    }
    return Entry::PassiveReturn;
  }

  // Backend i changed: a fixed weight now, or a ramp weighed at the next request.
  void reweigh_position(std::size_t i) {
    if (!ramps_.restart(i)) weigh(i);
  }

  // The ramps whose weight changes by `tick`, weighed: a group of ramps
  // alike (Ramps) that is a whole weight class of the pick and weighs one
  // weight moves as one class (SmoothWrr::set_class_weight, PL-48), else
  // each member as before.
  void ramp_to(std::int64_t tick) {
    ramps_.advance(tick, [&](const std::uint32_t* pos, std::size_t n) {
      if (n == 1) return weigh(pos[0]);
      group_weights_.resize(n);
      bool one = true;
      for (std::size_t k = 0; k < n; ++k) {
        group_weights_[k] = weight_of(pos[k]);
        one = one && group_weights_[k] == group_weights_[0];
      }
      if (one && wrr_.set_class_weight(pos, n, group_weights_[0])) return;
      for (std::size_t k = 0; k < n; ++k) wrr_.set_weight(pos[k], group_weights_[k]);
    });
  }

  // The weight the pick sees: the curve's (the full weight when the skip
  // decorator applies the ramp instead, or with HAProxy's static-rr, which
  // slowstart does not ramp: H8), nginx's effective-weight dip, and
  // for least-request divided by (active + 1)^bias. 0 while the health check
  // leaves it out.
  void weigh(std::size_t i) { wrr_.set_weight(i, weight_of(i)); }
  std::int64_t weight_of(std::size_t i) {
    const Backend& b = fleet_.backends[i];
    const std::uint32_t id = fleet_.pos_id[i];
    std::int64_t w = !policy_ramps() ? (b.up ? b.target * resolution_of(o_.curve) : 0) : ramps_.curve(i);
    if (policy_ == Policy::LeastRequest) note_slow_start(i, b.up && b.target > 0 && w < b.target * resolution_of(o_.curve));
    if (fleet_.passive[id].out && !fleet_.panic) w = 0;
    const std::int64_t dip = o_.health.kind == HealthKind::Nginx ? nginx_.dip(id) : 0;
    if (dip > 0 && b.target > 0) w = static_cast<std::int64_t>(static_cast<i128>(w) * (b.target - dip) / b.target);
    if (policy_ == Policy::LeastRequest && w > 0) {
      const double a = static_cast<double>(fleet_.active[id]) + 1.0;
      w = static_cast<std::int64_t>(static_cast<double>(w) * kRequestScale / (o_.bias == 1.0 ? a : std::pow(a, o_.bias)));
    }
    return w;
  }

  // Least-request: how many backends are in slow start (weighed below their
  // full weight by the ramp), and whether every backend weighs the same:
  // Envoy's pick is weighted (EDF) only then (E4, E5).
  void note_slow_start(std::size_t i, bool ramping) {
    if (slow_start_.size() <= i) slow_start_.resize(i + 1, 0);
    if (slow_start_[i] == ramping) return;
    slow_start_[i] = ramping;
    if (ramping) ++slow_starting_;
    else --slow_starting_;
  }
  void find_equal_weights() {
    equal_weights_ = true;
    std::int64_t w = 0;
    for (const Backend& b : fleet_.backends) {
      if (!b.up || b.target == 0) continue;
      if (w != 0 && b.target != w) equal_weights_ = false;
      w = b.target;
    }
  }

  void active_changed(std::uint32_t id) {
    if (policy_ == Policy::LeastRequest && fleet_.id_pos[id] != kNone) weigh(static_cast<std::size_t>(fleet_.id_pos[id]));
    if (policy_ == Policy::HAProxyLeastConn) leastconn_.inflight_changed(id, fleet_.active[id]);
  }

  // Whether the weights the pick sees ramp: not with the skip decorator (it
  // applies the ramp itself), nor with HAProxy's static-rr (`server_recalc_eweight`
  // ramps only `BE_LB_PROP_DYN` algorithms, server.c; docs/proxy-rules.md H8).
  bool policy_ramps() const { return o_.ramp_by != RampBy::Skip && policy_ != Policy::StaticRr; }

  // ---- the lanes --------------------------------------------------------

  void log_state(double t, std::uint32_t id, BackendState s, double ramp_end) {
    lane_log_.push_back(StateChange{t, id, s, ramp_end});
  }
  // Backend i joined (or left) by the script, or was readmitted.
  void log_joined(std::size_t i) {
    const Backend& b = fleet_.backends[i];
    const std::uint32_t id = fleet_.pos_id[i];
    if (!b.up) return log_state(now_, id, BackendState::Out, 0);
    if (fleet_.passive[id].out) return log_state(now_, id, BackendState::Ejected, 0);
    const double end = ramps_.ramp_end(i);
    if (ramps_.may_ramp(i) && policy_ != Policy::StaticRr && end > now_)
      return log_state(now_, id, BackendState::Ramping, end);
    log_state(now_, id, BackendState::Serving, 0);
  }

  // ---- health: what the checks do to the fleet (FleetEvents) -------------

  // The script (re)started it, took it down or replaced the pool: the
  // balancer's passive state starts over.
  void restart_health(std::uint32_t id, double now) {
    Passive& p = fleet_.passive[id];
    if (p.ejected) close_ejection(id, now);
    const std::uint32_t epoch = p.epoch + 1;
    p = Passive{};
    p.epoch = epoch;
    service_.restart(id);
    switch (o_.health.kind) {
      case HealthKind::None: break;
      case HealthKind::Nginx: nginx_.restart(id); break;
      case HealthKind::HAProxy: haproxy_.restart(id); break;
      case HealthKind::Envoy: envoy_.restart(id); break;
    }
  }

  void close_ejection(std::uint32_t id, double now) {
    Passive& p = fleet_.passive[id];
    const double out = std::max(0.0, std::min(now, o_.duration) - p.ejected_at);
    r_.seconds_ejected[id] += out;
    service_.paused(id, now - p.ejected_at);
    p.ejected = false;
  }

  void set_out(std::uint32_t id, bool out) override {
    fleet_.passive[id].out = out;
    if (fleet_.id_pos[id] != kNone) weigh(static_cast<std::size_t>(fleet_.id_pos[id]));
  }

  void reweigh(std::uint32_t id) override { weigh(static_cast<std::size_t>(fleet_.id_pos[id])); }

  void schedule(const Timer& timer) override { timers_.push(timer); }

  void void_timers(std::uint32_t id) override { ++fleet_.passive[id].epoch; }

  void eject(std::uint32_t id, double now) override {
    Passive& p = fleet_.passive[id];
    if (!p.ejected) {
      ++r_.ejections[id];
      p.ejected = true;
      p.ejected_at = now;
      log_state(now, id, BackendState::Ejected, 0);
    }
    ++p.epoch;
    set_out(id, true);
    update_panic();
  }

  // Envoy's panic mode follows the share of hosts healthy (UP and not
  // ejected); when it flips, every weight is weighed again.
  void update_panic() {
    if (policy_ == Policy::LeastRequest) find_equal_weights();
    if (o_.health.kind != HealthKind::Envoy) return;
    std::size_t up = 0, healthy = 0;
    meter_.add(kStepsPerScanned * static_cast<double>(fleet_.backends.size()));
    for (std::size_t i = 0; i < fleet_.backends.size(); ++i) {
      if (!fleet_.backends[i].up) continue;
      ++up;
      healthy += !fleet_.passive[fleet_.pos_id[i]].out;
    }
    const bool panic = in_panic(o_.health.panic_threshold, healthy, up);
    if (panic == fleet_.panic) return;
    fleet_.panic = panic;
    for (std::size_t i = 0; i < fleet_.backends.size(); ++i) weigh(i);
  }

  // Back in the pool: a recovery (an UP) with the backend's ramp, when slow
  // start is on.
  void readmit(std::uint32_t id, double now) override {
    Passive& p = fleet_.passive[id];
    if (p.ejected) close_ejection(id, now);
    ++p.epoch;
    switch (o_.health.kind) {
      case HealthKind::None: break;
      case HealthKind::Nginx: nginx_.readmitted(id); break;
      case HealthKind::HAProxy: haproxy_.readmitted(id); break;
      case HealthKind::Envoy: envoy_.readmitted(id); break;
    }
    p.readmitted_at = now;
    p.out = false;
    if (fleet_.id_pos[id] == kNone) return;
    const auto i = static_cast<std::size_t>(fleet_.id_pos[id]);
    // Envoy re-applies slow start only to a host an active health check brings
    // back, never after an outlier ejection (E7): its ramp, if any is left,
    // still counts from its join.
    // With --slow-start the balancer's rule decides (a ramp not restarted goes on).
    if (window_mode(o_)) {
      if (balancer_ramps(o_, readmission()) == RampDecision::Ramp) {
        ramps_.begin(i, static_cast<std::int64_t>(std::floor(now * 1000.0)), window_s());
        kept_start_ms_[id] = ramps_.start_ms(i);
        kept_window_[id] = ramps_.window(i);
      }
    } else if (o_.health.kind != HealthKind::Envoy || o_.health.ramp_after_ejection) {
      ramps_.readmitted(i, now);
    }
    reweigh_position(i);
    const double saved = now_;
    now_ = now;
    log_joined(i);
    now_ = saved;
    update_panic();
  }

  // The proxy saw attempt `id` fail (its timeout) or succeed at `t`;
  // `retried`: the failed request is being tried again on another backend.
  void report(std::uint32_t id, double t, bool failed, bool retried) {
    if (!fleet_.up(id)) return;
    switch (o_.health.kind) {
      case HealthKind::None: return;
      case HealthKind::Nginx: return nginx_.report(fleet_, *this, id, t, failed);
      case HealthKind::HAProxy: return haproxy_.report(fleet_, *this, id, t, failed, retried);
      case HealthKind::Envoy: return envoy_.report(fleet_, *this, id, t, failed);
    }
  }

  void fire(const Timer& timer) {
    switch (timer.kind) {
      case TimerKind::EnvoySweep:
        return envoy_.sweep(fleet_, *this, timer.t);
      case TimerKind::HAProxyCheck:
        return haproxy_.check_due(*this, timer.id, timer.epoch, timer.t);
      case TimerKind::NginxProbe:
        if (timer.epoch == fleet_.passive[timer.id].epoch) nginx_.probe_due(*this, timer.id);
        return;
    }
  }

  void after_pick(std::int32_t pos, double t) {
    if (o_.health.kind == HealthKind::Nginx) nginx_.after_pick(fleet_, *this, pos, t);
  }

  // ---- the pick -------------------------------------------------------

  // The winner's position, or kNone: the policy's pick among the available
  // backends not in `tried`, with the ramp applied as o_.ramp_by says.
  std::int32_t pick(std::int64_t tick, const std::uint32_t* tried, std::size_t n_tried) {
    const bool skip = o_.ramp_by == RampBy::Skip;
    if (weighted() && !skip) {
      if (policy_ == Policy::LeastRequest && slow_starting_ == 0 && equal_weights_)
        return pick_unweighted_least_request(tried, n_tried);
      if (n_tried == 0) return wrr_.pick();  // the common case
      return pick_weighted_without(tried, n_tried);
    }
    // The candidates: available, not tried; then the skip decorator.
    cand_.clear();
    for (std::size_t i = 0; i < fleet_.backends.size(); ++i) {
      if (!fleet_.available(i)) continue;
      if (std::find(tried, tried + n_tried, fleet_.pos_id[i]) != tried + n_tried) continue;
      cand_.push_back(static_cast<std::uint32_t>(i));
    }
    const auto ramp = [&](std::size_t i) { return ramps_.factor(i, tick); };
    if (skip) skip_warming(cand_, ramp, rng_);
    const auto score = [&](std::uint32_t i) {  // lower wins; the ramp divides it when scaling
      const double a = static_cast<double>(fleet_.active[fleet_.pos_id[i]]);
      if (skip || a == 0) return a;
      const double r = ramps_.factor(i, tick);
      return r > 0 ? a / r : std::numeric_limits<double>::infinity();
    };
    const auto weight = [&](std::uint32_t i) {
      const double w = static_cast<double>(fleet_.backends[i].target);
      return skip ? w : w * ramps_.factor(i, tick);
    };
    const auto inflight = [&](std::uint32_t i) { return fleet_.active[fleet_.pos_id[i]]; };
    // nginx's least_conn compares `weight` (the configured one, here ramped
    // by slow start as the lab's weights are), not the effective weight.
    const auto ramped_weight = [&](std::uint32_t i) -> std::int64_t {
      const std::int64_t full = fleet_.backends[i].target * resolution_of(o_.curve);
      return policy_ramps() ? static_cast<std::int64_t>(static_cast<double>(full) * ramps_.factor(i, tick)) : full;
    };
    // HAProxy's eweight: the weight in sixteenths (`uweight * BE_WEIGHT_SCALE`)
    // times slowstart's ramp (H10: with HAProxy's curve a whole number of
    // sixteenths, at least 1); 0 while the ramp gives nothing yet.
    const auto eweight = [&](std::uint32_t i) -> std::uint64_t {
      const auto full = static_cast<std::uint64_t>(fleet_.backends[i].target) * 16;
      const double r = policy_ramps() ? ramps_.factor(i, tick) : 1.0;
      if (!(r > 0)) return 0;
      return std::max<std::uint64_t>(1, static_cast<std::uint64_t>(static_cast<double>(full) * r + 1e-9));
    };
    switch (policy_) {
      case Policy::SmoothWrr:
      case Policy::LeastRequest:
      case Policy::StaticRr:
        return pick_weighted_among(cand_);
      case Policy::Random:
        return cand_.empty() ? kNone : pick_random(cand_, weight, rng_);
      case Policy::P2C:
        return cand_.empty() ? kNone : pick_p2c(cand_, score, rng_);
      case Policy::LeastConn:  // resolved to one of the three below (resolve_policy)
      case Policy::CaddyLeastConn:
        return cand_.empty() ? kNone : pick_least_conn(cand_, score, rng_);
      case Policy::NginxLeastConn:
        return pick_nginx_least_conn(cand_, inflight, ramped_weight, ties_,
                                     [&](const std::vector<std::uint32_t>& ties) { return smooth_pick_among(ties); });
      case Policy::HAProxyLeastConn:
        return pick_haproxy_leastconn(cand_, eweight, inflight, leastconn_, fleet_.pos_id);
      case Policy::RoundRobin:
        return cand_.empty() ? kNone : pick_round_robin(fleet_.backends.size(), cand_, robin_, !skip, ramp, rng_);
    }
    return kNone;
  }

  // Envoy's least_request when every host weighs the same and none is in
  // slow start (docs/proxy-rules.md E4; `EdfLoadBalancerBase::refresh` skips
  // the EDF schedule, `LeastRequestLoadBalancer::unweightedHostPickNChoices`):
  // choice_count hosts drawn uniformly *with replacement* (the same host may
  // come twice), the one with the fewest active requests kept, a tie keeping
  // the earlier draw. Drawn among the available backends not yet tried: a
  // uniform position, drawn again if it cannot take the request (a few
  // times; then from the list of those that can).
  std::int32_t pick_unweighted_least_request(const std::uint32_t* tried, std::size_t n_tried) {
    const std::size_t n = fleet_.backends.size();
    const auto can_take = [&](std::size_t i) {
      return fleet_.available(i) && std::find(tried, tried + n_tried, fleet_.pos_id[i]) == tried + n_tried;
    };
    std::int32_t best = kNone;
    for (std::uint32_t draw = 0; draw < o_.choice_count; ++draw) {
      std::int32_t p = kNone;
      for (int attempt = 0; attempt < 8 && n > 0 && p == kNone; ++attempt) {
        const auto i = static_cast<std::size_t>(rng_.below(n));
        if (can_take(i)) p = static_cast<std::int32_t>(i);
      }
      if (p == kNone) {
        cand_.clear();
        meter_.add(kStepsPerScanned * static_cast<double>(n));
        for (std::size_t i = 0; i < n; ++i)
          if (can_take(i)) cand_.push_back(static_cast<std::uint32_t>(i));
        if (cand_.empty()) return kNone;
        p = static_cast<std::int32_t>(cand_[static_cast<std::size_t>(rng_.below(cand_.size()))]);
      }
      if (best == kNone || fleet_.active[fleet_.pos_id[static_cast<std::size_t>(p)]] <
                               fleet_.active[fleet_.pos_id[static_cast<std::size_t>(best)]])
        best = p;
    }
    return best;
  }

  // The weighted pick of a retry: the same pick with the backends already
  // tried at weight 0 for a moment. (The others that are no candidates, down,
  // at weight 0 or left out by a check, weigh 0 already: weigh() says so.)
  std::int32_t pick_weighted_without(const std::uint32_t* tried, std::size_t n_tried) {
    hidden_.clear();
    for (std::size_t k = 0; k < n_tried; ++k) {
      const std::int32_t pos = fleet_.id_pos[tried[k]];
      if (pos == kNone) continue;
      const auto i = static_cast<std::size_t>(pos);
      if (wrr_.weight(i) != 0) hidden_.emplace_back(static_cast<std::uint32_t>(i), wrr_.weight(i)), wrr_.set_weight(i, 0);
    }
    const std::int32_t p = wrr_.pick();
    for (const auto& [i, w] : hidden_) wrr_.set_weight(i, w);
    return p;
  }

  // nginx's smooth weighted round-robin among `among` only (nginx least_conn's
  // tied candidates, positions ascending), on the effective weights the pick
  // sees and least_conn's own current weights (tie_scores_: the SmoothWrr's
  // index would make each update cost a tree's step): each adds its weight to
  // its score, the highest (the first of equals) wins and loses the total.
  // The loop of `ngx_http_upstream_get_least_conn_peer`'s `many` branch.
  std::int32_t smooth_pick_among(const std::vector<std::uint32_t>& among) {
    std::int32_t best = kNone;
    std::int64_t best_score = 0, total = 0;
    for (const std::uint32_t i : among) {
      const std::int64_t w = wrr_.weight(i);
      if (w <= 0) continue;
      const std::int64_t score = tie_scores_[i] += w;
      total += w;
      if (best == kNone || score > best_score) best = static_cast<std::int32_t>(i), best_score = score;
    }
    if (best != kNone) tie_scores_[static_cast<std::size_t>(best)] -= total;
    return best;
  }

  // The weighted pick among `among` only (positions ascending: the skip
  // decorator's candidates): the same pick with everyone else's weight at 0
  // for a moment.
  std::int32_t pick_weighted_among(const std::vector<std::uint32_t>& among) {
    hidden_.clear();
    std::size_t c = 0;
    for (std::size_t i = 0; i < fleet_.backends.size(); ++i) {
      if (c < among.size() && among[c] == i) {
        ++c;
        continue;
      }
      if (wrr_.weight(i) != 0) hidden_.emplace_back(static_cast<std::uint32_t>(i), wrr_.weight(i)), wrr_.set_weight(i, 0);
    }
    const std::int32_t p = wrr_.pick();
    for (const auto& [i, w] : hidden_) wrr_.set_weight(i, w);
    return p;
  }

  // ---- completions, retries and service ----------------------------------

  void complete_until(double t) {
    for (;;) {
      if (over_budget(now_)) return;
      const bool done = !done_.empty() && done_.top().t <= t;
      const bool timer = !timers_.empty() && timers_.top().t <= t;
      const bool due = !due_retries_.empty() && due_retries_.top().t <= t;
      if (!done && !timer && !due) return;
      // At one moment: attempts end first, then retries start, then timers.
      if (due && (!done || due_retries_.top().t < done_.top().t) && (!timer || due_retries_.top().t <= timers_.top().t)) {
        const DueRetry r = due_retries_.top();
        due_retries_.pop();
        retry(r.failed, r.t, true);
        continue;
      }
      if (timer && (!done || timers_.top().t < done_.top().t)) {
        const Timer tm = timers_.top();
        timers_.pop();
        fire(tm);
        continue;
      }
      const Done d = done_.top();
      done_.pop();
      if (d.tries > 1) --retries_in_flight_;
      --fleet_.active[d.id];
      active_changed(d.id);
      bool again = d.failed && d.tries <= o_.retries && d.t < o_.duration && retry_allowed(d);
      // Envoy's back-off (E15): the retry waits a draw below its ceiling, in
      // whole milliseconds; one that would start past the end is not made.
      double back_off = 0;
      if (again && envoy_back_off()) {
        const std::uint64_t ceiling = envoy_back_off_ceiling_ms(o_.retry_back_off_ms, d.tries);
        const auto ms = static_cast<double>(rng_.below(ceiling));
        back_off = ms / 1000.0;
        again = d.t + back_off < o_.duration;
        if (again) waited_ms_[d.slot] += ms;
      }
      report(d.id, d.t, d.failed || d.slow, again);
      if (again && back_off > 0) {
        ++retries_in_flight_;  // taken as the retry is scheduled (`RetryStateImpl::shouldRetry`)
        due_retries_.push(DueRetry{d.t + back_off, d});
        continue;
      }
      if (again) {
        retry(d, d.t, false);
        continue;
      }
      if (d.failed) answer_failed(d);
      if (d.slot != kNoSlot) free_slots_.push_back(d.slot);
    }
  }

  // The bucket the client sent an attempt's request in.
  std::size_t first_bucket(const Done& d) const { return d.tries > 1 ? first_bucket_[d.slot] : d.bucket; }

  // The client's answer: the last attempt `d` timed out.
  void answer_failed(const Done& d) { client_.answered(first_bucket(d), d.tries * o_.timeout_ms + waited_ms(d), true); }

  // What the request's retries before attempt `d` waited out (Envoy's back-off), in ms.
  double waited_ms(const Done& d) const { return d.slot != kNoSlot ? waited_ms_[d.slot] : 0.0; }

  // Envoy's retry circuit breaker (E13; `CircuitBreakers.Thresholds.max_retries`,
  // circuit_breaker.proto): no retry while max_retries are in flight
  // (`upstream_rq_retry_overflow`); the failure goes to the client.
  // With a retry budget (E14) instead, a share of the requests in flight.
  // nginx's own limits (health_nginx.hpp's nginx_passes_on: a single server,
  // each server once, proxy_next_upstream_timeout): every failed attempt
  // before `d` lasted the timeout, and the retry comes at once.
  bool retry_allowed(const Done& d) const {
    switch (o_.health.kind) {
      case HealthKind::None:
      case HealthKind::HAProxy:
        return true;
      case HealthKind::Nginx:
        return nginx_passes_on(fleet_, d.tries, d.tries * o_.timeout_ms, o_.next_upstream_timeout_ms);
      case HealthKind::Envoy:
        return retries_in_flight_ < envoy_retry_limit(o_, done_.size());
    }
    return true;
  }

  // Envoy's retries wait a back-off (E15); with --retry-back-off-ms 0, and
  // for the other balancers, a retry starts at once.
  bool envoy_back_off() const { return o_.health.kind == HealthKind::Envoy && o_.retry_back_off_ms > 0; }
  // Envoy's retry may pick a host the request tried already (no
  // previous_hosts predicate, E15); the others' never does.
  bool retry_elsewhere() const { return o_.health.kind != HealthKind::Envoy || o_.retry_other_host; }

  // The attempt `d` failed: the same request again at `t` (on another
  // backend, unless Envoy's may pick the same). `reserved`: its place among
  // the retries in flight was taken when it was scheduled.
  void retry(const Done& d, double t, bool reserved) {
    meter_.add(steps_per_pick_);
    const std::size_t k = r_.bucket_of(t);
    ++r_.retried[d.bucket * n_ids_ + d.id];
    if (ramps_.pending()) ramp_to(tick_of(t));
    const std::int32_t p = retry_elsewhere() ? pick(tick_of(t), tried_of(d.slot), d.tries) : pick(tick_of(t), nullptr, 0);
    after_pick(p, t);
    ++r_.total[k];
    if (p == kNone) {
      if (reserved) --retries_in_flight_;
      ++r_.unrouted[k];
      answer_failed(d);
      free_slots_.push_back(d.slot);
      return;
    }
    const std::uint32_t id = fleet_.pos_id[static_cast<std::size_t>(p)];
    ++r_.requests[k * n_ids_ + id];
    if (!reserved) ++retries_in_flight_;
    serve(id, t, k, &d);
  }

  // Attempt at backend `id` arriving at `t` (bucket k): its end, as the
  // proxy sees it (the response, or the timeout).
  void serve(std::uint32_t id, double t, std::size_t k, const Done* previous) {
    const std::size_t cell = k * n_ids_ + id;
    const double end = service_.serve(id, t, fleet_.passive[id]);
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
            d.slot = static_cast<std::uint32_t>(first_bucket_.size());
            tried_.resize(tried_.size() + tried_stride());
            first_bucket_.emplace_back();
            waited_ms_.emplace_back();
          } else {
            d.slot = free_slots_.back();
            free_slots_.pop_back();
          }
          first_bucket_[d.slot] = static_cast<std::uint32_t>(k);  // its first attempt
          waited_ms_[d.slot] = 0;
        }
        tried_of(d.slot)[d.tries - 1] = id;
      }
      d.t = t + o_.timeout_ms / 1000.0;
      ++r_.failed[cell];
      latency_sum_[cell] += o_.timeout_ms;
      client_.attempt(k, id, o_.timeout_ms);
    } else {
      // Caddy's unhealthy_latency (docs/proxy-rules.md C1; reverseproxy.go,
      // Handler.reverseProxy: `duration >= UnhealthyLatency` calls
      // countFailure): a slow answer is a failure to the check only.
      d.slow = o_.health.kind == HealthKind::Nginx && o_.health.unhealthy_latency_ms > 0 &&
               latency_ms >= o_.health.unhealthy_latency_ms;
      latency_sum_[cell] += latency_ms;
      client_.attempt(k, id, latency_ms);
      // Answered: the attempts before this one each lasted the timeout.
      client_.answered(first_bucket(d), (d.tries - 1) * o_.timeout_ms + waited_ms(d) + latency_ms, false);
    }
    if (client_.bins() > latency_bins_limit_ && !stopped_) stopped_ = latency_bins_overrun(latency_bins_limit_, t);
    ++fleet_.active[id];
    active_changed(id);
    done_.push(d);
    if (static_cast<double>(done_.size() + service_.held()) > in_flight_limit_ && !stopped_)
      stopped_ = in_flight_overrun(in_flight_limit_, t);
  }

  // ---- arrivals ---------------------------------------------------------

  // Request j arrives at j / rps; its millisecond.
  double arrival(std::uint64_t j) const { return static_cast<double>(j) / o_.rps; }
  static std::int64_t tick_of(double t) { return static_cast<std::int64_t>(std::floor(t * 1000.0)); }

  // Routing only (no service model): the requests of one millisecond share
  // their weights and their bucket, so they are picked in one tight run,
  // carried on over the next milliseconds while no weight changes (run_on).
  // At most `slice_` runs a call: true when there are more to route before
  // `until` (advance_to calls again), false once at `until`, at the end, or
  // over the budget.
  [[gnu::noinline]] bool route_slice(double until) {
    for (std::uint64_t turn = 0; next_ < total_requests_; ++turn) {
      if (turn == slice_) return true;
      const double t = arrival(next_);
      if (t >= until) return false;
      const std::size_t k = r_.bucket_of(t);
      const std::int64_t tick = tick_of(t);
      if (ramps_.pending()) ramp_to(tick);
      // The run ends at the first request of another millisecond or bucket,
      // or at `until` (found from an estimate, then checked request by request).
      const auto same = [&](std::uint64_t j) {
        const double tj = arrival(j);
        return tj < until && tick_of(tj) == tick && r_.bucket_of(tj) == k;
      };
      std::uint64_t end = std::min<std::uint64_t>(
          total_requests_, next_ + 1 + static_cast<std::uint64_t>(std::max(0.0, o_.rps / 1000.0 - 1.0)));
      while (end < total_requests_ && same(end)) ++end;
      while (end > next_ + 1 && !same(end - 1)) --end;
      end = run_on(end, tick, k, until);
      const std::uint32_t* ids = fleet_.pos_id.data();
      std::uint32_t* counts = &r_.requests[k * n_ids_];
      const auto unrouted = static_cast<std::uint32_t>(wrr_.count_many(end - next_, ids, counts));
      r_.total[k] += static_cast<std::uint32_t>(end - next_);
      r_.unrouted[k] += unrouted;
      client_.sent(k, static_cast<std::uint32_t>(end - next_), unrouted);
      meter_.add(kStepsPerRoutedRequest * static_cast<double>(end - next_));
      next_ = end;
      if (over_budget(t)) return false;
    }
    return false;
  }

  // The millisecond's run [next_, end) carried on over the next
  // milliseconds while none of them has a ramp's weight change, in the same
  // bucket and before `until`: those milliseconds would each have routed
  // their requests on the same weights into the same bucket, and SmoothWrr's
  // picks do not depend on how a run of them is cut into calls, so one call
  // routes them all (PL-45). Only while the work meter stays at or below its
  // limit over the whole run (it only grows, so no millisecond inside would
  // have stopped the run) and its whole-number sum exact in a double (2^52).
  std::uint64_t run_on(std::uint64_t end, std::int64_t tick, std::size_t k, double until) const {
    if (!long_runs_) return end;
    const std::int64_t change = ramps_.pending() ? ramps_.next_tick() : std::numeric_limits<std::int64_t>::max();
    // (ramp_to(tick) has weighed every change up to tick: the next one is later.)
    if (change <= tick + 1) return end;
    const auto more = [&](std::uint64_t j) {
      const double tj = arrival(j);
      return tj < until && tick_of(tj) < change && r_.bucket_of(tj) == k;
    };
    // `more` holds for a prefix of the requests from `end` on: gallop, then halve.
    if (end >= total_requests_ || !more(end)) return end;
    std::uint64_t yes = end, step = 1;  // more(yes); the first that fails is after it
    while (step < total_requests_ - yes && more(yes + step)) yes += step, step *= 2;
    std::uint64_t no = std::min<std::uint64_t>(total_requests_, yes + step);  // fails, or the end of the requests
    while (no - yes > 1) {
      const std::uint64_t mid = yes + (no - yes) / 2;
      (more(mid) ? yes : no) = mid;
    }
    const double steps = meter_.steps() + kStepsPerRoutedRequest * static_cast<double>(no - next_);
    if (!(steps <= meter_.limit()) || !(steps <= 0x1p52)) return end;
    return no;
  }

  // Past the work budget (or stopped before): the run goes no further.
  bool over_budget(double t) {
    if (!stopped_ && meter_.over()) stopped_ = work_overrun(meter_.limit(), t, o_.duration);
    return stopped_.has_value();
  }

  // The run from now_ to `until`, in slices of `slice_` turns, each a call of
  // its own: WebAssembly has no on-stack replacement, so a loop that ran in
  // one call from the first request to the last would keep the baseline
  // code (Liftoff) it started with even after V8 has optimised it, the
  // whole run long (about 1.9x slower, PL-34); a slice's next call runs the
  // optimised code. The loop's state lives in the simulator, not in the
  // slice, so a run in slices of any size is the same run
  // (traffic_slices_test.cpp). Each slice function is called from two
  // places: Binaryen's -O3 (the WebAssembly link) inlines a function called
  // from one place whatever its size or `noinline`, which undid the slices
  // in the module (PL-34). route_slice stays a function there; LLVM folds
  // request_slice's two calls into one and it is inlined, which costs
  // little: its loop calls pick, serve and complete_until, each re-entered
  // every request.
  void advance_to(double until) {
    if (stopped_) return;
    if (!per_request_) {
      if (route_slice(until))
        while (route_slice(until)) {
        }
      now_ = std::max(now_, std::min(until, o_.duration));
      return;
    }
    Slice s = request_slice(until);
    if (s == Slice::More)
      while ((s = request_slice(until)) == Slice::More) {
      }
    if (s == Slice::Stopped) return;
    // Events up to `until` (within the run) happen before the script's change there.
    if (o_.service.enabled) complete_until(std::min(until, o_.duration));
    now_ = std::max(now_, std::min(until, o_.duration));
  }

  // How a slice of the run ended: more to do before `until`; `until` (or
  // the last request) reached; or stopped (over the budget, too much in flight).
  enum class Slice { More, Reached, Stopped };

  // Requests one by one, at most `slice_` of them.
  [[gnu::noinline]] Slice request_slice(double until) {
    const double rps = o_.rps;
    const std::size_t samples_per_bucket = 10;
    const bool service = o_.service.enabled;
    for (std::uint64_t turn = 0; next_ < total_requests_; ++turn) {
      if (turn == slice_) return Slice::More;
      const double t = static_cast<double>(next_) / rps;
      if (t >= until) return Slice::Reached;
      now_ = t;
      meter_.add(steps_per_pick_);
      if (over_budget(t)) return Slice::Stopped;
      const auto k = r_.bucket_of(t);
      if (service) {
        complete_until(t);
        if (stopped_) return Slice::Stopped;
        if (k != reached_) {  // no attempt arrives before t any more
          reached_ = k;
          meter_.add(kStepsPerLatencyBin * static_cast<double>(client_.reached(k)));
        }
        // Sample outstanding requests at fixed points of each bucket.
        const auto sample = static_cast<std::uint64_t>(t / (o_.bucket / samples_per_bucket));
        if (sample != last_sample_) {
          last_sample_ = sample;
          const auto sk = static_cast<std::size_t>(sample / samples_per_bucket);
          if (sk < r_.buckets) {
            meter_.add(static_cast<double>(n_ids_));
            for (std::size_t id = 0; id < n_ids_; ++id)
              r_.outstanding[sk * n_ids_ + id] += static_cast<double>(fleet_.active[id]) / samples_per_bucket;
          }
        }
      }
      // Ramps are weighed at the request's millisecond (the clock resolution
      // of nginx and Envoy).
      const std::int64_t tick = tick_of(t);
      if (ramps_.pending()) ramp_to(tick);
      const std::int32_t p = pick(tick, nullptr, 0);
      after_pick(p, t);
      ++r_.total[k];
      client_.sent(k, p != kNone);
      if (p == kNone) {
        ++r_.unrouted[k];
      } else {
        const std::uint32_t id = fleet_.pos_id[static_cast<std::size_t>(p)];
        ++r_.requests[k * n_ids_ + id];
        if (service) serve(id, t, k, nullptr);
      }
      ++next_;
    }
    return Slice::Reached;
  }

  const TrafficOptions& o_;
  const Policy policy_;  // o_.policy resolved (`least-conn` is the balancer's own)
  const NameIds& ids_;
  TrafficResult& r_;
  std::size_t n_ids_;
  SplitMix64 rng_;
  bool per_request_ = false;
  std::vector<std::uint8_t> slow_start_;  // least-request: by position, weighed below full by its ramp
  std::size_t slow_starting_ = 0;
  bool equal_weights_ = true;
  std::uint64_t retries_in_flight_ = 0;  // attempts after the first, not yet ended
  double now_ = 0;  // the scenario's time reached
  WorkMeter meter_;
  double in_flight_limit_;
  double latency_bins_limit_;
  std::uint64_t slice_;  // the event loop's turns a call (RunLimits::slice)
  bool long_runs_;       // RunLimits::long_runs
  double steps_per_pick_ = 0;
  std::vector<std::int64_t> group_weights_;  // ramp_to's
  Problem stopped_;

  Fleet fleet_;
  ServiceTimes service_;
  NginxCheck nginx_;
  HAProxyCheck haproxy_;
  EnvoyCheck envoy_;
  ClientView client_;  // the client's figures, and the latencies' percentiles
  std::size_t reached_ = 0;  // the bucket the arrivals reached

  // Position-aligned with the pool.
  Ramps ramps_{o_, fleet_, meter_};
  SmoothWrr wrr_;                     // the pick, with the weights it sees
  std::vector<std::uint32_t> cand_;   // one pick's candidates (positions, ascending)
  std::vector<std::pair<std::uint32_t, std::int64_t>> hidden_;
  std::vector<std::uint32_t> ties_;    // nginx least_conn: the candidates tied with the best
  std::vector<std::int64_t> tie_scores_;  // nginx least_conn: its current weights (by position)
  LeastconnQueue leastconn_;           // HAProxy leastconn: its servers' order among equal keys (by id)
  std::size_t robin_ = static_cast<std::size_t>(-1);

  // By backend id (survive POOL).
  std::size_t pools_ = 0;                    // POOL lines so far (the first is the start)
  std::vector<std::int64_t> kept_start_ms_;  // --slow-start: its last ramp's start and window
  std::vector<std::int64_t> kept_window_;    // (Envoy keeps them across a reload)
  std::vector<double> latency_sum_;
  std::vector<StateChange> lane_log_;
  EventQueue<Done> done_{o_.rps};  // the attempts in flight, by their end
  // The backends a retried request tried: o_.retries entries per slot (the
  // retries a request may have, up to kMaxRetries: nginx's tries 0 is every
  // server once), so a run pays for the retries it allows.
  std::vector<std::uint32_t> tried_;
  std::size_t tried_stride() const { return std::max<std::size_t>(o_.retries, 1); }
  std::uint32_t* tried_of(std::uint32_t slot) { return tried_.data() + slot * tried_stride(); }
  std::vector<std::uint32_t> first_bucket_;  // by tried_'s slot: the bucket its request was sent in
  std::vector<double> waited_ms_;            // by tried_'s slot: its retries' back-offs so far, ms
  std::vector<std::uint32_t> free_slots_;
  std::priority_queue<Timer, std::vector<Timer>, std::greater<>> timers_;
  // Envoy's retries waiting out their back-off: when each starts, and the
  // attempt that failed.
  struct DueRetry {
    double t;
    Done failed;
    bool operator>(const DueRetry& o) const { return t != o.t ? t > o.t : failed > o.failed; }
  };
  std::priority_queue<DueRetry, std::vector<DueRetry>, std::greater<>> due_retries_;

  std::uint64_t next_ = 0, total_requests_ = 0;
  std::uint64_t last_sample_ = std::numeric_limits<std::uint64_t>::max();
};

}  // namespace

namespace {

// Pass 1 over the script: its names, diagnostics and end; what the budget needs of it.
ScanSink scan_script(std::string_view script, CurveRules& rules, const TrafficOptions& options) {
  ScanSink scan;
  scan.options = &options;
  Interpreter in(scan);
  in.set_rules(&rules);
  in.feed_text(script);
  return scan;
}

ScriptFacts facts_of(std::string_view script, const ScanSink& scan) {
  std::size_t name_bytes = 0;
  for (const std::string& name : scan.ids.names()) name_bytes += name.size();
  return ScriptFacts{script.size(), scan.ids.names().size(), name_bytes, scan.end};
}

}  // namespace

TrafficMeasure measure_traffic(std::string_view script, const TrafficOptions& options) {
  TrafficMeasure m;
  if ((m.problem = check_traffic_options(options))) return m;
  if ((m.problem = script_too_large(script.size()))) {
    m.too_large = true;
    return m;
  }
  CurveRules rules(options.curve);
  ScanSink scan = scan_script(script, rules, options);
  m.size = size_of(options, facts_of(script, scan));
  m.diagnostics = std::move(scan.diagnostics);
  m.too_large = (m.problem = over_budget(m.size, options)).has_value();
  return m;
}

TrafficResult simulate_traffic(std::string_view script, const TrafficOptions& options, const RunLimits& limits) {
  TrafficResult r;
  if ((r.problem = check_traffic_options(options))) return r;
  if ((r.problem = script_too_large(script.size()))) {
    r.too_large = true;
    return r;
  }
  // The script's own pool only says who is in it and since when: its rules
  // are the curve's plain ones (no pick index to keep up; the simulation
  // weighs and picks itself).
  CurveRules rules(options.curve);
  ScanSink scan = scan_script(script, rules, options);
  r.diagnostics = std::move(scan.diagnostics);
  r.ignored_ramps = std::move(scan.ramp_lines);
  r.names = scan.ids.names();
  TrafficOptions o = options;
  o.curve.resolution = resolution_of(o.curve);  // the curve's own unless set
  const ScenarioSize size = size_of(o, facts_of(script, scan));
  o.duration = size.duration;
  if ((r.problem = over_budget(size, o))) {
    r.too_large = true;
    return r;
  }
  r.duration = o.duration;
  r.bucket = o.bucket;
  r.buckets = static_cast<std::size_t>(size.buckets);
  const std::size_t cells = r.buckets * r.names.size();
  r.requests.assign(cells, 0);
  r.state.assign(cells, 0);
  if (o.service.enabled) {  // routing only serves nothing: these stay empty (result.hpp)
    r.outstanding.assign(cells, 0.0);
    r.latency_ms.assign(cells, 0.0);
    r.failed.assign(cells, 0);
    r.retried.assign(cells, 0);
    r.p50_ms.assign(cells, 0.0f);
    r.p99_ms.assign(cells, 0.0f);
  }
  r.unrouted.assign(r.buckets, 0);
  r.total.assign(r.buckets, 0);
  r.client_requests.assign(r.buckets, 0);
  r.client_failed.assign(r.buckets, 0);
  r.client_p50_ms.assign(r.buckets, 0.0f);
  r.client_p99_ms.assign(r.buckets, 0.0f);
  r.ejections.assign(r.names.size(), 0);
  r.seconds_ejected.assign(r.names.size(), 0.0);
  r.run_p50_ms.assign(r.names.size(), -1.0f);
  r.run_p99_ms.assign(r.names.size(), -1.0f);
  Simulator sim(o, scan, r, limits);
  sim.meter().add(static_cast<double>(cells) * kStepsPerCell + static_cast<double>(script.size()) * kStepsPerScriptByte);
  {
    Interpreter in(sim);
    in.set_rules(&rules);
    in.feed_text(script);
  }
  sim.finish();
  if (sim.stopped()) {
    // Over the budget as it ran: no result, only why (and the script's diagnostics).
    std::vector<Diagnostic> diagnostics = std::move(r.diagnostics);
    r = TrafficResult{};
    r.diagnostics = std::move(diagnostics);
    r.problem = sim.stopped();
    r.too_large = true;
  }
  return r;
}

}  // namespace slowstart
