// The traffic simulation against nginx-mod's published measurement, the
// weight-1 jump, and the least-request trap.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "spec/pick.hpp"
#include "traffic/traffic.hpp"

using namespace slowstart;

namespace {
// Two weight-1 peers; B joins with a 30 s ramp (nginx-mod's experiment).
constexpr const char* kNginxMod = "POOL a=1\nADD b=1 30\n";

double share_at(const TrafficResult& r, double t, std::size_t id) {
  return 100.0 * r.share(static_cast<std::size_t>(t / r.bucket), id);
}
}  // namespace

TEST(Traffic, ReproducesNginxModMeasurementAtResolution100) {
  TrafficOptions o;
  o.rps = 1000;
  o.duration = 40;
  o.bucket = 0.5;  // a sample: the half second after each mark
  o.curve.resolution = 100;
  const auto r = simulate_traffic(kNginxMod, o);
  ASSERT_TRUE(r.diagnostics.empty());
  ASSERT_EQ(r.names, (std::vector<std::string>{"a", "b"}));
  // nginx-mod measured B at 3.5 %, 25.0 %, 49.5 %, 50.0 %.
  EXPECT_NEAR(share_at(r, 1, 1), 3.5, 0.5);
  EXPECT_NEAR(share_at(r, 10, 1), 25.0, 0.5);
  EXPECT_NEAR(share_at(r, 29, 1), 49.5, 0.5);
  EXPECT_NEAR(share_at(r, 31, 1), 50.0, 0.5);
}

TEST(Traffic, WeightOneJumpsAtResolutionOne) {
  TrafficOptions o;
  o.curve.resolution = 1;  // the linear curve's own is 100: see DefaultResolutionFollowsTheCurve
  o.rps = 1000;
  o.duration = 40;
  const auto r = simulate_traffic(kNginxMod, o);
  // Integer weights: 1 * e / 30 rounds down to 0 for the whole window...
  for (double t = 0; t < 30; t += 1) EXPECT_EQ(share_at(r, t, 1), 0.0) << t;
  // ...then B jumps straight to half the traffic.
  EXPECT_DOUBLE_EQ(share_at(r, 30, 1), 50.0);
  EXPECT_DOUBLE_EQ(share_at(r, 35, 1), 50.0);
}

TEST(Traffic, CountsEveryRequestOnce) {
  TrafficOptions o;
  o.rps = 100;
  o.duration = 10;
  const auto r = simulate_traffic("POOL a=3 b=1\nNOW 5\nDOWN a\nDOWN b\n", o);
  ASSERT_EQ(r.buckets, 10u);
  // 100 requests a second; 3:1 while both are up; none routed after NOW 5.
  EXPECT_EQ(r.total[0], 100u);
  EXPECT_EQ(r.requests[0 * 2 + 0], 75u);
  EXPECT_EQ(r.requests[0 * 2 + 1], 25u);
  EXPECT_EQ(r.unrouted[4], 0u);
  EXPECT_EQ(r.unrouted[5], 100u);
}

TEST(Traffic, BadLinesAreDiagnosedAndOptionsChecked) {
  TrafficOptions o;
  o.duration = 1;
  const auto r = simulate_traffic("POOL a=1\nADD b=x 3\n", o);
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(r.diagnostics[0].line, 2u);
  EXPECT_FALSE(r.problem);
  EXPECT_EQ(r.buckets, 1u);  // a bad line changes nothing: the simulation runs
  o.rps = 0;
  const auto bad = simulate_traffic("POOL a=1\nPOOL\n", o);
  EXPECT_EQ(bad.problem, "rps must be a number above 0");
  EXPECT_TRUE(bad.diagnostics.empty());  // the problem is no line's
  EXPECT_EQ(bad.buckets, 0u);
  o.rps = 1e7;
  o.duration = 1e3;
  const auto large = simulate_traffic("POOL a=1\nADD b=x 3\n", o);
  ASSERT_TRUE(large.problem);
  EXPECT_EQ(*large.problem, "simulation too large: 10000000000 requests (at most 1000000000); lower rps or duration");
  ASSERT_EQ(large.diagnostics.size(), 1u);  // the script's own diagnostics are still there
  EXPECT_EQ(large.diagnostics[0].line, 2u);
  EXPECT_EQ(large.buckets, 0u);
}

