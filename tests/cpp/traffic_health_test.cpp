// Timeouts, retries, passive health checks and the policies beyond WRR
// (issue #25), each on a scenario small enough to work by hand. The numbers
// in the comments are the hand computation; docs/WHY-SLOW-START.md states the
// rules ("Failures, ejection and readmission").
//
// The common scenario: POOL a=1 b=1, then b restarts (UP) at 0. Ten requests
// a second, smooth WRR alternates a (at 0.0, 0.2, ...) and b (0.1, 0.3, ...).
// a is warm: 100 ms. b is cold: 100 ms x (1 + (F - 1) x coldness), coldness
// falling linearly from 1 to 0 over 2 s of warm-up. Timeout 500 ms. b's
// failures come at its request + 0.5 s: even tenths, always a's turn, so no
// rounding of the clock can change which backend an arrival goes to.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "simulate_with_script.hpp"
#include "traffic/health_envoy.hpp"
#include "traffic/simulate_command.hpp"
#include "traffic/traffic.hpp"

using namespace slowstart;

namespace {

TrafficOptions cold_b(double cold_factor, WarmBy warm, double duration) {
  TrafficOptions o;
  o.rps = 10;
  o.duration = duration;
  o.service.enabled = true;
  o.service.base_ms = 100;
  o.service.cold_factor = cold_factor;
  o.service.warmup = 2;
  o.service.warm_by = warm;
  o.timeout_ms = 500;
  o.curve.resolution = 1;  // the cases below are worked in whole weights (a weight-1 ramp is 0, then 1)
  return o;
}

std::uint32_t cell(const std::vector<std::uint32_t>& v, const TrafficResult& r, std::size_t k, std::size_t id) {
  return v[k * r.names.size() + id];
}

BackendState state(const TrafficResult& r, std::size_t k, std::size_t id) {
  return static_cast<BackendState>(r.state[k * r.names.size() + id]);
}

constexpr std::size_t A = 0, B = 1;

}  // namespace

// b's requests at 0.1 ... 0.9 take about 1 s (cold factor 11, warm-up 1000 s:
// still cold), so all five fail at +0.5 s; b goes DOWN at 1. With one retry
// each goes to a at the moment it fails: 0.6, 0.8 (bucket 0), 1.0, 1.2, 1.4
// (bucket 1).
TEST(TrafficFailures, TimeoutsFailAndRetriesGoElsewhere) {
  TrafficOptions o = cold_b(11, WarmBy::Time, 3);
  o.service.warmup = 1000;
  const char* script = "POOL a=1 b=1\nUP b 0\nNOW 1\nDOWN b\n";
  const TrafficResult none = simulate_traffic(script, o);
  ASSERT_FALSE(none.problem);
  EXPECT_EQ(cell(none.requests, none, 0, B), 5u);
  EXPECT_EQ(cell(none.failed, none, 0, B), 5u);
  EXPECT_EQ(cell(none.retried, none, 0, B), 0u);
  EXPECT_EQ(cell(none.failed, none, 0, A), 0u);
  EXPECT_EQ(none.total[0] + none.total[1] + none.total[2], 30u);  // no retries: 30 requests

  o.retries = 1;
  const TrafficResult r = simulate_traffic(script, o);
  EXPECT_EQ(cell(r.failed, r, 0, B), 5u);
  EXPECT_EQ(cell(r.retried, r, 0, B), 5u);  // counted where the failed attempt arrived
  EXPECT_EQ(cell(r.requests, r, 0, A), 5u + 2u);
  EXPECT_EQ(cell(r.requests, r, 1, A), 10u + 3u);
  EXPECT_EQ(cell(r.requests, r, 2, A), 10u);
  EXPECT_EQ(r.total[0], 12u);
  EXPECT_EQ(r.total[1], 13u);
  EXPECT_EQ(cell(r.failed, r, 0, A) + cell(r.failed, r, 1, A), 0u);
  // A failed attempt's latency is the timeout (the client waited that long).
  EXPECT_DOUBLE_EQ(r.latency_ms[0 * 2 + B], 500.0);
}

