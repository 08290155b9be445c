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
  SmoothWrr,     // the SPEC's pick over the curve's weights
  LeastRequest,  // Envoy: weight / (active + 1)^bias, slow-start factor on top
};

// Parses "wrr" or "least-request" (the CLI's --policy, the lab's `policy`).
Problem parse_policy(std::string_view text, Policy& out);

// The most workers one backend may have (the service model keeps a slot per worker).
inline constexpr std::uint32_t kMaxWorkers = 10'000;

struct ServiceModel {
  bool enabled = false;       // off: routing only (no latency, no outstanding)
  double base_ms = 200.0;     // a warm backend's service time
  double cold_factor = 5.0;   // service time multiplier the moment it joins
  double warmup = 30.0;       // seconds to decay linearly to base_ms
  std::uint32_t workers = 128;  // requests a backend serves at once (FIFO queue beyond)
};

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
};

// Limits that keep one simulation bounded in time and memory.
// (An hour at 100,000 requests per second over 10,000 backends is 3.6e8: a
// few seconds in the browser, docs/PERFORMANCE.md.)
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
  std::vector<std::uint32_t> unrouted;   // per bucket: requests with no backend (NONE)
  std::vector<std::uint32_t> total;      // per bucket: all requests
  std::vector<Diagnostic> diagnostics;   // the script's rejected lines
  // Why there is no simulation (a bad option, or one too large); the
  // diagnostics above are still the script's.
  Problem problem;
  double duration = 0.0;

  double share(std::size_t k, std::size_t id) const {
    const std::uint32_t t = total[k];
    return t ? static_cast<double>(requests[k * names.size() + id]) / t : 0.0;
  }
};

// Checks options (same wording style as the script's diagnostics).
Problem check_traffic_options(const TrafficOptions& options);

// Runs the simulation. A bad option (check_traffic_options, called first)
// or a simulation too large leaves the result without buckets and says why
// in `problem`.
TrafficResult simulate_traffic(std::string_view script, const TrafficOptions& options);

}  // namespace slowstart
