// Envoy's success-rate and failure-percentage detection, retry budget and
// route retry policy (docs/proxy-rules.md E10, E11, E14, E15), each worked by
// hand from Envoy's source: Envoy is not packaged here, so these cases are
// the evidence. The formulas are in the comments; the engine's rules in
// cpp/traffic/health_envoy.* and cpp/traffic/retries_envoy.*.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "traffic/health_envoy.hpp"
#include "traffic/retries_envoy.hpp"
#include "traffic/traffic.hpp"

using namespace slowstart;

namespace {

// Hosts with `total` requests each and these success rates (percent).
std::vector<IntervalCounts> hosts_at(std::initializer_list<std::uint32_t> successes, std::uint32_t total) {
  std::vector<IntervalCounts> v;
  for (const std::uint32_t s : successes) v.push_back({total, s});
  return v;
}

Outliers outliers_of(const HealthCheck& c, const std::vector<IntervalCounts>& hosts, std::size_t cluster) {
  Outliers out;
  find_outliers(c, hosts, cluster, out);
  return out;
}

}  // namespace

// ---- E10: success rate (`successRateEjectionThreshold`) ---------------------

// The brief's case: 5 hosts, 100 requests each, success rates 100, 100, 100,
// 100, 60. mean = 460 / 5 = 92; deviations 8, 8, 8, 8, -32; variance =
// (4 x 64 + 1024) / 5 = 256; stdev 16; threshold = 92 - 1.9 x 16 = 61.6.
// 60 < 61.6: the fifth is an outlier.
TEST(EnvoySuccessRate, FiveHostsOneAtSixty) {
  const HealthCheck c;
  const Outliers o = outliers_of(c, hosts_at({100, 100, 100, 100, 60}, 100), 5);
  ASSERT_TRUE(o.success_rate_evaluated);
  EXPECT_DOUBLE_EQ(o.mean, 92.0);
  EXPECT_NEAR(o.threshold, 61.6, 1e-9);
  EXPECT_EQ(o.below_success_rate, (std::vector<std::size_t>{4}));
  EXPECT_TRUE(o.failure_percentage.empty());  // 40 % failing: below 85
}

// Envoy's own comment's case: {50, 100, 100, 100, 100}: mean 90, variance
// 400, stdev 20, threshold 90 - 38 = 52; 50 is below.
TEST(EnvoySuccessRate, EnvoysCommentCase) {
  const Outliers o = outliers_of(HealthCheck{}, hosts_at({50, 100, 100, 100, 100}, 100), 5);
  EXPECT_DOUBLE_EQ(o.mean, 90.0);
  EXPECT_NEAR(o.threshold, 52.0, 1e-9);
  EXPECT_EQ(o.below_success_rate, (std::vector<std::size_t>{0}));
}

// One host below n - 1 equal ones is sqrt(n - 1) deviations below the mean
// (mean = a - d / n, stdev = d sqrt(n - 1) / n for a gap d): 2 with 5 hosts,
// above 1.9, so however small the gap it is ejected. 99 among 100s: mean
// 99.8, stdev 0.4, threshold 99.8 - 0.76 = 99.04 > 99. A factor of 2000
// (2.0 deviations) keeps it: the threshold is 99.0 and 99 is not below it.
TEST(EnvoySuccessRate, AnyGapIsAnOutlierAmongFiveEqualHosts) {
  HealthCheck c;
  Outliers o = outliers_of(c, hosts_at({100, 100, 100, 100, 99}, 100), 5);
  EXPECT_NEAR(o.threshold, 99.04, 1e-9);
  EXPECT_EQ(o.below_success_rate, (std::vector<std::size_t>{4}));
  c.success_rate_stdev_factor = 2000;
  o = outliers_of(c, hosts_at({100, 100, 100, 100, 99}, 100), 5);
  EXPECT_NEAR(o.threshold, 99.0, 1e-9);
  EXPECT_TRUE(o.below_success_rate.empty());
}