TEST(TrafficFailures, WithoutATimeoutNothingFails) {
  TrafficOptions o = cold_b(11, WarmBy::Time, 3);
  o.timeout_ms = 0;
  const TrafficResult r = simulate_traffic("POOL a=1 b=1\nUP b 0\n", o);
  for (const auto f : r.failed) EXPECT_EQ(f, 0u);
  EXPECT_EQ(r.ejections, (std::vector<std::uint32_t>{0, 0}));
}

// nginx, max_fails=1 fail_timeout=10, cold factor 11, warm by time.
// b's requests 0.1 (1050 ms), 0.3 (950), 0.5 (850) fail at 0.6, 0.8, 1.0:
// unavailable from 0.6; the last failure stamps checked = 1 (whole seconds),
// so b takes part again when now - checked > 10: at 12.0. Its effective
// weight, cut to 0 by the failures (weight / max_fails each), climbs by 1 at
// the pick at 12.0 (a wins it); 12.1 goes to a on the tie; 12.2 is b's: the
// probe, after which b is left out until it answers. b is warm by then: the
// answer at 12.3 clears fails, and b is back (readmitted) at 12.3.
TEST(TrafficHealth, NginxMaxFailsFailTimeoutAndTheProbe) {
  TrafficOptions o = cold_b(11, WarmBy::Time, 15);
  o.health.kind = HealthKind::Nginx;
  const TrafficResult r = simulate_traffic("POOL a=1 b=1\nUP b 0\n", o);
  ASSERT_FALSE(r.problem) << *r.problem;
  EXPECT_EQ(r.ejections[B], 1u);
  EXPECT_NEAR(r.seconds_ejected[B], 12.3 - 0.6, 1e-9);
  EXPECT_EQ(cell(r.failed, r, 0, B), 3u);
  for (std::size_t k = 1; k < 12; ++k) EXPECT_EQ(cell(r.requests, r, k, B), 0u) << k;
  // 12.2 (the probe), then 12.4, 12.6, 12.8 once readmitted.
  EXPECT_EQ(cell(r.requests, r, 12, B), 4u);
  EXPECT_EQ(cell(r.requests, r, 12, A), 6u);
  EXPECT_EQ(state(r, 0, B), BackendState::Ejected);
  EXPECT_EQ(state(r, 12, B), BackendState::Ejected);
  EXPECT_EQ(state(r, 13, B), BackendState::Serving);
  EXPECT_EQ(state(r, 0, A), BackendState::Serving);
  std::uint32_t failed = 0;
  for (const auto f : r.failed) failed += f;
  EXPECT_EQ(failed, 3u);
}

// With max_fails=3 b is out only at its third failure, at 1.0. It is still
// picked at 0.7 (coldness .65: 750 ms) and 0.9 (650 ms): both fail too, at
// 1.2 and 1.4, stamping checked = 1 again, so it takes part from 12.0. Its
// weight was not cut this time (weight / max_fails = 1 / 3 is 0 in nginx's
// integers), so b wins the second pick there: the probe at 12.1, answered
// at 12.2. One pick earlier than with max_fails=1: that one pick is the dip.
TEST(TrafficHealth, NginxCountsMaxFails) {
  TrafficOptions o = cold_b(11, WarmBy::Time, 15);
  o.health.kind = HealthKind::Nginx;
  o.health.max_fails = 3;
  const TrafficResult r = simulate_traffic("POOL a=1 b=1\nUP b 0\n", o);
  EXPECT_EQ(r.ejections[B], 1u);
  EXPECT_EQ(cell(r.requests, r, 0, B), 5u);
  EXPECT_EQ(cell(r.failed, r, 0, B), 5u);
  EXPECT_NEAR(r.seconds_ejected[B], 12.2 - 1.0, 1e-9);
}

