// `--slow-start S` (traffic/slow_start_rule.hpp): every backend's window, on
// each join or recovery the balancer's own rule ramps (docs/proxy-rules.md
// H8-H10, E6-E7, N8-N9), kept across a reload. Each case is worked by hand
// from the rule and the curve's formula; none reads the lab's own output back.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "traffic/option_table.hpp"
#include "traffic/simulate_command.hpp"
#include "traffic/slow_start_rule.hpp"
#include "traffic/traffic.hpp"

using namespace slowstart;

namespace window_tests {  // named: unity builds put test files side by side

TrafficOptions with_window(CurveKind curve, double window) {
  TrafficOptions o;
  o.curve.kind = curve;
  o.curve.resolution = 16;
  o.slow_start_window = window;
  return o;
}

std::uint32_t count(const TrafficResult& r, std::size_t k, std::size_t id) { return r.requests[k * r.names.size() + id]; }
BackendState state(const TrafficResult& r, std::size_t k, std::size_t id) {
  return static_cast<BackendState>(r.state[k * r.names.size() + id]);
}

// The rule table of slow_start_rule.hpp, from the manuals' words.
TEST(SlowStartWindow, EachBalancersRuleAsItsManualSays) {
  const auto d = [](CurveKind c, Entry e, NginxRule n = NginxRule::NginxPlus, Policy p = Policy::SmoothWrr) {
    TrafficOptions o = with_window(c, 10);
    o.slow_start_rule = n;
    o.policy = p;
    return balancer_ramps(o, e);
  };
  using R = RampDecision;
  // HAProxy H9: "never applies when HAProxy starts"; a reload is a start;
  // leaving maintenance (add server, state ready) and leaving DOWN ramp.
  EXPECT_EQ(d(CurveKind::HAProxy, Entry::Start), R::None);
  EXPECT_EQ(d(CurveKind::HAProxy, Entry::Reload), R::None);
  EXPECT_EQ(d(CurveKind::HAProxy, Entry::Add), R::Ramp);
  EXPECT_EQ(d(CurveKind::HAProxy, Entry::Up), R::Ramp);
  EXPECT_EQ(d(CurveKind::HAProxy, Entry::CheckRecovery), R::Ramp);
  // H8: static-rr is not dynamic; leastconn is.
  EXPECT_EQ(d(CurveKind::HAProxy, Entry::Up, NginxRule::NginxPlus, Policy::StaticRr), R::None);
  EXPECT_EQ(d(CurveKind::HAProxy, Entry::Up, NginxRule::NginxPlus, Policy::HAProxyLeastConn), R::Ramp);
  // Envoy E7: a new host, or an active check's recovery; never an outlier
  // ejection's end; a host an update still lists keeps its state.
  EXPECT_EQ(d(CurveKind::Envoy, Entry::Start), R::Ramp);
  EXPECT_EQ(d(CurveKind::Envoy, Entry::Reload), R::Keep);
  EXPECT_EQ(d(CurveKind::Envoy, Entry::Add), R::Ramp);
  EXPECT_EQ(d(CurveKind::Envoy, Entry::CheckRecovery), R::Ramp);
  EXPECT_EQ(d(CurveKind::Envoy, Entry::PassiveReturn), R::None);
  // E6: round_robin and least_request only.
  EXPECT_EQ(d(CurveKind::Envoy, Entry::Add, NginxRule::NginxPlus, Policy::LeastRequest), R::Ramp);
  EXPECT_EQ(d(CurveKind::Envoy, Entry::Add, NginxRule::NginxPlus, Policy::Random), R::None);
  // NGINX Plus N8: a server back from unavailable or unhealthy; not at start.
  EXPECT_EQ(d(CurveKind::Linear, Entry::Start), R::None);
  EXPECT_EQ(d(CurveKind::Linear, Entry::Reload), R::None);
  EXPECT_EQ(d(CurveKind::Linear, Entry::PassiveReturn), R::Ramp);
  EXPECT_EQ(d(CurveKind::Linear, Entry::Up), R::Ramp);
  EXPECT_EQ(d(CurveKind::Linear, Entry::PassiveReturn, NginxRule::NginxPlus, Policy::Random), R::None);
  // nginx-mod N9: from the peer's creation, restarted by every reload; never a recovery.
  EXPECT_EQ(d(CurveKind::Linear, Entry::Start, NginxRule::NginxMod), R::Ramp);
  EXPECT_EQ(d(CurveKind::Linear, Entry::Reload, NginxRule::NginxMod), R::Ramp);
  EXPECT_EQ(d(CurveKind::Linear, Entry::Add, NginxRule::NginxMod), R::Ramp);
  EXPECT_EQ(d(CurveKind::Linear, Entry::PassiveReturn, NginxRule::NginxMod), R::None);
  EXPECT_EQ(d(CurveKind::Linear, Entry::Up, NginxRule::NginxMod), R::None);
}

// HAProxy, S = 10 s, weight 16 at resolution 16 (eweight = 16 x step, full
// 256): b leaves maintenance (UP) at 4 and, each whole second e after,
// step = 1 + floor(16 e / 10): 1, 2, 4, 5, 7, 9, 10, 12, 13, 15, then 16.
// With a at 256, b's share of a second's 1000 requests is 16 step / (256 +
// 16 step); smooth WRR keeps every count within 2 of it. At the start (0-1)
// nothing ramps: half each. The UP line's own ramp (3) is not used.
TEST(SlowStartWindow, HAProxyRampsLeavingMaintenanceInSixteenthsButNotAtStart) {
  TrafficOptions o = with_window(CurveKind::HAProxy, 10);
  o.rps = 1000;
  o.duration = 16;
  const TrafficResult r = simulate_traffic("POOL a=16 b=16\nNOW 2\nDOWN b\nNOW 4\nUP b 3\n", o);
  ASSERT_FALSE(r.problem) << *r.problem;
  EXPECT_EQ(count(r, 0, 1), 500u);
  EXPECT_EQ(count(r, 1, 1), 500u);
  EXPECT_EQ(count(r, 3, 1), 0u);
  const int steps[] = {1, 2, 4, 5, 7, 9, 10, 12, 13, 15, 16, 16};
  for (int e = 0; e < 12; ++e) {
    const double w = 16.0 * steps[e];
    EXPECT_NEAR(count(r, 4 + e, 1), 1000.0 * w / (256.0 + w), 2.0) << "second " << 4 + e;
  }
  EXPECT_EQ(r.ignored_ramps, (std::vector<std::uint64_t>{5}));
  EXPECT_EQ(state(r, 4, 1), BackendState::Ramping);
  EXPECT_EQ(state(r, 13, 1), BackendState::Ramping);
  EXPECT_EQ(state(r, 14, 1), BackendState::Serving);  // 4 + 10
}

// Without --slow-start the same script is today's: UP b 3 ramps b over 3 s
// (HAProxy's curve: an UP is a recovery), step = 1 + floor(16 e / 3): 1, 6, 11.
TEST(SlowStartWindow, WithoutItTheScriptsRampsAreUsed) {
  TrafficOptions o = with_window(CurveKind::HAProxy, 0);
  o.rps = 1000;
  o.duration = 9;
  const TrafficResult r = simulate_traffic("POOL a=16 b=16\nNOW 2\nDOWN b\nNOW 4\nUP b 3\n", o);
  const int steps[] = {1, 6, 11, 16};
  for (int e = 0; e < 4; ++e) {
    const double w = 16.0 * steps[e];
    EXPECT_NEAR(count(r, 4 + e, 1), 1000.0 * w / (256.0 + w), 2.0) << "second " << 4 + e;
  }
  EXPECT_TRUE(r.ignored_ramps.empty());
}

// The window belongs to the server: after a reload (a second POOL, which
// drops every ramp the script wrote), a backend the health check readmits
// still ramps. b, cold (ADD at 0: 1100 ms against a 500 ms timeout), is
// marked down at the error limit, and again after the reload at 1 (the new
// process starts it UP, still cold); HAProxy's checks bring it back. With
// --slow-start 4 it then ramps 4 s; without it, full weight at once.
TEST(SlowStartWindow, AReadmissionAfterAReloadRampsWithTheWindow) {
  TrafficOptions o;
  o.rps = 10;
  o.duration = 12;
  o.service.enabled = true;
  o.service.base_ms = 100;
  o.service.cold_factor = 11;
  o.service.warmup = 3;
  o.service.warm_by = WarmBy::Time;
  o.timeout_ms = 500;
  o.health.kind = HealthKind::HAProxy;
  o.health.error_limit = 2;
  o.health.on_error = OnError::MarkDown;
  o.health.inter = 1;
  o.health.rise = 2;
  o.curve.kind = CurveKind::HAProxy;
  o.curve.resolution = 100;
  const std::string script = "POOL a=100\nADD b=100 4\nNOW 1\nPOOL a=100 b=100\n";
  const auto ramping_after_reload = [](const TrafficResult& r) {
    std::vector<std::size_t> ks;
    for (std::size_t k = 2; k < r.buckets; ++k)
      if (state(r, k, 1) == BackendState::Ramping) ks.push_back(k);
    return ks;
  };
  const TrafficResult plain = simulate_traffic(script, o);
  EXPECT_EQ(plain.ejections[1], 2u);
  EXPECT_TRUE(ramping_after_reload(plain).empty());
  o.slow_start_window = 4;
  const TrafficResult kept = simulate_traffic(script, o);
  // The ADD ramps now (H9: an added server leaves maintenance), so b may
  // escape the first mark-down; the reload's is the one that matters.
  EXPECT_GE(kept.ejections[1], 1u);
  // Readmitted in second 3 (ejected there too: the worst state wins), then 4
  // seconds of ramp: ramping through 4..6 and the second it ends in.
  const auto ks = ramping_after_reload(kept);
  ASSERT_FALSE(ks.empty());
  EXPECT_EQ(state(kept, 3, 1), BackendState::Ejected);
  EXPECT_EQ(ks.front(), 4u);
  EXPECT_EQ(ks.back(), 7u);
  EXPECT_EQ(state(kept, 8, 1), BackendState::Serving);
  // While it ramps b gets less than a: step 1 + floor(16 e / 4) sixteenths.
  EXPECT_LT(count(kept, 4, 1), count(kept, 4, 0));
}

// Envoy keeps a host across an update (its ramp goes on from its join);
// nginx-mod restarts every peer's ramp on a reload; HAProxy ends it.
TEST(SlowStartWindow, AReloadKeepsRestartsOrEndsARampAsEachBalancerDoes) {
  const std::string script = "POOL a=1 b=1\nNOW 5\nPOOL a=1 b=1\n";
  const auto last_ramping = [&](CurveKind c, NginxRule n) {
    TrafficOptions o = with_window(c, 10);
    o.slow_start_rule = n;
    o.rps = 100;
    o.duration = 20;
    const TrafficResult r = simulate_traffic(script, o);
    int last = -1;
    for (std::size_t k = 0; k < r.buckets; ++k)
      if (state(r, k, 0) == BackendState::Ramping) last = static_cast<int>(k);
    return last;
  };
  EXPECT_EQ(last_ramping(CurveKind::Envoy, NginxRule::NginxPlus), 9);       // from 0: to 10
  EXPECT_EQ(last_ramping(CurveKind::Linear, NginxRule::NginxMod), 14);      // from 5: to 15
  EXPECT_EQ(last_ramping(CurveKind::HAProxy, NginxRule::NginxPlus), -1);    // start and reload: no ramp
  EXPECT_EQ(last_ramping(CurveKind::Linear, NginxRule::NginxPlus), -1);
}

// Envoy never re-ramps after an outlier ejection (E7), with the window too;
// --ramp-after-ejection ramps as an active check's recovery would. b, cold
// from its UP at 1, is ejected at once (5 timeouts in a row), for 30 s; the
// sweeps every 10 s readmit it at 40: then full weight, or 5 s of ramp (40-44).
TEST(SlowStartWindow, EnvoyReadmitsAnEjectedHostAtFullWeight) {
  TrafficOptions o;
  o.rps = 200;
  o.duration = 60;
  o.service.enabled = true;
  o.service.base_ms = 100;
  o.service.cold_factor = 11;
  o.service.warmup = 10;
  o.service.warm_by = WarmBy::Time;
  o.timeout_ms = 500;
  o.health.kind = HealthKind::Envoy;
  o.health.max_ejection_percent = 100;
  o.curve.kind = CurveKind::Envoy;
  o.curve.resolution = 1000;
  o.slow_start_window = 5;
  const std::string script = "POOL a=1 b=1\nNOW 1\nDOWN b\nUP b 0\n";
  const auto ramping_after_first = [](const TrafficResult& r) {
    int n = 0;
    for (std::size_t k = 8; k < r.buckets; ++k) n += state(r, k, 1) == BackendState::Ramping;
    return n;
  };
  const TrafficResult r = simulate_traffic(script, o);
  ASSERT_EQ(r.ejections[1], 1u);
  EXPECT_EQ(state(r, 39, 1), BackendState::Ejected);
  EXPECT_EQ(state(r, 40, 1), BackendState::Serving);
  EXPECT_EQ(ramping_after_first(r), 0);
  o.health.ramp_after_ejection = true;
  const TrafficResult again = simulate_traffic(script, o);
  ASSERT_EQ(again.ejections[1], 1u);
  EXPECT_EQ(state(again, 40, 1), BackendState::Ramping);
  EXPECT_EQ(ramping_after_first(again), 5);
}

// The option as the table has it: whole seconds, 0 the script's ramps;
// --summary json shows it only when set (the summaries of runs without it
// keep their bytes).
TEST(SlowStartWindow, TheOptionAndItsJson) {
  TrafficOptions o;
  const TrafficOption& window = *find_option_by_flag("--slow-start");
  EXPECT_FALSE(set_option_text(window, "30", o));
  EXPECT_EQ(o.slow_start_window, 30);
  EXPECT_TRUE(set_option_text(window, "2.5", o));
  EXPECT_TRUE(set_option_text(window, "-1", o));
  EXPECT_EQ(options_json(TrafficOptions{}).find("slow_start_window"), std::string::npos);
  EXPECT_NE(options_json(o).find("\"slow_start_window\": 30"), std::string::npos);
  EXPECT_EQ(to_arguments(o), (std::vector<std::string>{"--slow-start", "30"}));
  EXPECT_EQ(simulate_command::ignored_ramps_note({3}),
            "slowstart simulate: note: --slow-start sets every window (the balancer's rule decides which joins and "
            "recoveries ramp): the ramp written on line 3 is not used\n");
}

// The default resolution follows the curve (curves.hpp, resolution_of):
// linear 100 (nginx-mod's factor), haproxy 16 (BE_WEIGHT_SCALE), envoy 1000.
// b (weight 1) ramps over 30 s beside a (1): at linear x100 its weight at
// millisecond t is floor(100 t / 30000) against a's 100, one request a
// millisecond, so second k gives it the sum of w / (100 + w) over its
// milliseconds (about 43 in second 1, 257 in second 10); at x1 it would get
// nothing for the whole window.
TEST(SlowStartWindow, DefaultResolutionFollowsTheCurve) {
  EXPECT_EQ(resolution_of(Curve{}), 100);
  EXPECT_EQ(resolution_of(Curve{CurveKind::HAProxy}), 16);
  EXPECT_EQ(resolution_of(Curve{CurveKind::Envoy}), 1000);
  EXPECT_EQ(resolution_of(Curve{CurveKind::Envoy, 1}), 1);  // --resolution still overrides
  TrafficOptions o;
  o.rps = 1000;
  o.duration = 12;
  const TrafficResult r = simulate_traffic("POOL a=1\nADD b=1 30\n", o);
  for (int k : {1, 10}) {
    double expected = 0;
    for (int t = k * 1000; t < (k + 1) * 1000; ++t) {
      const double w = std::floor(100.0 * t / 30000.0);
      expected += w / (100.0 + w);
    }
    EXPECT_NEAR(count(r, static_cast<std::size_t>(k), 1), expected, 2.0) << "second " << k;
  }
  EXPECT_NE(options_json(o).find("\"resolution\": 100"), std::string::npos);  // what ran
  for (const std::string& a : to_arguments(o)) EXPECT_NE(a, "--resolution");  // and the command line says nothing
}

}  // namespace window_tests
