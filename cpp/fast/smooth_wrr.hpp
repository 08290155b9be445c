// Smooth weighted round-robin (nginx's order, the SPEC's pick), exact and
// fast at any pool size.
//
// smooth_pick (pick.hpp) is one pass over the pool per pick: O(n). This
// class gives the very same winners and leaves the very same scores, pick
// for pick, with a pick that costs O(number of distinct weights) or less:
//
//  - With K the number of picks counted so far, a participant's score is
//    kept as base + K * weight. A pick adds every participant's weight to
//    its score just by counting K up by one.
//  - Participants of equal weight keep their order by score (by base, then
//    by pool position) however K grows. So each weight class keeps its
//    members in that order, best first, and a pick only compares the tops of
//    the classes; the winner then drops by the total weight (base -= total)
//    and re-enters its class lower down. Usually that is the class's end (a
//    queue: O(1)); anyone out of order waits in a small heap beside it.
//  - The tops of up to kScanClasses classes are compared one by one. With
//    more classes than that, a pool of up to kPassBackends backends is
//    picked from by the oracle's own pass (cheaper there than any tree; the
//    classes' order is put right when a pick needs it again), and a larger
//    one keeps its class tops in a kinetic tournament
//    (class_tournament.hpp): O(log classes) per pick.
//  - Small pools (below kIndexFrom backends) use the oracle's pass itself
//    (pick(); pick_many() runs pass_by_branch below), which is fastest
//    there. K stays 0 and base is the score.
//  - K * weight must stay inside 64 bits: before K reaches 2^61 / (largest
//    weight), every base absorbs its K * weight and K restarts at 0.
//
// score(i) and weight(i) are the true current values, O(1), whatever the
// mode. Custom rules (rules.hpp) use the plain arrays with no index at all.
//
// Why this is exact (order, 64-bit bound, certificate rounding, modes):
// WHY_EXACT.md beside this file.
#pragma once
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "fast/class_tournament.hpp"
#include "fast/cold.hpp"
#include "spec/pick.hpp"
#include "fast/weight_slots.hpp"

namespace slowstart {

// smooth_pick's pass (spec/pick.hpp, the oracle) for runs of picks on the
// same weights (pick_many), its leader kept by a branch marked as rarely
// taken: the same winner and scores. Runs of picks repeat their leader
// pattern, which the CPU's branch predictor learns; the oracle's plain `if`
// becomes two selects in WebAssembly (clang), each leader waiting for the
// one before, and pickMany on 3 backends took 1.5 times as long with it
// (performance log PL-13). Natively g++ makes the same conditional moves of
// both. One pick between other work (pick()) uses the oracle itself: there
// the selects are what is fastest (PL-8, PL-13).
inline std::int32_t pass_by_branch(const std::int64_t* weights, std::int64_t* scores, std::size_t n) {
  std::int32_t best = kNone;
  std::int64_t best_score = INT64_MIN;
  std::int64_t total = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const std::int64_t w = weights[i];
    if (w <= 0) continue;
    const std::int64_t s = scores[i] + w;
    scores[i] = s;
    total += w;
    if (__builtin_expect(s > best_score, 0)) {  // (strictly: a tie stays with the earliest)
      best = static_cast<std::int32_t>(i);
      best_score = s;
    }
  }
  if (best != kNone) scores[best] -= total;
  return best;
}

class SmoothWrr {
 public:
  // Pools smaller than this are picked from by one pass (performance log PL-4).
  static constexpr std::size_t kIndexFrom = 32;
  // Up to this many weight classes, a pick compares their tops one by one.
  static constexpr std::size_t kScanClasses = 32;
  // Up to this many, count_many compares them in an unrolled run (PL-28).
  static constexpr std::size_t kUnrolledClasses = 16;
  // Up to this many backends, many classes are picked from by one pass.
  static constexpr std::size_t kPassBackends = 128;

  // n backends, each with weight 0 and score 0.
  void reset(std::size_t n);
  // One more backend at the end, weight 0 and score 0.
  void push_back();
  std::size_t size() const { return weight_.size(); }

  // Changes a weight and keeps the score. A weight of 0 or less takes no
  // part in picks. Outside plain mode weights must be 0 ... 2^40.
  // (Unindexed, the common small pool, each is a store, inline; the index's
  // bookkeeping is out of line.)
  void set_weight(std::size_t i, std::int64_t weight) {
    if (!indexed_) weight_[i] = weight;
    else if (weight != weight_[i]) set_indexed_weight(i, weight);
  }
  // Sets n distinct backends' weights to `weight` (> 0) at once, keeping their
  // scores, when they are exactly the members of one weight class and no
  // class has that weight yet: the class is relabelled, its members' order
  // kept (WHY_EXACT section 6). Returns false, changing nothing, otherwise
  // (then set_weight each).
  bool set_class_weight(const std::uint32_t* xs, std::size_t n, std::int64_t weight);
  void set_score(std::size_t i, std::int64_t score) {
    if (!indexed_) base_[i] = score;  // (K is 0 unindexed: the base is the score)
    else set_indexed_score(i, score);
  }
  std::int64_t weight(std::size_t i) const { return weight_[i]; }
  std::int64_t score(std::size_t i) const { return base_[i] + picks_ * weight_[i]; }

  // One pick: the winner's index, or kNone (and nothing changes).
  SLOWSTART_HOT std::int32_t pick() {
    return indexed_ ? pick_indexed() : smooth_pick(weight_.data(), base_.data(), weight_.size());
  }
  void pick_many(std::size_t n, std::int32_t* out);
  // n picks counted instead of listed: ++counts[ids[winner]] for each pick
  // with a winner; returns how many had none (kNone). The same picks, in the
  // same order, leaving the same scores as pick_many (the Traffic lab keeps
  // only how many requests each backend got per bucket).
  std::uint64_t count_many(std::uint64_t n, const std::uint32_t* ids, std::uint32_t* counts);

