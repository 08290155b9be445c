// p50/p99 latency per bucket and backend, and the client's view (requests,
// failures, error rate, p50/p99 of the whole wait) per bucket and per run
// (issue #31, item 4), on scenarios small enough to work by hand. The
// numbers in the comments are the hand computation; latency_histograms.hpp
// and client_view.hpp state the rules.
#include <gtest/gtest.h>

#include <cmath>
#include <numeric>
#include <string>

#include "traffic/budget.hpp"
#include "traffic/latency_histograms.hpp"
#include "traffic/simulate_command.hpp"
#include "traffic/traffic.hpp"

using namespace slowstart;
using slowstart::simulate_command::SimulateArgs;  // not by a neighbour in a unity batch

namespace {

// Names of their own: the tests build as unity files with other traffic tests.
constexpr std::size_t kPctA = 0, kPctB = 1;

float pct_cell(const std::vector<float>& v, const TrafficResult& r, std::size_t k, std::size_t id) {
  return v[k * r.names.size() + id];
}

std::uint64_t pct_count_all(const std::vector<std::uint32_t>& v) { return std::accumulate(v.begin(), v.end(), std::uint64_t{0}); }

// POOL a=1 b=1, b restarted at 0 and cold for the whole run (cold factor 11,
// warm-up 1000 s: about 1,100 ms a request), a warm at 100 ms. Ten requests
// a second: smooth WRR sends a the even tenths, b the odd ones; b's all
// time out at +500 ms.
TrafficOptions pct_b_always_times_out(std::uint32_t retries) {
  TrafficOptions o;
  o.rps = 10;
  o.duration = 3;
  o.service.enabled = true;
  o.service.base_ms = 100;
  o.service.cold_factor = 11;
  o.service.warmup = 1000;
  o.timeout_ms = 500;
  o.retries = retries;
  return o;
}
constexpr const char* kPctBRestarts = "POOL a=1 b=1\nUP b 0\n";

// One backend with one worker, 150 ms a request, one every 100 ms, for 2 s.
TrafficOptions pct_growing_queue() {
  TrafficOptions o;
  o.rps = 10;
  o.duration = 2;
  o.service.enabled = true;
  o.service.base_ms = 150;
  o.service.workers = 1;
  return o;
}

}  // namespace

TEST(LatencyBins, OctavesCutIn128) {
  EXPECT_EQ(latency_bin(0), 0u);
  EXPECT_EQ(latency_bin(std::nan("")), 0u);
  EXPECT_EQ(latency_bin(std::ldexp(1.0, -11)), 0u);     // below 2^-10 ms
  EXPECT_EQ(latency_bin(std::ldexp(1.0, -10)), 1u);     // the first bin's lower edge
  EXPECT_EQ(latency_bin(1e12), kLatencyBins - 1);       // 2^27 ms and above: the last bin
  EXPECT_EQ(latency_bin(1.0), 1u + 10 * 128);           // octave 0 starts after ten octaves
  EXPECT_EQ(latency_bin(1.0 + 1.0 / 129), latency_bin(1.0));  // within 1/128 of 1: the same bin
  EXPECT_EQ(latency_bin(1.0 + 1.0 / 128), latency_bin(1.0) + 1);
  EXPECT_EQ(latency_bin(1.999999), latency_bin(2.0) - 1);
  for (double x = 0.01; x < 1e6; x *= 1.003) EXPECT_LE(latency_bin(x), latency_bin(x * 1.003)) << x;
}

