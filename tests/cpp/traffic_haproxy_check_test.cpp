// HAProxy's health check in the lab (traffic/health_haproxy.*): on-error and
// fall (docs/proxy-rules.md H3, H4), fastinter and downinter (H5), and the
// errors of requests still in flight after a mark-down (H7), each on a
// scenario worked by hand.
//
// The scenario: POOL a=1 b=1, then b restarts (UP) at 0, cold for good
// (cold factor 11, warm-up 1000 s: each of b's requests takes about 1.1 s).
// Ten requests a second; smooth WRR alternates a (0.0, 0.2, ...) and b (0.1,
// 0.3, ...), so with a 500 ms timeout b's requests fail at 0.6, 0.8, 1.0, ...
// (even tenths). error-limit 2, inter 1, rise 2. The checks (which always
// pass) take no time (--check-ms 0): their results come on a grid from 0
// while the health is at the top: 0, 1, 2, ...; a check due at the instant a
// request fails comes after that failure.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "simulate_with_script.hpp"
#include "traffic/traffic.hpp"

using namespace slowstart;

namespace {

constexpr std::size_t kB = 1;  // b's id
const char* const kColdB = "POOL a=1 b=1\nUP b 0\n";

TrafficOptions always_cold_b(double duration, OnError mode) {
  TrafficOptions o;
  o.rps = 10;
  o.duration = duration;
  o.service.enabled = true;
  o.service.base_ms = 100;
  o.service.cold_factor = 11;
  o.service.warmup = 1000;
  o.service.warm_by = WarmBy::Time;
  o.timeout_ms = 500;
  o.health.kind = HealthKind::HAProxy;
  o.health.error_limit = 2;
  o.health.inter = 1;
  o.health.rise = 2;
  o.health.on_error = mode;
  o.health.check_ms = 0;  // checks take no time here: their results on a grid
  return o;
}

std::uint32_t sum_of(const std::vector<std::uint32_t>& v) {
  std::uint32_t n = 0;
  for (const auto x : v) n += x;
  return n;
}

std::uint32_t b_requests(const TrafficResult& r, std::size_t k) { return r.requests[k * r.names.size() + kB]; }

}  // namespace

// fail-check (the default), fall 3 (top 4, UP from 2): failures at x.2 and
// x.4, then x.6 and x.8, are two failed checks (4 -> 3 -> 2, "UP 1/3"); the
// one at x.0 comes just before the check at x.0, which passes, clears the
// count and puts the health back at the top. Three failed checks never come
// without a good one between them: b is never marked down, and takes every
// other request to the end (5 a second, all failing).
TEST(HAProxyCheck, FailCheckNeedsFallFailedChecksWithNoGoodOneBetween) {
  const TrafficOptions o = always_cold_b(6, OnError::FailCheck);
  EXPECT_EQ(TrafficOptions{}.health.on_error, OnError::FailCheck);  // HAProxy's default
  EXPECT_EQ(TrafficOptions{}.health.fall, 3u);
  EXPECT_EQ(TrafficOptions{}.health.check_ms, 3.0);
  const TrafficResult r = simulate_traffic(kColdB, o);
  ASSERT_FALSE(r.problem) << *r.problem;
  EXPECT_EQ(r.ejections[kB], 0u);
  for (std::size_t k = 0; k < 6; ++k) EXPECT_EQ(b_requests(r, k), 5u) << k;
  EXPECT_EQ(sum_of(r.failed), 30u);
}

// fall 2 (top 3): 0.8 takes it to 2 (one from DOWN), the check at 1.0 back
// to 3, 1.4 to 2, 1.8 to 0: DOWN at 1.8. 1.5's failure at 2.0 comes before
// the check at 2.0 (health 1), 1.7's at 2.2 is one error; the check at 3.0
// brings it UP. b had 0.1 ... 0.9 and 1.1 ... 1.7.
TEST(HAProxyCheck, FailCheckWithFallTwoMarksDownAtTheSecondLimitInAnInterval) {
  TrafficOptions o = always_cold_b(3, OnError::FailCheck);
  o.health.fall = 2;
  const TrafficResult r = simulate_traffic(kColdB, o);
  ASSERT_FALSE(r.problem) << *r.problem;
  EXPECT_EQ(r.ejections[kB], 1u);
  EXPECT_NEAR(r.seconds_ejected[kB], 3.0 - 1.8, 1e-9);
  EXPECT_EQ(b_requests(r, 0), 5u);
  EXPECT_EQ(b_requests(r, 1), 4u);
  EXPECT_EQ(b_requests(r, 2), 0u);
}

