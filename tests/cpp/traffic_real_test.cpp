// The lab against a recorded run of the real software: Debian's nginx 1.22.1
// and HAProxy 2.6.12 in front of two local backends, a warm one (a) and one
// that turns cold at 0 (b: 100 ms x (1 + 10 x coldness), coldness 1 -> 0 over
// 3 s), 10 requests a second, a 500 ms timeout. tests/cpp/traffic_real/
// holds the recordings and run.sh, which made them (its README: the setup).
// Each test runs the lab on the same setup and compares what both did.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "support/recordings.hpp"
#include "traffic/curves.hpp"
#include "traffic/traffic.hpp"

using namespace slowstart;

namespace {

std::vector<std::string> lines(const std::string& name) { return recorded_lines(name); }

double first_number(const std::string& line) { return std::stod(line.substr(0, line.find(' '))); }

// Requests b's own log saw arrive, per whole second since 0.
std::map<int, int> per_second(const std::vector<std::string>& log) {
  std::map<int, int> out;
  for (const auto& l : log) ++out[static_cast<int>(std::floor(first_number(l)))];
  return out;
}

std::map<int, int> per_second(const TrafficResult& r, std::size_t id) {
  std::map<int, int> out;
  for (std::size_t k = 0; k < r.buckets; ++k)
    if (const auto n = r.requests[k * r.names.size() + id]) out[static_cast<int>(k)] += static_cast<int>(n);
  return out;
}

TrafficOptions recorded_setup(double duration) {
  TrafficOptions o;
  o.rps = 10;
  o.duration = duration;
  o.service.enabled = true;
  o.service.base_ms = 100;
  o.service.cold_factor = 11;
  o.service.warmup = 3;
  o.service.warm_by = WarmBy::Time;
  o.timeout_ms = 500;
  return o;
}

}  // namespace

// nginx, max_fails=1 fail_timeout=2s, one retry (proxy_next_upstream timeout).
// Recorded: b got requests 1, 3, 5 in second 0 (all timed out, each retried
// on a: "504, 200"), none in seconds 1 to 3, its probe at 4.2 (the third pick
// of second 4, after its effective weight climbed back), then every other
// request. The lab, with the same rules, gives the same count every second.
TEST(TrafficReal, NginxMatchesTheRecordedRunSecondBySecond) {
  TrafficOptions o = recorded_setup(8);
  o.retries = 1;
  o.health.kind = HealthKind::Nginx;
  o.health.fail_timeout = 2;
  const TrafficResult lab = simulate_traffic("POOL a=1 b=1\nUP b 0\n", o);
  const auto real = per_second(lines("nginx-b.txt"));
  EXPECT_EQ(per_second(lab, 1), real);
  EXPECT_EQ(real.at(0), 3);
  EXPECT_EQ(real.count(1) + real.count(2) + real.count(3), 0u);
  // Every failed attempt was retried and the client saw only 200s.
  int retried = 0;
  for (const auto& l : lines("nginx-access.txt")) retried += l.find("\"504, 200\"") != std::string::npos;
  EXPECT_EQ(retried, 3);
  for (const auto& l : lines("nginx-client.txt")) EXPECT_NE(l.find(" 200 "), std::string::npos) << l;
  std::uint32_t failed = 0;
  for (const auto f : lab.failed) failed += f;
  EXPECT_EQ(failed, 3u);
  EXPECT_EQ(lab.ejections[1], 1u);
}

