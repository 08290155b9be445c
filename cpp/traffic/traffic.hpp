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

#include "core/interpreter.hpp"
#include "traffic/option_table.hpp"
#include "traffic/options.hpp"

namespace slowstart {

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

// Runs the simulation. A bad option (check_traffic_options, called first)
// or a simulation too large leaves the result without buckets and says why
// in `problem`.
TrafficResult simulate_traffic(std::string_view script, const TrafficOptions& options);

}  // namespace slowstart
