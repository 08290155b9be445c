#include "traffic/health_envoy.hpp"

#include <algorithm>
#include <cmath>

namespace slowstart {

bool in_panic(double threshold, std::size_t healthy, std::size_t hosts) {
  if (hosts == 0 || threshold <= 0) return false;
  const double percent = 100.0 * static_cast<double>(healthy) / static_cast<double>(hosts);
  return percent < threshold && 1.4 * percent < 100.0;
}

bool ejection_allowed(const HealthCheck& c, std::size_t ejected, std::size_t hosts) {
  const double n = static_cast<double>(hosts);
  if (c.legacy_ejection_percent) return ejected == 0 || 100.0 * static_cast<double>(ejected) / n < c.max_ejection_percent;
  if (c.always_eject_one_host && ejected == 0) return true;
  return 100.0 * static_cast<double>(ejected + 1) / n <= std::min(100.0, c.max_ejection_percent);
}

void find_outliers(const HealthCheck& c, std::span<const IntervalCounts> hosts, std::size_t cluster_hosts,
                   Outliers& out) {
  out.success_rate_evaluated = false;
  out.mean = out.threshold = -1;
  out.below_success_rate.clear();
  out.failure_percentage.clear();
  if (cluster_hosts < c.success_rate_minimum_hosts && cluster_hosts < c.failure_percentage_minimum_hosts) return;
  // (SuccessRateAccumulator::getSuccessRateAndVolume: success x 100 / total.)
  const auto rate = [&](std::size_t k) { return hosts[k].success * 100.0 / hosts[k].total; };
  std::size_t valid = 0, valid_fp = 0;
  double sum = 0;
  for (std::size_t k = 0; k < hosts.size(); ++k) {
    if (hosts[k].total == 0) continue;
    if (hosts[k].total >= c.success_rate_request_volume) ++valid, sum += rate(k);
    valid_fp += hosts[k].total >= c.failure_percentage_request_volume;
  }
  if (valid > 0 && valid >= c.success_rate_minimum_hosts) {
    // `successRateEjectionThreshold`, in its order of operations.
    const double n = static_cast<double>(valid);
    const double mean = sum / n;
    double variance = 0;
    for (std::size_t k = 0; k < hosts.size(); ++k)
      if (hosts[k].total > 0 && hosts[k].total >= c.success_rate_request_volume) variance += std::pow(rate(k) - mean, 2);
    variance /= n;
    out.success_rate_evaluated = true;
    out.mean = mean;
    out.threshold = mean - (c.success_rate_stdev_factor / 1000.0) * std::sqrt(variance);
    for (std::size_t k = 0; k < hosts.size(); ++k)
      if (hosts[k].total > 0 && hosts[k].total >= c.success_rate_request_volume && rate(k) < out.threshold)
        out.below_success_rate.push_back(k);
  }
  if (valid_fp > 0 && valid_fp >= c.failure_percentage_minimum_hosts) {
    for (std::size_t k = 0; k < hosts.size(); ++k)
      if (hosts[k].total > 0 && hosts[k].total >= c.failure_percentage_request_volume &&
          100.0 - rate(k) >= static_cast<double>(c.failure_percentage_threshold))
        out.failure_percentage.push_back(k);
  }
}

std::uint32_t EnvoyCheck::raised(std::uint32_t multiplier) const {
  const auto cap = static_cast<std::uint32_t>(
      std::ceil(std::max(c_.max_ejection_time, c_.base_ejection_time) / c_.base_ejection_time));
  return std::min(multiplier + 1, cap);
}

bool EnvoyCheck::enforced(std::uint32_t percent) {
  if (percent >= 100) return true;
  if (percent == 0) return false;
  return rng_.chance(percent);
}

void EnvoyCheck::report(const Fleet& fleet, FleetEvents& events, std::uint32_t id, double t, bool failed) {
  State& s = state_[id];
  // Every response counts for success rate, the ejected host's too
  // (`DetectorHostMonitorImpl::putHttpResponseCode`).
  if (detect_) {
    ++s.interval.total;
    s.interval.success += !failed;
  }
  if (!failed) {
    s.errors = 0;
    return;
  }
  if (++s.errors != c_.consecutive_5xx || fleet.passive[id].out) return;
  std::size_t up = 0, out = 0;
  meter_.add(kStepsPerScanned * static_cast<double>(fleet.backends.size()));
  for (std::size_t i = 0; i < fleet.backends.size(); ++i) {
    if (!fleet.backends[i].up) continue;
    ++up;
    out += fleet.passive[fleet.pos_id[i]].out;
  }
  if (ejection_allowed(c_, out, up)) {
    s.multiplier = raised(s.multiplier);
    events.eject(id, t);
  }
}

// `DetectorImpl::onIntervalTimer`: first every ejection whose time has run
// ends (`checkHostForUneject`) and every host's interval closes
// (`updateCurrentSuccessRateBucket`); then detection over the hosts in
// service (`processSuccessRateEjections`); then a host in service for a
// whole interval since its return has its multiplier lowered by one. The
// lab lowers it in the first pass and gives it back to a host detection
// ejects in the same sweep (Envoy lowers only hosts still in service).
void EnvoyCheck::sweep(const Fleet& fleet, FleetEvents& events, double t) {
  // (The budget counts a sweep as a pass over every backend the script names.)
  meter_.add(kStepsPerScanned * static_cast<double>(fleet.id_pos.size()));
  const bool detect = detect_;
  sweep_ids_.clear();
  sweep_counts_.clear();
  sweep_done_.clear();
  std::size_t up = 0, out = 0;
  for (std::size_t i = 0; i < fleet.backends.size(); ++i) {
    const std::uint32_t id = fleet.pos_id[i];
    const Passive& p = fleet.passive[id];
    State& s = state_[id];
    bool lowered = false;
    if (p.out) {
      const double time = std::min(c_.base_ejection_time * s.multiplier, std::max(c_.max_ejection_time, c_.base_ejection_time));
      if (t >= p.ejected_at + time - 1e-9) events.readmit(id, t);
    } else if (s.multiplier > 0 && t - std::max(p.readmitted_at, 0.0) >= c_.interval - 1e-9 && p.readmitted_at >= 0) {
      --s.multiplier;
      lowered = true;
    }
    if (detect && fleet.backends[i].up) {
      ++up;
      if (p.out) ++out;
      else if (s.interval.total > 0) {
        sweep_ids_.push_back(id);
        sweep_counts_.push_back(s.interval);
        sweep_done_.push_back(lowered ? Swept::Lowered : Swept::Kept);
      }
    }
    s.interval = IntervalCounts{};
  }
  if (detect) eject_outliers(events, t, up, out);
  events.schedule(Timer{t + c_.interval, 0, 0, TimerKind::EnvoySweep});
}

void EnvoyCheck::eject_outliers(FleetEvents& events, double t, std::size_t up, std::size_t out) {
  meter_.add(kStepsPerScanned * static_cast<double>(sweep_ids_.size()));
  find_outliers(c_, sweep_counts_, up, outliers_);
  // `DetectorImpl::ejectHost` for each, success rate's first: max_ejection_percent
  // (E1, E2) counts the ejections this sweep made, then the enforcing percent.
  // A host the first pass ejected is not ejected again by the second (Envoy
  // asserts a host is not ejected twice: `DetectorHostMonitorImpl::eject`).
  const auto eject = [&](std::size_t k, std::uint32_t enforcing) {
    const std::uint32_t id = sweep_ids_[k];
    if (sweep_done_[k] == Swept::Ejected) return;
    if (!ejection_allowed(c_, out, up) || !enforced(enforcing)) return;
    State& s = state_[id];
    if (sweep_done_[k] == Swept::Lowered) ++s.multiplier;  // (Envoy lowers only the hosts it keeps)
    s.multiplier = raised(s.multiplier);
    sweep_done_[k] = Swept::Ejected;
    ++out;
    events.eject(id, t);
  };
  for (const std::size_t k : outliers_.below_success_rate) eject(k, c_.enforcing_success_rate);
  for (const std::size_t k : outliers_.failure_percentage) eject(k, c_.enforcing_failure_percentage);
}

}  // namespace slowstart