// HAProxy, observe layer7 error-limit 2 on-error mark-down, inter 1s rise 2,
// slowstart 4s, weight 100, no retry of timed-out requests. Recorded: b got
// 1, 3, 5, 7; the second timeout (request 3's, at 0.8) marked it DOWN at
// 0.801; two checks later (1.23, 2.22) it was UP, and its effective weight
// went 7, 32, 57, 82, 100 a second apart: HAProxy's 16-step slowstart
// ((1 + 16 x whole seconds / 4) sixteenths of 100, rounded up).
TEST(TrafficReal, HAProxyMarksDownAtTheErrorLimitAndRampsBackInSixteenths) {
  TrafficOptions o = recorded_setup(12);
  o.health.kind = HealthKind::HAProxy;
  o.health.error_limit = 2;
  o.health.on_error = OnError::MarkDown;  // as recorded (haproxy.cfg)
  o.health.inter = 1;
  o.health.rise = 2;
  o.curve.kind = CurveKind::HAProxy;
  o.curve.resolution = 100;
  const TrafficResult lab = simulate_traffic("POOL a=100\nADD b=100 4\n", o);
  const auto access = lines("haproxy-access.txt");
  double down = -1, up = -1;
  int timeouts = 0;
  for (const auto& l : access) {
    if (l.find("Server pool/b is DOWN") != std::string::npos && down < 0) down = first_number(l);
    if (l.find("Server pool/b is UP") != std::string::npos && down >= 0 && up < 0) up = first_number(l);
    if (l.find(" b 504 ") != std::string::npos) ++timeouts;
  }
  ASSERT_GE(down, 0);
  ASSERT_GT(up, down);
  // Down at the error limit: the second timeout, 0.8 s, in both.
  EXPECT_NEAR(down, 0.8, 0.05);
  EXPECT_EQ(lab.ejections[1], 1u);
  EXPECT_EQ(static_cast<std::size_t>(std::floor(0.8 / lab.bucket)), 0u);
  std::uint32_t failed = 0;
  for (const auto f : lab.failed) failed += f;
  EXPECT_EQ(failed, 4u);  // 1, 3, 5, 7 were all sent before the mark-down
  EXPECT_EQ(timeouts, 4);
  // Up after `rise` checks at `inter`: between 1 and 2 s later in both (the
  // lab's checks from 0, each 3 ms long (--check-ms): results at 0, 1.003,
  // 2.006; HAProxy's from its start). The timeouts at 1.0 and 1.2 come
  // before and after the lab's check at 1.003 (both before the real 1.23):
  // neither run counts two more errors in a row, and b is UP after two checks.
  EXPECT_GT(up - down, 1.0);
  EXPECT_LE(up - down, 2.0);
  EXPECT_NEAR(lab.seconds_ejected[1], 2.006 - 0.8, 1e-9);
  // The slowstart staircase: the recorded weights are the lab's curve.
  std::vector<int> weights;
  for (const auto& l : lines("haproxy-stat.txt")) {
    std::istringstream s(l);
    double t;
    std::string status, w;
    s >> t >> status >> w;
    if (t > up - 0.1 && status == "UP") weights.push_back(std::stoi(w));
  }
  std::vector<int> curve;
  for (int e = 0; e <= 4; ++e)
    curve.push_back(static_cast<int>(std::ceil(100 * ramp_factor(o.curve, e, 4, true) - 1e-9)));
  EXPECT_EQ(weights, curve);
  EXPECT_EQ(curve, (std::vector<int>{7, 32, 57, 82, 100}));
}

// The same HAProxy with "retry-on conn-failure response-timeout": every
// timed-out request to b was retried on a, and HAProxy never marked b down
// although far more than error-limit of them timed out in a row: a retried
// timeout is not an error observe layer7 counts. The lab models that.
TEST(TrafficReal, HAProxyDoesNotCountRetriedTimeouts) {
  int retried = 0;
  for (const auto& l : lines("haproxy-retry-access.txt")) {
    EXPECT_EQ(l.find("Server pool/b is DOWN"), std::string::npos) << l;
    retried += l.find(" a 200 +1 ") != std::string::npos;
  }
  EXPECT_GE(retried, 10);
  TrafficOptions o = recorded_setup(12);
  o.retries = 1;
  o.health.kind = HealthKind::HAProxy;
  o.health.error_limit = 2;
  o.health.on_error = OnError::MarkDown;  // as recorded (haproxy.cfg)
  o.health.inter = 1;
  o.curve.kind = CurveKind::HAProxy;
  o.curve.resolution = 100;
  const TrafficResult lab = simulate_traffic("POOL a=100\nADD b=100 4\n", o);
  EXPECT_EQ(lab.ejections[1], 0u);
  std::uint32_t failed = 0, again = 0;
  for (std::size_t c = 0; c < lab.failed.size(); ++c) failed += lab.failed[c], again += lab.retried[c];
  // b's every other request until 1.8 s (then under 500 ms): 9 timeouts, far past error-limit 2.
  EXPECT_EQ(failed, 9u);
  EXPECT_EQ(again, failed);
}

