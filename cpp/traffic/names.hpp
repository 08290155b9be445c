// The Traffic lab's enumerations and their names, in one place: the CLI's
// values (`--policy least-conn`), the API's (`policy: 'least-conn'`), the
// JSON summary's and the CSV's all come from these lists, and so do the
// messages that list them ("policy must be wrr, ... or round-robin, got 'x'").
// An enum's value is its name's index.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "core/validate.hpp"

namespace slowstart {

// The ramp curves (traffic/curves.hpp).
enum class CurveKind : std::uint8_t { Linear, Envoy, HAProxy };

enum class Policy : std::uint8_t {
  SmoothWrr,     // the SPEC's pick over the curve's weights (nginx)
  LeastRequest,  // Envoy: weight / (active + 1)^bias, slow-start factor on top
  Random,        // weighted random: probability weight / total (Caddy's random, weighted)
  P2C,           // two distinct hosts at random, the one with fewer active wins (Caddy random_choose 2)
  LeastConn,     // the balancer's own least-connections (resolve_policy): nginx's with --health
                 // nginx, HAProxy's with --health haproxy, Caddy's otherwise
  RoundRobin,    // the next available host in pool order, no weights (Caddy round_robin)
  CaddyLeastConn,    // fewest active, no weights, ties at random (Caddy least_conn)
  NginxLeastConn,    // conns / weight, smooth WRR among ties (nginx least_conn; docs/proxy-rules.md N3)
  HAProxyLeastConn,  // (inflight + 1) x 4096 / eweight, 0 when idle (HAProxy leastconn; H11)
  StaticRr,          // HAProxy static-rr: weighted turns, weights never ramp (H8)
};

// How a policy applies the ramp (docs/WHY-SLOW-START.md, "Policies"):
//   Scale  each policy's own way: wrr and random scale the weight, least-request
//          scales it before dividing by (active + 1)^bias (Envoy), p2c and
//          least-conn divide their score (active requests) by the ramp (the
//          Caddy proposal's first design: 0 active stays 0), round-robin skips a
//          warming host with probability 1 - ramp in its loop (the proposal);
//   Skip   the proposal review's decorator: before every pick each warming
//          host is left out with probability 1 - ramp (never the only
//          available one), and the policy picks among the rest at full weight.
enum class RampBy : std::uint8_t { Scale, Skip };

// Passive health checking, with each balancer's parameter names and defaults
// (docs/WHY-SLOW-START.md, "Health checks", says where each rule comes from).
enum class HealthKind : std::uint8_t { None, Nginx, HAProxy, Envoy };

// The policy the lab runs for `policy` under the health check `health`:
// `least-conn` is the balancer's own least-connections (nginx's least_conn
// with --health nginx, HAProxy's leastconn with --health haproxy; Caddy's
// least_conn otherwise: Envoy has none, its least_request is least-request);
// every other name is itself.
constexpr Policy resolve_policy(Policy policy, HealthKind health) {
  if (policy != Policy::LeastConn) return policy;
  switch (health) {
    case HealthKind::Nginx: return Policy::NginxLeastConn;
    case HealthKind::HAProxy: return Policy::HAProxyLeastConn;
    case HealthKind::None:
    case HealthKind::Envoy: return Policy::CaddyLeastConn;
  }
  return Policy::CaddyLeastConn;
}

// HAProxy's `on-error`: what reaching `error-limit` observed errors does
// (docs/proxy-rules.md H3; `__health_adjust`, src/check.c).
//   FailCheck    counts as one failed check (HAProxy's default)
//   FastInter    only brings the next check forward (to fastinter)
//   SuddenDeath  leaves the server one failed check from DOWN, then fails one
//   MarkDown     marks it DOWN at once
enum class OnError : std::uint8_t { FailCheck, FastInter, SuddenDeath, MarkDown };

// What "cold" means (the service model): how a backend warms after the
// script (re)starts it (ADD, UP or POOL).
//   Serving   seconds in service since the (re)start: the clock stops while the
//             balancer has it ejected (no traffic, nothing warms). The default:
//             without ejections it is plain time, as before.
//   Time      seconds since the (re)start, ejected or not.
//   Requests  requests served since the (re)start (warmup_requests of them).
enum class WarmBy : std::uint8_t { Serving, Time, Requests };

// A backend's state in a bucket (the lab's lanes, the CSV's `state`); the worst one wins.
enum class BackendState : std::uint8_t { Out = 0, Serving = 1, Ramping = 2, Ejected = 3 };

// Each enum's names (by value) and what messages call it.
template <typename E>
struct Names;
template <>
struct Names<CurveKind> {
  static constexpr const char* label = "curve";
  static constexpr std::array<const char*, 3> list = {"linear", "envoy", "haproxy"};
};
template <>
struct Names<Policy> {
  static constexpr const char* label = "policy";
  static constexpr std::array<const char*, 10> list = {
      "wrr", "least-request", "random", "p2c", "least-conn", "round-robin",
      "caddy-least-conn", "nginx-least-conn", "haproxy-leastconn", "static-rr"};
};
template <>
struct Names<RampBy> {
  static constexpr const char* label = "ramp-by";
  static constexpr std::array<const char*, 2> list = {"scale", "skip"};
};
template <>
struct Names<HealthKind> {
  static constexpr const char* label = "health";
  static constexpr std::array<const char*, 4> list = {"none", "nginx", "haproxy", "envoy"};
};
template <>
struct Names<OnError> {
  static constexpr const char* label = "on-error";
  static constexpr std::array<const char*, 4> list = {"fail-check", "fastinter", "sudden-death", "mark-down"};
};
template <>
struct Names<WarmBy> {
  static constexpr const char* label = "warm-by";
  static constexpr std::array<const char*, 3> list = {"serving", "time", "requests"};
};
template <>
struct Names<BackendState> {
  static constexpr const char* label = "state";
  static constexpr std::array<const char*, 4> list = {"out", "serving", "ramping", "ejected"};
};
// A name for every value: the last enumerator is the list's last name.
static_assert(Names<CurveKind>::list.size() == static_cast<std::size_t>(CurveKind::HAProxy) + 1);
static_assert(Names<Policy>::list.size() == static_cast<std::size_t>(Policy::StaticRr) + 1);
static_assert(Names<RampBy>::list.size() == static_cast<std::size_t>(RampBy::Skip) + 1);
static_assert(Names<HealthKind>::list.size() == static_cast<std::size_t>(HealthKind::Envoy) + 1);
static_assert(Names<OnError>::list.size() == static_cast<std::size_t>(OnError::MarkDown) + 1);
static_assert(Names<WarmBy>::list.size() == static_cast<std::size_t>(WarmBy::Requests) + 1);
static_assert(Names<BackendState>::list.size() == static_cast<std::size_t>(BackendState::Ejected) + 1);

// Whose slow-start rule the linear curve follows with --slow-start
// (traffic/slow_start_rule.hpp; docs/proxy-rules.md N8, N9).
//   NginxPlus  NGINX Plus's `slow_start`: a server that becomes available again
//              (a recovery, an UP, a run-time add), never at start or reload
//   NginxMod   GetPageSpeed's nginx-mod: from the peer's creation (start, every
//              reload, a run-time add), never after a recovery
enum class NginxRule : std::uint8_t { NginxPlus, NginxMod };
template <>
struct Names<NginxRule> {
  static constexpr const char* label = "slow-start rule";
  static constexpr std::array<const char*, 2> list = {"nginx-plus", "nginx-mod"};
};
static_assert(Names<NginxRule>::list.size() == static_cast<std::size_t>(NginxRule::NginxMod) + 1);

template <typename E>
const char* name_of(E value) {
  return Names<E>::list[static_cast<std::size_t>(value)];
}

// "a, b or c": how a message lists the values something takes.
std::string one_of(std::span<const char* const> names);

// "LABEL must be a, b or c, got 'text'".
std::string not_one_of(std::string_view label, std::span<const char* const> names, std::string_view text);

// The value named `text`; else `out` is unchanged and the message says what it takes.
template <typename E>
Problem parse_name(std::string_view text, E& out) {
  const auto& list = Names<E>::list;
  for (std::size_t i = 0; i < list.size(); ++i)
    if (text == list[i]) {
      out = static_cast<E>(i);
      return std::nullopt;
    }
  return not_one_of(Names<E>::label, list, text);
}

}  // namespace slowstart
