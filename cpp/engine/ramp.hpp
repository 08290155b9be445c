// The slow-start ramp: how much of its target weight a backend gets while it
// warms up after joining or recovering.
#pragma once
#include <cstdint>

namespace slowstart {

// effective = target                                  if ramp == 0
//           = target * min(elapsed, ramp) / ramp      otherwise, rounded down
// with elapsed = max(0, now - joined). The caller handles DOWN (weight 0).
// Inputs are within the SPEC's limits, so the product is at most 10^18.
constexpr std::int64_t ramp_weight(std::int64_t target, std::int64_t ramp,
                                   std::int64_t joined, std::int64_t now) {
  if (ramp == 0) return target;
  std::int64_t elapsed = now > joined ? now - joined : 0;
  if (elapsed >= ramp) return target;
  return target * elapsed / ramp;  // division last: truncation rounds down
}

}  // namespace slowstart
