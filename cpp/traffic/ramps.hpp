// Each backend's weight under its ramp, in the traffic simulation's
// milliseconds: the curve's integer weight (traffic/curves.hpp) at the
// request's millisecond, without recomputing it every millisecond: a
// backend's next change is found once (gallop, then halve: the curves never
// decrease; the linear curve's in closed form, linear_change) and waited for. By position in the pool, as SmoothWrr's weights.
// Backends whose ramps are the same function of time (the same target,
// start and window, restarted before the same weighing: a wave of a rolling
// restart) wait as one group, its change found once and its members weighed
// together (PL-48).
#pragma once
#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <queue>
#include <unordered_map>
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
  // `weigh(pos, n)` is told of each group's n positions (distinct) and their
  // one new weight (curve(i)).
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
  // A group whose weight changes at millisecond `tick` (or at the next request, for kNow).
  struct Change {
    std::int64_t tick;
    std::uint32_t group;
    bool operator>(const Change& o) const { return tick > o.tick; }
  };
  static constexpr std::int64_t kNow = std::numeric_limits<std::int64_t>::min();
  // Positions whose ramps are one function of time, each with the epoch it
  // joined at (a member restarted since has left: its epoch moved on).
  struct Group {
    std::vector<std::uint32_t> pos, epoch;
  };

  std::int64_t curve_at(std::size_t i, std::int64_t tick) const;
  // Positions i and j's weights are the same function of time (curve_at, next_change).
  bool same_ramp(std::size_t i, std::size_t j) const {
    return fleet_.backends[i].target == fleet_.backends[j].target && joined_ms_[i] == joined_ms_[j] &&
           window_s_[i] == window_s_[j] && recovering_[i] == recovering_[j];
  }
  std::uint32_t new_group();
  // The first millisecond after `tick` at which position i's weight is no
  // longer `w`; the meter counts its evaluations `copies` times (once a member).
  std::int64_t next_change(std::size_t i, std::int64_t tick, std::int64_t w, std::size_t copies) const;
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
  std::vector<Group> groups_;
  std::vector<std::uint32_t> free_groups_;
  // The groups restarted since the last advance (their change is kNow), by
  // their ramp (same_ramp's figures): a restart finds its group in O(1), so
  // a script that restarts n backends of n different ramps at once costs n,
  // not n squared (40,000 took 3.8 s by a scan of the open groups).
  struct RampKey {
    std::int64_t target, joined_ms, window_s;
    std::uint8_t recovering;
    bool operator==(const RampKey&) const = default;
  };
  struct RampKeyHash {
    std::size_t operator()(const RampKey& k) const;
  };
  RampKey key_of(std::size_t i) const {
    return RampKey{fleet_.backends[i].target, joined_ms_[i], window_s_[i], recovering_[i]};
  }
  std::unordered_map<RampKey, std::uint32_t, RampKeyHash> open_;
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

inline std::int64_t Ramps::next_change(std::size_t i, std::int64_t tick, std::int64_t w, std::size_t copies) const {
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
  // (Whole numbers: the meter's sum is the same in any grouping.)
  meter_.add(static_cast<double>(evaluations) * static_cast<double>(copies));
  return differs;
}

// Each group weighed as its members one by one were: the same weight at
// `tick` (curve_at), the same next change (next_change), the same steps on
// the meter (1 and the search's evaluations a member). A member whose ramp
// is no longer the group's (its figures changed without a restart) is split
// off and weighed on its own at the same tick.
template <typename Weigh>
void Ramps::advance(std::int64_t tick, Weigh weigh) {
  if (!open_.empty()) open_.clear();  // (their kNow changes are weighed now; clear() of an empty map still wipes its buckets)
  while (!changes_.empty() && changes_.top().tick <= tick) {
    const std::uint32_t id = changes_.top().group;
    changes_.pop();
    std::size_t n = 0;
    for (std::size_t k = 0; k < groups_[id].pos.size(); ++k) {
      const std::uint32_t i = groups_[id].pos[k], e = groups_[id].epoch[k];
      if (e != epoch_[i]) continue;  // restarted since: gone
      if (n > 0 && !same_ramp(groups_[id].pos[0], i)) {
        const std::uint32_t alone = new_group();  // (groups_ may move: looked up by index)
        groups_[alone].pos.push_back(i);
        groups_[alone].epoch.push_back(e);
        changes_.push(Change{tick, alone});
        continue;
      }
      groups_[id].pos[n] = i;
      groups_[id].epoch[n] = e;
      ++n;
    }
    Group& g = groups_[id];
    g.pos.resize(n);
    g.epoch.resize(n);
    if (n == 0) {
      free_groups_.push_back(id);
      continue;
    }
    const std::uint32_t lead = g.pos[0];
    const std::int64_t w = curve_at(lead, tick);
    for (const std::uint32_t i : g.pos) curve_[i] = w;
    meter_.add(static_cast<double>(n));
    weigh(static_cast<const std::uint32_t*>(g.pos.data()), n);
    const std::int64_t end = joined_ms_[lead] + window_s_[lead] * 1000;  // full weight from here on
    if (tick >= end) {
      g.pos.clear();
      g.epoch.clear();
      free_groups_.push_back(id);
      continue;
    }
    changes_.push(Change{next_change(lead, tick, w, n), id});
  }
}

}  // namespace slowstart