// Caddy's unhealthy_latency (docs/proxy-rules.md C1), on the nginx check that
// stands in for Caddy's: no timeout, so nothing fails for the client; b is
// cold (factor 5, warm-up 1000 s: about 500 ms an answer for seconds), a warm
// (100 ms). At 450 ms each of b's answers is slow: those of 0.1, 0.3 and 0.5
// come at 0.6, 0.8 and 1.0 (less 0.4 ms of warming), the third is
// max_fails=3: b is out from then to the end at 5 (its 0.7 and 0.9 were
// already picked). At 501 ms, just above every answer of b, nothing counts.
TEST(TrafficHealth, CaddyUnhealthyLatencyCountsSlowAnswersAsFailures) {
  TrafficOptions o = cold_b(5, WarmBy::Time, 5);
  o.service.warmup = 1000;
  o.timeout_ms = 0;
  o.health.kind = HealthKind::Nginx;
  o.health.max_fails = 3;
  o.health.unhealthy_latency_ms = 450;
  TrafficResult r = simulate_traffic("POOL a=1 b=1\nUP b 0\n", o);
  ASSERT_FALSE(r.problem) << *r.problem;
  EXPECT_EQ(r.ejections[B], 1u);
  EXPECT_EQ(r.ejections[A], 0u);
  EXPECT_NEAR(r.seconds_ejected[B], 5 - 1.0, 0.001);
  EXPECT_EQ(cell(r.requests, r, 0, B), 5u);
  for (std::size_t k = 1; k < 5; ++k) EXPECT_EQ(cell(r.requests, r, k, B), 0u) << k;
  std::uint32_t failed = 0;
  for (const auto f : r.failed) failed += f;
  EXPECT_EQ(failed, 0u);  // slow is not failed: the client got every answer
  // Just under the threshold, every answer: b stays in.
  o.health.unhealthy_latency_ms = 501;
  r = simulate_traffic("POOL a=1 b=1\nUP b 0\n", o);
  ASSERT_FALSE(r.problem) << *r.problem;
  EXPECT_EQ(r.ejections[B], 0u);
  for (std::size_t k = 0; k < 5; ++k) EXPECT_EQ(cell(r.requests, r, k, B), 5u) << k;
  // Off (0): the check has nothing to count without a timeout, and says so.
  o.health.unhealthy_latency_ms = 0;
  r = simulate_traffic("POOL a=1 b=1\nUP b 0\n", o);
  ASSERT_TRUE(r.problem);
  EXPECT_EQ(*r.problem, "health checks need failures: set a timeout");
}

// HAProxy, error-limit 2, on-error mark-down, inter 2, rise 2; b comes back with UP b 1 (a 1 s
// ramp: weight 0 for its first second at resolution 1). Cold factor 21.
// [0, 1): all to a. From 1.0 a, b alternate (a wins the tie at 1.0):
// b's 1.1 (1000 ms), 1.3 (800), 1.5 (600) fail at 1.6, 1.8, 2.0; 1.7 (400)
// succeeds. Two in a row at 1.8: marked down. Checks at 2.0 and 4.0 (a grid
// from 0) pass: up at 4.0, ramping again (slowstart) until 5.0.
TEST(TrafficHealth, HAProxyErrorLimitMarkDownChecksAndSlowstart) {
  TrafficOptions o = cold_b(21, WarmBy::Time, 8);
  o.health.kind = HealthKind::HAProxy;
  o.health.error_limit = 2;
  o.health.on_error = OnError::MarkDown;
  o.health.check_ms = 0;  // checks take no time: a grid from 0
  const TrafficResult r = simulate_traffic("POOL a=1 b=1\nUP b 1\n", o);
  ASSERT_FALSE(r.problem) << *r.problem;
  EXPECT_EQ(r.ejections[B], 1u);
  EXPECT_NEAR(r.seconds_ejected[B], 4.0 - 1.8, 1e-9);
  EXPECT_EQ(cell(r.requests, r, 0, B), 0u);
  EXPECT_EQ(cell(r.requests, r, 1, B), 4u);  // 1.1, 1.3, 1.5, 1.7
  EXPECT_EQ(cell(r.failed, r, 1, B), 3u);
  for (std::size_t k = 2; k < 5; ++k) EXPECT_EQ(cell(r.requests, r, k, B), 0u) << k;
  EXPECT_EQ(cell(r.requests, r, 5, B), 5u);
  EXPECT_EQ(state(r, 0, B), BackendState::Ramping);
  EXPECT_EQ(state(r, 1, B), BackendState::Ejected);
  EXPECT_EQ(state(r, 3, B), BackendState::Ejected);
  EXPECT_EQ(state(r, 4, B), BackendState::Ramping);  // slowstart applies on return
  EXPECT_EQ(state(r, 5, B), BackendState::Serving);
}

