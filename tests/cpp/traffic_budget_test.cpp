// The work budget (cpp/traffic/budget.*): a simulation's size is known before
// it runs and refused over a limit, and what only the run can tell is counted
// as it runs: no options and no script can make a simulation hang, abort or
// grow without bound. Sizes worked by hand from budget.hpp's costs.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "traffic/budget.hpp"
#include "simulate_with_script.hpp"
#include "traffic/simulate_command.hpp"
#include "traffic/traffic.hpp"

namespace {

using namespace slowstart;

TEST(TrafficBudget, TheSizeIsWorkedOutBeforeRunning) {
  TrafficOptions o;
  o.rps = 1000;
  o.duration = 10;
  const std::string script = "POOL a=1 b=1\n";  // 13 bytes, 2 backends
  const TrafficMeasure m = measure_traffic(script, o);
  ASSERT_FALSE(m.problem);
  EXPECT_EQ(m.size.requests, 10'000);
  EXPECT_EQ(m.size.buckets, 10);
  EXPECT_EQ(m.size.cells, 20);
  // Routing only: 10 steps a request, 20 a cell, 2 a byte of the script.
  EXPECT_EQ(m.size.steps, 10'000 * 10 + 20 * 20 + 13 * 2);
  // The default duration: 10 s past the last ramp (ADD at 5 with a 30 s ramp).
  o.duration = 0;
  EXPECT_EQ(measure_traffic("POOL a=1\nNOW 5\nADD b=1 30\n", o).size.duration, 45);
  // A pick that scans: random looks at both backends, one by one (100 + 2 x 5 a request).
  o.duration = 10;
  o.policy = Policy::Random;
  EXPECT_EQ(measure_traffic(script, o).size.steps, 10'000 * 110 + 20 * 20 + 13 * 2);
  // Envoy's sweeps: every 10 s over 100 s, each a pass over the two backends;
  // the service model samples outstanding requests ten times a bucket.
  o.policy = Policy::SmoothWrr;
  o.duration = 100;
  o.service.enabled = true;
  o.timeout_ms = 500;
  o.health.kind = HealthKind::Envoy;
  EXPECT_EQ(measure_traffic(script, o).size.sweeps, 10);
  EXPECT_EQ(measure_traffic(script, o).size.steps, 100'000 * 100 + 10 * 5 * 2 + 1000 * 2 + 200 * 20 + 13 * 2);
}

TEST(TrafficBudget, OverALimitNothingRunsAndTheMessageSaysTheSizeAndTheLimit) {
  TrafficOptions o;
  // Random over 100,000 backends: each request scans them all.
  std::string pool = "POOL";
  for (int i = 0; i < 100'000; ++i) pool += " b" + std::to_string(i) + "=1";
  o.policy = Policy::Random;
  o.rps = 1000;
  o.duration = 100;
  o.bucket = 100;
  const auto start = std::chrono::steady_clock::now();
  const TrafficResult r = simulate_traffic(pool, o);
  // Reading the 100,000 names takes 1-2 s alone and 9 s on a loaded shared
  // machine (seen once); running it would be about 10^10 steps. too_large,
  // below, says that it did not run.
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(20));
  EXPECT_TRUE(r.too_large);
  EXPECT_EQ(r.problem,
            "simulation too large: about 5e+10 steps of work (at most 1.2e+10): 100000 requests, each a pick that "
            "looks at all 100000 backends (random); lower rps or duration, use fewer backends, or wrr or "
            "least-request");
  EXPECT_EQ(r.buckets, 0u);
  // The same pool under wrr: 10 steps a request.
  o.policy = Policy::SmoothWrr;
  EXPECT_FALSE(measure_traffic(pool, o).problem);
  // Rows: a huge duration in small buckets.
  o.duration = 1e15;
  o.rps = 1e-9;
  o.bucket = 1e9;
  EXPECT_FALSE(measure_traffic("POOL a=1 b=1\n", o).problem);  // 10^6 buckets x 2 fit
  o.bucket = 1e8;
  EXPECT_FALSE(measure_traffic("POOL a=1\n", o).problem);  // 10^7 buckets x 1: the limit itself
  EXPECT_EQ(measure_traffic("POOL a=1 b=1\n", o).problem,
            "simulation too large: 10000000 buckets x 2 backends = 20000000 rows (at most 10000000); widen the bucket");
  // Envoy's sweeps: the interval's floor is 1 ms, and 10^12 s of them is too much work.
  o = TrafficOptions{};
  o.duration = 1e12;
  o.rps = 1e-6;
  o.bucket = 1e12;
  o.service.enabled = true;
  o.timeout_ms = 100;
  o.health.kind = HealthKind::Envoy;
  o.health.interval = 1e-300;
  EXPECT_EQ(check_traffic_options(o), "interval must be a number of seconds from 0.001 to 1000000");
  o.health.interval = 0.001;
  EXPECT_EQ(measure_traffic("POOL a=1\n", o).problem,
            "simulation too large: about 5e+15 steps of work (at most 1.2e+10): 1e+15 sweeps of Envoy's check "
            "(duration / interval) over 1 backends; lengthen the interval or shorten the duration");
}

TEST(TrafficBudget, TheScriptHasAMostBytes) {
  EXPECT_FALSE(script_too_large(kMaxScriptBytes));
  EXPECT_EQ(script_too_large(kMaxScriptBytes + 1), "script too large: more than 67108864 bytes (at most 67108864)");
  // The CLI asks its reader for one byte past the limit, and stops there.
  std::size_t asked = 0;
  std::string out, err;
  const int status = simulate_command::run_simulate(
      {"-"},
      [&](const std::string&, std::size_t max_bytes, std::string& text) -> Problem {
        asked = max_bytes;
        text.assign(max_bytes, '\n');
        return std::nullopt;
      },
      out, err);
  EXPECT_EQ(asked, kMaxScriptBytes + 1);
  EXPECT_EQ(status, 2);
  EXPECT_EQ(err, "slowstart simulate: script too large: more than 67108864 bytes (at most 67108864)\n");
  EXPECT_EQ(out, "");
}

// What only the run can tell: retries, ejections and ramps. With the budget
// lowered (RunLimits), a run that passes it stops at the same place every
// time, says where, and returns nothing but its diagnostics.
TEST(TrafficBudget, TheRunCountsItsWorkAndStopsPastTheBudget) {
  TrafficOptions o;
  o.rps = 1000;
  o.duration = 60;
  o.service.enabled = true;
  o.timeout_ms = 300;  // cold b's requests (1,000 ms) time out and are retried
  o.retries = 2;
  o.slow_start = false;
  const std::string script = "POOL a=1 b=1\nDOWN b\nNOW 5\nUP b 0\nbad line\n";
  const TrafficMeasure m = measure_traffic(script, o);
  ASSERT_FALSE(m.problem);
  const TrafficResult full = simulate_traffic(script, o, RunLimits{m.size.steps * 100, kMaxInFlight});
  ASSERT_FALSE(full.problem);
  std::uint64_t retried = 0;
  for (const auto n : full.retried) retried += n;
  ASSERT_GT(retried, 100u);  // the retries are work the estimate did not count
  // The estimate's work and a little more: the retries pass it.
  const TrafficResult stopped = simulate_traffic(script, o, RunLimits{m.size.steps + 1000, kMaxInFlight});
  ASSERT_TRUE(stopped.problem);
  EXPECT_TRUE(stopped.too_large);
  EXPECT_EQ(stopped.problem->substr(0, 45), "simulation too large: more than 6e+06 steps o");
  EXPECT_NE(stopped.problem->find(" s of 60.000 s (retries, health checks and ramps add to the requests' own)"),
            std::string::npos)
      << *stopped.problem;
  EXPECT_EQ(stopped.buckets, 0u);
  EXPECT_TRUE(stopped.requests.empty());
  ASSERT_EQ(stopped.diagnostics.size(), 1u);  // the script's own diagnostics stay
  EXPECT_EQ(stopped.diagnostics[0].line, 5u);
  EXPECT_EQ(simulate_traffic(script, o, RunLimits{m.size.steps + 1000, kMaxInFlight}).problem, stopped.problem);
}

// The attempts in flight (and the requests the backends hold) are capped: a
// service time of 10^6 s keeps every request in flight.
TEST(TrafficBudget, RequestsInFlightAreCapped) {
  TrafficOptions o;
  o.rps = 1000;
  o.duration = 10;
  o.service.enabled = true;
  o.service.base_ms = 1e9;
  o.service.workers = 10'000;
  const TrafficResult r = simulate_traffic("POOL a=1\n", o, RunLimits{kMaxWorkSteps, 2500});
  // Request j arrives at j / 1000 s and never ends; the backend holds it
  // too: two entries a request, 2,500 passed when request 1,250 (at 1.25 s) is in.
  EXPECT_EQ(r.problem,
            "simulation too large: more than 2500 requests in flight or waiting for a worker at once (at 1.250 s); "
            "set a timeout, or lower rps or the service time");
  EXPECT_TRUE(r.too_large);
  // With a timeout the proxy lets go after 100 ms: 100 attempts in flight, and
  // the backend's 10,000 workers hold the rest (within 10 s: 10,000).
  o.timeout_ms = 100;
  EXPECT_FALSE(simulate_traffic("POOL a=1\n", o, RunLimits{kMaxWorkSteps, 11'000}).problem);
}

// The old hangs, each now a quick refusal with exit status 2 (the Node CLI
// runs the same C++: tests/web/unit/simulate-budget.test.ts).
TEST(TrafficBudget, TheCommandRefusesWhatWouldHangQuickly) {
  const auto run = [](std::vector<std::string> args, const std::string& script, std::string& err) {
    std::string out;
    args.push_back("-");
    return test_support::simulate_with_script(args, script, out, err);
  };
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--health", "envoy", "--interval", "1e-300", "--timeout-ms", "100"},
       "slowstart simulate: interval must be a number of seconds from 0.001 to 1000000\n"},
      {{"--rps", "1e300"}, "slowstart simulate: simulation too large: 1e+301 requests (at most 1000000000); lower rps or duration\n"},
      {{"--duration", "1e15", "--rps", "1e-9", "--bucket", "1e7"},
       "slowstart simulate: simulation too large: 100000000 buckets x 1 backends = 100000000 rows (at most 10000000); widen the bucket\n"},
      {{"--duration", "1e7", "--rps", "1e-6", "--csv"},
       "slowstart simulate: report too large: up to 1.9e+09 bytes (at most 268435456); widen the bucket, or use --summary json\n"},
  };
  for (const auto& [args, message] : cases) {
    std::string err;
    const auto start = std::chrono::steady_clock::now();
    EXPECT_EQ(run(args, "POOL a=1\n", err), 2) << args[1];
    EXPECT_EQ(err, message);
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5)) << args[1];
  }
}

}  // namespace
