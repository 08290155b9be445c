// Traffic simulation: what share of requests each backend really gets while
// it ramps, and what happens to a cold backend under least-request.
//
// A script's POOL, NOW, ADD, DOWN and UP lines become a scenario in
// continuous time (each change happens at the clock its NOW set). Requests
// arrive at a fixed rate; each is routed by the engine's pick (SmoothWrr,
// exact integer weights at the curve's resolution) with the weights of its
// millisecond (the clock resolution of nginx and Envoy): a ramping backend's
// weight is the curve's at that millisecond, and the simulation jumps from
// one change of it to the next rather than recomputing it every
// millisecond. Optionally every backend serves requests with a few workers and a
// service time that starts `cold_factor` times slower after it (re)joins and
// warms up linearly over `warmup` seconds, so queues, outstanding requests
// and latency can be measured. WEIGHTS and PICK lines are ignored here; bad
// lines get the script's usual diagnostics and change nothing.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "traffic/curves.hpp"
#include "core/interpreter.hpp"

namespace slowstart {

enum class Policy {
  SmoothWrr,     // the SPEC's pick over the curve's weights (nginx)
  LeastRequest,  // Envoy: weight / (active + 1)^bias, slow-start factor on top
  Random,        // weighted random: probability weight / total (Caddy's random, weighted)
  P2C,           // two distinct hosts at random, the one with fewer active wins (Caddy random_choose 2)
  LeastConn,     // fewest active, no weights, ties at random (Caddy least_conn)
  RoundRobin,    // the next available host in pool order, no weights (Caddy round_robin)
};

// Parses wrr, least-request, random, p2c, least-conn or round-robin (the
// CLI's --policy, the lab's `policy`).
Problem parse_policy(std::string_view text, Policy& out);
const char* policy_name(Policy policy);

// How a policy applies the ramp (docs/WHY-SLOW-START.md, "Policies"):
//   Scale  each policy's own way: wrr and random scale the weight, least-request
//          scales it before dividing by (active + 1)^bias (Envoy), p2c and
//          least-conn divide their score (active requests) by the ramp (the
//          Caddy proposal's first design: 0 active stays 0), round-robin skips a
//          warming host with probability 1 - ramp in its loop (the proposal);
//   Skip   the proposal review's decorator: before every pick each warming
//          host is left out with probability 1 - ramp (never the only
//          available one), and the policy picks among the rest at full weight.
enum class RampBy { Scale, Skip };
Problem parse_ramp_by(std::string_view text, RampBy& out);

// Passive health checking, with each balancer's parameter names and defaults
// (docs/WHY-SLOW-START.md, "Health checks", says where each rule comes from).
enum class HealthKind { None, Nginx, HAProxy, Envoy };
Problem parse_health(std::string_view text, HealthKind& out);
const char* health_name(HealthKind kind);

struct HealthCheck {
  HealthKind kind = HealthKind::None;
  // nginx (ngx_http_upstream_module `server`): max_fails failures make the
  // server unavailable for fail_timeout seconds (whole seconds, nginx's clock).
  std::uint32_t max_fails = 1;
  double fail_timeout = 10;
  // HAProxy (`server ... check observe layer7 error-limit N on-error mark-down
  // inter T rise R`): error_limit consecutive errors mark it down; active
  // checks every `inter` seconds bring it back after `rise` successes.
  std::uint32_t error_limit = 10;
  double inter = 2;
  std::uint32_t rise = 2;
  // Envoy (cluster outlier_detection): consecutive_5xx in a row eject it for
  // base_ejection_time x (times ejected), at most max_ejection_time; sweeps
  // every `interval`; at most max_ejection_percent of the hosts out at once
  // (but always one).
  std::uint32_t consecutive_5xx = 5;
  double interval = 10;
  double base_ejection_time = 30;
  double max_ejection_time = 300;
  double max_ejection_percent = 10;
};

// What "cold" means (the service model): how a backend warms after the
// script (re)starts it (ADD, UP or POOL).
//   Serving   seconds in service since the (re)start: the clock stops while the
//             balancer has it ejected (no traffic, nothing warms). The default:
//             without ejections it is plain time, as before.
//   Time      seconds since the (re)start, ejected or not.
//   Requests  requests served since the (re)start (warmup_requests of them).
enum class WarmBy { Serving, Time, Requests };
Problem parse_warm_by(std::string_view text, WarmBy& out);
const char* warm_by_name(WarmBy warm);

// The most workers one backend may have (the service model keeps a slot per worker).
inline constexpr std::uint32_t kMaxWorkers = 10'000;

struct ServiceModel {
  bool enabled = false;       // off: routing only (no latency, no outstanding)
  double base_ms = 200.0;     // a warm backend's service time
  double cold_factor = 5.0;   // service time multiplier the moment it joins
  double warmup = 30.0;       // seconds to decay linearly to base_ms
  std::uint32_t workers = 128;  // requests a backend serves at once (FIFO queue beyond)
  WarmBy warm_by = WarmBy::Serving;
  double warmup_requests = 10'000;  // WarmBy::Requests: requests to warm up
};

// The most retries of one request.
inline constexpr std::uint32_t kMaxRetries = 5;

// Sets `workers` from a number as a front end reads it: a whole number from
// 1 to kMaxWorkers, else the problem.
Problem set_workers(double workers, ServiceModel& service);

struct TrafficOptions {
  double rps = 1000.0;      // requests per second
  double duration = 0.0;    // seconds from 0; 0 = until 10 s after the last ramp ends
  double bucket = 1.0;      // width of a reporting bucket, seconds
  Curve curve;              // weights: linear / envoy / haproxy at a resolution
  Policy policy = Policy::SmoothWrr;
  bool slow_start = true;   // false: ramps are ignored (full weight at once)
  double bias = 1.0;        // least-request's active-request bias
  ServiceModel service;
  // A request whose latency would pass timeout_ms fails at that moment (the
  // proxy gives up; the backend still does the work) and is retried on another
  // backend up to `retries` times. 0: no timeout. Needs the service model.
  double timeout_ms = 0;
  std::uint32_t retries = 0;
  HealthCheck health;
  RampBy ramp_by = RampBy::Scale;
  std::uint64_t seed = 1;          // random, p2c, least-conn ties, the skip decorator
  double stable_margin = 50;       // percent above the warm service time that still counts as stable
};

// Limits that keep one simulation bounded in time and memory.
// (An hour at 100,000 requests per second over 10,000 backends is 3.6e8: a
// few seconds in the browser: docs/PERFORMANCE.md, performance log PL-6.)
inline constexpr double kMaxSimRequests = 1e9;
inline constexpr std::size_t kMaxSimCells = 20'000'000;  // buckets x backends

struct TrafficResult {
  std::vector<std::string> names;  // backend ids, as in the timeline
  double bucket = 1.0;             // bucket k covers [k * bucket, (k+1) * bucket)
  std::size_t buckets = 0;
  // Per bucket and backend, index [k * names.size() + id]:
  std::vector<std::uint32_t> requests;   // requests routed to it
  std::vector<double> outstanding;       // mean in flight, seen by each arrival
  std::vector<double> latency_ms;        // mean latency of those requests (0 if none)
  std::vector<std::uint32_t> failed;     // attempts that arrived in the bucket and timed out
  std::vector<std::uint32_t> retried;    // of those, the ones retried on another backend
  std::vector<std::uint8_t> state;       // BackendState, the worst the bucket saw
  std::vector<std::uint32_t> unrouted;   // per bucket: requests with no backend (NONE)
  std::vector<std::uint32_t> total;      // per bucket: all requests (retries included)
  std::vector<Diagnostic> diagnostics;   // the script's rejected lines
  // Why there is no simulation (a bad option, or one too large); the
  // diagnostics above are still the script's.
  Problem problem;
  double duration = 0.0;
  // Per backend id, over the whole run.
  std::vector<std::uint32_t> ejections;
  std::vector<double> seconds_ejected;
  // Start of the first bucket from which on every bucket is calm (nobody
  // ejected, no request failed, every backend's mean latency within
  // stable_margin % of the warm service time); negative when the last bucket
  // is not calm or there is no service model.
  double stable_at = -1;

  double share(std::size_t k, std::size_t id) const {
    const std::uint32_t t = total[k];
    return t ? static_cast<double>(requests[k * names.size() + id]) / t : 0.0;
  }
};

// A backend's state in a bucket (the lab's lanes); the worst one wins.
enum class BackendState : std::uint8_t { Out = 0, Serving = 1, Ramping = 2, Ejected = 3 };

// Checks options (same wording style as the script's diagnostics).
Problem check_traffic_options(const TrafficOptions& options);

// Runs the simulation. A bad option (check_traffic_options, called first)
// or a simulation too large leaves the result without buckets and says why
// in `problem`.
TrafficResult simulate_traffic(std::string_view script, const TrafficOptions& options);

}  // namespace slowstart