// nginx with b alone in the upstream (tests/cpp/traffic_real/nginx-single-server/,
// docs/proxy-rules.md N2): a single server is never marked unavailable and a
// failed request is not retried. Recorded: b got all 80 requests, 10 every
// second; the 19 sent before 1.9 s timed out (504 to the client, one upstream
// each), the rest answered. The lab, with the same setup, the same (but for
// the request at the timeout's edge). Before the rule the lab ejected b and
// left most requests unrouted.
TEST(TrafficReal, NginxNeverTakesOutASingleServer) {
  TrafficOptions o = recorded_setup(8);
  o.retries = 1;
  o.health.kind = HealthKind::Nginx;
  o.health.fail_timeout = 2;
  const TrafficResult lab = simulate_traffic("POOL b=1\nUP b 0\n", o);
  const auto real = per_second(lines("nginx-single-server/b.txt"));
  EXPECT_EQ(per_second(lab, 0), real);
  EXPECT_EQ(real, (std::map<int, int>{{0, 10}, {1, 10}, {2, 10}, {3, 10}, {4, 10}, {5, 10}, {6, 10}, {7, 10}}));
  int timed_out = 0;
  for (const auto& l : lines("nginx-single-server/client.txt")) timed_out += l.find(" 504 ") != std::string::npos;
  EXPECT_EQ(timed_out, 19);
  std::uint32_t failed = 0, retried = 0, unrouted = 0;
  for (std::size_t c = 0; c < lab.failed.size(); ++c) failed += lab.failed[c], retried += lab.retried[c];
  for (const auto u : lab.unrouted) unrouted += u;
  // One request apart, at the boundary: the one sent at 1.8 s took the lab's
  // b exactly 500 ms (100 x (1 + 10 x 0.4)), not past the timeout; the real
  // one took 497 ms plus the proxy's own few, and timed out.
  EXPECT_EQ(failed, 18u);
  EXPECT_EQ(retried, 0u);
  EXPECT_EQ(unrouted, 0u);
  EXPECT_EQ(lab.ejections[0], 0u);
}

namespace {

// The setup of haproxy-on-error/ and haproxy-mark-down-cycle/ (their READMEs):
// b restarted cold at 0 at full weight (HAProxy did not see the restart),
// observe layer7 error-limit 2, inter 1s, rise 2, fall 3, no retries; the
// lab's other HAProxy parameters at their defaults (check_ms 3, as the
// recordings' 1.003 s between checks).
TrafficOptions on_error_setup(double duration, double warmup, OnError mode) {
  TrafficOptions o = recorded_setup(duration);
  o.service.warmup = warmup;
  o.health.kind = HealthKind::HAProxy;
  o.health.error_limit = 2;
  o.health.inter = 1;
  o.health.rise = 2;
  o.health.fall = 3;
  o.health.on_error = mode;
  return o;
}

int count_lines_with(const std::string& file, const std::string& text) {
  int n = 0;
  for (const auto& l : lines(file)) n += l.find(text) != std::string::npos;
  return n;
}

// A recording's stats-socket lines (time, status, weight; b alone): its
// mark-downs (UP to DOWN), the rise progress erased ("DOWN 1/2", then
// "DOWN"), and the seconds DOWN until `end`.
struct DownSpells {
  int downs = 0, erased = 0;
  double seconds = 0;
};
DownSpells down_spells(const std::string& file, double end) {
  DownSpells out;
  double down_at = -1;
  std::string last;
  for (const auto& l : lines(file)) {
    const double t = first_number(l);
    const std::string state = l.substr(l.find(' ') + 1);
    if (state.rfind("DOWN 100", 0) == 0 && last.rfind("UP", 0) == 0) ++out.downs, down_at = t;
    if (state.rfind("DOWN 100", 0) == 0 && last.rfind("DOWN 1/2", 0) == 0) ++out.erased;
    if (state.rfind("UP", 0) == 0 && down_at >= 0) out.seconds += std::min(t, end) - down_at, down_at = -1;
    last = state;
  }
  if (down_at >= 0) out.seconds += end - down_at;
  return out;
}

std::uint32_t count_total(const std::vector<std::uint32_t>& v) {
  std::uint32_t n = 0;
  for (const auto x : v) n += x;
  return n;
}

}  // namespace