TEST(Traffic, PolicyWorkersAndResolutionAreParsedInOnePlace) {
  Policy policy = Policy::SmoothWrr;
  EXPECT_FALSE(parse_policy("least-request", policy));
  EXPECT_EQ(policy, Policy::LeastRequest);
  EXPECT_EQ(parse_policy("LRU", policy), "policy must be wrr, least-request, random, p2c, least-conn, round-robin, caddy-least-conn, "
            "nginx-least-conn, haproxy-leastconn or static-rr, got 'LRU'");
  EXPECT_EQ(policy, Policy::LeastRequest);  // unchanged
  ServiceModel s;
  EXPECT_FALSE(set_workers(10'000, s));
  EXPECT_EQ(s.workers, 10'000u);
  for (double bad : {0.0, 10'001.0, 2.5, -1.0})
    EXPECT_EQ(set_workers(bad, s), "workers must be between 1 and 10000") << bad;
  EXPECT_EQ(s.workers, 10'000u);
  Curve c;
  EXPECT_FALSE(set_resolution(16, "16", c));
  EXPECT_EQ(c.resolution, 16);
  EXPECT_EQ(set_resolution(2.5, "2.5", c), "resolution must be 0, 1, 16, 100 or 1000, got '2.5'");
  EXPECT_EQ(c.resolution, 16);
  c.resolution = 3;
  EXPECT_EQ(check_curve(c), "resolution must be 0, 1, 16, 100 or 1000, got '3'");
}

// The least-request trap: four warm backends, a fifth joins cold at 10 s.
// Warm: 200 ms per request, 128 workers; cold: 5x slower, warming over 30 s.
namespace {
TrafficResult trap(bool slow_start) {
  TrafficOptions o;
  o.rps = 2000;
  o.duration = 50;
  o.bucket = 0.25;
  o.policy = Policy::LeastRequest;
  o.slow_start = slow_start;
  o.curve.resolution = 100;
  o.service.enabled = true;
  return simulate_traffic("POOL a=1 b=1 c=1 d=1\nNOW 10\nADD e=1 30\n", o);
}

double peak_latency(const TrafficResult& r, std::size_t id) {
  double peak = 0;
  for (std::size_t k = 0; k < r.buckets; ++k) peak = std::max(peak, r.latency_ms[k * r.names.size() + id]);
  return peak;
}
}  // namespace

// Without slow start every host weighs 1: Envoy's least_request is then two
// random choices (docs/proxy-rules.md E4), not weight / (active + 1). Worked
// by hand: at 2,000 a second the four warm hosts hold about 80 requests each
// in flight (400 a second x 200 ms); e joins with none, so for its first
// twentieth of a second (100 picks: it holds fewer than 80 by then) it wins
// every pick it is drawn for: 1 - (4/5)^2 = 36 % of them, not all. Then the two choices keep its in-flight count near the
// others', and e, five times slower, completes a fifth as many a second: its
// share falls far below a fifth (about 100 of 2,000), and its requests never
// wait long (the weighted formula queued them past 1.5 s).
TEST(Traffic, LeastRequestWithEqualWeightsIsTwoRandomChoices) {
  TrafficOptions o;
  o.rps = 2000;
  o.duration = 14;
  o.bucket = 0.05;
  o.policy = Policy::LeastRequest;
  o.slow_start = false;
  o.curve.resolution = 100;
  o.service.enabled = true;
  const TrafficResult r = simulate_traffic("POOL a=1 b=1 c=1 d=1\nNOW 10\nADD e=1 30\n", o);
  const std::size_t e = 4, first = 200;
  EXPECT_NEAR(r.share(first, e), 0.36, 0.12);
  double later = 0;
  for (std::size_t k = first + 10; k < first + 40; ++k) later += r.share(k, e);
  EXPECT_LT(later / 30, 0.10);
  EXPECT_LT(peak_latency(r, e), 1500.0);
  // choice_count 5 (draws with replacement): e is drawn at least once in
  // 1 - (4/5)^5 = 67 % of the first picks.
  o.choice_count = 5;
  EXPECT_NEAR(simulate_traffic("POOL a=1 b=1 c=1 d=1\nNOW 10\nADD e=1 30\n", o).share(first, e), 0.67, 0.12);
}

// With slow start e is in slow start, so Envoy weighs every host (the EDF
// path, E5): weight x ramp / (active + 1), which keeps e's share small while
// it is cold.
TEST(Traffic, LeastRequestWithRampProtectsTheColdHost) {
  const auto slow = trap(true), fast = trap(false);
  const std::size_t e = 4, first = static_cast<std::size_t>(10 / 0.25);
  for (std::size_t k = first; k < first + 20; ++k) EXPECT_LT(slow.share(k, e), 0.20) << k;
  // No queue: latency stays within the cold service time (1 s)...
  EXPECT_LE(peak_latency(slow, e), 1000.0 + 1e-6);
  EXPECT_LT(peak_latency(slow, e), peak_latency(fast, e));
  // And once warm, both converge to the fair share.
  EXPECT_NEAR(slow.share(static_cast<std::size_t>(45 / 0.25), e), 0.20, 0.01);
}

// The simulation against a naive one: every request weighs every backend at
// its millisecond with the curve and picks with smooth_pick over plain
// arrays. The simulation's own ramp schedule (jumping from one weight change
// to the next) and its pick (SmoothWrr) must give the same counts, bucket by
// bucket, for every curve and resolution, also for pools large enough for
// the pick's index and with the clock set back.
namespace {

class NaiveTraffic : public ScriptSink {
 public:
  NaiveTraffic(const TrafficOptions& o, const TrafficResult& r) : o_(o), r_(r) {
    counts_.assign(r.requests.size(), 0);
  }
  void output(std::uint64_t, std::string_view) override {}
  void diagnostic(std::uint64_t, std::string_view, Span) override {}
  void applied(std::uint64_t, const Command& cmd, const Pool& pool) override {
    route_until(static_cast<double>(pool.now()));
    const std::size_t n = pool.size();
    backends_.clear();
    for (std::size_t i = 0; i < n; ++i) backends_.push_back(pool.backend(i));
    if (cmd.op == Op::Pool) scores_.assign(n, 0);
    scores_.resize(n, 0);
    if (cmd.op == Op::Add || cmd.op == Op::Up) scores_[static_cast<std::size_t>(pool.find(cmd.name))] = 0;
  }
  const std::vector<std::uint32_t>& finish() {
    route_until(o_.duration);
    return counts_;
  }

 private:
  void route_until(double until) {
    for (;; ++next_) {
      const double t = static_cast<double>(next_) / o_.rps;
      if (t >= until || t >= o_.duration) return;
      const auto tick = static_cast<std::int64_t>(std::floor(t * 1000.0));
      std::vector<std::int64_t> w(backends_.size());
      for (std::size_t i = 0; i < w.size(); ++i) {
        const Backend& b = backends_[i];
        const bool ramps = o_.slow_start && b.ramp > 0 && !(o_.curve.kind == CurveKind::HAProxy && b.how != Joined::Up);
        if (!b.up) w[i] = 0;
        else if (!ramps) w[i] = b.target * o_.curve.resolution;
        else w[i] = curve_weight_ms(o_.curve, b.target, b.ramp, tick - b.joined * 1000, b.how == Joined::Up);
      }
      const std::int32_t p = smooth_pick(w.data(), scores_.data(), w.size());
      if (p == kNone) continue;
      const auto k = std::min(r_.buckets - 1, static_cast<std::size_t>(t / o_.bucket));
      const auto id = std::find(r_.names.begin(), r_.names.end(), backends_[static_cast<std::size_t>(p)].name) - r_.names.begin();
      ++counts_[k * r_.names.size() + static_cast<std::size_t>(id)];
    }
  }
  const TrafficOptions& o_;
  const TrafficResult& r_;
  std::vector<Backend> backends_;
  std::vector<std::int64_t> scores_;
  std::vector<std::uint32_t> counts_;
  std::uint64_t next_ = 0;
};

std::string rolling_restart(int backends) {
  std::string s = "POOL";
  for (int i = 0; i < backends; ++i) s += " b" + std::to_string(i) + "=" + std::to_string(1 + i % 7);
  s += "\nNOW 3\nADD late=4 20\n";
  for (int wave = 0; wave < 4; ++wave) {
    s += "NOW " + std::to_string(5 + wave * 9) + "\n";
    for (int i = wave; i < backends; i += 4) s += "DOWN b" + std::to_string(i) + "\n";
    s += "NOW " + std::to_string(8 + wave * 9) + "\n";
    for (int i = wave; i < backends; i += 4) s += "UP b" + std::to_string(i) + " " + std::to_string(7 + i % 5) + "\n";
  }
  return s + "NOW 20\nUP late 15\nNOW 12\nADD b1=9 30\n";  // the clock set back, an ADD in place
}

}  // namespace

TEST(Traffic, RampScheduleAndPickMatchANaiveSimulation) {
  for (int backends : {5, 48}) {
    for (const char* curve : {"linear", "envoy", "haproxy"}) {
      for (std::int64_t resolution : {1, 16, 100, 1000}) {
        TrafficOptions o;
        o.rps = 1500;
        o.duration = 60;
        o.bucket = 2;
        ASSERT_FALSE(parse_curve_kind(curve, o.curve.kind));
        o.curve.resolution = resolution;
        o.curve.aggression = 1.7;
        const std::string script = rolling_restart(backends);
        const TrafficResult r = simulate_traffic(script, o);
        ASSERT_TRUE(r.diagnostics.empty());
        NaiveTraffic naive(o, r);
        Interpreter in(naive);
        in.feed_text(script);
        EXPECT_EQ(naive.finish(), r.requests)
            << backends << " backends, curve " << curve << ", resolution " << resolution;
      }
    }
  }
}
