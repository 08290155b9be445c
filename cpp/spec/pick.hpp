// Smooth weighted round-robin (nginx's scheduler) over effective weights.
#pragma once
#include <cstddef>
#include <climits>
#include <cstdint>

namespace slowstart {

inline constexpr std::int32_t kNone = -1;

// How the pass keeps its leader. Natively g++ emits the same conditional
// moves for both; in WebAssembly (V8) they differ, and which is faster
// depends on what runs between two picks (docs/PERFORMANCE.md):
//  - Branch: a branch, rarely taken once the scan is under way. Fastest
//    for runs of picks on the same weights (pick_many), whose leader
//    pattern repeats and is learnt by the CPU's branch predictor (a select
//    there is 1.4-1.6x slower: each leader waits for the one before).
//  - Select: no branch. Fastest for a pick between other work (the
//    interpreter's PICK lines among other lines, one Balancer.pick()),
//    where the pattern is not learnt: 9 % of a mixed script's time.
enum class Leader { Branch, Select };

// One pick over n backends in pool order. weights[i] is backend i's effective
// weight (0 for DOWN or still at the bottom of its ramp); scores[i] is its
// long-lived smooth-WRR score. Backends with weight 0 do not take part and
// their scores are untouched. Returns the winner's index, or kNone (and
// changes nothing) when no backend takes part.
//
// Allocation-free and branch-light: this is the loop every simulated request
// runs through.
template <Leader leader = Leader::Branch>
inline std::int32_t smooth_pick(const std::int64_t* weights,
                                std::int64_t* scores, std::size_t n) {
  std::int32_t best = kNone;
  // Below any reachable score, so the first participant always takes it.
  std::int64_t best_score = INT64_MIN;
  std::int64_t total = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const std::int64_t w = weights[i];
    if (w <= 0) continue;
    const std::int64_t s = scores[i] + w;
    scores[i] = s;
    total += w;
    // Strictly greater: a tie stays with the earliest backend in the pool.
    if constexpr (leader == Leader::Branch) {
      if (__builtin_expect(s > best_score, 0)) {
        best = static_cast<std::int32_t>(i);
        best_score = s;
      }
    } else {
#if defined(__wasm__)
      // The same test written twice, the second as s >= best_score + 1, so
      // that no compiler merges them: V8 fuses a compare into its select
      // (cmp, cmov) only when the select is the compare's one use; shared,
      // the compare is kept as a 0/1 (setl) and each select tests it again,
      // two steps more on the leader's chain (docs/PERFORMANCE.md). The two
      // differ only when best_score is INT64_MAX, which a score reaches
      // only at the edge of overflowing in scores[i] + w above.
      const auto above = static_cast<std::int64_t>(static_cast<std::uint64_t>(best_score) + 1u);
      best = s >= above ? static_cast<std::int32_t>(i) : best;
      best_score = s > best_score ? s : best_score;
#else
      const bool ahead = s > best_score;
      best = ahead ? static_cast<std::int32_t>(i) : best;
      best_score = ahead ? s : best_score;
#endif
    }
  }
  if (best != kNone) scores[best] -= total;
  return best;
}

}  // namespace slowstart
