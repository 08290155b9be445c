// One work budget for every traffic simulation, the same from both CLIs, the
// API and the Traffic tab (they all run this engine): what a simulation may
// cost is known before it runs, and what only the run can tell is counted as
// it runs, so that no script and no options can make it hang, abort, or need
// more memory than a browser tab has.
//
// Before running (size_of, over_budget), from the options and the script's
// first pass:
//   - the script: at most kMaxScriptBytes (the CLIs stop reading past it);
//   - the requests: duration x rps, at most kMaxSimRequests;
//   - the work, in steps (about a nanosecond or two each, natively): every
//     request's own (kStepsPerRoutedRequest on the routing-only path,
//     kStepsPerAttempt with the service model or a policy that picks one by
//     one), plus, for a pick that scans the pool (random, p2c, least-conn,
//     round-robin, the skip decorator, nginx's check), kStepsPerScanned per
//     backend; the timers (Envoy's sweeps, duration / interval, each a scan);
//     the outstanding samples (ten a bucket per backend); every cell of the
//     result; the script's bytes (read twice). At most kMaxWorkSteps;
//   - the rows: buckets x backends, at most kMaxSimCells; the CLIs' table or
//     CSV at most kMaxReportBytes (simulate_command.cpp bounds it before
//     writing a byte);
//   - every interval of a health check at least kMinInterval (1 ms,
//     options.hpp): an interval of 1e-300 s is an error (the option table's ranges).
// As it runs (WorkMeter): the steps the run adds that no option tells in
// advance (retries, ramps' weight changes, ejections, nginx's effective
// weights) are counted with the same costs; past kMaxWorkSteps the run stops
// with a problem. The attempts in flight at once (the proxy's and the
// backends' queues) are capped at kMaxInFlight, and the latency histograms'
// bins held at once (latency_histograms.hpp: the open buckets' and the whole
// run's per backend, 16 bytes each in tables at least 3/8 full) at
// kMaxLatencyBins.
// Over any of these the simulation does not run (or stops): a problem that
// says the scenario's size and the limit (the CLIs exit 2, the API throws
// TOO_LARGE, the tab shows it).
#pragma once
#include <cstdint>
#include <string>

#include "traffic/options.hpp"

namespace slowstart {

inline constexpr std::size_t kMaxScriptBytes = std::size_t{64} << 20;  // 64 MiB
inline constexpr double kMaxSimRequests = 1e9;
inline constexpr double kMaxWorkSteps = 1.2e10;  // about 15 s of one core natively (the old cap of 10^9 requests)
inline constexpr double kMaxSimCells = 10'000'000;   // buckets x backends (45 bytes each while it runs)
inline constexpr std::size_t kMaxReportBytes = std::size_t{256} << 20;  // the CLIs' table or CSV
inline constexpr double kMaxInFlight = 4'000'000;    // attempts in flight, and requests in the backends' queues
inline constexpr double kMaxLatencyBins = 4'000'000;  // latency histograms' bins held at once (at most 171 MB)
// The event loop's turns in one call (a routing run of one millisecond, or
// one request with its events): about a millisecond of the fleet's picks.
inline constexpr std::uint64_t kSliceTurns = 4096;

// What a step costs: the budget's units, about 1.3-1.6 ns each natively
// (docs/performance-log.md, PL-22).
inline constexpr double kStepsPerRoutedRequest = 10;  // the routing-only run of SmoothWrr picks
inline constexpr double kStepsPerAttempt = 100;       // one by one: pick, serve, complete
inline constexpr double kStepsPerScanned = 5;         // a backend a scanning pick looks at
inline constexpr double kStepsPerCell = 20;           // a cell of the result: kept, averaged, painted, reported
inline constexpr double kStepsPerScriptByte = 2;      // the script is read twice
inline constexpr double kStepsPerLatencyBin = 10;     // a histogram's bin looked at, sorted, turned into percentiles

// What the script's first pass tells the budget.
struct ScriptFacts {
  std::size_t bytes = 0;
  std::size_t backends = 0;  // every name the script gives a backend
  std::size_t name_bytes = 0;  // their bytes, all together
  double end = 0;            // when its last change or ramp ends (the default duration is 10 s past it)
};

// A simulation's size, known before it runs.
struct ScenarioSize {
  double duration = 0;  // the duration it runs (the default filled in)
  double requests = 0;
  double backends = 0;
  double name_bytes = 0;  // the backends' names, all together (the report's width)
  double buckets = 0;
  double cells = 0;     // buckets x backends
  double sweeps = 0;    // Envoy's interval sweeps
  double steps = 0;     // the work (a lower bound of what the run counts)
  double steps_per_request = 0;
  bool scans = false;   // its picks look at every backend
};

// Whether a pick looks at every backend of the pool (the policy, the skip
// decorator, nginx's effective weights).
bool picks_scan(const TrafficOptions& o);

ScenarioSize size_of(const TrafficOptions& o, const ScriptFacts& script);

// The problem when `size` is over a limit (the script's size, the requests,
// the rows, the work), in that order; nothing when it fits.
Problem over_budget(const ScenarioSize& size, const TrafficOptions& o);

// A script longer than kMaxScriptBytes (`bytes` is how much was read: the
// CLIs read one byte past the limit, then stop).
Problem script_too_large(std::size_t bytes);

// The two limits checked as a simulation runs: every front end runs with
// these; a test may lower them to watch a run stop.
struct RunLimits {
  double steps = kMaxWorkSteps;
  double in_flight = kMaxInFlight;
  double latency_bins = kMaxLatencyBins;
  // Not a limit: how many turns of the event loop one call of its slice
  // runs (traffic.cpp's advance_to says why). Any size gives the same result
  // (tests/cpp/traffic_slices_test.cpp runs slices of 1 up).
  std::uint64_t slice = kSliceTurns;
  // Not a limit either: whether routing carries a millisecond's run of
  // picks on over the next milliseconds while no weight changes (traffic.cpp's
  // run_on, PL-45). Either gives the same result
  // (tests/cpp/traffic_long_runs_test.cpp runs both).
  bool long_runs = true;
};

// Counts the run's steps; `over()` once past the limit.
class WorkMeter {
 public:
  explicit WorkMeter(double limit = kMaxWorkSteps) : limit_(limit) {}
  void add(double steps) { steps_ += steps; }
  bool over() const { return steps_ > limit_; }
  double steps() const { return steps_; }
  double limit() const { return limit_; }

 private:
  double steps_ = 0;
  double limit_;
};

// The problems a run stops with: past `limit` steps of work at `t` of
// `duration` seconds, or with more than `limit` attempts in flight at `t`.
std::string work_overrun(double limit, double t, double duration);
std::string in_flight_overrun(double limit, double t);
// ... or with more than `limit` latency histogram bins held at `t`.
std::string latency_bins_overrun(double limit, double t);

// A count for a message: 1234567 (whole, below 10^15), else 1.2e+20.
std::string count_text(double n);
// An estimate for a message, in two figures: 5e+14, 1.2e+10, 350000.
std::string rough_text(double n);

}  // namespace slowstart
