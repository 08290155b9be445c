// The cold start fitted from a canary's requests, in the simulator's own
// terms (cpp/traffic: ServiceModel), so that the numbers mean exactly what
// `simulate --service-ms --cold-factor --warmup --warm-by` mean:
//
//   service(x) = service_ms * (1 + (cold_factor - 1) * max(0, 1 - x / warmup))
//
// where x is the seconds since the backend started (warm by time) or the
// requests it started before this one (warm by requests). A request's
// latency is taken as its service time: no queue (the fit checks that).
//
// How: for a given warm-up the model is linear in service_ms and
// service_ms * (cold_factor - 1), so those come by least squares, and the
// warm-up is searched (a grid, then golden sections) for the least error;
// errors are relative (weighted by 1 / model^2, a second pass), as latency
// noise is. Each model's log-likelihood (relative normal errors) says which
// explains the data better. Bands: 95 % of a bootstrap of the rows
// (seeded: the same numbers every run). docs/YOUR-SYSTEM.md says what the
// fit assumes.
#pragma once
#include <cstdint>
#include <string>

#include "system/canary_log.hpp"

namespace slowstart::system {

struct Band {
  double lo = 0, hi = 0;
};

struct ModelFit {
  double service_ms = 0, cold_factor = 1;
  double warmup = 0;          // seconds, or requests
  double log_likelihood = 0;
  Band service_band, cold_band, warmup_band;
};

struct ColdFit {
  std::size_t rows = 0;
  double span = 0;            // seconds from the first row to the last
  ModelFit time, requests;
  bool by_requests = false;   // requests explain the data better (else time)
  bool decided = false;       // ... by a clear margin (log-likelihoods 2 apart or more)
  double likelihood_gap = 0;  // the better's log-likelihood minus the other's
  bool cold = true;           // a cold start was found (else latency never falls)
  double queue_correlation = 0;  // residuals against in-flight requests (0 without in_flight)
  int resamples = 0;
  std::string refused;        // not empty: why the data cannot decide
  const ModelFit& best() const { return by_requests ? requests : time; }
};

// The fewest rows the fit accepts.
inline constexpr std::size_t kMinFitRows = 30;

// `resamples`: the bootstrap's (0: 200, fewer past 200,000 rows, at least 40).
ColdFit fit_cold_start(const CanaryLog& log, std::uint64_t seed = 1, int resamples = 0);

}  // namespace slowstart::system
