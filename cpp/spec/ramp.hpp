// The slow-start ramp: how much of its target weight a backend gets while it
// warms up after joining or recovering.
#pragma once
#include <cstdint>
#include <climits>

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

// The clock values around `now` over which that weight stays what it is at
// `now`: [from, to), with kNoClockBound for a side that never changes it.
// A ramp's integer weight steps at known times: w holds while
// w * ramp <= target * elapsed < (w + 1) * ramp. So a clock step needs to
// revisit a ramping backend only when it leaves this span (ramp_schedule.hpp).
// For ramp > 0 and target > 0; the products are at most target * ramp, as
// in ramp_weight.
inline constexpr std::int64_t kNoClockBound = INT64_MAX;
struct ClockSpan {
  std::int64_t from, to;  // from == -kNoClockBound: no lower bound; to == kNoClockBound: none above
};
constexpr ClockSpan steady_span(std::int64_t target, std::int64_t ramp, std::int64_t joined, std::int64_t now) {
  const std::int64_t elapsed = now - joined;
  if (elapsed >= ramp) return {joined + ramp, kNoClockBound};  // the target, from the ramp's end on
  const std::int64_t w = elapsed > 0 ? target * elapsed / ramp : 0;
  // The first elapsed time with a weight of at least k: ceil(k * ramp / target).
  const auto first = [&](std::int64_t k) { return (k * ramp + target - 1) / target; };
  return {w == 0 ? -kNoClockBound : joined + first(w), joined + first(w + 1)};
}

}  // namespace slowstart