// sudden-death, fall 3: the first limit (0.8) drops b from the top to "UP
// 1/3" (3, then the failed check: 2); the check at 1.0 restores the top;
// 1.4 drops it to 2 again and 1.8 marks it DOWN (2 is not above rise: the
// failed check alone, 2 -> 0). The same as fail-check with fall 2, where
// fail-check with fall 3 never marks it down (above).
TEST(HAProxyCheck, SuddenDeathLeavesOneFailedCheckBeforeDown) {
  const TrafficResult r = simulate_traffic(kColdB, always_cold_b(3, OnError::SuddenDeath));
  ASSERT_FALSE(r.problem) << *r.problem;
  EXPECT_EQ(r.ejections[kB], 1u);
  EXPECT_NEAR(r.seconds_ejected[kB], 3.0 - 1.8, 1e-9);
}

// mark-down: DOWN at the first limit, 0.8. Its requests still in flight
// fail at 1.0 (before the check at 1.0: health 1 of rise 2) and 1.2 (one
// error): the check at 2.0 brings it UP. 0.9 goes to a.
TEST(HAProxyCheck, MarkDownAtTheFirstLimit) {
  const TrafficResult r = simulate_traffic(kColdB, always_cold_b(2.05, OnError::MarkDown));
  ASSERT_FALSE(r.problem) << *r.problem;
  EXPECT_EQ(r.ejections[kB], 1u);
  EXPECT_NEAR(r.seconds_ejected[kB], 2.0 - 0.8, 1e-9);
  EXPECT_EQ(b_requests(r, 0), 4u);  // 0.1, 0.3, 0.5, 0.7
  EXPECT_EQ(b_requests(r, 1), 0u);
}

// on-error fastinter changes no health: never DOWN, whatever the errors.
TEST(HAProxyCheck, FastinterModeNeverMarksDown) {
  TrafficOptions o = always_cold_b(6, OnError::FastInter);
  o.health.fastinter = 0.25;
  const TrafficResult r = simulate_traffic(kColdB, o);
  EXPECT_EQ(r.ejections[kB], 0u);
  EXPECT_EQ(sum_of(r.failed), 30u);
}

// fail-check, fall 2, fastinter 0.25: each limit also brings the next check
// forward to 0.25 s after it. 0.8: health 2, next check still 1.0 (1.05 is
// later); 1.0 passes (top) and, the check forced, the next is 1.25, which
// clears the count between 1.2 and 1.4; 1.6: health 2 and a check at 1.85,
// which restores the top before 2.2 ... : a good check always comes between
// two limits, and b is never marked down (without fastinter: DOWN at 1.8).
TEST(HAProxyCheck, FastinterBringsTheGoodCheckBetweenTwoLimits) {
  TrafficOptions o = always_cold_b(6, OnError::FailCheck);
  o.health.fall = 2;
  o.health.fastinter = 0.25;
  const TrafficResult r = simulate_traffic(kColdB, o);
  EXPECT_EQ(r.ejections[kB], 0u);
  for (std::size_t k = 0; k < 6; ++k) EXPECT_EQ(b_requests(r, k), 5u) << k;
}

// mark-down, inter 2, fastinter 0.25, downinter 1. HAProxy 3.4: at 0.8 b is
// DOWN at 0, so its next interval is downinter: the check moves from 2.0 to
// 1.8. The in-flight failures at 1.0 and 1.2 mark it down again (still 0;
// 2.2 is not sooner than 1.8). 1.8: health 1, next at fastinter, 2.05: UP.
// Before 2.8 (--legacy-fastinter): the check moves to 0.8 + fastinter =
// 1.05; 1.0's failure comes before it, 1.2's after it (one error), and the
// check at 1.30 brings b UP.
TEST(HAProxyCheck, DowninterAfterAMarkDownAndTheRuleBefore28) {
  // Each run ends as b comes back (no request of its after that).
  TrafficOptions o = always_cold_b(2.05, OnError::MarkDown);
  o.health.inter = 2;
  o.health.fastinter = 0.25;
  o.health.downinter = 1;
  const TrafficResult now = simulate_traffic(kColdB, o);
  EXPECT_EQ(now.ejections[kB], 1u);
  EXPECT_NEAR(now.seconds_ejected[kB], 2.05 - 0.8, 1e-9);
  o.duration = 1.3;
  o.health.legacy_fastinter = true;
  const TrafficResult old = simulate_traffic(kColdB, o);
  EXPECT_EQ(old.ejections[kB], 1u);
  EXPECT_NEAR(old.seconds_ejected[kB], 1.30 - 0.8, 1e-9);
  // Without fastinter nothing is brought forward (HAProxy wakes the check
  // only when fastinter is set): the check at 2.0 (health 1), and at inter
  // (fastinter unset) the next at 4.0: UP.
  o.duration = 4.05;
  o.health.fastinter = 0;
  o.health.legacy_fastinter = false;
  const TrafficResult slow = simulate_traffic(kColdB, o);
  EXPECT_EQ(slow.ejections[kB], 1u);
  EXPECT_NEAR(slow.seconds_ejected[kB], 4.0 - 0.8, 1e-9);
}

