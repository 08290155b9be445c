// Envoy's outlier detection as the lab models it (cluster
// `outlier_detection`, consecutive_5xx; the rules and their sources are in
// docs/WHY-SLOW-START.md section 7):
//   - a timeout is a 5xx (locally originated errors map to 5xx by default);
//     consecutive_5xx of them in a row eject the host at once, if
//     max_ejection_percent allows (the first ejection always);
//   - it stays out base_ejection_time x (times ejected), at most
//     max_ejection_time; sweeps every `interval` bring it back once that
//     time has passed, and lower the multiplier of a host in service for a
//     whole interval by one.
#pragma once
#include <cstdint>
#include <vector>

#include "traffic/budget.hpp"
#include "traffic/fleet.hpp"
#include "traffic/options.hpp"

namespace slowstart {

class EnvoyCheck {
 public:
  // Its passes over the pool (the ejection percent, the sweeps) add to `meter`.
  EnvoyCheck(const HealthCheck& check, std::size_t ids, WorkMeter& meter) : c_(check), meter_(meter), state_(ids) {}

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
  };
  const HealthCheck& c_;
  WorkMeter& meter_;
  std::vector<State> state_;  // by id
};

}  // namespace slowstart
