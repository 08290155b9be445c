// The event loop in slices (traffic.cpp's advance_to): the run goes from
// the first request to the last in calls of at most RunLimits::slice turns,
// so that WebAssembly's optimised code is used from the next call on (no
// on-stack replacement). A slice is only where a call ends: a run in slices
// of any size is the same run as in one, to the last cell, diagnostic and
// stopping point. Small cases are worked by hand; larger ones compare every
// column of the result across slice sizes 1, 2, 3, 7, the default and one
// slice for the whole run.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "traffic/budget.hpp"
#include "traffic/traffic.hpp"

namespace {

using namespace slowstart;

TrafficResult run(const std::string& script, const TrafficOptions& o, std::uint64_t slice, double steps = kMaxWorkSteps,
                  bool long_runs = true) {
  RunLimits limits;
  limits.slice = slice;
  limits.steps = steps;
  limits.long_runs = long_runs;
  return simulate_traffic(script, o, limits);
}

// Every column of two results, by name, so that a failure says which.
void expect_same(const TrafficResult& a, const TrafficResult& b, const std::string& what) {
  SCOPED_TRACE(what);
  EXPECT_EQ(a.names, b.names);
  EXPECT_EQ(a.buckets, b.buckets);
  EXPECT_EQ(a.duration, b.duration);
  EXPECT_EQ(a.requests, b.requests);
  EXPECT_EQ(a.outstanding, b.outstanding);
  EXPECT_EQ(a.latency_ms, b.latency_ms);
  EXPECT_EQ(a.failed, b.failed);
  EXPECT_EQ(a.retried, b.retried);
  EXPECT_EQ(a.state, b.state);
  EXPECT_EQ(a.p50_ms, b.p50_ms);
  EXPECT_EQ(a.p99_ms, b.p99_ms);
  EXPECT_EQ(a.unrouted, b.unrouted);
  EXPECT_EQ(a.total, b.total);
  EXPECT_EQ(a.client_requests, b.client_requests);
  EXPECT_EQ(a.client_failed, b.client_failed);
  EXPECT_EQ(a.client_p50_ms, b.client_p50_ms);
  EXPECT_EQ(a.client_p99_ms, b.client_p99_ms);
  EXPECT_EQ(a.ejections, b.ejections);
  EXPECT_EQ(a.seconds_ejected, b.seconds_ejected);
  EXPECT_EQ(a.run_p50_ms, b.run_p50_ms);
  EXPECT_EQ(a.run_p99_ms, b.run_p99_ms);
  EXPECT_EQ(a.run_client_p50_ms, b.run_client_p50_ms);
  EXPECT_EQ(a.run_client_p99_ms, b.run_client_p99_ms);
  EXPECT_EQ(a.stable_at, b.stable_at);
  EXPECT_EQ(a.problem, b.problem);
  EXPECT_EQ(a.too_large, b.too_large);
  ASSERT_EQ(a.diagnostics.size(), b.diagnostics.size());
  for (std::size_t i = 0; i < a.diagnostics.size(); ++i) {
    EXPECT_EQ(a.diagnostics[i].line, b.diagnostics[i].line);
    EXPECT_EQ(a.diagnostics[i].message, b.diagnostics[i].message);
  }
}

constexpr std::uint64_t kWhole = std::numeric_limits<std::uint64_t>::max();
const std::vector<std::uint64_t> kSlices = {1, 2, 3, 7, kSliceTurns, kWhole};

void expect_same_in_every_slice_size(const std::string& script, const TrafficOptions& o, const std::string& what,
                                     double steps = kMaxWorkSteps) {
  const TrafficResult whole = run(script, o, kWhole, steps);
  // A run that ran (to its end, or stopped by the budget as it ran), not options refused up front.
  ASSERT_TRUE(!whole.problem || (whole.too_large && steps < kMaxWorkSteps)) << what << ": " << *whole.problem;
  if (!whole.problem) ASSERT_GT(whole.total.size(), 0u) << what;
  for (const std::uint64_t slice : kSlices) expect_same(run(script, o, slice, steps), whole, what + ", slice " + std::to_string(slice));
}

// a=3 b=1, 4 requests a second: smooth WRR gives a, a, b, a (scores 3 1 ->
// -1 2 -> 2 3 -> 5 0 -> 4 1: a a b a), each second alike.
TEST(TrafficSlices, RoutingOneRequestASliceGivesTheHandWorkedCounts) {
  TrafficOptions o;
  o.rps = 4;
  o.duration = 3;
  for (const std::uint64_t slice : kSlices) {
    const TrafficResult r = run("POOL a=3 b=1\n", o, slice);
    ASSERT_FALSE(r.problem);
    ASSERT_EQ(r.buckets, 3u);
    for (std::size_t k = 0; k < 3; ++k) {
      EXPECT_EQ(r.requests[k * 2 + 0], 3u) << "slice " << slice << ", second " << k;
      EXPECT_EQ(r.requests[k * 2 + 1], 1u) << "slice " << slice << ", second " << k;
      EXPECT_EQ(r.total[k], 4u);
    }
  }
}

// The same, one request at a time with the service model (its own loop):
// a=1 b=1 alternate, 2 each a second; b DOWN at 2 s takes the last second's 4.
TEST(TrafficSlices, OneByOneWithTheServiceModelGivesTheHandWorkedCounts) {
  TrafficOptions o;
  o.rps = 4;
  o.duration = 3;
  o.service.enabled = true;
  for (const std::uint64_t slice : kSlices) {
    const TrafficResult r = run("POOL a=1 b=1\nNOW 2\nDOWN b\n", o, slice);
    ASSERT_FALSE(r.problem);
    const std::vector<std::uint32_t> expected = {2, 2, 2, 2, 4, 0};  // [second][a, b]
    EXPECT_EQ(r.requests, expected) << "slice " << slice;
  }
}

std::string rolling_restart(int backends, int wave, int every, int first) {
  std::string s = "POOL";
  for (int i = 0; i < backends; ++i) s += " b" + std::to_string(i) + "=" + std::to_string(1 + i % 7);
  s += "\n";
  for (int w = 0; w < backends / wave; ++w) {
    s += "NOW " + std::to_string(first + w * every) + "\n";
    for (int k = 0; k < wave; ++k) s += "DOWN b" + std::to_string(w * wave + k) + "\n";
    s += "NOW " + std::to_string(first + 15 + w * every) + "\n";
    for (int k = 0; k < wave; ++k) s += "UP b" + std::to_string(w * wave + k) + " 30\n";
  }
  return s;
}

TEST(TrafficSlices, AFleetRoutedInRunsIsTheSameInEverySliceSize) {
  // The fleet benchmark's shape, smaller: ramps change the classes mid-run.
  TrafficOptions o;
  o.rps = 5000;
  o.duration = 200;
  o.bucket = 10;
  o.curve.resolution = 100;
  expect_same_in_every_slice_size(rolling_restart(200, 10, 20, 5), o, "fleet");
  o.curve.resolution = 1;  // the script's integers: weight-1 backends get nothing while ramping
  expect_same_in_every_slice_size(rolling_restart(200, 10, 20, 5), o, "fleet at resolution 1");
}

TEST(TrafficSlices, HealthChecksRetriesAndTheServiceModelAreTheSameInEverySliceSize) {
  TrafficOptions o;
  o.rps = 400;
  o.duration = 600;
  o.bucket = 10;
  o.service.enabled = true;
  o.timeout_ms = 1000;
  o.retries = 1;
  const std::string script = rolling_restart(20, 1, 25, 30);
  for (const HealthKind kind : {HealthKind::None, HealthKind::Envoy, HealthKind::Nginx, HealthKind::HAProxy}) {
    o.health.kind = kind;
    expect_same_in_every_slice_size(script, o, "health kind " + std::to_string(static_cast<int>(kind)));
  }
  // Without slow start: cold backends time out, are retried and ejected.
  o.health.kind = HealthKind::Envoy;
  o.ramp_by = RampBy::Skip;
  expect_same_in_every_slice_size(script, o, "ramp by skip");
}

TEST(TrafficSlices, OtherPoliciesAreTheSameInEverySliceSize) {
  TrafficOptions o;
  o.rps = 300;
  o.duration = 300;
  o.bucket = 5;
  const std::string script = rolling_restart(20, 2, 20, 10);
  for (const Policy p : {Policy::LeastRequest, Policy::Random, Policy::P2C, Policy::RoundRobin}) {
    o.policy = p;
    expect_same_in_every_slice_size(script, o, "policy " + std::to_string(static_cast<int>(p)));
  }
}

TEST(TrafficSlices, ARunOverTheBudgetStopsAtTheSamePointInEverySliceSize) {
  // 10,000 requests routed at 10 steps each; a limit of 40,000 steps is
  // passed part-way, and the message says where.
  TrafficOptions o;
  o.rps = 1000;
  o.duration = 10;
  expect_same_in_every_slice_size("POOL a=1 b=2\n", o, "routing", 40'000);
  o.service.enabled = true;
  expect_same_in_every_slice_size("POOL a=1 b=2\n", o, "one by one", 400'000);
  const TrafficResult stopped = run("POOL a=1 b=2\n", o, 1, 400'000);
  EXPECT_TRUE(stopped.problem);
  EXPECT_TRUE(stopped.too_large);
}

// Long runs (PL-45): routing carries a millisecond's picks on over the
// next milliseconds while no ramp changes a weight, in the same bucket and
// before the script's next line, as one run of SmoothWrr's picks. The
// same run as one millisecond at a time (RunLimits::long_runs off), to the
// last cell, diagnostic and stopping point.

// a=1 and b=1 joining at 0 with a 2 s ramp, at resolution 1 (b weighs 0
// until 2,000 ms, then 1), 4 requests a second, one 4 s bucket: the 8
// requests before 2 s all go to a; from 2 s a and b alternate (a first, on
// the tie: scores 1 1 -> a -1, b 1 -> 0 2 b -> 1 0 -> a ...): a 4, b 4.
// A run carried on past the ramp's change at 2,000 ms would give a all 16.
TEST(TrafficSlices, ALongRunStopsAtARampsWeightChange) {
  TrafficOptions o;
  o.rps = 4;
  o.duration = 4;
  o.bucket = 4;
  o.curve.resolution = 1;
  for (const bool long_runs : {true, false}) {
    const TrafficResult r = run("POOL a=1\nADD b=1 2\n", o, kSliceTurns, kMaxWorkSteps, long_runs);
    ASSERT_FALSE(r.problem) << *r.problem;
    ASSERT_EQ(r.buckets, 1u);
    const std::vector<std::uint32_t> expected = {12, 4};
    EXPECT_EQ(r.requests, expected) << "long runs " << long_runs;
    EXPECT_EQ(r.total[0], 16u);
  }
}

void expect_same_with_and_without_long_runs(const std::string& script, const TrafficOptions& o, const std::string& what,
                                            double steps = kMaxWorkSteps) {
  const TrafficResult short_runs = run(script, o, kSliceTurns, steps, false);
  ASSERT_TRUE(!short_runs.problem || (short_runs.too_large && steps < kMaxWorkSteps)) << what << ": " << *short_runs.problem;
  for (const std::uint64_t slice : {std::uint64_t{1}, kSliceTurns, kWhole})
    expect_same(run(script, o, slice, steps, true), short_runs, what + ", long runs, slice " + std::to_string(slice));
}

TEST(TrafficSlices, LongRunsAreTheSameRunAsOneMillisecondAtATime) {
  // The fleet's shape, smaller, at resolutions 100, 16 (HAProxy's curve) and
  // 1, Envoy's curve; rates that are not whole requests a millisecond;
  // buckets that end inside a millisecond; script lines at fractions of a second.
  const std::string fleet = rolling_restart(200, 10, 20, 5);
  TrafficOptions o;
  o.duration = 200;
  o.bucket = 10;
  for (const double rps : {5000.0, 7.0, 2333.0, 33333.0}) {
    o.rps = rps;
    o.curve.resolution = 100;
    expect_same_with_and_without_long_runs(fleet, o, "fleet at " + std::to_string(rps) + " rps");
  }
  o.rps = 5000;
  o.curve.kind = CurveKind::HAProxy;
  o.curve.resolution = 16;
  expect_same_with_and_without_long_runs(fleet, o, "HAProxy's curve");
  o.curve = {};
  o.curve.kind = CurveKind::Envoy;
  expect_same_with_and_without_long_runs(fleet, o, "Envoy's curve");
  o.curve = {};
  o.curve.resolution = 1;
  o.bucket = 0.0337;
  o.duration = 30;
  expect_same_with_and_without_long_runs(fleet, o, "buckets of 33.7 ms");
  o.bucket = 1;
  const std::string lines =
      "POOL a=3 b=1 c=2\nNOW 0.25\nADD d=5 3\nNOW 1.0005\nDOWN a\nNOW 2.5\nUP a 2\nADD e=1\nNOW 4.75\nADD b=4 1\n";
  for (const double rps : {1000.0, 999.0, 12345.0}) {
    o.rps = rps;
    o.duration = 9;
    expect_same_with_and_without_long_runs(lines, o, "lines at fractions of a second, " + std::to_string(rps) + " rps");
  }
}

TEST(TrafficSlices, ALongRunOverTheBudgetStopsWhereOneMillisecondAtATimeDid) {
  // 10,000 requests routed at 10 steps each, a weight that never changes:
  // one long run would pass 40,000 steps part-way; it is cut to single
  // milliseconds near the limit, and the run stops at the same request.
  TrafficOptions o;
  o.rps = 1000;
  o.duration = 10;
  for (const double steps : {40'000.0, 40'005.0, 99'990.0, 100'000.0, 100'010.0})
    expect_same_with_and_without_long_runs("POOL a=1 b=2\n", o, "budget " + std::to_string(steps), steps);
  o.rps = 100'000;
  expect_same_with_and_without_long_runs(rolling_restart(50, 5, 2, 1), o, "a fleet over the budget", 3e6);
}

}  // namespace