// Envoy, consecutive_5xx 2, interval 1, base_ejection_time 2; warm by
// serving (b's warm-up clock stops while it is ejected). Cold factor 21.
// Round 1: b's 0.1 (2000 ms), 0.3 (1800), 0.5, 0.7 fail at 0.6, 0.8, 1.0,
// 1.2: ejected at 0.8 (multiplier 1: 2 s), back at the sweep at 3.0 with
// 0.8 s of warm-up. Round 2: 3.1 (warm 0.9 s: 1200 ms), 3.3 (1000), 3.5,
// 3.7 fail at 3.6, 3.8, ...: ejected again at 3.8 for 2 x 2 = 4 s, back at
// the sweep at 8.0 with 1.5 s of warm-up, and then answers in time.
// max_ejection_percent 50: one host of two (the default 10 % ejects none of two).
TEST(TrafficHealth, EnvoyConsecutive5xxAndEscalatingEjection) {
  TrafficOptions o = cold_b(21, WarmBy::Serving, 12);
  o.health.kind = HealthKind::Envoy;
  o.health.max_ejection_percent = 50;
  o.health.consecutive_5xx = 2;
  o.health.interval = 1;
  o.health.base_ejection_time = 2;
  const TrafficResult r = simulate_traffic("POOL a=1 b=1\nUP b 0\n", o);
  ASSERT_FALSE(r.problem) << *r.problem;
  EXPECT_EQ(r.ejections[B], 2u);
  EXPECT_NEAR(r.seconds_ejected[B], (3.0 - 0.8) + (8.0 - 3.8), 1e-9);
  EXPECT_EQ(cell(r.failed, r, 0, B), 4u);
  EXPECT_EQ(cell(r.failed, r, 3, B), 4u);
  std::uint32_t failed = 0;
  for (const auto f : r.failed) failed += f;
  EXPECT_EQ(failed, 8u);
  for (std::size_t k = 4; k < 8; ++k) EXPECT_EQ(state(r, k, B), BackendState::Ejected) << k;
  EXPECT_EQ(state(r, 8, B), BackendState::Serving);
  // Back at 8.0, b answers 8.1 in 400 ms (1.7 s warm), 8.3 in 200, then 100:
  // a mean of 180 ms in bucket 8, above 150 (the warm 100 ms + 50 %). From
  // bucket 9 on every bucket is calm: stable at 9.
  EXPECT_EQ(r.stable_at, 9.0);

  // Warm by time instead: b warms while it is out and the first return sticks.
  o.service.warm_by = WarmBy::Time;
  const TrafficResult t = simulate_traffic("POOL a=1 b=1\nUP b 0\n", o);
  EXPECT_EQ(t.ejections[B], 1u);
  EXPECT_NEAR(t.seconds_ejected[B], 3.0 - 0.8, 1e-9);
}

// max_ejection_percent (docs/proxy-rules.md E1, E2), worked from Envoy's
// rule: 100 x (ejected + 1) / hosts <= max. At 10 %: 4 hosts allow none
// (25 % for the first), 10 allow 1, 25 allow 2 (8 %; a third is 12 %); with
// always_eject_one_host the first whenever none is out; before 1.28 the share
// before the ejection below 10 %: 25 hosts allowed 3 (0, 4, 8 %).
TEST(TrafficHealth, EnvoyMaxEjectionPercentCountsTheHostAboutToGo) {
  HealthCheck c;
  const auto allowed = [&](std::size_t hosts) {
    std::size_t ejected = 0;
    while (ejected < hosts && ejection_allowed(c, ejected, hosts)) ++ejected;
    return ejected;
  };
  EXPECT_EQ(allowed(4), 0u);
  EXPECT_EQ(allowed(9), 0u);
  EXPECT_EQ(allowed(10), 1u);
  EXPECT_EQ(allowed(25), 2u);
  c.max_ejection_percent = 50;
  EXPECT_EQ(allowed(4), 2u);
  EXPECT_EQ(allowed(1), 0u);  // 100 % for the only host
  c.max_ejection_percent = 100;
  EXPECT_EQ(allowed(1), 1u);
  c.max_ejection_percent = 10;
  c.always_eject_one_host = true;
  EXPECT_EQ(allowed(4), 1u);
  EXPECT_EQ(allowed(25), 2u);
  c.always_eject_one_host = false;
  c.legacy_ejection_percent = true;
  EXPECT_EQ(allowed(4), 1u);
  EXPECT_EQ(allowed(25), 3u);
}