  // Plain mode: no index, the weights and scores as two flat arrays, for
  // rules other than the SPEC's to read and write (scores are exact there).
  void set_plain(bool plain);
  const std::int64_t* plain_weights() const { return weight_.data(); }
  std::int64_t* plain_scores() { return base_.data(); }

  // For tests: whether the index is in use, how many weight classes it has,
  // whether their tops are in a tournament; a smaller rebase interval.
  // (A pool grows only through push_back, so the tournament needs no check
  // there: it is first built when a class changes.)
  bool indexed() const { return indexed_; }
  std::size_t classes() const { return tops_.size(); }
  bool tournament() const { return tree_.active(); }
  void set_rebase_interval(std::int64_t picks);

 private:
  static constexpr std::uint32_t kNil = ClassTournament::kEmpty;
  static constexpr std::uint32_t kInQueue = kNil;

  // (Everything off the pick's own path is kept out of line: the WebAssembly
  // engine module has a size budget, and inlining it everywhere buys nothing.)

  // A class's members: a queue (linked through next_/prev_) ordered best
  // first, and a binary heap (best on top) for those that arrived out of order.
  struct Members {
    std::uint32_t head = kNil, tail = kNil, count = 0;
    std::vector<std::uint32_t> heap;
  };

  std::int32_t pick_indexed();
  template <class Take>
  void run_picks(std::uint64_t n, Take take);
  SLOWSTART_COLD void set_indexed_weight(std::size_t i, std::int64_t weight);
  SLOWSTART_COLD void set_indexed_score(std::size_t i, std::int64_t score);
  SLOWSTART_COLD void prepare();
  SLOWSTART_COLD void reorder();
  SLOWSTART_COLD void reserve_sort_room();
  std::uint32_t move_winner(std::uint32_t c);
  SLOWSTART_COLD void update_mode();
  SLOWSTART_COLD void build_index();
  SLOWSTART_COLD void drop_index();
  SLOWSTART_COLD void rebase();
  void update_rebase_point();

  // a before b in their class: higher score, then earlier in the pool.
  [[gnu::always_inline]] bool before(std::uint32_t a, std::uint32_t b) const {
    return base_[a] > base_[b] || (base_[a] == base_[b] && a < b);
  }
  std::uint32_t scan(std::int64_t k) const;
  // count_many's picks by scan, with the number of classes D a constant,
  // and a ring class's streaks of picks taken with no scan (WHY_EXACT 5).
  template <std::size_t D>
  std::uint64_t count_by_scan(std::uint64_t n, const std::uint32_t* ids, std::uint32_t* counts);
  void turn_queue(Members& m, std::uint32_t x);
  std::size_t hot_first();
  void swap_slots(std::uint32_t a, std::uint32_t b);
  template <std::size_t... D>
  std::uint64_t count_by_scan_of(std::size_t classes, std::uint64_t n, const std::uint32_t* ids, std::uint32_t* counts,
                                 std::index_sequence<D...>);
  [[gnu::noinline]] std::int32_t pick_by_pass();
  bool want_tree() const { return tops_.size() > kScanClasses && weight_.size() > kPassBackends; }
  SLOWSTART_COLD void add_member(std::uint32_t i);
  SLOWSTART_COLD void remove_member(std::uint32_t i);
  void enter(std::uint32_t c, std::uint32_t x);
  void leave(std::uint32_t c, std::uint32_t x);
  void refresh_top(std::uint32_t c);
  SLOWSTART_COLD void refresh_tops();
  SLOWSTART_COLD void class_changed(std::uint32_t c);
  SLOWSTART_COLD void flush_tree();
  SLOWSTART_COLD void heap_push(Members& m, std::uint32_t x);
  SLOWSTART_COLD void heap_erase(Members& m, std::uint32_t pos);
  SLOWSTART_COLD void heap_up(Members& m, std::uint32_t pos);
  SLOWSTART_COLD void heap_down(Members& m, std::uint32_t pos);
  void heap_place(Members& m, std::uint32_t pos, std::uint32_t x) {
    m.heap[pos] = x;
    hpos_[x] = pos;
  }

  // Per backend.
  std::vector<std::int64_t> weight_;
  std::vector<std::int64_t> base_;       // score - picks_ * weight
  std::vector<std::uint32_t> next_, prev_, hpos_;  // indexed mode only
  std::vector<std::uint32_t> sort_room_;  // reorder()'s room, one pool's worth
  // Per weight class (slot), indexed mode only.
  std::vector<ClassTop> tops_;
  std::vector<Members> members_;
  WeightSlots slot_of_;  // weight -> slot
  ClassTournament tree_;
  // Slots whose top changed since the tree last saw them: a NOW that moves
  // many backends replays the tree once, before the next pick.
  std::vector<std::uint32_t> dirty_;
  std::vector<std::uint8_t> is_dirty_;
  bool rebuild_ = false;

  std::int64_t picks_ = 0;     // K
  std::int64_t total_ = 0;     // sum of the participants' weights (indexed mode)
  std::int64_t max_weight_ = 1;
  std::int64_t rebase_interval_ = INT64_MAX;  // for tests
  std::int64_t rebase_at_ = 0;
  bool plain_ = false;
  bool indexed_ = false;
  bool order_stale_ = false;  // classes' order after picks by pass
  bool tops_stale_ = false;   // ClassTop after picks by pass or a reorder
};

}  // namespace slowstart
