// The balancing policies other than the weighted ones (wrr and
// least-request pick through the engine's SmoothWrr, in the event loop):
// one function each, over the candidates the loop gives (available, not yet
// tried, positions ascending), and the skip decorator. How each applies the
// ramp is names.hpp's RampBy; docs/WHY-SLOW-START.md section 8 says where
// each comes from (Caddy's policies and the proposal to ramp them).
#pragma once
#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "core/split_mix64.hpp"
#include "spec/pick.hpp"

namespace slowstart {

// A uniform number in [0, 1) from 53 random bits.
inline double uniform(SplitMix64& rng) { return static_cast<double>(rng.next() >> 11) * 0x1.0p-53; }

// The skip decorator (the proposal review's): before a pick each warming
// candidate is left out with probability 1 - ramp, never the only one.
// `ramp(i)`: how far into its ramp position i is (1: not ramping).
template <typename Ramp>
void skip_warming(std::vector<std::uint32_t>& candidates, Ramp ramp, SplitMix64& rng) {
  if (candidates.size() <= 1) return;
  std::size_t kept = 0;
  for (const std::uint32_t i : candidates) {
    const double r = ramp(i);
    if (r >= 1.0 || uniform(rng) < r) candidates[kept++] = i;
  }
  candidates.resize(kept);
}

// Weighted random (Caddy's random, weighted): probability weight / total.
template <typename Weight>
std::int32_t pick_random(const std::vector<std::uint32_t>& candidates, Weight weight, SplitMix64& rng) {
  double total = 0;
  for (const std::uint32_t i : candidates) total += weight(i);
  if (!(total > 0)) return kNone;
  double u = uniform(rng) * total;
  for (const std::uint32_t i : candidates) {
    u -= weight(i);
    if (u < 0) return static_cast<std::int32_t>(i);
  }
  return static_cast<std::int32_t>(candidates.back());
}

// Two distinct candidates at random, the lower score wins (Caddy's
// random_choose 2). `score(i)`: lower is better (active requests, divided by
// the ramp when scaling).
template <typename Score>
std::int32_t pick_p2c(const std::vector<std::uint32_t>& candidates, Score score, SplitMix64& rng) {
  if (candidates.size() == 1) return static_cast<std::int32_t>(candidates[0]);
  const auto a = static_cast<std::size_t>(rng.below(candidates.size()));
  auto b = static_cast<std::size_t>(rng.below(candidates.size() - 1));
  if (b >= a) ++b;
  return static_cast<std::int32_t>(score(candidates[b]) < score(candidates[a]) ? candidates[b] : candidates[a]);
}

// The lowest score, ties at random (Caddy's least_conn: no weights).
template <typename Score>
std::int32_t pick_least_conn(const std::vector<std::uint32_t>& candidates, Score score, SplitMix64& rng) {
  std::int32_t best = kNone;
  double low = 0;
  std::uint64_t ties = 0;
  for (const std::uint32_t i : candidates) {
    const double s = score(i);
    if (best == kNone || s < low) {
      best = static_cast<std::int32_t>(i), low = s, ties = 1;
    } else if (s == low && rng.below(++ties) == 0) {
      best = static_cast<std::int32_t>(i);
    }
  }
  return best;
}

// Caddy's round_robin loop: the next position after the last one (`robin`,
// kept between picks) that is a candidate wins. Scaling (the proposal)
// skips a warming candidate with probability 1 - ramp, unless it is the
// only one. `n`: the pool's size.
template <typename Ramp>
std::int32_t pick_round_robin(std::size_t n, const std::vector<std::uint32_t>& candidates, std::size_t& robin,
                              bool scale, Ramp ramp, SplitMix64& rng) {
  const bool only = candidates.size() == 1;
  for (std::size_t k = 0; k < n; ++k) {
    robin = (robin + 1) % n;
    if (!std::binary_search(candidates.begin(), candidates.end(), static_cast<std::uint32_t>(robin))) continue;
    if (scale && !only) {
      const double r = ramp(robin);
      if (r < 1.0 && !(uniform(rng) < r)) continue;
    }
    return static_cast<std::int32_t>(robin);
  }
  return kNone;
}

}  // namespace slowstart