// The same in a run: four hosts, each cold at 0 and failing in a row. At the
// default 10 % current Envoy ejects none; with always_eject_one_host (or the
// rule before 1.28) one, and never a second; at 100 % all four.
TEST(TrafficHealth, EnvoyMaxEjectionPercent) {
  TrafficOptions o = cold_b(21, WarmBy::Serving, 2);
  o.rps = 20;
  o.health.kind = HealthKind::Envoy;
  o.health.consecutive_5xx = 2;
  const char* script = "POOL a=1 b=1 c=1 d=1\nUP a 0\nUP b 0\nUP c 0\nUP d 0\n";
  const auto ejections = [&](const TrafficOptions& with) {
    std::uint32_t n = 0;
    for (const auto e : simulate_traffic(script, with).ejections) n += e;
    return n;
  };
  EXPECT_EQ(ejections(o), 0u);
  TrafficOptions one = o;
  one.health.always_eject_one_host = true;
  EXPECT_EQ(ejections(one), 1u);
  TrafficOptions legacy = o;
  legacy.health.legacy_ejection_percent = true;
  EXPECT_EQ(ejections(legacy), 1u);
  o.health.max_ejection_percent = 100;
  EXPECT_EQ(ejections(o), 4u);
}

// No ramp after an outlier ejection (E7). b joins with a 1 s ramp, cold
// (2,000 ms a request against a 500 ms timeout): its requests at 1.1 and 1.3
// fail at 1.6 and 1.8, ejecting it for 2 s, so the sweep at 4.0 lets it back.
// Its ramp ended at 1 s and Envoy does not start another: from 4.0 it takes
// its full half at once, every other request, serving (not ramping). With --ramp-after-ejection (what an
// active check's recovery would do) its 1 s ramp starts again at 4.0, and at
// resolution 1 a weight-1 host weighs 0 until its ramp ends: nothing in [4, 5).
TEST(TrafficHealth, EnvoyDoesNotRampAHostBackFromEjection) {
  TrafficOptions o = cold_b(21, WarmBy::Serving, 12);
  o.health.kind = HealthKind::Envoy;
  o.health.consecutive_5xx = 2;
  o.health.interval = 1;
  o.health.base_ejection_time = 2;
  o.health.max_ejection_percent = 50;
  const TrafficResult r = simulate_traffic("POOL a=1 b=1\nUP b 1\n", o);
  EXPECT_EQ(cell(r.requests, r, 1, B), 4u);
  EXPECT_EQ(state(r, 3, B), BackendState::Ejected);
  EXPECT_GE(cell(r.requests, r, 4, B), 4u);
  EXPECT_EQ(state(r, 4, B), BackendState::Serving);
  o.health.ramp_after_ejection = true;
  const TrafficResult ramped = simulate_traffic("POOL a=1 b=1\nUP b 1\n", o);
  EXPECT_EQ(cell(ramped.requests, ramped, 4, B), 0u);
  EXPECT_EQ(state(ramped, 4, B), BackendState::Ramping);
}

// Envoy's retry circuit breaker (E13), by hand. 40 requests a second, b
// every other one (0.025, 0.075, ...), cold for good: each fails at its
// 500 ms timeout, one every 0.05 s; those failing before the 2 s end (30 of
// its 40) may be retried on a, warm, where a retry takes 120 ms, so a retry
// overlaps the next two failures. At most 1 in flight: one failure in three
// is retried (10); at most 3 (the default): every one (30); 0: none. (Each
// retry at once and on a: --retry-back-off-ms 0 --retry-other-host, E15.)
TEST(TrafficHealth, EnvoyCapsTheRetriesInFlight) {
  TrafficOptions o = cold_b(21, WarmBy::Serving, 2);
  o.rps = 40;
  o.service.base_ms = 120;
  o.service.warmup = 100;
  o.retries = 1;
  o.health.kind = HealthKind::Envoy;
  o.health.max_ejection_percent = 0;
  o.retry_back_off_ms = 0;
  o.retry_other_host = true;
  const auto retried = [&](std::uint32_t cap) {
    TrafficOptions with = o;
    with.max_retries_in_flight = cap;
    const TrafficResult r = simulate_traffic("POOL a=1 b=1\nUP b 0\n", with);
    std::uint32_t n = 0, failed = 0;
    for (std::size_t k = 0; k < r.buckets; ++k) n += cell(r.retried, r, k, B), failed += cell(r.failed, r, k, B);
    EXPECT_EQ(failed, 40u);
    return n;
  };
  EXPECT_EQ(retried(0), 0u);
  EXPECT_EQ(retried(1), 10u);
  EXPECT_EQ(retried(3), 30u);
  EXPECT_EQ(retried(100), 30u);
}

