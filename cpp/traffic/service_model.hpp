// The service model: how long a backend takes to serve a request, and how
// much longer while it is cold. Each backend serves `workers` requests at
// once in arrival order (a FIFO queue beyond); a request's service time is
// base_ms, times up to cold_factor the moment the backend (re)starts,
// falling linearly to base_ms as it warms. What warms it is WarmBy
// (names.hpp): seconds serving (the clock stops while it is ejected), plain
// time, or requests served.
#pragma once
#include <cstdint>
#include <limits>
#include <vector>

#include "traffic/fleet.hpp"
#include "traffic/options.hpp"

namespace slowstart {

class ServiceTimes {
 public:
  ServiceTimes(const ServiceModel& model, std::size_t ids)
      : s_(model), warmth_(ids), busy_(model.enabled ? ids : 0) {}

  // The script changed the backend: its warmth's counters start over.
  void restart(std::uint32_t id) {
    warmth_[id].paused = 0;
    warmth_[id].served = 0;
  }
  // The script (re)started it at `t` (ADD, UP): cold from then. A backend
  // in the POOL from the start is warm.
  void started(std::uint32_t id, double t) { warmth_[id].since = t; }
  // An ejection of `seconds` ended (WarmBy::Serving does not count them).
  void paused(std::uint32_t id, double seconds) { warmth_[id].paused += seconds; }

  // How cold backend `id` is at `t`: 1 the moment it (re)starts, 0 warm.
  double coldness(std::uint32_t id, double t, const Passive& passive) const;

  // An attempt reaching backend `id` at `t`: when it ends (it starts when a
  // worker is free, and takes the service time of that moment).
  double serve(std::uint32_t id, double t, const Passive& passive);

 private:
  struct Warmth {
    double since = -std::numeric_limits<double>::infinity();  // the (re)start
    double paused = 0;  // seconds ejected since the (re)start
    double served = 0;  // requests started since the (re)start
  };
  const ServiceModel& s_;
  std::vector<Warmth> warmth_;             // by id
  std::vector<std::vector<double>> busy_;  // by id: its busy workers' end times (a min-heap)
};

}  // namespace slowstart
