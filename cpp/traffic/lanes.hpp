// What the traffic simulation makes of its log when it ends: each backend's
// state per bucket (the lab's lanes: the worst state the bucket saw), and
// when the pool became stable.
#pragma once
#include <cstdint>
#include <vector>

#include "traffic/names.hpp"
#include "traffic/result.hpp"

namespace slowstart {

// A backend's state from `t` on (until its next change).
struct StateChange {
  double t;
  std::uint32_t id;
  BackendState state;
  double ramp_end;  // Ramping: when it becomes Serving
};

// Paints r.state from the changes (in time order; sorted by backend here).
void paint_lanes(std::vector<StateChange>& log, TrafficResult& r);

// Sets r.stable_at: the start of the first bucket from which on every
// bucket is calm (nobody ejected, no attempt failed, every backend's mean
// latency at most `latency_limit_ms`), or -1 when the last one is not.
void find_stable(TrafficResult& r, double latency_limit_ms);

}  // namespace slowstart