// Two bad hosts hide each other: 100, 100, 100, 60, 60: mean 84, variance
// (3 x 256 + 2 x 576) / 5 = 384, stdev 19.60, threshold 84 - 37.23 = 46.77:
// neither 60 is below it.
TEST(EnvoySuccessRate, TwoBadHostsHideEachOther) {
  const Outliers o = outliers_of(HealthCheck{}, hosts_at({100, 100, 100, 60, 60}, 100), 5);
  EXPECT_DOUBLE_EQ(o.mean, 84.0);
  EXPECT_NEAR(o.threshold, 84.0 - 1.9 * std::sqrt(384.0), 1e-9);
  EXPECT_NEAR(o.threshold, 46.77, 0.01);
  EXPECT_TRUE(o.below_success_rate.empty());
}

// The request volume and the minimum hosts: a host with 99 requests (below
// 100) does not count, leaving 4 valid hosts, fewer than 5: not evaluated.
// With 6 hosts, five of them valid, it is evaluated without the sixth: the
// low one among the valid is ejected, the 99-request host never is, however
// low its rate. A cluster of 4 hosts stops before looking (fewer than both
// minimums). All equal: stdev 0, threshold = mean, nobody strictly below.
TEST(EnvoySuccessRate, RequestVolumeAndMinimumHosts) {
  const HealthCheck c;
  std::vector<IntervalCounts> h = hosts_at({100, 100, 100, 100}, 100);
  h.push_back({99, 0});
  Outliers o = outliers_of(c, h, 5);
  EXPECT_FALSE(o.success_rate_evaluated);
  EXPECT_EQ(o.mean, -1);
  EXPECT_TRUE(o.below_success_rate.empty());
  h.push_back({100, 80});
  o = outliers_of(c, h, 6);
  ASSERT_TRUE(o.success_rate_evaluated);
  EXPECT_DOUBLE_EQ(o.mean, 96.0);  // (400 + 80) / 5
  EXPECT_EQ(o.below_success_rate, (std::vector<std::size_t>{5}));
  EXPECT_FALSE(outliers_of(c, hosts_at({100, 100, 100, 0}, 100), 4).success_rate_evaluated);
  o = outliers_of(c, hosts_at({90, 90, 90, 90, 90}, 100), 5);
  EXPECT_DOUBLE_EQ(o.threshold, 90.0);
  EXPECT_TRUE(o.below_success_rate.empty());
  // A host with no request has no rate at all: skipped, not a 0 %.
  h = hosts_at({100, 100, 100, 100, 100}, 100);
  h.push_back({0, 0});
  o = outliers_of(c, h, 6);
  EXPECT_DOUBLE_EQ(o.mean, 100.0);
  EXPECT_TRUE(o.below_success_rate.empty());
}

// ---- E11: failure percentage --------------------------------------------

// 5 hosts of 50 requests (the volume): failing 85 %, 84 %, 100 %, 0, 0. A
// host failing at least 85 % is an outlier: the first and third. With 49
// requests the first would not count (below the volume), and with only four
// hosts of enough volume nothing is looked at (minimum hosts 5).
TEST(EnvoyFailurePercentage, AtLeastTheThreshold) {
  const HealthCheck c;
  std::vector<IntervalCounts> h = {{100, 15}, {100, 16}, {100, 0}, {100, 100}, {100, 100}};
  Outliers o = outliers_of(c, h, 5);
  EXPECT_EQ(o.failure_percentage, (std::vector<std::size_t>{0, 2}));
  h = {{50, 7}, {50, 8}, {50, 0}, {50, 50}, {50, 50}};  // 86 %, 84 %, 100 %
  o = outliers_of(c, h, 5);
  EXPECT_EQ(o.failure_percentage, (std::vector<std::size_t>{0, 2}));
  EXPECT_FALSE(o.success_rate_evaluated);  // 50 requests: below success rate's 100
  h[1].total = 49;
  EXPECT_TRUE(outliers_of(c, h, 5).failure_percentage.empty());
  HealthCheck four = c;
  four.failure_percentage_minimum_hosts = 4;
  EXPECT_EQ(outliers_of(four, h, 5).failure_percentage, (std::vector<std::size_t>{0, 2}));
}