// healthy_panic_threshold (E3), worked from Envoy's rule: panic while the
// healthy share is below the threshold and 1.4 x it below 100 %.
TEST(TrafficHealth, EnvoyPanicThresholdByHand) {
  EXPECT_FALSE(in_panic(50, 2, 4));  // 50 % is not below 50
  EXPECT_TRUE(in_panic(50, 1, 4));   // 25 %
  EXPECT_TRUE(in_panic(50, 0, 1));   // the only host ejected
  EXPECT_FALSE(in_panic(0, 0, 1));   // 0: never
  EXPECT_FALSE(in_panic(50, 0, 0));  // no hosts
  EXPECT_TRUE(in_panic(80, 7, 10));  // 70 %: 98 % with the factor 1.4
  EXPECT_FALSE(in_panic(80, 3, 4));  // 75 %: 105 %, capped at 100: no panic
}

// In a run: one host, cold, ejected (max_ejection_percent 100 lets the only
// host go). Below 50 % healthy Envoy picks among all hosts, so every request
// is still routed to it; with --panic-threshold 0 the ejected host gets
// nothing and the requests find no backend. Four cold hosts at 100 %: the
// third ejection (25 % healthy) is panic, and nothing is unrouted either.
TEST(TrafficHealth, EnvoyPanicRoutesToEveryHost) {
  TrafficOptions o = cold_b(21, WarmBy::Serving, 12);
  o.health.kind = HealthKind::Envoy;
  o.health.consecutive_5xx = 2;
  o.health.max_ejection_percent = 100;
  const auto unrouted = [](const TrafficResult& r) {
    std::uint32_t n = 0;
    for (const auto u : r.unrouted) n += u;
    return n;
  };
  const TrafficResult one = simulate_traffic("POOL b=1\nUP b 0\n", o);
  EXPECT_GE(one.ejections[0], 1u);
  EXPECT_EQ(unrouted(one), 0u);
  TrafficOptions never = o;
  never.health.panic_threshold = 0;
  const TrafficResult out = simulate_traffic("POOL b=1\nUP b 0\n", never);
  EXPECT_GE(out.ejections[0], 1u);
  EXPECT_GT(unrouted(out), 0u);
  const char* four = "POOL a=1 b=1 c=1 d=1\nUP a 0\nUP b 0\nUP c 0\nUP d 0\n";
  EXPECT_EQ(unrouted(simulate_traffic(four, o)), 0u);
  EXPECT_GT(unrouted(simulate_traffic(four, never)), 0u);
}

// ---- policies --------------------------------------------------------

namespace {
std::uint32_t sum(const TrafficResult& r, std::size_t id) {
  std::uint32_t s = 0;
  for (std::size_t k = 0; k < r.buckets; ++k) s += cell(r.requests, r, k, id);
  return s;
}
TrafficOptions routing(Policy policy, double rps, double duration) {
  TrafficOptions o;
  o.rps = rps;
  o.duration = duration;
  o.policy = policy;
  return o;
}
}  // namespace

TEST(TrafficPolicies, RoundRobinIgnoresWeights) {
  const TrafficOptions o = routing(Policy::RoundRobin, 10, 1);
  const TrafficResult r = simulate_traffic("POOL a=3 b=1\n", o);
  EXPECT_EQ(sum(r, 0), 5u);
  EXPECT_EQ(sum(r, 1), 5u);
}

TEST(TrafficPolicies, WeightedRandomFollowsWeightsAndTheSeed) {
  TrafficOptions o = routing(Policy::Random, 4000, 1);
  const TrafficResult r = simulate_traffic("POOL a=3 b=1\n", o);
  EXPECT_NEAR(sum(r, 0), 3000.0, 120.0);  // 4 standard deviations
  const TrafficResult again = simulate_traffic("POOL a=3 b=1\n", o);
  EXPECT_EQ(again.requests, r.requests);  // deterministic for a seed
  o.seed = 2;
  const TrafficResult other = simulate_traffic("POOL a=3 b=1\n", o);
  EXPECT_NE(other.requests, r.requests);
}