// Errors of requests in flight after a mark-down (H7), timeout 600 ms: b's
// 0.1, 0.3, 0.5, 0.7 fail at 0.7, 0.9 (DOWN), 1.1, 1.3. The check at 1.0
// came between: health 1 of rise 2. 1.1 and 1.3 reach the limit again and
// mark-down sends the health back to 0 (rise, then a failed check); the
// checks at 2.0 and 3.0 bring b UP at 3.0: out 2.1 s, not 1.1.
TEST(HAProxyCheck, InFlightErrorsAfterAMarkDownUndoTheRiseProgress) {
  TrafficOptions o = always_cold_b(3, OnError::MarkDown);
  o.timeout_ms = 600;
  const TrafficResult r = simulate_traffic(kColdB, o);
  ASSERT_FALSE(r.problem) << *r.problem;
  EXPECT_EQ(r.ejections[kB], 1u);  // one ejection: it was DOWN all along
  EXPECT_NEAR(r.seconds_ejected[kB], 3.0 - 0.9, 1e-9);
  EXPECT_EQ(b_requests(r, 0), 4u);
  EXPECT_EQ(b_requests(r, 1) + b_requests(r, 2), 0u);
}

// A passing check clears the count of consecutive errors (H1): mark-down,
// timeout 500 ms, b's failures at 0.6 and 0.8 mark it down; with inter 0.7
// (checks at 0, 0.7, 1.4, ...) the check at 0.7 falls between them, and the
// mark-down waits for 1.0 (0.8, 1.0); 0.9 still went to b.
TEST(HAProxyCheck, APassingCheckClearsTheErrorCount) {
  TrafficOptions o = always_cold_b(1.05, OnError::MarkDown);
  o.health.inter = 0.7;
  const TrafficResult r = simulate_traffic(kColdB, o);
  EXPECT_EQ(r.ejections[kB], 1u);
  EXPECT_NEAR(r.seconds_ejected[kB], 1.05 - 1.0, 1e-9);  // DOWN at 1.0, not 0.8
  EXPECT_EQ(b_requests(r, 0), 5u);  // 0.9 went to b: it was still UP
}

// Both CLIs read the new options from the one table: `--on-error`, `--fall`,
// `--fastinter`, `--downinter`, `--legacy-fastinter`, with their ranges.
TEST(HAProxyCheck, TheCliTakesTheOptionsAndRejectsBadOnes) {
  std::string out, err;
  const std::vector<std::string> base = {"--rps", "10", "--duration", "3", "--service-ms", "100", "--cold-factor",
                                         "11", "--warmup", "1000", "--warm-by", "time", "--timeout-ms", "500",
                                         "--health", "haproxy", "--error-limit", "2", "--inter", "1",
                                         "--summary", "json"};
  auto args = base;
  for (const char* a : {"--on-error", "fail-check", "--fall", "2"}) args.push_back(a);
  args.push_back("s.txt");
  ASSERT_EQ(test_support::simulate_with_script(args, kColdB, out, err), 0) << err;
  EXPECT_NE(out.find("\"on_error\": \"fail-check\""), std::string::npos) << out;
  EXPECT_NE(out.find("\"fall\": 2"), std::string::npos) << out;
  EXPECT_NE(out.find("\"ejections\": 1"), std::string::npos) << out;  // as FailCheckWithFallTwo...
  args = base;
  for (const char* a : {"--on-error", "sudden-death", "--fall", "3"}) args.push_back(a);
  args.push_back("s.txt");
  ASSERT_EQ(test_support::simulate_with_script(args, kColdB, out, err), 0) << err;
  EXPECT_NE(out.find("\"ejections\": 1"), std::string::npos) << out;
  const std::vector<std::pair<std::vector<std::string>, std::string>> bad = {
      {{"--on-error", "drain"}, "on-error must be fail-check, fastinter, sudden-death or mark-down, got 'drain'"},
      {{"--fall", "0"}, "--fall takes a whole number from 1 to 1000000, got '0'"},
      {{"--fastinter", "-1"}, "fastinter must be a number of seconds from 0 to 1000000"},
      {{"--downinter", "x"}, "--downinter takes a number, got 'x'"},
  };
  for (const auto& [extra, message] : bad) {
    args = base;
    args.insert(args.end(), extra.begin(), extra.end());
    args.push_back("s.txt");
    EXPECT_NE(test_support::simulate_with_script(args, kColdB, out, err), 0) << extra[0];
    EXPECT_NE(err.find(message), std::string::npos) << err;
  }
}