// ---- E10, E11 in a run ---------------------------------------------------

namespace {

// Five hosts a..e of weight 1, 60 requests a second: smooth WRR gives each
// every fifth, e the requests j = 5m + 4 at j / 60 s. e restarts cold at 0
// (cold factor 11, warming over 10 s of time): its service time at t is
// 100 x (1 + 10 (1 - t / 10)) ms, above the 500 ms timeout while t < 6. In
// the first interval [0, 10) e's arrivals m = 0 ... 71 (t < 6) fail at
// t + 0.5 (72 failures); m = 72 ... 117 are answered before 10 (t + 1.1 +
// ... : t + 0.1 + (1 - t / 10) < 10 for t < 9.889): 46 successes; 118
// responses, success rate 39.0 %. a, b, c, d: 100 ms each, 119 answered
// before 10 (the 120th at 9.9x ends past 10), all successes. At the sweep
// at 10 s: five valid hosts (119, 119, 119, 119, 118 >= 100), one low among
// four at 100 %: two deviations down, below 1.9: e is ejected at 10 and back
// at the sweep at 40 (base_ejection_time 30), warm. consecutive_5xx is set
// out of reach so that only the sweep ejects.
TrafficOptions five_hosts() {
  TrafficOptions o;
  o.rps = 60;
  o.duration = 45;
  o.bucket = 1;
  o.service.enabled = true;
  o.service.base_ms = 100;
  o.service.cold_factor = 11;
  o.service.warmup = 10;
  o.service.warm_by = WarmBy::Time;
  o.timeout_ms = 500;
  o.health.kind = HealthKind::Envoy;
  o.health.consecutive_5xx = 1'000'000;
  o.health.max_ejection_percent = 20;  // one host of five (the default 10 % allows none)
  return o;
}
constexpr const char* kFive = "POOL a=1 b=1 c=1 d=1 e=1\nUP e 0\n";
constexpr std::size_t E = 4;

std::uint32_t total(const std::vector<std::uint32_t>& v) {
  std::uint32_t n = 0;
  for (const auto x : v) n += x;
  return n;
}

BackendState state_at(const TrafficResult& r, std::size_t k, std::size_t id) {
  return static_cast<BackendState>(r.state[k * r.names.size() + id]);
}

}  // namespace

TEST(EnvoySuccessRateRun, TheSweepEjectsTheLowHost) {
  const TrafficOptions o = five_hosts();
  const TrafficResult r = simulate_traffic(kFive, o);
  ASSERT_FALSE(r.problem) << *r.problem;
  EXPECT_EQ(r.ejections[E], 1u);
  EXPECT_EQ(total(r.ejections), 1u);
  EXPECT_NEAR(r.seconds_ejected[E], 30.0, 1e-9);  // out from the sweep at 10 to the sweep at 40
  EXPECT_EQ(state_at(r, 9, E), BackendState::Serving);
  EXPECT_EQ(state_at(r, 10, E), BackendState::Ejected);
  EXPECT_EQ(state_at(r, 39, E), BackendState::Ejected);
  EXPECT_EQ(state_at(r, 40, E), BackendState::Serving);
  // Its 72 failures, all in the first 6.5 s; none after its return.
  std::uint32_t failed = 0;
  for (std::size_t k = 0; k < r.buckets; ++k) failed += r.failed[k * r.names.size() + E];
  EXPECT_EQ(failed, 72u);
}