// The Caddy review's first finding: least_conn scores a cold host by its
// active requests; scaled by the ramp, 0 stays 0, so the host that just
// joined (ramp at 0) still wins its share. Without a service model nobody
// ever has active requests: c takes a third at once, ramp or not. Weighted
// round-robin at resolution 100 gives it under 2 % in the same second.
TEST(TrafficPolicies, ScalingTheScoreDoesNothingForLeastConn) {
  TrafficOptions o = routing(Policy::LeastConn, 3000, 1);
  const char* script = "POOL a=1 b=1\nADD c=1 60\n";
  const TrafficResult r = simulate_traffic(script, o);
  EXPECT_NEAR(sum(r, 2), 1000.0, 110.0);
  o.policy = Policy::P2C;
  EXPECT_NEAR(sum(simulate_traffic(script, o), 2), 1000.0, 110.0);
  o.policy = Policy::SmoothWrr;
  o.curve.resolution = 100;
  EXPECT_LT(sum(simulate_traffic(script, o), 2), 60u);
}

// The review's second finding: the skip decorator leaves each warming host
// out with probability 1 - ramp. After a fresh start the whole pool warms:
// in the first second all three are out together with probability
// (1 - t/30)^3, on average 0.950 (the integral over [0, 1)): requests with
// no upstream. The "never skip the only host" guard does not help here; it
// does for a pool of one.
TEST(TrafficPolicies, SkipDecoratorUnroutesAWarmingPool) {
  TrafficOptions o = routing(Policy::RoundRobin, 2000, 2);
  o.ramp_by = RampBy::Skip;
  const TrafficResult r = simulate_traffic("ADD a=1 30\nADD b=1 30\nADD c=1 30\n", o);
  EXPECT_NEAR(r.unrouted[0], 1900.0, 60.0);
  const TrafficResult one = simulate_traffic("ADD a=1 30\n", o);
  EXPECT_EQ(one.unrouted[0], 0u);
  // Two hosts, one DOWN: the other is the only one available and never skipped.
  const TrafficResult two = simulate_traffic("ADD a=1 30\nADD b=1 30\nDOWN b\n", o);
  EXPECT_EQ(two.unrouted[0], 0u);
  // The proposal's round_robin (scale) skips in its loop the same way.
  o.ramp_by = RampBy::Scale;
  EXPECT_NEAR(simulate_traffic("ADD a=1 30\nADD b=1 30\nADD c=1 30\n", o).unrouted[0], 1900.0, 60.0);
}

// ---- the CLI ----------------------------------------------------------

namespace {
int run(const std::vector<std::string>& args, const std::string& script, std::string& out, std::string& err) {
  return test_support::simulate_with_script(args, script, out, err);
}
}  // namespace

TEST(SimulateCommand, SummaryJson) {
  std::string out, err;
  const int status = run({"--rps", "10", "--duration", "15", "--service-ms", "100", "--cold-factor", "11",
                          "--warmup", "2", "--warm-by", "time", "--timeout-ms", "500", "--health", "nginx",
                          "--summary", "json", "-"},
                         "POOL a=1 b=1\nUP b 0\n", out, err);
  EXPECT_EQ(status, 0) << err;
  EXPECT_EQ(err, "");
  EXPECT_NE(out.find("\"health\": {\"kind\": \"nginx\", \"max_fails\": 1, \"fail_timeout\": 10}"), std::string::npos)
      << out;
  // The client: 150 sent, b's 3 timed out (no retries): 0.02; 147 x 100 ms
  // and 3 x 500 ms: p50 (rank 75) 100, p99 (rank 149) 500.
  EXPECT_NE(out.find("\"unrouted\": 0, \"client_requests\": 150, \"client_failed\": 3, \"client_error_rate\": 0.020000, "
                     "\"client_p50_ms\": 100, \"client_p99_ms\": 500, \"stable_at\": 13, \"backends\": ["),
            std::string::npos)
      << out;
  // b: 3 timed out (500 ms), 14 served warm after its readmission (100 ms): p50 (rank 9) 100, p99 (rank 17) 500.
  EXPECT_NE(out.find("{\"name\": \"b\", \"requests\": 17, \"failed\": 3, \"retried\": 0, \"ejections\": 1, "
                     "\"seconds_ejected\": 11.700, \"p50_ms\": 100, \"p99_ms\": 500}"),
            std::string::npos)
      << out;
  EXPECT_EQ(out.back(), '\n');
  EXPECT_EQ(out.find('\n'), out.find("\n  {\"name\": \"a\"")) ;  // one line of options, one per backend
}

