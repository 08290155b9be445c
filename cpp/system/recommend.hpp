// The shortest slow-start window under which a rolling restart (the
// script) goes by with no ejection and no error a client sees, across what
// is not known for sure: the cold start's fitted bands (pushed `margin` %
// past their high ends), the load ±`load` %, the slower warm service time.
// Every run is an ordinary `slowstart simulate` run, so every number it
// gives can be checked by running simulate with the same options.
//
// How: the window is searched (0 to `max_window` seconds) on the worst
// corner (the highest cold factor and warm-up past the margin, the slowest
// warm service, the load +load %), assuming a longer window is never worse;
// the shortest window found is then checked at every corner (and raised
// until all pass). Around it, a table: half and twice the window against
// the cold factor's and the warm-up's low, middle and high. When no window
// helps, why: a cold request slower than the timeout (then pre-warming
// before readiness, or a timeout above it, would), or a pool that fails
// even warm (capacity). docs/YOUR-SYSTEM.md says what this assumes.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "system/cold_fit.hpp"
#include "traffic/traffic.hpp"

namespace slowstart::system {

// What is not known for sure about the cold start, and how far past it to hold.
struct Uncertainty {
  Band service_ms;    // the warm service time's band
  Band cold_factor;
  Band warmup;        // seconds, or requests when the service model warms by requests
  double load = 10;   // percent above and below the script's rate
  double margin = 20; // percent past the bands' high ends (cold factor's excess over 1, warm-up)
};

// One run's model: where it sits in the uncertainty, and (for the "what
// matters more" runs) the timeout and the check's thresholds scaled.
struct Corner {
  double service_ms = 0, cold_factor = 1, warmup = 0, rps = 0;
  double timeout_scale = 1, check_scale = 1;
};

// What a run shows.
struct Outcome {
  std::uint64_t ejections = 0;
  std::uint64_t client_errors = 0;    // failures no retry hid, and requests with no backend
  std::uint64_t failed_attempts = 0;  // every timed-out attempt, retried or not
  std::uint64_t requests = 0;         // simulated, retries included
  bool ok() const { return ejections == 0 && client_errors == 0; }
};

struct CornerOutcome {
  Corner corner;
  Outcome outcome;
};

// A run of the scenario at a window with a corner's model: the options it
// uses, and what it showed (or why it could not run).
struct Run {
  TrafficOptions options;
  std::string script;
  Outcome outcome;
  Problem problem;
};

// Runs the scenario: `window` seconds of slow start (0: none), the corner's
// service model; the caller applies the window as --slow-start does
// (recommend_command: the balancer's rule decides which joins ramp).
using Simulate = std::function<Run(double window, const Corner& corner)>;

struct Recommendation {
  bool found = false;
  double window_s = 0;               // the window (found) or the longest tried
  double max_window = 0;
  std::vector<CornerOutcome> corners;  // each corner at the window
  CornerOutcome without;               // the middle of the bands, no slow start
  // The table: windows x cold factors x warm-ups, at the load +load %.
  std::vector<double> table_windows, table_cold, table_warmup;
  std::vector<Outcome> table;          // [w][c][u], row-major
  // Which matters more without slow start: "timeout", "check", or "neither".
  std::string matters_more;
  Outcome longer_timeout, looser_check;  // the middle model, no slow start, each changed
  double cold_request_ms = 0;          // the slowest corner's first cold request
  std::string no_window;               // why no window helps (empty when found)
  std::vector<std::string> advice;     // what would help instead
  int runs = 0;
  Problem problem;                     // a run that could not run: the whole answer stops
};

struct RecommendLimits {
  double max_window = 3600;  // seconds
  int max_runs = 120;
};

// `timeout_ms` is the scenario's (for the advice).
Recommendation recommend(const Simulate& simulate, const Uncertainty& u, const Corner& middle, double timeout_ms,
                         const RecommendLimits& limits = {});

// The middle and the worst of the uncertainty (a corner each).
Corner middle_corner(const Uncertainty& u, double rps);
Corner worst_corner(const Uncertainty& u, double rps);

// What a simulation showed, as recommend counts it.
Outcome outcome_of(const TrafficResult& result);

// The time of the script's last ADD or UP (0 without one).
double last_join(std::string_view script);
// How long a run under `window` lasts: a --duration given (not 0) is
// stretched to 10 s past the last ramp's end, as simulate's default is, so
// that a window can never pass by keeping a server idle until the run ends.
double run_until(double duration, double last_join_s, double window);

}  // namespace slowstart::system