TEST(EnvoySuccessRateRun, TheRulesAroundIt) {
  const auto ejections = [](const TrafficOptions& o, const char* script = kFive) {
    const TrafficResult r = simulate_traffic(script, o);
    EXPECT_FALSE(r.problem);
    return total(r.ejections);
  };
  TrafficOptions o = five_hosts();
  // max_ejection_percent 10 (the default): (0 + 1) / 5 = 20 % > 10: none;
  // with always_eject_one_host, one.
  o.health.max_ejection_percent = 10;
  EXPECT_EQ(ejections(o), 0u);
  o.health.always_eject_one_host = true;
  EXPECT_EQ(ejections(o), 1u);
  // Detected, not enforced.
  o = five_hosts();
  o.health.enforcing_success_rate = 0;
  EXPECT_EQ(ejections(o), 0u);
  // The request volume: e answered 118 in the interval, the others 119.
  o = five_hosts();
  o.health.success_rate_request_volume = 118;
  EXPECT_EQ(ejections(o), 1u);
  o.health.success_rate_request_volume = 119;  // e does not count: four valid hosts
  EXPECT_EQ(ejections(o), 0u);
  // Six hosts needed: none.
  o = five_hosts();
  o.health.success_rate_minimum_hosts = 6;
  EXPECT_EQ(ejections(o), 0u);
  // Four hosts (no d; e gets every fourth request): fewer than five, never
  // looked at. Allowed with four, e is still kept: one low host among three
  // equal ones is sqrt(3) = 1.73 deviations down, not below 1.9; at a factor
  // of 1.7 it is.
  o = five_hosts();
  o.health.max_ejection_percent = 25;
  const char* four = "POOL a=1 b=1 c=1 e=1\nUP e 0\n";
  EXPECT_EQ(ejections(o, four), 0u);
  o.health.success_rate_minimum_hosts = 4;
  EXPECT_EQ(ejections(o, four), 0u);
  o.health.success_rate_stdev_factor = 1700;
  EXPECT_EQ(ejections(o, four), 1u);
}

// Failure percentage on the same run, success rate not enforced: e failed
// 72 of its 118 responses, 61.02 %. At threshold 61 it is ejected (once, at
// 10 s); at 62 it is not; at the default enforcing 0 it is only detected.
// With both detectors enforced it is ejected once, not twice.
TEST(EnvoyFailurePercentageRun, EjectsAtTheThreshold) {
  TrafficOptions o = five_hosts();
  o.health.enforcing_success_rate = 0;
  o.health.failure_percentage_threshold = 61;
  const auto run = [&](const TrafficOptions& with) { return simulate_traffic(kFive, with); };
  EXPECT_EQ(total(run(o).ejections), 0u);  // enforcing_failure_percentage 0
  o.health.enforcing_failure_percentage = 100;
  const TrafficResult r = run(o);
  EXPECT_EQ(r.ejections[E], 1u);
  EXPECT_NEAR(r.seconds_ejected[E], 30.0, 1e-9);
  o.health.failure_percentage_threshold = 62;
  EXPECT_EQ(total(run(o).ejections), 0u);
  o.health.failure_percentage_threshold = 61;
  o.health.enforcing_success_rate = 100;
  const TrafficResult both = run(o);
  EXPECT_EQ(both.ejections[E], 1u);
  EXPECT_NEAR(both.seconds_ejected[E], 30.0, 1e-9);
}

// ---- E14: retry budget (`RetryBudgetImpl::max`) ----------------------------

// max(budget_percent / 100 x active, cut to a whole number; min_retry_concurrency).
TEST(EnvoyRetryBudget, TheLimitByHand) {
  TrafficOptions o;
  EXPECT_EQ(envoy_retry_limit(o, 1000), 3u);  // no budget: max_retries (3)
  o.max_retries_in_flight = 7;
  EXPECT_EQ(envoy_retry_limit(o, 1000), 7u);
  o.retry_budget = true;  // 20 %, at least 3: replaces max_retries
  EXPECT_EQ(envoy_retry_limit(o, 0), 3u);
  EXPECT_EQ(envoy_retry_limit(o, 19), 3u);    // 3.8 -> 3
  EXPECT_EQ(envoy_retry_limit(o, 20), 4u);    // 4
  EXPECT_EQ(envoy_retry_limit(o, 24), 4u);    // 4.8 -> 4
  EXPECT_EQ(envoy_retry_limit(o, 1000), 200u);
  o.retry_budget_percent = 12.5;
  o.min_retry_concurrency = 0;
  EXPECT_EQ(envoy_retry_limit(o, 7), 0u);     // 0.875 -> 0: no retry at all
  EXPECT_EQ(envoy_retry_limit(o, 8), 1u);
}

