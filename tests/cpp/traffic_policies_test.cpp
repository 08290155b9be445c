// The balancers' own algorithms (issue 31, docs/proxy-rules.md N3, N6, N7,
// H8, H11), each worked by hand from the rule as the source writes it; the
// numbers in the comments are the hand computation. The lab against the
// recordings of the real nginx and HAProxy: traffic_real_policies_test.cpp.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "traffic/least_conn.hpp"
#include "traffic/names.hpp"
#include "traffic/option_table.hpp"
#include "traffic/traffic.hpp"

using namespace slowstart;

namespace policies_test {  // named: unity-built beside the other traffic tests

// Requests per backend in each bucket, as {a, b, ...} rows.
std::vector<std::vector<std::uint32_t>> rows(const TrafficResult& r) {
  std::vector<std::vector<std::uint32_t>> out(r.buckets);
  for (std::size_t k = 0; k < r.buckets; ++k)
    for (std::size_t id = 0; id < r.names.size(); ++id) out[k].push_back(r.requests[k * r.names.size() + id]);
  return out;
}

// One pick a millisecond, each in its own bucket, none answered within the
// run: the picks in order, as backend indexes.
std::vector<std::size_t> first_picks(Policy policy, HealthKind health, const char* script, int picks) {
  TrafficOptions o;
  o.policy = policy;
  o.health.kind = health;
  o.rps = 1000;
  o.duration = picks / 1000.0;
  o.bucket = 0.001;
  o.service.enabled = true;
  o.service.base_ms = 10'000;  // nothing answers: in flight = picked so far
  o.service.cold_factor = 1;
  o.timeout_ms = 20'000;  // a health check needs one; nothing reaches it
  o.health.max_fails = 0;
  const TrafficResult r = simulate_traffic(script, o);
  EXPECT_FALSE(r.problem) << *r.problem;
  std::vector<std::size_t> out;
  for (const auto& row : rows(r))
    for (std::size_t id = 0; id < row.size(); ++id)
      if (row[id]) out.push_back(id);
  return out;
}

constexpr std::size_t A = 0, B = 1, C = 2;

// ---- naming ---------------------------------------------------------------

// `least-conn` is the balancer's own; each is reachable by its own name.
TEST(TrafficPolicies, LeastConnIsTheBalancersOwn) {
  EXPECT_EQ(resolve_policy(Policy::LeastConn, HealthKind::Nginx), Policy::NginxLeastConn);
  EXPECT_EQ(resolve_policy(Policy::LeastConn, HealthKind::HAProxy), Policy::HAProxyLeastConn);
  EXPECT_EQ(resolve_policy(Policy::LeastConn, HealthKind::None), Policy::CaddyLeastConn);
  EXPECT_EQ(resolve_policy(Policy::LeastConn, HealthKind::Envoy), Policy::CaddyLeastConn);
  EXPECT_EQ(resolve_policy(Policy::NginxLeastConn, HealthKind::HAProxy), Policy::NginxLeastConn);
  Policy p{};
  EXPECT_FALSE(parse_policy("caddy-least-conn", p));
  EXPECT_EQ(p, Policy::CaddyLeastConn);
  EXPECT_FALSE(parse_policy("nginx-least-conn", p));
  EXPECT_EQ(p, Policy::NginxLeastConn);
  EXPECT_FALSE(parse_policy("haproxy-leastconn", p));
  EXPECT_EQ(p, Policy::HAProxyLeastConn);
  EXPECT_FALSE(parse_policy("static-rr", p));
  EXPECT_EQ(p, Policy::StaticRr);
}

// ---- nginx least_conn (N3) -------------------------------------------------

// conns / weight by cross-multiplication: 5/3 < 2/1 (5 x 1 < 2 x 3), so a;
// 6/3 = 2/1 (6 = 6): a tie, and the tie-break sees both, in pool order.
TEST(TrafficPolicies, NginxLeastConnComparesConnsOverWeight) {
  const std::vector<std::uint32_t> cand = {0, 1};
  std::vector<std::uint32_t> ties;
  std::vector<std::uint32_t> seen;
  const auto tie = [&](const std::vector<std::uint32_t>& t) {
    seen = t;
    return static_cast<std::int32_t>(t.back());
  };
  std::vector<std::int64_t> conns = {5, 2}, weight = {3, 1};
  const auto c = [&](std::uint32_t i) { return conns[i]; };
  const auto w = [&](std::uint32_t i) { return weight[i]; };
  EXPECT_EQ(pick_nginx_least_conn(cand, c, w, ties, tie), 0);
  EXPECT_TRUE(seen.empty());  // a lone best: no round-robin
  conns = {6, 2};
  EXPECT_EQ(pick_nginx_least_conn(cand, c, w, ties, tie), 1);
  EXPECT_EQ(seen, cand);
  conns = {7, 2};  // 7 x 1 > 2 x 3: b
  seen.clear();
  EXPECT_EQ(pick_nginx_least_conn(cand, c, w, ties, tie), 1);
  EXPECT_TRUE(seen.empty());
  weight = {0, 1};  // no weight (a ramp's first moment): left out
  conns = {0, 9};
  EXPECT_EQ(pick_nginx_least_conn(cand, c, w, ties, tie), 1);
}

// a weighs 3, b 1, nothing answers. The picks, by hand:
//   1: 0/3 = 0/1, a tie: smooth WRR among both, current (3, 1): a -> (-1, 1)
//   2: 1/3 vs 0/1: b alone (0 x 3 < 1 x 1), the WRR's counters untouched
//   3: 1/3 vs 1/1: a (1 x 1 < 1 x 3)       4: 2/3 vs 1/1: a (2 < 3)
//   5: 3/3 = 1/1: a tie: current (-1 + 3, 1 + 1) = (2, 2): a, the first -> (-2, 2)
//   6: 4/3 vs 1/1: b (1 x 3 < 4 x 1)       7: 4/3 vs 2/1: a (4 < 6)
//   8: 5/3 vs 2/1: a (5 < 6)
TEST(TrafficPolicies, NginxLeastConnPicksByHand) {
  EXPECT_EQ(first_picks(Policy::NginxLeastConn, HealthKind::None, "POOL a=3 b=1\n", 8),
            (std::vector<std::size_t>{A, B, A, A, A, B, A, A}));
  // `least-conn` under --health nginx is the same.
  EXPECT_EQ(first_picks(Policy::LeastConn, HealthKind::Nginx, "POOL a=3 b=1\n", 8),
            (std::vector<std::size_t>{A, B, A, A, A, B, A, A}));
}

// Idle at every pick (50 ms of service, a request every 100 ms): every pick
// is a tie at 0 connections, so the weighted round-robin decides: a, a, b, a
// over and over (current weights (3, 1) -> a (-1, 1) -> a (-2, 2) -> b
// (1, -1) -> a (0, 0)): 8 : 2 in the first second (a a b a a a b a a a),
// 7 : 3 in the next (b a a a b a a a b a). Caddy's least_conn ignores the
// weights: 10 : 10 over two seconds only on average (its ties are random).
TEST(TrafficPolicies, NginxLeastConnFollowsTheWeightsWhenIdle) {
  TrafficOptions o;
  o.policy = Policy::NginxLeastConn;
  o.rps = 10;
  o.duration = 4;
  o.service.enabled = true;
  o.service.base_ms = 50;
  o.service.cold_factor = 1;
  const TrafficResult r = simulate_traffic("POOL a=3 b=1\n", o);
  ASSERT_FALSE(r.problem);
  EXPECT_EQ(rows(r), (std::vector<std::vector<std::uint32_t>>{{8, 2}, {7, 3}, {8, 2}, {7, 3}}));
}

// ---- HAProxy leastconn (H11) ----------------------------------------------

// key = inflight ? (inflight + 1) x 4096 / eweight : 0 (eweight in sixteenths).
TEST(TrafficPolicies, HAProxyLeastconnKey) {
  EXPECT_EQ(haproxy_leastconn_key(0, 16), 0u);     // idle: 0 whatever the weight
  EXPECT_EQ(haproxy_leastconn_key(0, 4096), 0u);
  EXPECT_EQ(haproxy_leastconn_key(1, 48), 170u);   // 2 x 4096 / 48 = 170.67
  EXPECT_EQ(haproxy_leastconn_key(5, 48), 512u);   // 6 x 4096 / 48
  EXPECT_EQ(haproxy_leastconn_key(1, 16), 512u);   // 2 x 4096 / 16: ties with the line above
  EXPECT_EQ(haproxy_leastconn_key(1, 1), 8192u);   // a ramp's first sixteenth of weight 1
}

// a weighs 3 (eweight 48), b 1 (16), nothing answers. By hand:
//   1: both 0, a queued first: a -> key 170      2: b (0) -> key 512
//   3: a 170 -> 256   4: a 256 -> 341   5: a 341 -> 426   6: a 426 -> 512
//   7: a 512 = b 512: b, queued at pick 2, before a (re-queued at pick 6) -> b 768
//   8: a 512 -> 597
TEST(TrafficPolicies, HAProxyLeastconnPicksByHand) {
  const std::vector<std::size_t> expected = {A, B, A, A, A, A, B, A};
  EXPECT_EQ(first_picks(Policy::HAProxyLeastConn, HealthKind::None, "POOL a=3 b=1\n", 8), expected);
  EXPECT_EQ(first_picks(Policy::LeastConn, HealthKind::HAProxy, "POOL a=3 b=1\n", 8), expected);
}

// Idle at every pick: key 0 for both, the one queued first goes: a, b, a, b
// (each re-queued behind the other when its request ends): 5 : 5 a second,
// weights 3 : 1 notwithstanding.
TEST(TrafficPolicies, HAProxyLeastconnIgnoresWeightsWhenIdle) {
  TrafficOptions o;
  o.policy = Policy::HAProxyLeastConn;
  o.rps = 10;
  o.duration = 3;
  o.service.enabled = true;
  o.service.base_ms = 50;
  o.service.cold_factor = 1;
  const TrafficResult r = simulate_traffic("POOL a=3 b=1\n", o);
  ASSERT_FALSE(r.problem);
  EXPECT_EQ(rows(r), (std::vector<std::vector<std::uint32_t>>{{5, 5}, {5, 5}, {5, 5}}));
}

// ---- HAProxy static-rr (H8) ------------------------------------------------

// b comes back (UP with a 4 s ramp, HAProxy's curve): roundrobin ramps it
// (1/16 of its weight in the first second: 1 of 17 requests to b at 17 a
// second is 1), static-rr does not (its weight is whole at once: 10 of 20).
TEST(TrafficPolicies, StaticRrDoesNotRamp) {
  TrafficOptions o;
  o.rps = 20;
  o.duration = 2;
  o.curve.kind = CurveKind::HAProxy;
  o.curve.resolution = 16;
  const char* script = "POOL a=1 b=1\nDOWN b\nUP b 4\n";
  o.policy = Policy::StaticRr;
  EXPECT_EQ(rows(simulate_traffic(script, o)), (std::vector<std::vector<std::uint32_t>>{{10, 10}, {10, 10}}));
  o.policy = Policy::SmoothWrr;
  const auto ramped = rows(simulate_traffic(script, o));
  EXPECT_EQ(ramped[0][B], 1u);  // weight 1/16 against 16/16: 20 x 1/17 = 1.2
}

// ---- nginx's retry limits (N6, N7) ------------------------------------------

// Three servers, all slower than the 500 ms timeout, max_fails=0 (never out).
TrafficOptions three_slow() {
  TrafficOptions o;
  o.rps = 1;
  o.duration = 4;
  o.service.enabled = true;
  o.service.base_ms = 1000;
  o.service.cold_factor = 1;
  o.timeout_ms = 500;
  o.health.kind = HealthKind::Nginx;
  o.health.max_fails = 0;
  return o;
}
constexpr const char* kThree = "POOL a=1 b=1 c=1\n";

std::uint32_t sum(const std::vector<std::uint32_t>& v) {
  std::uint32_t s = 0;
  for (const auto x : v) s += x;
  return s;
}

// N6: a request tries each server at most once (proxy_next_upstream_tries 0
// is every server): --retries 5 with 3 servers makes 3 attempts, then the
// client gets the last failure; no attempt is left "unrouted" for want of a
// server not yet tried. 4 requests x 3 attempts = 12 (the last, sent at 3 s,
// fails at 3.5 and is retried at 3.5, once: 4.0 is the end).
TEST(TrafficPolicies, NginxTriesEachServerOnce) {
  TrafficOptions o = three_slow();
  o.retries = 5;
  const TrafficResult r = simulate_traffic(kThree, o);
  ASSERT_FALSE(r.problem);
  EXPECT_EQ(sum(r.unrouted), 0u);
  EXPECT_EQ(sum(r.client_failed), 4u);
  EXPECT_EQ(sum(r.failed), 3u + 3u + 3u + 2u);
  // Without nginx's rule (no health check) the fourth pick finds no server left.
  o.health.kind = HealthKind::None;
  const TrafficResult plain = simulate_traffic(kThree, o);
  EXPECT_EQ(sum(plain.unrouted), 3u);  // requests 0, 1, 2 (the last one's third try is past the end)
}

// N6 with nginx's default, proxy_next_upstream_tries 0 (every server once), on
// an upstream of twelve servers, all slower than the timeout: the request
// sent at s makes attempts at s, s + 0.5, ... while before the end (6.2 s)
// and at most one per server: 12, 11, 9, 7, 5, 3 and 1 attempts for the
// requests at 0..6 s = 48. More retries allowed change nothing (12 servers);
// --retries 5 stops each at 6: 6 + 6 + 6 + 6 + 5 + 3 + 1 = 33.
TEST(TrafficPolicies, NginxTriesEveryServerOfALargeUpstream) {
  TrafficOptions o = three_slow();
  o.duration = 6.2;
  const char* twelve = "POOL s1=1 s2=1 s3=1 s4=1 s5=1 s6=1 s7=1 s8=1 s9=1 s10=1 s11=1 s12=1\n";
  const auto attempts = [&](std::uint32_t retries) {
    o.retries = retries;
    const TrafficResult r = simulate_traffic(twelve, o);
    EXPECT_FALSE(r.problem);
    EXPECT_EQ(sum(r.unrouted), 0u) << retries;
    return sum(r.failed);
  };
  EXPECT_EQ(attempts(11), 48u);
  EXPECT_EQ(attempts(kMaxRetries), 48u);
  EXPECT_EQ(attempts(5), 33u);
}

// N7: after two timeouts 1000 ms have passed since the first attempt: a
// timeout of 700 or 1000 ms (>=) stops there; 1001 ms lets the third server be
// tried. --retries 2 allows the third try.
TEST(TrafficPolicies, NginxNextUpstreamTimeout) {
  TrafficOptions o = three_slow();
  o.retries = 2;
  // Requests at 0, 1, 2 and 3; the one at 2 s has its third try at 3.0,
  // before the end (3.2); the one at 3 s, one try (it fails at 3.5, past the end).
  o.duration = 3.2;
  const auto attempts = [&](double timeout_ms) {
    o.next_upstream_timeout_ms = timeout_ms;
    return sum(simulate_traffic(kThree, o).failed);
  };
  EXPECT_EQ(attempts(0), 3u + 3u + 3u + 1u);
  EXPECT_EQ(attempts(700), 2u + 2u + 2u + 1u);
  EXPECT_EQ(attempts(1000), 2u + 2u + 2u + 1u);
  EXPECT_EQ(attempts(1001), 3u + 3u + 3u + 1u);
  EXPECT_EQ(attempts(400), 1u + 1u + 1u + 1u);  // 500 ms after the first: no second server
}

// The option is nginx's: it shows in --summary json only under --health nginx.
TEST(TrafficPolicies, NextUpstreamTimeoutIsAnNginxOption) {
  const TrafficOption* t = find_option_by_flag("--next-upstream-timeout-ms");
  ASSERT_NE(t, nullptr);
  TrafficOptions o = three_slow();
  o.next_upstream_timeout_ms = 700;
  EXPECT_TRUE(option_applies(*t, o));
  EXPECT_NE(options_json(o).find("\"next_upstream_timeout_ms\": 700"), std::string::npos) << options_json(o);
  o.health.kind = HealthKind::HAProxy;
  EXPECT_FALSE(option_applies(*t, o));
  TrafficOptions bad;
  EXPECT_TRUE(set_option_text(*t, "-1", bad).has_value());
}

}  // namespace policies_test