// on-error fail-check, HAProxy's default (docs/proxy-rules.md H3, H4): each
// pair of timeouts is one failed check, and the check between pairs puts the
// health back at the top. Recorded: b never DOWN, 9 requests timed out
// (seconds 0 and 1), b got 5 a second throughout. The lab: the same.
TEST(TrafficReal, HAProxyFailCheckNeverReachesFallWithAGoodCheckBetween) {
  const TrafficResult lab = simulate_traffic("POOL a=100 b=100\nUP b 0\n", on_error_setup(10, 3, OnError::FailCheck));
  EXPECT_EQ(count_lines_with("haproxy-on-error/fail-check-access.txt", "pool/b is DOWN"), 0);
  EXPECT_EQ(lab.ejections[1], 0u);
  EXPECT_EQ(count_lines_with("haproxy-on-error/fail-check-client.txt", " 504 "), 9);
  EXPECT_EQ(count_total(lab.failed), 9u);
  std::vector<std::string> served;  // b's log without its checks
  for (const auto& l : lines("haproxy-on-error/fail-check-b.txt"))
    if (l.find("/health") == std::string::npos && first_number(l) >= 0) served.push_back(l);
  EXPECT_EQ(per_second(lab, 1), per_second(served));
}

// on-error fastinter changes no health: recorded, b never DOWN and 9
// timeouts, as in the lab.
TEST(TrafficReal, HAProxyOnErrorFastinterNeverMarksDown) {
  TrafficOptions o = on_error_setup(10, 3, OnError::FastInter);
  o.health.fastinter = 0.25;
  const TrafficResult lab = simulate_traffic("POOL a=100 b=100\nUP b 0\n", o);
  EXPECT_EQ(count_lines_with("haproxy-on-error/fastinter-access.txt", "pool/b is DOWN"), 0);
  EXPECT_EQ(lab.ejections[1], 0u);
  EXPECT_EQ(count_lines_with("haproxy-on-error/fastinter-client.txt", " 504 "), 9);
  EXPECT_EQ(count_total(lab.failed), 9u);
}

// on-error sudden-death: one pair of timeouts leaves b one failure from
// DOWN, the next pair (before a check restores it) marks it DOWN. Recorded:
// DOWN at 1.413, UP at 2.674 (1.26 s), 7 timeouts. The lab: DOWN at 1.8 (its
// check at 1.003 fell between the pairs at 0.8 and 1.4), UP at 3.009 after
// two checks (1.209 s out), 9 timeouts: within 5 % out, two timeouts more.
TEST(TrafficReal, HAProxySuddenDeathMarksDownAtTheSecondLimit) {
  const TrafficResult lab = simulate_traffic("POOL a=100 b=100\nUP b 0\n", on_error_setup(10, 3, OnError::SuddenDeath));
  EXPECT_EQ(count_lines_with("haproxy-on-error/sudden-death-access.txt", "pool/b is DOWN"), 1);
  EXPECT_EQ(lab.ejections[1], 1u);
  const double real_out = 2.674 - 1.413;
  EXPECT_NEAR(lab.seconds_ejected[1], real_out, 0.05 * real_out);
  EXPECT_EQ(count_lines_with("haproxy-on-error/sudden-death-client.txt", " 504 "), 7);
  EXPECT_EQ(count_total(lab.failed), 9u);
}