// EnvoyCapsTheRetriesInFlight's run (traffic_health_test.cpp), with a
// budget. 40 requests a second; b gets 0.025, 0.075, ... and each fails at
// +0.5 s, 30 of them before the 2 s end; their retries go to a (warm, 120
// ms), at once (--retry-back-off-ms 0 --retry-other-host). At a failure at
// t (before the arrival at t): b has 9 attempts in flight (arrivals in
// (t - 0.5, t)), a 2 first tries (t - 0.025, t - 0.075) and r retries (those
// started at t - 0.05 and t - 0.1 that were made): active = 11 + r, r <= 2.
//   20 %, at least 3 (the defaults): 20 % of 11..13 is 2; 3: every retry (30).
//   20 %, at least 0: 2 in flight at most: retried unless both of the two
//     before were, so two in three: 20.
//   10 %, at least 1: 1 in flight at most: one in three: 10.
//   100 %: 11 or more: 30.
// With a budget, max_retries (here 0) no longer counts.
TEST(EnvoyRetryBudget, InARun) {
  TrafficOptions o;
  o.rps = 40;
  o.duration = 2;
  o.service.enabled = true;
  o.service.base_ms = 120;
  o.service.cold_factor = 21;
  o.service.warmup = 100;
  o.service.warm_by = WarmBy::Serving;
  o.timeout_ms = 500;
  o.retries = 1;
  o.health.kind = HealthKind::Envoy;
  o.health.max_ejection_percent = 0;
  o.retry_back_off_ms = 0;
  o.retry_other_host = true;
  o.max_retries_in_flight = 0;
  o.retry_budget = true;
  const auto retried = [&](double percent, std::uint32_t least) {
    TrafficOptions with = o;
    with.retry_budget_percent = percent;
    with.min_retry_concurrency = least;
    const TrafficResult r = simulate_traffic("POOL a=1 b=1\nUP b 0\n", with);
    EXPECT_FALSE(r.problem);
    return total(r.retried);
  };
  EXPECT_EQ(retried(20, 3), 30u);
  EXPECT_EQ(retried(20, 0), 20u);
  EXPECT_EQ(retried(10, 1), 10u);
  EXPECT_EQ(retried(100, 0), 30u);
  EXPECT_EQ(retried(5, 0), 0u);  // 5 % of 11..13: 0
}

// ---- E15: route retry policy ---------------------------------------------

// `JitteredBackOffStrategy::nextBackOffMs`: the ceiling starts at the base and
// doubles while below half of 10 x base, then stays at 10 x base.
TEST(EnvoyRetryBackOff, TheCeilingsByHand) {
  std::vector<std::uint64_t> c;
  for (std::uint32_t k = 1; k <= 6; ++k) c.push_back(envoy_back_off_ceiling_ms(25, k));
  EXPECT_EQ(c, (std::vector<std::uint64_t>{25, 50, 100, 200, 250, 250}));  // 200 >= 125: then 250
  c.clear();
  for (std::uint32_t k = 1; k <= 5; ++k) c.push_back(envoy_back_off_ceiling_ms(30, k));
  EXPECT_EQ(c, (std::vector<std::uint64_t>{30, 60, 120, 240, 300}));
  EXPECT_EQ(envoy_back_off_ceiling_ms(1, 1), 1u);  // a draw below 1: always 0
  EXPECT_EQ(envoy_back_off_ceiling_ms(1, 4), 8u);
  EXPECT_EQ(envoy_back_off_ceiling_ms(1, 5), 10u);
}