// A name may hold a comma or a quote (any non-blank characters but `=`): in
// the CSV such a name is one field, quoted, its quotes doubled (RFC 4180);
// others are written as they are. Two equal backends at 2 requests a second
// for 1 s: one request each.
TEST(SimulateCommand, CsvQuotesNamesWithCommasOrQuotes) {
  std::string out, err;
  EXPECT_EQ(run({"--csv", "--rps", "2", "--duration", "1", "-"}, "POOL a,b=1 say\"hi\"=1\n", out, err), 0) << err;
  EXPECT_EQ(out,
            "time,backend,requests,share,outstanding,latency_ms,p50_ms,p99_ms,client_requests,client_failed,"
            "client_error_rate,client_p50_ms,client_p99_ms\n"
            "0,\"a,b\",1,0.5000,,,,,2,0,0.000000,,\n"
            "0,\"say\"\"hi\"\"\",1,0.5000,,,,,2,0,0.000000,,\n");
}

TEST(SimulateCommand, NewOptionsAreCheckedAndDocumented) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> bad = {
      {{"--health", "traefik"}, "health must be none, nginx, haproxy or envoy, got 'traefik'"},
      {{"--health", "envoy"}, "health checks need failures: set a timeout"},
      {{"--retries", "101"}, "--retries takes a whole number from 0 to 100, got '101'"},
      {{"--summary", "xml"}, "--summary takes json, got 'xml'"},
      {{"--ramp-by", "both"}, "ramp-by must be scale or skip, got 'both'"},
      {{"--warm-by", "cpu"}, "warm-by must be serving, time or requests, got 'cpu'"},
      {{"--timeout-ms", "-1"}, "timeout must be a number of milliseconds, 0 (none) or more"},
  };
  std::string out, err;
  for (const auto& [args, message] : bad) {
    err.clear();
    std::vector<std::string> with = args;
    with.push_back("-");
    EXPECT_EQ(run(with, "", out, err), 2) << message;
    EXPECT_EQ(err, "slowstart simulate: " + message + "\n");
  }
  err.clear();
  EXPECT_EQ(run({"--help"}, "", out, err), 0);
  for (const char* option : {"--timeout-ms MS", "--retries N", "--health KIND", "--policy P", "--ramp-by HOW",
                             "--seed N", "--summary json", "--max-fails", "--fail-timeout", "--error-limit",
                             "--inter", "--rise", "--consecutive-5xx", "--interval", "--base-ejection-time",
                             "--max-ejection-time", "--max-ejection-percent", "--warm-by", "p2c", "least-conn",
                             "round-robin"})
    EXPECT_NE(out.find(option), std::string::npos) << option;
}

// Warm by requests: a backend in the POOL from the start is warm (as under
// the other two meanings); one restarted by UP is cold until it has served
// warmup_requests. Cold factor 11, 100 ms, timeout 500: b's first requests
// (1,100 ms) fail; after 10 served (warmup_requests 10) b is warm.
TEST(TrafficFailures, WarmByRequests) {
  TrafficOptions o = cold_b(11, WarmBy::Requests, 3);
  o.service.warmup_requests = 10;
  const TrafficResult pool = simulate_traffic("POOL a=1 b=1\n", o);
  for (const auto f : pool.failed) EXPECT_EQ(f, 0u);
  const TrafficResult r = simulate_traffic("POOL a=1 b=1\nUP b 0\n", o);
  // b's n-th request (n = 0, 1, ...) takes 100 x (1 + 10 x (1 - n / 10)) ms:
  // 1100, 1000, 900, ..., 600 (n = 5) fail; 500 (n = 6) is not over 500.
  std::uint32_t failed = 0;
  for (std::size_t k = 0; k < r.buckets; ++k) failed += cell(r.failed, r, k, B);
  EXPECT_EQ(failed, 6u);
}