// on-error mark-down with b slow for good (haproxy-mark-down-cycle/, H7):
// the timeouts of b's requests still in flight after a mark-down mark it
// down again; when both come after the first passing check, the health goes
// back to 0 and the recovery takes two more checks: a 3 s cycle, where a
// model that ignores them (the lab before) cycles every 2 s (10 ejections in
// 20 s). Recorded: 8 mark-downs, cycles of 3 s while the checks fell before
// both in-flight timeouts, then 2 s as the checks' 3 ms drift moved them
// between; 33 timeouts; about 13.3 s DOWN. The lab: 7 mark-downs, every
// cycle 3 s (its checks drift by check_ms too, not far enough in 20 s).
TEST(TrafficReal, HAProxyInFlightErrorsMakeTheMarkDownCycleLonger) {
  const TrafficResult lab =
      simulate_traffic("POOL a=100 b=100\nUP b 0\n", on_error_setup(20, 1000, OnError::MarkDown));
  const auto [downs, erased, out] = down_spells("haproxy-mark-down-cycle/stat.txt", 20);
  EXPECT_EQ(downs, 8);
  EXPECT_EQ(erased, 4);
  EXPECT_NEAR(out, 13.3, 0.1);
  EXPECT_EQ(lab.ejections[1], 7u);
  EXPECT_NEAR(lab.seconds_ejected[1], out, 0.06 * out);
  EXPECT_EQ(count_lines_with("haproxy-mark-down-cycle/client.txt", " 504 "), 33);
  EXPECT_EQ(count_total(lab.failed), 28u);
}

// on-error mark-down with fastinter 250ms and downinter 1s, inter 2s, b slow
// for good (haproxy-fastinter-mark-down/, H5): HAProxy 2.6 moves the check
// to now + fastinter after each mark-down, so b is back half a second later
// (1/2 at +0.25 s, UP at +0.5 s) and falls again: 9 mark-downs in 12 s, 36
// timeouts, 4.56 s DOWN (stats polled every 50 ms), of which one spell was
// 0.9 s: its check at 10.67 took 366 ms (b's test server answered /health
// late while busy, "check duration: 366ms"); the others 0.46-0.52 s. The lab
// with --legacy-fastinter (the rule before 2.8): 9, 36, and 4.02 s (each
// spell 0.5 s less its first request's tenth): within 15 %. HAProxy 3.4's rule
// (the lab's default) moves it to now + downinter instead, as b is DOWN at
// 0: fewer, longer spells (6 mark-downs, 24 timeouts), not recorded here
// (Debian 12 has 2.6).
TEST(TrafficReal, HAProxyBefore28ChecksAtFastinterAfterAMarkDown) {
  const auto real = down_spells("haproxy-fastinter-mark-down/stat.txt", 12);
  EXPECT_EQ(real.downs, 9);
  EXPECT_EQ(real.erased, 0);
  EXPECT_EQ(count_lines_with("haproxy-fastinter-mark-down/client.txt", " 504 "), 36);
  TrafficOptions o = on_error_setup(12, 1000, OnError::MarkDown);
  o.health.inter = 2;
  o.health.fastinter = 0.25;
  o.health.downinter = 1;
  o.health.legacy_fastinter = true;
  const TrafficResult before = simulate_traffic("POOL a=100 b=100\nUP b 0\n", o);
  EXPECT_EQ(before.ejections[1], 9u);
  EXPECT_EQ(count_total(before.failed), 36u);
  EXPECT_NEAR(before.seconds_ejected[1], real.seconds, 0.15 * real.seconds);
  o.health.legacy_fastinter = false;
  const TrafficResult now = simulate_traffic("POOL a=100 b=100\nUP b 0\n", o);
  EXPECT_EQ(now.ejections[1], 6u);
  EXPECT_EQ(count_total(now.failed), 24u);
}