// Envoy without the previous_hosts predicate may retry on the host that
// failed. b alone, cold for good (every attempt fails at its 500 ms
// timeout), 10 requests a second for 2 s, one retry, at most 100 in flight,
// no ejection: the 15 arrivals before 1.5 s fail before the end and are
// retried. Envoy's way: on b again (35 attempts on b, 35 failed, nothing
// unrouted); the lab's old way (--retry-other-host): no other host, so 15
// retries find no backend. The back-off (below 25 ms) moves each retry
// later but loses none: each starts before 1.9 + 0.025 < 2.
TEST(EnvoyRetryPolicy, ARetryMayGoToTheSameHost) {
  TrafficOptions o;
  o.rps = 10;
  o.duration = 2;
  o.service.enabled = true;
  o.service.base_ms = 100;
  o.service.cold_factor = 21;
  o.service.warmup = 1000;
  o.service.warm_by = WarmBy::Time;
  o.timeout_ms = 500;
  o.retries = 1;
  o.max_retries_in_flight = 100;
  o.health.kind = HealthKind::Envoy;
  o.health.max_ejection_percent = 0;
  const char* script = "POOL b=1\nUP b 0\n";
  const TrafficResult envoy = simulate_traffic(script, o);
  ASSERT_FALSE(envoy.problem);
  EXPECT_EQ(total(envoy.requests), 35u);
  EXPECT_EQ(total(envoy.failed), 35u);
  EXPECT_EQ(total(envoy.retried), 15u);
  EXPECT_EQ(total(envoy.unrouted), 0u);
  o.retry_other_host = true;
  const TrafficResult elsewhere = simulate_traffic(script, o);
  EXPECT_EQ(total(elsewhere.requests), 20u);
  EXPECT_EQ(total(elsewhere.retried), 15u);
  EXPECT_EQ(total(elsewhere.unrouted), 15u);
}

// The back-off in the client's wait. Two hosts, b cold for good and every
// failure retried on a (120 ms): the client waits 500 + back-off + 120 ms
// for b's first 30 requests. At once (--retry-back-off-ms 0): exactly 620,
// and the run's client p99 (rank 80 of 80: 40 of a at 120, 10 failed at
// 500, 30 at 620) is 620's bin (at most 0.8 % above: below 625). With
// Envoy's 25 ms: 620 + a whole draw from 0 to 24: at most 644 (its bin
// below 650) and, with 30 draws, above 624 (all 30 at 4 or less: 0.2^30).
TEST(EnvoyRetryPolicy, TheBackOffIsInTheClientsWait) {
  TrafficOptions o;
  o.rps = 40;
  o.duration = 2;
  o.service.enabled = true;
  o.service.base_ms = 120;
  o.service.cold_factor = 21;
  o.service.warmup = 100;
  o.service.warm_by = WarmBy::Serving;
  o.timeout_ms = 500;
  o.retries = 1;
  o.health.kind = HealthKind::Envoy;
  o.health.max_ejection_percent = 0;
  o.retry_other_host = true;
  o.retry_back_off_ms = 0;
  const char* script = "POOL a=1 b=1\nUP b 0\n";
  const TrafficResult at_once = simulate_traffic(script, o);
  ASSERT_FALSE(at_once.problem);
  EXPECT_EQ(total(at_once.retried), 30u);
  EXPECT_GE(at_once.run_client_p99_ms, 620.0f);
  EXPECT_LT(at_once.run_client_p99_ms, 625.0f);
  o.retry_back_off_ms = 25;
  const TrafficResult backed_off = simulate_traffic(script, o);
  EXPECT_EQ(total(backed_off.retried), 30u);  // at most 2 in flight (each < 145 ms, one every 50 ms): under 3
  EXPECT_GT(backed_off.run_client_p99_ms, 624.0f);
  EXPECT_LT(backed_off.run_client_p99_ms, 650.0f);
  // A ceiling of 1 ms draws 0 every time: the same run as at once.
  o.retry_back_off_ms = 1;
  const TrafficResult one = simulate_traffic(script, o);
  EXPECT_EQ(one.run_client_p99_ms, at_once.run_client_p99_ms);
  EXPECT_EQ(one.requests, at_once.requests);
}
