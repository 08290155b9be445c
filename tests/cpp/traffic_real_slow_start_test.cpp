// The lab with slow start as HAProxy configures it (`--slow-start 4`)
// against the recording of HAProxy 2.6.12 ramping a server that leaves
// maintenance (tests/cpp/traffic_real/haproxy-maintenance-ramp/, its README:
// the setup; docs/proxy-rules.md H8-H10). Every second, every server: the
// requests the lab routes are within one of what HAProxy routed.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "support/recordings.hpp"
#include "traffic/traffic.hpp"

using namespace slowstart;

namespace real_slow_start {  // named: unity builds put test files side by side

// Requests HAProxy logged per whole second since 0, by server: the lines
// "T server status ..." (health-check and state messages have other words).
std::map<std::string, std::map<int, int>> recorded_per_second(const std::string& file) {
  std::map<std::string, std::map<int, int>> out;
  for (const std::string& line : recorded_lines(file)) {
    std::istringstream s(line);
    double t = 0;
    std::string server, status;
    s >> t >> server >> status;
    if (t < 0 || status.size() != 3 || !std::isdigit(static_cast<unsigned char>(status[0]))) continue;
    ++out[server][static_cast<int>(std::floor(t))];
  }
  return out;
}

int lab_count(const TrafficResult& r, const std::string& name, int second) {
  for (std::size_t id = 0; id < r.names.size(); ++id)
    if (r.names[id] == name) return static_cast<int>(r.requests[static_cast<std::size_t>(second) * r.names.size() + id]);
  return 0;
}

// The README's setup in the lab's terms: 20 requests a second of 50 ms,
// HAProxy's checks every second (rise 2), weights 100 in HAProxy's
// sixteenths. The lab's clock for script lines is whole seconds: c, added at
// 18 and enabled at 18.501, is added at 19 (half a second late).
TrafficOptions recorded_setup(double window) {
  TrafficOptions o;
  o.rps = 20;
  o.duration = 26;
  o.service.enabled = true;
  o.service.base_ms = 50;
  o.service.cold_factor = 1;  // "never cold"
  o.timeout_ms = 1000;
  o.health.kind = HealthKind::HAProxy;
  o.health.inter = 1;
  o.health.rise = 2;
  o.curve.kind = CurveKind::HAProxy;
  o.curve.resolution = 16;
  o.slow_start_window = window;
  return o;
}

// `set server pool/b state maint` at 2, `ready` at 4 (2 s in maintenance),
// maint at 8, ready at 14 (6 s), `add server pool/c` + enable at 18.5. The
// script's UP and ADD lines say no ramp: the window and HAProxy's rule do.
const char* const kMaintenanceScript =
    "POOL a=100 b=100\nNOW 2\nDOWN b\nNOW 4\nUP b 0\nNOW 8\nDOWN b\nNOW 14\nUP b 0\nNOW 19\nADD c=100 0\n";

TEST(TrafficRealSlowStart, HAProxyRampsAServerLeavingMaintenanceAsRecorded) {
  const auto real = recorded_per_second("haproxy-maintenance-ramp/roundrobin-access.txt");
  // The recording as its README tells it: b's first second back gets 1 of 20, then 4, 7, 9.
  EXPECT_EQ(real.at("b").count(4) ? real.at("b").at(4) : 0, 1);
  EXPECT_EQ(real.at("b").at(7), 9);
  const TrafficResult lab = simulate_traffic(kMaintenanceScript, recorded_setup(4));
  ASSERT_FALSE(lab.problem) << *lab.problem;
  for (const std::string server : {"a", "b", "c"})
    for (int second = 0; second < 26; ++second) {
      const auto& per = real.count(server) ? real.at(server) : std::map<int, int>{};
      const int recorded = per.count(second) ? per.at(second) : 0;
      EXPECT_NEAR(lab_count(lab, server, second), recorded, 1) << server << " in second " << second;
    }
  // No ramp at the start (H9): half each in seconds 0 and 1, as recorded.
  EXPECT_EQ(lab_count(lab, "b", 0), 10);
}

// Without the window (the script's ramps, all 0) b comes back at full weight:
// 10 of 20 in its first second back, where HAProxy gave it 1.
TEST(TrafficRealSlowStart, WithoutTheWindowTheLabMissesTheRamp) {
  const TrafficResult lab = simulate_traffic(kMaintenanceScript, recorded_setup(0));
  EXPECT_EQ(lab_count(lab, "b", 4), 10);
  EXPECT_EQ(lab_count(lab, "b", 14), 10);
}

// static-rr (H8) does not ramp, window or not: b
// takes 10 a second from the second it is back, as recorded.
TEST(TrafficRealSlowStart, HAProxyStaticRoundRobinDoesNotRamp) {
  const auto real = recorded_per_second("haproxy-maintenance-ramp/static-rr-access.txt");
  TrafficOptions o = recorded_setup(4);
  o.policy = Policy::StaticRr;
  o.duration = 9;
  const TrafficResult lab = simulate_traffic("POOL a=100 b=100\nNOW 2\nDOWN b\nNOW 4\nUP b 0\n", o);
  for (int second = 4; second < 9; ++second) {
    EXPECT_EQ(real.at("b").at(second), 10) << second;
    EXPECT_EQ(lab_count(lab, "b", second), 10) << second;
  }
}

// H9, "not at reload": b's ramp (from leaving maintenance at 2) is under way
// when HAProxy reloads at 3.553 (the lab: a second POOL at 4); the new
// process starts b at full weight. The window does not restart it.
TEST(TrafficRealSlowStart, HAProxyReloadEndsTheRampAsRecorded) {
  const auto real = recorded_per_second("haproxy-reload/plain-access.txt");
  TrafficOptions o = recorded_setup(4);
  o.duration = 8;
  const TrafficResult lab =
      simulate_traffic("POOL a=100 b=100\nNOW 1\nDOWN b\nNOW 2\nUP b 0\nNOW 4\nPOOL a=100 b=100\n", o);
  for (int second = 0; second < 8; ++second) {
    const int recorded = real.at("b").count(second) ? real.at("b").at(second) : 0;
    EXPECT_NEAR(lab_count(lab, "b", second), recorded, 1) << second;
  }
  EXPECT_EQ(lab_count(lab, "b", 4), 10);  // the ramp is over at the reload
}

}  // namespace real_slow_start