TEST(LatencyBins, NearestRank) {
  EXPECT_EQ(nearest_rank(0, 50), 0u);
  EXPECT_EQ(nearest_rank(1, 50), 1u);
  EXPECT_EQ(nearest_rank(1, 99), 1u);
  EXPECT_EQ(nearest_rank(3, 50), 2u);    // ceil(1.5)
  EXPECT_EQ(nearest_rank(10, 50), 5u);
  EXPECT_EQ(nearest_rank(10, 99), 10u);  // ceil(9.9)
  EXPECT_EQ(nearest_rank(100, 99), 99u);
  EXPECT_EQ(nearest_rank(200, 99), 198u);
  EXPECT_EQ(nearest_rank(4'000'000'000ull, 99), 3'960'000'000ull);
}

// One backend, 100 ms constant: every percentile is 100 exactly (a bin holds
// one value: the largest in it is that value).
TEST(TrafficPercentiles, ConstantServiceTime) {
  TrafficOptions o;
  o.rps = 10;
  o.duration = 3;
  o.service.enabled = true;
  o.service.base_ms = 100;
  const TrafficResult r = simulate_traffic("POOL a=1\n", o);
  ASSERT_FALSE(r.problem) << *r.problem;
  ASSERT_EQ(r.buckets, 3u);
  for (std::size_t k = 0; k < 3; ++k) {
    EXPECT_EQ(pct_cell(r.p50_ms, r, k, kPctA), 100.0f);
    EXPECT_EQ(pct_cell(r.p99_ms, r, k, kPctA), 100.0f);
    EXPECT_EQ(r.client_requests[k], 10u);
    EXPECT_EQ(r.client_failed[k], 0u);
    EXPECT_EQ(r.client_p50_ms[k], 100.0f);
    EXPECT_EQ(r.client_p99_ms[k], 100.0f);
  }
  EXPECT_EQ(r.run_p50_ms[kPctA], 100.0f);
  EXPECT_EQ(r.run_p99_ms[kPctA], 100.0f);
  EXPECT_EQ(r.run_client_p50_ms, 100.0f);
  EXPECT_EQ(r.run_client_p99_ms, 100.0f);
}

// One worker, 150 ms a request, one every 100 ms: the queue grows by 50 ms a
// request, so request j waits 150 + 50 j ms. Bucket 0 (j = 0..9): 150 ... 600;
// p50 is rank 5 (350), p99 rank 10 (600). Bucket 1 (j = 10..19): 650 ... 1100:
// p50 850, p99 1100. The run (20): p50 rank 10 (600), p99 rank 20 (1100).
TEST(TrafficPercentiles, AQueueThatGrows) {
  const TrafficResult r = simulate_traffic("POOL a=1\n", pct_growing_queue());
  ASSERT_FALSE(r.problem) << *r.problem;
  EXPECT_FLOAT_EQ(pct_cell(r.p50_ms, r, 0, kPctA), 350);
  EXPECT_FLOAT_EQ(pct_cell(r.p99_ms, r, 0, kPctA), 600);
  EXPECT_FLOAT_EQ(pct_cell(r.p50_ms, r, 1, kPctA), 850);
  EXPECT_FLOAT_EQ(pct_cell(r.p99_ms, r, 1, kPctA), 1100);
  EXPECT_FLOAT_EQ(r.run_p50_ms[kPctA], 600);
  EXPECT_FLOAT_EQ(r.run_p99_ms[kPctA], 1100);
  EXPECT_FLOAT_EQ(r.run_client_p50_ms, 600);  // no retries: the client waits what the attempt took
  EXPECT_FLOAT_EQ(r.run_client_p99_ms, 1100);
}

// Retries 0: b's five requests a second fail to the client, each after 500
// ms. Per bucket: 10 sent, 5 failed (rate 0.5); the client's p50 is rank 5
// of 5 x 100 ms, 5 x 500 ms (100), its p99 rank 10 (500). a: 100/100, b: 500/500.
TEST(TrafficPercentiles, ABackendThatAlwaysTimesOutWithoutRetries) {
  const TrafficResult r = simulate_traffic(kPctBRestarts, pct_b_always_times_out(0));
  ASSERT_FALSE(r.problem) << *r.problem;
  ASSERT_EQ(r.buckets, 3u);
  for (std::size_t k = 0; k < 3; ++k) {
    EXPECT_EQ(r.client_requests[k], 10u) << k;
    EXPECT_EQ(r.client_failed[k], 5u) << k;
    EXPECT_EQ(r.client_p50_ms[k], 100.0f) << k;
    EXPECT_EQ(r.client_p99_ms[k], 500.0f) << k;
    EXPECT_EQ(pct_cell(r.p50_ms, r, k, kPctA), 100.0f);
    EXPECT_EQ(pct_cell(r.p99_ms, r, k, kPctA), 100.0f);
    EXPECT_EQ(pct_cell(r.p50_ms, r, k, kPctB), 500.0f);  // a timed-out attempt counts as the timeout
    EXPECT_EQ(pct_cell(r.p99_ms, r, k, kPctB), 500.0f);
  }
  // Without retries every failed attempt is the client's failure.
  EXPECT_EQ(pct_count_all(r.client_failed), pct_count_all(r.failed));
  EXPECT_EQ(r.run_client_p50_ms, 100.0f);  // rank 15 of 15 x 100, 15 x 500
  EXPECT_EQ(r.run_client_p99_ms, 500.0f);

  SimulateArgs args;
  args.options = pct_b_always_times_out(0);
  args.summary = true;
  const std::string json = simulate_command::format_summary(r, args);
  EXPECT_NE(json.find("\"client_requests\": 30, \"client_failed\": 15, \"client_error_rate\": 0.500000, "
                      "\"client_p50_ms\": 100, \"client_p99_ms\": 500"),
            std::string::npos)
      << json;
  EXPECT_NE(json.find("\"name\": \"b\", \"requests\": 15, \"failed\": 15"), std::string::npos) << json;
  EXPECT_NE(json.find("\"p50_ms\": 500, \"p99_ms\": 500}"), std::string::npos) << json;
}

// Retries 1: each of b's requests is retried on a when it times out (+500 ms)
// and takes 100 ms there: the client waits 600 ms and sees no failure...
// except for b's requests at 2.5, 2.7 and 2.9 s, which time out at or past
// the end (3 s): not retried, failed to the client after 500 ms.
// Bucket 0 and 1: 10 sent, 0 failed, p50 100 (rank 5 of 5 x 100, 5 x 600),
// p99 600. Bucket 2: 3 failed (rate 0.3); 5 x 100, 3 x 500, 2 x 600: p50
// 100, p99 600. The run: 3 of 30 failed (0.1); p50 100, p99 600.
TEST(TrafficPercentiles, ABackendThatAlwaysTimesOutWithOneRetry) {
  const TrafficResult r = simulate_traffic(kPctBRestarts, pct_b_always_times_out(1));
  ASSERT_FALSE(r.problem) << *r.problem;
  ASSERT_EQ(r.buckets, 3u);
  const std::uint32_t failed[] = {0, 0, 3};
  for (std::size_t k = 0; k < 3; ++k) {
    EXPECT_EQ(r.client_requests[k], 10u) << k;
    EXPECT_EQ(r.client_failed[k], failed[k]) << k;
    EXPECT_EQ(r.client_p50_ms[k], 100.0f) << k;
    EXPECT_EQ(r.client_p99_ms[k], 600.0f) << k;
    EXPECT_EQ(pct_cell(r.p99_ms, r, k, kPctA), 100.0f);  // a's own and the retries: 100 ms each
    EXPECT_EQ(pct_cell(r.p99_ms, r, k, kPctB), 500.0f);
  }
  EXPECT_EQ(r.run_client_p50_ms, 100.0f);
  EXPECT_EQ(r.run_client_p99_ms, 600.0f);
  EXPECT_EQ(pct_count_all(r.client_failed), 3u);

  SimulateArgs args;
  args.options = pct_b_always_times_out(1);
  args.csv = true;
  const std::string csv = simulate_command::format_simulation(r, args);
  EXPECT_EQ(csv.substr(0, csv.find('\n')),
            "time,backend,requests,share,outstanding,latency_ms,failed,retried,state,p50_ms,p99_ms,client_requests,"
            "client_failed,client_error_rate,client_p50_ms,client_p99_ms");
  // Bucket 0, a: its own 5 and the retries of b's at 0.1 and 0.3 (at 0.6, 0.8).
  EXPECT_NE(csv.find("\n0,a,7,0.5833,"), std::string::npos) << csv;
  // Bucket 2, backend b: its 5 requests fail, 2 are retried; the bucket's client columns end the row.
  EXPECT_NE(csv.find("\n2,b,5,0.3333,"), std::string::npos) << csv;
  EXPECT_NE(csv.find(",5,2,serving,500.0,500.0,10,3,0.300000,100.0,600.0\n"), std::string::npos) << csv;
}

// No backend: a request fails to the client at once, with no latency.
// POOL a, DOWN a at 1 s, 10 a second for 2 s, routing only: bucket 0 sends
// 10 (none failed), bucket 1 sends 10 that all fail.
TEST(TrafficPercentiles, UnroutedRequestsFailToTheClient) {
  TrafficOptions o;
  o.rps = 10;
  o.duration = 2;
  const TrafficResult r = simulate_traffic("POOL a=1\nNOW 1\nDOWN a\n", o);
  ASSERT_FALSE(r.problem) << *r.problem;
  EXPECT_EQ(r.client_requests[0], 10u);
  EXPECT_EQ(r.client_failed[0], 0u);
  EXPECT_EQ(r.client_requests[1], 10u);
  EXPECT_EQ(r.client_failed[1], 10u);
  EXPECT_EQ(r.run_client_p99_ms, -1.0f);  // no service model: no latency
  SimulateArgs args;
  args.options = o;
  const std::string json = simulate_command::format_summary(r, args);
  EXPECT_NE(json.find("\"client_failed\": 10, \"client_error_rate\": 0.500000, \"client_p50_ms\": null, "
                      "\"client_p99_ms\": null"),
            std::string::npos)
      << json;
  EXPECT_NE(json.find("\"p50_ms\": null, \"p99_ms\": null}"), std::string::npos) << json;
}

// No request at all: the error rate is 0, not a division by zero.
TEST(TrafficPercentiles, NoRequestsNoErrorRate) {
  EXPECT_EQ(TrafficResult::error_rate(0, 0), 0.0);
  EXPECT_EQ(TrafficResult::error_rate(1, 4), 0.25);
}

// The histograms' memory is bounded: over RunLimits::latency_bins the run
// stops, too large, as the work budget's other limits do. A queue that grows
// puts every request in a bin of its own (150 + 50 j ms, over 0.8 % apart
// once j < 200): 20 requests need more than 10 bins.
TEST(TrafficPercentiles, TooManyBinsStopTheRun) {
  TrafficOptions o = pct_growing_queue();
  o.bucket = 2;
  RunLimits limits;
  limits.latency_bins = 10;
  const TrafficResult r = simulate_traffic("POOL a=1\n", o, limits);
  ASSERT_TRUE(r.problem);
  EXPECT_TRUE(r.too_large);
  EXPECT_NE(r.problem->find("latency histogram bins"), std::string::npos) << *r.problem;
  EXPECT_EQ(r.buckets, 0u);
  limits.latency_bins = 100;
  EXPECT_FALSE(simulate_traffic("POOL a=1\n", o, limits).problem);
}

// Over a run the client's failures are the failed attempts not retried plus
// the requests (and retries) that found no backend, whatever the balancer:
// two ways of counting the same requests, one per attempt, one per request.
TEST(TrafficPercentiles, ClientFailuresAddUpWithTheAttempts) {
  const char* script = "POOL a=1 b=1 c=1 d=1\nNOW 5\nDOWN b\nNOW 6\nUP b 0\nDOWN c\nNOW 8\nUP c 0\n";
  for (const HealthKind kind : {HealthKind::None, HealthKind::Nginx, HealthKind::HAProxy, HealthKind::Envoy})
    for (const std::uint32_t retries : {0u, 1u, 2u}) {
      TrafficOptions o;
      o.rps = 400;
      o.duration = 30;
      o.service.enabled = true;
      o.service.cold_factor = 8;
      o.service.warmup = 10;
      o.slow_start = false;
      o.timeout_ms = 600;
      o.retries = retries;
      o.health.kind = kind;
      const TrafficResult r = simulate_traffic(script, o);
      ASSERT_FALSE(r.problem) << *r.problem;
      ASSERT_GT(pct_count_all(r.failed), 0u) << static_cast<int>(kind) << ' ' << retries;  // the case has failures
      EXPECT_EQ(pct_count_all(r.client_failed), pct_count_all(r.failed) - pct_count_all(r.retried) + pct_count_all(r.unrouted))
          << static_cast<int>(kind) << ' ' << retries;
      // Every request the client sent, once: all attempts less the retries.
      EXPECT_EQ(pct_count_all(r.client_requests), pct_count_all(r.total) - pct_count_all(r.retried)) << static_cast<int>(kind) << ' ' << retries;
    }
}
