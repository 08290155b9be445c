// What a traffic simulation measured (traffic/traffic.hpp runs it): per
// bucket and backend, the requests, their latency, failures and the
// backend's state; per backend, its ejections; when the pool became stable.
#pragma once
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "core/interpreter.hpp"
#include "core/validate.hpp"

namespace slowstart {

struct TrafficResult {
  std::vector<std::string> names;  // backend ids, as in the timeline
  double bucket = 1.0;             // bucket k covers [k * bucket, (k+1) * bucket)
  std::size_t buckets = 0;
  // Per bucket and backend, index [k * names.size() + id]. Without the
  // service model (routing only) nothing is served, so outstanding,
  // latency_ms, failed, retried, p50_ms and p99_ms are left EMPTY, read as
  // zeros (service_cell()): 3.6 million cells of each in the fleet's run,
  // which cost more to fill and hand over than the picks' tail (PL-28).
  std::vector<std::uint32_t> requests;   // requests routed to it
  std::vector<double> outstanding;       // mean in flight, seen by each arrival
  std::vector<double> latency_ms;        // mean latency of those requests (0 if none)
  std::vector<std::uint32_t> failed;     // attempts that arrived in the bucket and timed out
  std::vector<std::uint32_t> retried;    // of those, the ones retried on another backend
  std::vector<std::uint8_t> state;       // BackendState, the worst the bucket saw
  // p50 and p99 latency of the attempts that arrived in the bucket (service
  // model; 0 if none), as latency_histograms.hpp defines them.
  std::vector<float> p50_ms;
  std::vector<float> p99_ms;
  std::vector<std::uint32_t> unrouted;   // per bucket: requests with no backend (NONE)
  std::vector<std::uint32_t> total;      // per bucket: all requests (retries included)
  // The client's view, per bucket, of the requests that ARRIVED in it (a
  // retried request once, in the bucket of its first attempt):
  std::vector<std::uint32_t> client_requests;  // requests the client sent
  std::vector<std::uint32_t> client_failed;    // of those, failed to the client: no backend, or
                                               // the last attempt timed out (no retry left or allowed)
  // p50 and p99 of what the client waited (service model; 0 if none): from
  // arrival to the answer, every attempt included; a request no backend
  // took has no latency (it fails at once).
  std::vector<float> client_p50_ms;
  std::vector<float> client_p99_ms;
  std::vector<Diagnostic> diagnostics;   // the script's rejected lines
  // With --slow-start: the ADD and UP lines whose written ramp is not used
  // (the window and the balancer's rule decide), for a warning.
  std::vector<std::uint64_t> ignored_ramps;
  // Why there is no simulation (a bad option, or one too large); the
  // diagnostics above are still the script's.
  Problem problem;
  bool too_large = false;  // the problem is the work budget's (budget.hpp)
  double duration = 0.0;
  // Per backend id, over the whole run.
  std::vector<std::uint32_t> ejections;
  std::vector<double> seconds_ejected;
  std::vector<float> run_p50_ms;  // the attempts' p50 and p99 over the run (negative: none)
  std::vector<float> run_p99_ms;
  float run_client_p50_ms = -1;  // the client's, over the run (negative: none)
  float run_client_p99_ms = -1;
  // Start of the first bucket from which on every bucket is calm (nobody
  // ejected, no request failed, every backend's mean latency within
  // stable_margin % of the warm service time); negative when the last bucket
  // is not calm or there is no service model.
  double stable_at = -1;

  // A service-model cell (the vectors above that a routing-only run leaves
  // empty): its value, or 0 when the run has none.
  template <class T>
  static T service_cell(const std::vector<T>& v, std::size_t c) {
    return v.empty() ? T{} : v[c];
  }

  // The bucket time t falls in (the last one for t at or past the end).
  std::size_t bucket_of(double t) const { return std::min(buckets - 1, static_cast<std::size_t>(t / bucket)); }

  // Failed to the client / sent by it (0 when it sent nothing).
  static double error_rate(std::uint64_t failed, std::uint64_t requests) {
    return requests ? static_cast<double>(failed) / static_cast<double>(requests) : 0.0;
  }

  double share(std::size_t k, std::size_t id) const {
    const std::uint32_t t = total[k];
    return t ? static_cast<double>(requests[k * names.size() + id]) / t : 0.0;
  }
};

}  // namespace slowstart
