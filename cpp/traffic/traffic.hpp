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
#include "traffic/result.hpp"

namespace slowstart {

// Limits that keep one simulation bounded in time and memory.
// (An hour at 100,000 requests per second over 10,000 backends is 3.6e8: a
// few seconds in the browser: docs/PERFORMANCE.md, performance log PL-6.)
inline constexpr double kMaxSimRequests = 1e9;
inline constexpr std::size_t kMaxSimCells = 20'000'000;  // buckets x backends

// Runs the simulation. A bad option (check_traffic_options, called first)
// or a simulation too large leaves the result without buckets and says why
// in `problem`.
TrafficResult simulate_traffic(std::string_view script, const TrafficOptions& options);

}  // namespace slowstart
