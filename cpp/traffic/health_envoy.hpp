// Envoy's outlier detection as the lab models it (cluster
// `outlier_detection`, consecutive_5xx; the rules and their sources are in
// docs/WHY-SLOW-START.md section 7):
//   - a timeout is a 5xx (locally originated errors map to 5xx by default);
//     consecutive_5xx of them in a row eject the host at once, if
//     max_ejection_percent allows (ejection_allowed);
//   - it stays out base_ejection_time x (times ejected), at most
//     max_ejection_time; sweeps every `interval` bring it back once that
//     time has passed, and lower the multiplier of a host in service for a
//     whole interval by one;
//   - at each sweep, success-rate and failure-percentage detection over the
//     interval just ended (find_outliers below; E10, E11) eject the hosts
//     they find, under the same max_ejection_percent.
#pragma once
#include <cstdint>
#include <span>
#include <vector>

#include "core/split_mix64.hpp"

#include "traffic/budget.hpp"
#include "traffic/fleet.hpp"
#include "traffic/options.hpp"

namespace slowstart {

// Whether one more host may be ejected with `ejected` of `hosts` out
// (docs/proxy-rules.md E1, E2; `DetectorImpl::ejectHost`,
// source/common/upstream/outlier_detection_impl.cc): since Envoy 1.28,
// 100 x (ejected + 1) / hosts <= min(100, max_ejection_percent), so with the
// default 10 % fewer than 10 hosts eject nothing and 25 allow 2; with
// always_eject_one_host (1.31+) one may go whenever none is out. Before 1.28
// (legacy_ejection_percent): 100 x ejected / hosts < max, the first always.
bool ejection_allowed(const HealthCheck& check, std::size_t ejected, std::size_t hosts);

// Whether a cluster with `healthy` of `hosts` healthy is in panic (E3;
// `LoadBalancerBase::isHostSetInPanic` and `recalculatePerPriorityPanic`,
// load_balancer_impl.cc): healthy below `threshold` percent, unless the
// availability with the overprovisioning factor 1.4 is still 100 % (so
// never at 5/7 healthy or more); never with no hosts or a threshold of 0.
bool in_panic(double threshold, std::size_t healthy, std::size_t hosts);

// One host's requests in an interval, as Envoy's SuccessRateAccumulator
// counts them: every response, and those that were no 5xx. A timeout is a
// 504 (`putResultNoLocalExternalSplit`: locally originated errors map to
// HTTP codes unless split_external_local_origin_errors), so in the lab a
// success is an attempt answered in time.
struct IntervalCounts {
  std::uint64_t total = 0;  // (retries included: more than 2^32 attempts fit the work budget)
  std::uint64_t success = 0;
};

// What one sweep's detection finds among the hosts in service (E10, E11;
// `DetectorImpl::processSuccessRateEjections`, outlier_detection_impl.cc).
struct Outliers {
  bool success_rate_evaluated = false;  // enough hosts with enough requests
  double mean = -1;       // Envoy's successRateAverage (percent), -1 when not evaluated
  double threshold = -1;  // Envoy's successRateEjectionThreshold
  std::vector<std::size_t> below_success_rate;   // indexes into the hosts given, in their order
  std::vector<std::size_t> failure_percentage;   // failing at least the threshold percent
};

// Envoy's rule, worked on `hosts` (the cluster's hosts not ejected, their
// counts over the interval just ended; `cluster_hosts` counts the ejected
// ones too, for the early exit):
//   - nothing if the cluster has fewer hosts than both minimums;
//   - a host with no request has no success rate; one with at least
//     success_rate_request_volume requests is valid for success rate, with
//     at least failure_percentage_request_volume for failure percentage;
//   - with at least success_rate_minimum_hosts valid hosts: mean of their
//     success rates (percent), population standard deviation,
//     threshold = mean - success_rate_stdev_factor / 1000 x stdev
//     (`successRateEjectionThreshold`); those strictly below it are outliers;
//   - with at least failure_percentage_minimum_hosts valid hosts, those whose
//     100 - success rate is at least failure_percentage_threshold.
void find_outliers(const HealthCheck& c, std::span<const IntervalCounts> hosts, std::size_t cluster_hosts,
                   Outliers& out);

class EnvoyCheck {
 public:
  // Its passes over the pool (the ejection percent, the sweeps) add to `meter`.
  // `seed`: the draws of an enforcing percent between 0 and 100 (their own
  // stream, so that the policies' random picks stay as they were).
  EnvoyCheck(const HealthCheck& check, std::size_t ids, WorkMeter& meter, std::uint64_t seed)
      : c_(check),
        meter_(meter),
        state_(ids),
        rng_(seed ^ 0x6f75746c69657273ULL),
        detect_(check.enforcing_success_rate > 0 || check.enforcing_failure_percentage > 0) {}

  // The script (re)started it: the count starts over; the multiplier stays
  // (the host is the same address).
  void restart(std::uint32_t id) { state_[id].errors = 0; }
  void readmitted(std::uint32_t id) { state_[id].errors = 0; }
  void report(const Fleet& fleet, FleetEvents& events, std::uint32_t id, double t, bool failed);
  // The interval's sweep at `t` (and the next one scheduled).
  void sweep(const Fleet& fleet, FleetEvents& events, double t);

 private:
  struct State {
    std::uint32_t errors = 0;      // consecutive failures
    std::uint32_t multiplier = 0;  // the ejection-time multiplier
    IntervalCounts interval;       // this interval's requests (success rate's bucket)
  };
  // The multiplier after one more ejection (`DetectorImpl::ejectHost`: raised
  // while multiplier x base < max + base).
  std::uint32_t raised(std::uint32_t multiplier) const;
  // The sweep's success-rate and failure-percentage ejections.
  void eject_outliers(FleetEvents& events, double t, std::size_t up, std::size_t out);
  // Envoy's featureEnabled(key, percent): 100 always, 0 never, else a draw.
  bool enforced(std::uint32_t percent);

  const HealthCheck& c_;
  WorkMeter& meter_;
  std::vector<State> state_;  // by id
  SplitMix64 rng_;
  // Success rate or failure percentage may eject (else the intervals are not counted).
  bool detect_;
  // One sweep's hosts in service with requests, their counts, what the
  // sweep did to each so far, and what detection found.
  enum class Swept : std::uint8_t { Kept, Lowered, Ejected };  // Lowered: its multiplier went down by one
  std::vector<std::uint32_t> sweep_ids_;
  std::vector<IntervalCounts> sweep_counts_;
  std::vector<Swept> sweep_done_;
  Outliers outliers_;
};

}  // namespace slowstart
