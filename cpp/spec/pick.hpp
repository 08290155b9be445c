// Smooth weighted round-robin: nginx's scheduler
// (ngx_http_upstream_get_peer, ngx_http_upstream_round_robin.c) over
// effective weights, as the SPEC says it. The oracle every faster pick is
// tested against; kept plain on purpose (docs/PERFORMANCE.md, "The rule for tricks").
#pragma once
#include <cstddef>
#include <climits>
#include <cstdint>

namespace slowstart {

inline constexpr std::int32_t kNone = -1;

// One pick over n backends in pool order. weights[i] is backend i's effective
// weight (0 for DOWN or still at the bottom of its ramp); scores[i] is its
// long-lived smooth-WRR score (nginx's current_weight). Backends with weight
// 0 do not take part and their scores are untouched. Returns the winner's
// index, or kNone (and changes nothing) when no backend takes part.
inline std::int32_t smooth_pick(const std::int64_t* weights, std::int64_t* scores, std::size_t n) {
  std::int32_t best = kNone;
  std::int64_t best_score = INT64_MIN;  // below any reachable score
  std::int64_t total = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const std::int64_t w = weights[i];
    if (w <= 0) continue;
    scores[i] += w;
    total += w;
    // Strictly greater: a tie stays with the earliest backend in the pool.
    if (scores[i] > best_score) {
      best = static_cast<std::int32_t>(i);
      best_score = scores[i];
    }
  }
  if (best != kNone) scores[best] -= total;
  return best;
}

}  // namespace slowstart
