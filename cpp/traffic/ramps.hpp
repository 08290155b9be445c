// Each backend's weight under its ramp, in the traffic simulation's
// milliseconds: the curve's integer weight (traffic/curves.hpp) at the
// request's millisecond, without recomputing it every millisecond: a
// backend's next change is found once (gallop, then halve: the curves never
// decrease; the linear curve's in closed form, linear_change) and waited for. By position in the pool, as SmoothWrr's weights.
#pragma once
#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <queue>
#include <vector>

#include "traffic/budget.hpp"
#include "traffic/fleet.hpp"
#include "traffic/options.hpp"

namespace slowstart {

class Ramps {
 public:
  // Each weight change found adds its curve evaluations to `meter`.
  Ramps(const TrafficOptions& o, const Fleet& fleet, WorkMeter& meter) : o_(o), fleet_(fleet), meter_(meter) {}

  // POOL: n backends, none weighed yet.
  void reset(std::size_t n);
  // ADD of a new name: one more position.
  void push_back();
  // The script set position i's join (its ramp counts from the backend's `joined`).
  void joined(std::size_t i);
  // A health check readmitted position i at `t` (a recovery: HAProxy's curve ramps it).
  void readmitted(std::size_t i, double t);
  // --slow-start (traffic/slow_start_rule.hpp): position i ramps over
  // `window_s` seconds from millisecond `start_ms` (0: no ramp), whatever
  // its script line says; the balancer's rule has decided that it ramps.
  void begin(std::size_t i, std::int64_t start_ms, std::int64_t window_s);
  // Where position i's ramp starts, in milliseconds, and its window in seconds.
  std::int64_t start_ms(std::size_t i) const { return joined_ms_[i]; }
  std::int64_t window(std::size_t i) const { return window_s_[i]; }

  // Position i changed: true when it ramps (weighed at the next request by
  // advance), false when its weight is fixed now (`curve(i)`).
  bool restart(std::size_t i);
  // The ramps whose weight changes by millisecond `tick`: weighed at it;
  // `weigh(i)` is told of each new weight.
  template <typename Weigh>
  void advance(std::int64_t tick, Weigh weigh);
  bool pending() const { return !changes_.empty(); }
  // The millisecond of the next change waited for (when pending(); a void
  // one, of a backend changed since, may come first: no later than the next real one).
  std::int64_t next_tick() const { return changes_.top().tick; }

  // Position i ramps now (UP, slow start on, a ramp, and not HAProxy's
  // curve on a backend that joined by ADD or POOL).
  bool may_ramp(std::size_t i) const;
  // How far into its ramp position i is at `tick` (1: not ramping).
  double factor(std::size_t i, std::int64_t tick) const;
  // The curve's weight of position i now (before least-request's division).
  std::int64_t curve(std::size_t i) const { return curve_[i]; }
  // When position i reaches its full weight, in seconds.
  double ramp_end(std::size_t i) const;

 private:
  // A backend whose weight changes at millisecond `tick` (or at the next request, for kNow).
  struct Change {
    std::int64_t tick;
    std::uint32_t pos, epoch;
    bool operator>(const Change& o) const { return tick > o.tick; }
  };
  static constexpr std::int64_t kNow = std::numeric_limits<std::int64_t>::min();

  std::int64_t curve_at(std::size_t i, std::int64_t tick) const;
  // The first millisecond after `tick` at which position i's weight is no longer `w`.
  std::int64_t next_change(std::size_t i, std::int64_t tick, std::int64_t w) const;
  // The linear curve's first millisecond at which position i's weight exceeds w (< its full weight).
  std::int64_t linear_change(std::size_t i, std::int64_t w) const;

  const TrafficOptions& o_;
  const Fleet& fleet_;
  WorkMeter& meter_;
  std::vector<std::int64_t> curve_;       // the curve's weight
  std::vector<std::uint32_t> epoch_;      // bumped when a backend changes: older Changes are void
  std::vector<std::int64_t> joined_ms_;   // when its ramp started (a readmission restarts it)
  std::vector<std::int64_t> window_s_;    // its ramp's window: the script's ramp, or --slow-start's
  std::vector<std::uint8_t> recovering_;  // joined by UP or readmitted (HAProxy ramps only then)
  std::priority_queue<Change, std::vector<Change>, std::greater<>> changes_;
};

// On every weight change's path: defined here so that advance inlines them.
inline std::int64_t Ramps::curve_at(std::size_t i, std::int64_t tick) const {
  const Backend& b = fleet_.backends[i];
  return curve_weight_ms(o_.curve, b.target, window_s_[i], tick - joined_ms_[i], recovering_[i]);
}

inline std::int64_t Ramps::linear_change(std::size_t i, std::int64_t w) const {
  // curve_weight_ms's linear weight at elapsed e in [0, W) is floor(full * e / W),
  // which exceeds w from e = ceil((w + 1) * W / full) on (at most W, as w < full).
  const std::int64_t full = fleet_.backends[i].target * resolution_of(o_.curve);
  if (w >= full) return std::numeric_limits<std::int64_t>::max();  // never changes (full 0)
  const std::int64_t window_ms = window_s_[i] * 1000;
  if (w < (std::int64_t{1} << 31) && window_ms < (std::int64_t{1} << 31))
    return joined_ms_[i] + ((w + 1) * window_ms + full - 1) / full;  // the usual case, in 64 bits
  // (w + 1) * W can reach 10^9 x 10^15: 128 bits only here (in WebAssembly a library call).
  __extension__ using wide = __int128;
  const wide need = static_cast<wide>(w + 1) * window_ms;
  return joined_ms_[i] + static_cast<std::int64_t>((need + full - 1) / full);
}

inline std::int64_t Ramps::next_change(std::size_t i, std::int64_t tick, std::int64_t w) const {
  const std::int64_t end = joined_ms_[i] + window_s_[i] * 1000;
  // The linear curve's next change is known in closed form (linear_change);
  // the search below still runs, by compares, so that the meter counts the
  // same evaluations as the curve's (the work budget, budget.hpp).
  const bool linear = o_.curve.kind == CurveKind::Linear;
  const std::int64_t first = linear ? linear_change(i, w) : 0;
  const auto same_at = [&](std::int64_t t) { return linear ? t < first : curve_at(i, t) == w; };
  std::int64_t same = tick, step = 1, evaluations = 0;
  while (same + step < end && same_at(same + step)) same += step, step *= 2, ++evaluations;
  std::int64_t differs = std::min(same + step, end);
  while (differs - same > 1) {
    const std::int64_t mid = same + (differs - same) / 2;
    (same_at(mid) ? same : differs) = mid;
    ++evaluations;
  }
  meter_.add(static_cast<double>(evaluations));
  return differs;
}

template <typename Weigh>
void Ramps::advance(std::int64_t tick, Weigh weigh) {
  while (!changes_.empty() && changes_.top().tick <= tick) {
    const Change c = changes_.top();
    changes_.pop();
    if (c.epoch != epoch_[c.pos]) continue;
    const std::int64_t w = curve_[c.pos] = curve_at(c.pos, tick);
    meter_.add(1);
    weigh(c.pos);
    const std::int64_t end = joined_ms_[c.pos] + window_s_[c.pos] * 1000;  // full weight from here on
    if (tick >= end) continue;
    changes_.push(Change{next_change(c.pos, tick, w), c.pos, c.epoch});
  }
}

}  // namespace slowstart
