// Which weight class's top wins a pick, when there are many classes: a
// kinetic tournament (Basch, Guibas and Hershberger's kinetic data
// structures) over the class tops.
//
// A class top's score after k picks is the line base + k * weight. Each
// internal node of a complete binary tree over class slots holds the winner
// of its two children at the current k, and the first k at which that can
// change (its certificate): never, when the winner has the larger weight
// (classes have distinct weights, so one line grows faster), or when the
// loser's line crosses the winner's. A pick only re-plays the nodes whose
// certificate has expired, and the path above the class whose top changed:
// O(log D) per pick for D classes, instead of comparing all D tops.
//
// Ties follow the SPEC: equal scores go to the backend earliest in the pool.
//
// Why this is exact (order, 64-bit bound, certificate rounding, modes):
// WHY_EXACT.md beside this file.
#pragma once
#include <cstdint>
#include <limits>
#include <vector>

#include "fast/cold.hpp"

namespace slowstart {

// The top of one weight class: its best member (a pool index) and that
// member's base, so that its score after k picks is base + k * weight.
struct ClassTop {
  std::int64_t base;
  std::int64_t weight;
  std::uint32_t top;
};

class ClassTournament {
 public:
  static constexpr std::uint32_t kEmpty = std::numeric_limits<std::uint32_t>::max();
  static constexpr std::int64_t kNever = std::numeric_limits<std::int64_t>::max();

  bool active() const { return leaves_ != 0; }
  void clear() {
    leaves_ = 0;  // the next build starts small again
    win_.clear();
    expires_.clear();
  }

  // Builds the tree over slots [0, count) of `tops` at pick count k, in the
  // space it has when that is enough (so a rebuild does not allocate).
  SLOWSTART_COLD void build(const std::vector<ClassTop>& tops, std::uint32_t count, std::int64_t k) {
    std::uint32_t leaves = 2;
    if (count <= leaves_) leaves = leaves_;
    else while (leaves < count * 2) leaves *= 2;  // room to grow before the next one
    leaves_ = leaves;
    win_.assign(2 * static_cast<std::size_t>(leaves), kEmpty);
    expires_.assign(2 * static_cast<std::size_t>(leaves), kNever);
    for (std::uint32_t s = 0; s < count; ++s) win_[leaves + s] = s;
    for (std::uint32_t node = leaves - 1; node >= 1; --node) replay(node, tops, k);
  }

  // Slots this tree can hold without a rebuild.
  std::uint32_t capacity() const { return leaves_; }

  // Slot `slot` now holds `live` (false: no class) or its top changed.
  void update(std::uint32_t slot, bool live, const std::vector<ClassTop>& tops, std::int64_t k) {
    std::uint32_t node = leaves_ + slot;
    win_[node] = live ? slot : kEmpty;
    for (node /= 2; node >= 1; node /= 2) replay(node, tops, k);
  }

  // The winning slot at pick count k (k never goes down between builds).
  std::uint32_t winner(const std::vector<ClassTop>& tops, std::int64_t k) {
    if (expires_[1] <= k) refresh(1, tops, k);
    return win_[1];
  }

 private:
  // Re-plays every expired node under `node`, children first.
  [[gnu::noinline]] void refresh(std::uint32_t node, const std::vector<ClassTop>& tops, std::int64_t k) {
    if (node >= leaves_ || expires_[node] > k) return;
    refresh(2 * node, tops, k);
    refresh(2 * node + 1, tops, k);
    replay(node, tops, k);
  }

  // The match at `node` between its children's winners, at pick count k.
  [[gnu::noinline]] void replay(std::uint32_t node, const std::vector<ClassTop>& tops, std::int64_t k) {
    const std::uint32_t a = win_[2 * node], b = win_[2 * node + 1];
    const std::int64_t below = expires_[2 * node] < expires_[2 * node + 1] ? expires_[2 * node]
                                                                          : expires_[2 * node + 1];
    if (a == kEmpty || b == kEmpty) {
      win_[node] = a == kEmpty ? b : a;
      expires_[node] = below;
      return;
    }
    const ClassTop& ta = tops[a];
    const ClassTop& tb = tops[b];
    const std::int64_t va = ta.base + k * ta.weight, vb = tb.base + k * tb.weight;
    const bool a_wins = va > vb || (va == vb && ta.top < tb.top);
    const ClassTop& w = a_wins ? ta : tb;
    const ClassTop& l = a_wins ? tb : ta;
    win_[node] = a_wins ? a : b;
    std::int64_t expires = kNever;
    if (l.weight > w.weight) {
      // The loser gains `gain` per pick on a lead of `lead`: it takes over
      // once the lead is gone (at a tie, if it is earlier in the pool).
      const std::int64_t lead = a_wins ? va - vb : vb - va;
      const std::int64_t gain = l.weight - w.weight;
      const std::int64_t picks = l.top < w.top ? (lead + gain - 1) / gain : lead / gain + 1;
      expires = picks > kNever - k ? kNever : k + picks;
    }
    expires_[node] = expires < below ? expires : below;
  }

  std::uint32_t leaves_ = 0;
  std::vector<std::uint32_t> win_;      // per node: the winning slot, or kEmpty
  std::vector<std::int64_t> expires_;   // per node: min over its subtree of when a winner changes
};

}  // namespace slowstart
