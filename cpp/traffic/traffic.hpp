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
#include "traffic/budget.hpp"
#include "traffic/option_table.hpp"
#include "traffic/options.hpp"
#include "traffic/result.hpp"

namespace slowstart {

// Runs the simulation. A bad option (check_traffic_options, called first)
// or a simulation over the work budget (budget.hpp: checked before it runs,
// and counted as it runs) leaves the result without buckets and says why in
// `problem` (`too_large` for the budget's problems).
TrafficResult simulate_traffic(std::string_view script, const TrafficOptions& options, const RunLimits& limits = {});

// A simulation's size without running it (the script's first pass only):
// the duration it would run, its requests, rows and work; `problem` when an
// option is bad or it is over the budget.
struct TrafficMeasure {
  ScenarioSize size;
  Problem problem;
  bool too_large = false;
  std::vector<Diagnostic> diagnostics;  // the script's rejected lines
};
TrafficMeasure measure_traffic(std::string_view script, const TrafficOptions& options);

}  // namespace slowstart
