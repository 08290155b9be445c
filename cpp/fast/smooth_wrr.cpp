#include "fast/smooth_wrr.hpp"

#include <algorithm>

namespace slowstart {

namespace {
// K * weight stays below 2^61, so base = score - K * weight and every score
// compared (a few times the total weight at most) stay inside 64 bits.
constexpr std::int64_t kProductBudget = std::int64_t{1} << 61;
constexpr std::int64_t positive(std::int64_t w) { return w > 0 ? w : 0; }
}  // namespace

void SmoothWrr::reset(std::size_t n) {
  drop_index();
  weight_.assign(n, 0);
  base_.assign(n, 0);
  update_mode();
}

void SmoothWrr::push_back() {
  weight_.push_back(0);
  base_.push_back(0);
  if (indexed_) {
    next_.push_back(kNil);
    prev_.push_back(kNil);
    hpos_.push_back(kInQueue);
    reserve_sort_room();
  } else {
    update_mode();
  }
}

void SmoothWrr::set_plain(bool plain) {
  plain_ = plain;
  update_mode();
}

void SmoothWrr::set_rebase_interval(std::int64_t picks) {
  rebase_interval_ = picks < 1 ? 1 : picks;
  update_rebase_point();
  if (picks_ >= rebase_at_) rebase();
}

void SmoothWrr::update_mode() {
  const bool want = !plain_ && weight_.size() >= kIndexFrom;
  if (want == indexed_) return;
  if (want) build_index();
  else drop_index();
}

void SmoothWrr::update_rebase_point() {
  rebase_at_ = std::min(rebase_interval_, kProductBudget / max_weight_);
}

void SmoothWrr::build_index() {
  // Unindexed, K is 0 and every base is a score.
  const std::size_t n = weight_.size();
  indexed_ = true;
  next_.assign(n, kNil);
  prev_.assign(n, kNil);
  hpos_.assign(n, kInQueue);
  reserve_sort_room();
  total_ = 0;
  max_weight_ = 1;
  for (std::size_t i = 0; i < n; ++i) max_weight_ = std::max(max_weight_, weight_[i]);
  update_rebase_point();
  for (std::uint32_t i = 0; i < n; ++i) {
    if (weight_[i] <= 0) continue;
    total_ += weight_[i];
    add_member(i);
  }
}

void SmoothWrr::drop_index() {
  if (!indexed_) return;
  rebase();  // every base becomes the score again
  indexed_ = false;
  tops_.clear();
  members_.clear();
  slot_of_.clear();
  tree_.clear();
  order_stale_ = tops_stale_ = false;
  dirty_.clear();
  is_dirty_.clear();
  rebuild_ = false;
  next_.clear();
  prev_.clear();
  hpos_.clear();
  sort_room_.clear();
  sort_room_.shrink_to_fit();
  total_ = 0;
}

// reorder() sorts a class in sort_room_, which has room for the whole pool
// (no class is larger), so that a pick that reorders does not allocate.
void SmoothWrr::reserve_sort_room() {
  if (sort_room_.capacity() < weight_.size()) sort_room_.reserve(2 * weight_.size());
}

void SmoothWrr::rebase() {
  if (picks_ != 0) {
    for (std::size_t i = 0; i < weight_.size(); ++i) base_[i] += picks_ * positive(weight_[i]);
    picks_ = 0;
  }
  for (ClassTop& t : tops_) t.base = base_[t.top];
  if (tree_.active()) rebuild_ = true;  // its expiry times count picks from the old K
}

void SmoothWrr::set_indexed_weight(std::size_t i, std::int64_t weight) {
  const std::int64_t old = weight_[i];
  if (weight > max_weight_) {
    max_weight_ = weight;
    update_rebase_point();
    if (picks_ >= rebase_at_) rebase();
  }
  const auto x = static_cast<std::uint32_t>(i);
  const std::int64_t score = base_[x] + picks_ * positive(old);
  if (old > 0) remove_member(x);
  weight_[x] = weight;
  total_ += positive(weight) - positive(old);
  base_[x] = score - picks_ * positive(weight);
  if (weight > 0) add_member(x);
}

bool SmoothWrr::set_class_weight(const std::uint32_t* xs, std::size_t n, std::int64_t weight) {
  if (!indexed_ || n == 0 || weight <= 0) return false;
  const std::int64_t old = weight_[xs[0]];
  if (old <= 0 || old == weight || slot_of_.find(weight) != WeightSlots::kMissing) return false;
  const std::uint32_t c = slot_of_.find(old);
  if (members_[c].count != n) return false;
  for (std::size_t k = 1; k < n; ++k)
    if (weight_[xs[k]] != old) return false;
  // n distinct members of class c, which has n: all of them.
  if (weight > max_weight_) {
    max_weight_ = weight;
    update_rebase_point();
    if (picks_ >= rebase_at_) rebase();
  }
  // Each keeps its score: base + K * old = base' + K * weight. The same shift
  // for all keeps their order (WHY_EXACT section 1), so the queue and the heap stand.
  const std::int64_t shift = picks_ * (weight - old);
  for (std::size_t k = 0; k < n; ++k) {
    base_[xs[k]] -= shift;
    weight_[xs[k]] = weight;
  }
  total_ += static_cast<std::int64_t>(n) * (weight - old);
  slot_of_.erase(old);
  slot_of_.set(weight, c);
  tops_[c].weight = weight;
  refresh_top(c);
  class_changed(c);
  return true;
}

void SmoothWrr::set_indexed_score(std::size_t i, std::int64_t score) {
  const auto x = static_cast<std::uint32_t>(i);
  if (weight_[x] <= 0) {
    base_[x] = score - picks_ * positive(weight_[x]);
    return;
  }
  remove_member(x);
  base_[x] = score - picks_ * weight_[x];
  add_member(x);
}

std::uint32_t SmoothWrr::scan(std::int64_t k) const {
  const ClassTop* t = tops_.data();
  const std::size_t d = tops_.size();
  std::uint32_t best = 0;
  std::int64_t best_score = t[0].base + k * t[0].weight;
  std::uint32_t best_top = t[0].top;
  for (std::uint32_t c = 1; c < d; ++c) {
    const std::int64_t s = t[c].base + k * t[c].weight;
    // Strictly greater, or equal and earlier in the pool (the SPEC's tie).
    if (s > best_score || (s == best_score && t[c].top < best_top)) {
      best = c;
      best_score = s;
      best_top = t[c].top;
    }
  }
  return best;
}

std::int32_t SmoothWrr::pick_by_pass() {
  // With K at 0 every base is the score: smooth_pick's own pass, nothing
  // more. The classes keep who is in them; their order (and so their tops)
  // is put right only when a pick needs it again (reorder()).
  if (picks_ != 0) rebase();
  order_stale_ = true;
  return pass_by_branch(weight_.data(), base_.data(), weight_.size());
}

// Every class's members in order again after picks by pass: a small pool
// (these picks only happen below kPassBackends), so insertion sort, in
// sort_room_ (room for the whole pool, reserved with the index: no allocation).
void SmoothWrr::reorder() {
  for (std::uint32_t c = 0; c < members_.size(); ++c) {
    Members& m = members_[c];
    sort_room_.clear();
    for (std::uint32_t x = m.head; x != kNil; x = next_[x]) sort_room_.push_back(x);
    sort_room_.insert(sort_room_.end(), m.heap.begin(), m.heap.end());
    for (std::size_t i = 1; i < sort_room_.size(); ++i)
      for (std::size_t j = i; j > 0 && before(sort_room_[j], sort_room_[j - 1]); --j) std::swap(sort_room_[j], sort_room_[j - 1]);
    m.heap.clear();
    m.head = m.tail = kNil;
    m.count = 0;
    for (std::uint32_t x : sort_room_) enter(c, x);  // each after the last: a queue
  }
  order_stale_ = false;
  tops_stale_ = true;
}

// Everything a pick of the index needs in order first: fresh class tops,
// room before the next rebase, the tournament up to date.
void SmoothWrr::prepare() {
  if (order_stale_) reorder();
  if (tops_stale_) refresh_tops();
  if (picks_ >= rebase_at_) rebase();
  if (rebuild_ || !dirty_.empty()) flush_tree();
}

// The top of class c wins: its score drops by the total and it re-enters
// its class lower down. Returns it.
inline std::uint32_t SmoothWrr::move_winner(std::uint32_t c) {
  const std::uint32_t x = tops_[c].top;
  base_[x] -= total_;  // the winner's score -= the total
  Members& m = members_[c];
  const std::uint32_t next = next_[x];
  if (m.head == x && hpos_[x] == kInQueue && next != kNil && before(m.tail, x)) {
    // The usual case: from the head of its class's queue to the end.
    m.head = next;
    prev_[next] = kNil;
    prev_[x] = m.tail;
    next_[x] = kNil;
    next_[m.tail] = x;
    m.tail = x;
  } else if (m.count > 1) {
    leave(c, x);  // (neither needs x's own base)
    enter(c, x);
  }
  refresh_top(c);
  return x;
}

std::int32_t SmoothWrr::pick_indexed() {
  if (tops_.empty()) return kNone;
  if (!tree_.active() && tops_.size() > kScanClasses) return pick_by_pass();
  prepare();
  const std::int64_t k = ++picks_;  // every participant's score += its weight
  const std::uint32_t c = tree_.active() ? tree_.winner(tops_, k) : scan(k);
  const std::uint32_t x = move_winner(c);
  if (tree_.active()) tree_.update(c, true, tops_, k);
  return static_cast<std::int32_t>(x);
}

// pick_many and count_many: the same picks, each handed to `take` (the
// winner's index, or kNone). n is 64-bit so that a run's length is never cut
// by WebAssembly's 32-bit size_t.
template <class Take>
inline void SmoothWrr::run_picks(std::uint64_t n, Take take) {
  if (!indexed_) {
    const std::int64_t* w = weight_.data();
    std::int64_t* s = base_.data();
    const std::size_t size = weight_.size();
    for (std::uint64_t k = 0; k < n; ++k) take(pass_by_branch(w, s, size));
    return;
  }
  std::uint64_t done = 0;
  if (!tree_.active() && tops_.size() > kScanClasses) {
    // Picks by pass (pick_by_pass), all of them at once.
    if (picks_ != 0) rebase();
    order_stale_ = true;
    const std::int64_t* w = weight_.data();
    std::int64_t* s = base_.data();
    const std::size_t size = weight_.size();
    for (; done < n; ++done) take(pass_by_branch(w, s, size));
    return;
  }
  while (done < n) {
    if (tops_.empty() || tree_.active() || tops_.size() > kScanClasses) {
      take(pick_indexed());
      ++done;
      continue;
    }
    // Runs of picks by scan, checked once per run (nothing changes between
    // them but K, which stops at the next rebase).
    prepare();
    // The picks left before the next rebase, compared as 64-bit numbers: the
    // room can be 2^61 (weights of 1), which a 32-bit size_t (WebAssembly)
    // would cut to 0, and a run of 0 picks would never end.
    const std::int64_t room = rebase_at_ - picks_;
    const std::uint64_t end = done + std::min<std::uint64_t>(n - done, static_cast<std::uint64_t>(room));
    for (; done < end; ++done) take(static_cast<std::int32_t>(move_winner(scan(++picks_))));
  }
}

void SmoothWrr::pick_many(std::size_t n, std::int32_t* out) {
  run_picks(n, [&out](std::int32_t p) { *out++ = p; });
}

std::uint64_t SmoothWrr::count_many(std::uint64_t n, const std::uint32_t* ids, std::uint32_t* counts) {
  // Picks by scan over a few classes (the Traffic lab's fleet: 7 to 14) are
  // run with the scan unrolled for their number of hot classes (hot_first:
  // the others stand as one line, PL-45); the loop's own counting and branch
  // were a third of the scan's instructions (PL-28). The same picks as
  // run_picks', in the same order (scan_unrolled is scan).
  const std::size_t d = tops_.size();
  if (indexed_ && d >= 1 && d <= kUnrolledClasses && !tree_.active())
    return count_by_scan_of(hot_first(), n, ids, counts, std::make_index_sequence<kUnrolledClasses>{});
  std::uint64_t none = 0;
  run_picks(n, [&](std::int32_t p) {
    if (p == kNone) ++none;
    else ++counts[ids[p]];
  });
  return none;
}

namespace {
// scan() with D classes, unrolled: the best of the class tops at K = k,
// strictly greater, or equal and earlier in the pool (the SPEC's tie).
template <std::size_t D>
[[gnu::always_inline]] inline std::uint32_t scan_unrolled(const ClassTop* t, std::int64_t k, std::int64_t& best_of) {
  std::uint32_t best = 0;
  std::int64_t best_score = t[0].base + k * t[0].weight;
  std::uint32_t best_top = t[0].top;
  [&]<std::size_t... C>(std::index_sequence<C...>) {
    (
        [&] {
          constexpr std::size_t c = C + 1;
          const std::int64_t s = t[c].base + k * t[c].weight;
          if (s > best_score || (s == best_score && t[c].top < best_top)) {
            best = static_cast<std::uint32_t>(c);
            best_score = s;
            best_top = t[c].top;
          }
        }(),
        ...);
  }(std::make_index_sequence<D - 1>{});
  best_of = best_score;
  return best;
}

// The streak bound (WHY_EXACT section 5). After pick k, the top of class
// c (base b1) leads every other class's top at pick k + j (j = 1, 2, ...)
// by H(j) = min over d of (its lead at k + 1) - (j - 1) * (w_d - w_c); a
// later top of c with base bj leads by H(j) - (b1 - bj). H is a minimum of
// lines, so concave: between j = 1 and j = 1 + kSpan it is at least its
// chord, H(1) + (j - 1) * (H(1 + kSpan) - H(1)) / kSpan. c surely wins
// pick k + j while b1 - bj is below the chord (strictly: a tie is the
// scan's). `lead` is H(1) (0 when c cannot take the next pick surely, or
// when the figures are too large to scale), `slope` H(1 + kSpan) - H(1).
// The cold classes (count_many's classes past the hot ones, hot_first) as
// one line: base + k * slope is at least every cold class's top's score for
// k in [from, to] (the chord of their maximum, a convex function of k, over
// that window, its slope rounded up: WHY_EXACT section 5a). With no cold
// class, a line far below any score.
struct ColdLine {
  static constexpr std::int64_t kWindow = 512;
  std::int64_t base = -(std::int64_t{1} << 62), slope = 0, from = 0, to = INT64_MAX;
  std::int64_t at(std::int64_t k) const { return base + k * slope; }
};
ColdLine cold_line(const ClassTop* t, std::size_t hot, std::size_t classes, std::int64_t k0) {
  const std::int64_t kl = k0 + ColdLine::kWindow;
  std::int64_t m0 = INT64_MIN, ml = INT64_MIN;
  for (std::size_t c = hot; c < classes; ++c) {
    m0 = std::max(m0, t[c].base + k0 * t[c].weight);
    ml = std::max(ml, t[c].base + kl * t[c].weight);
  }
  ColdLine line;
  line.slope = (ml - m0 + ColdLine::kWindow - 1) / ColdLine::kWindow;  // (ml >= m0: weights are positive)
  line.base = m0 - k0 * line.slope;
  line.from = k0;
  line.to = kl;
  return line;
}

struct Streak {
  static constexpr std::int64_t kSpan = 128;
  static constexpr std::int64_t kLimit = std::int64_t{1} << 50;
  std::int64_t lead = 0, slope = 0;
};
// (The first D classes, the hot ones; the others, the cold, bounded by the
// line `cold`: at least each of their scores at k + 1 and k + 1 + kSpan.)
template <std::size_t D>
[[gnu::always_inline]] inline Streak streak_of(ClassTop* t, std::uint32_t c, std::int64_t b1, std::int64_t k,
                                               const ColdLine& cold) {
  // The other classes' best scores at k + 1 and k + 1 + kSpan, class c left
  // out by a base far below any score (put back by the caller's t[c] update).
  t[c].base = -(std::int64_t{1} << 62);
  const std::int64_t k1 = k + 1, kj = k + 1 + Streak::kSpan;
  std::int64_t m1 = std::max(cold.at(k1), t[0].base + k1 * t[0].weight);
  std::int64_t mj = std::max(cold.at(kj), t[0].base + kj * t[0].weight);
  [&]<std::size_t... C>(std::index_sequence<C...>) {
    (
        [&] {
          constexpr std::size_t d = C + 1;
          m1 = std::max(m1, t[d].base + k1 * t[d].weight);
          mj = std::max(mj, t[d].base + kj * t[d].weight);
        }(),
        ...);
  }(std::make_index_sequence<D - 1>{});
  const std::int64_t wc = t[c].weight;
  const std::int64_t h1 = b1 + k1 * wc - m1;
  const std::int64_t hj = b1 + kj * wc - mj;
  Streak s;
  if (h1 > 0 && h1 < Streak::kLimit && hj > -Streak::kLimit && hj < Streak::kLimit) {
    s.lead = h1;
    s.slope = hj - h1;
  }
  return s;
}
}  // namespace

template <std::size_t... D>
std::uint64_t SmoothWrr::count_by_scan_of(std::size_t classes, std::uint64_t n, const std::uint32_t* ids,
                                          std::uint32_t* counts, std::index_sequence<D...>) {
  // Through a table, not a direct call each: Binaryen's -O3 (the WebAssembly
  // link) inlines a function called from one place whatever its size or
  // `noinline`, which put all 16 back into count_many (PL-34).
  using Count = std::uint64_t (SmoothWrr::*)(std::uint64_t, const std::uint32_t*, std::uint32_t*);
  static constexpr Count kCounts[] = {&SmoothWrr::count_by_scan<D + 1>...};
  return (this->*kCounts[classes - 1])(n, ids, counts);
}

// run_picks' runs by scan (the class count fixed: nothing but K changes
// between the picks of a run).
//
// A class whose members all wait in its queue (no heap) and whose head,
// lowered by the total, still comes after its tail (a "ring") serves its
// members in queue order, lap after lap (WHY_EXACT section 1): every pick
// of it is move_winner's usual case, head to tail. Such a class is walked
// instead (the winner lowered, the next in the queue, or the head again
// after the tail, its top), and its queue turned once at the end of the run
// so that it starts at its top, as move_winner's moves would have left it.
// (The condition holds after each pick: the lowered winner comes after the
// new tail because it came before the new head.)
//
// Each D its own function, not inlined into count_many: inlined, the 16 made
// (with the simulation's loop) one 21.6 KB WebAssembly function that V8 took
// 0.5-3.7 s to optimise in the background, the page running Liftoff's code
// (about 1.9x slower) meanwhile (PL-34).
template <std::size_t D>
[[gnu::noinline]] std::uint64_t SmoothWrr::count_by_scan(std::uint64_t n, const std::uint32_t* ids, std::uint32_t* counts) {
  std::uint64_t done = 0;
  while (done < n) {
    prepare();
    const std::int64_t room = rebase_at_ - picks_;  // (64-bit: see run_picks)
    const std::uint64_t end = done + std::min<std::uint64_t>(n - done, static_cast<std::uint64_t>(room));
    ClassTop* t = tops_.data();
    // D hot classes first, then the cold ones (hot_first), bounded by one line.
    const std::size_t classes = tops_.size();
    const bool has_cold = classes > D;
    ColdLine cold;
    const auto cold_from = [&](std::int64_t k) {
      if (has_cold) cold = cold_line(t, D, classes, k);
    };
    cold_from(picks_ + 1);
    std::uint32_t rings = 0;  // bit c: class c is walked as a ring
    std::uint32_t head[D];
    const auto is_ring = [this](const Members& m) {
      if (!m.heap.empty() || m.head == kNil) return false;
      const std::int64_t lowered = base_[m.head] - total_;
      return base_[m.tail] > lowered || (base_[m.tail] == lowered && m.tail < m.head) || m.count == 1;
    };
    for (std::uint32_t c = 0; c < D; ++c) {
      const Members& m = members_[c];
      head[c] = m.head;
      if (is_ring(m)) rings |= 1u << c;
    }
    const std::int64_t total = total_;
    std::int64_t* base = base_.data();
    const std::uint32_t* next = next_.data();
    for (; done < end; ++done) {
      const std::int64_t k = ++picks_;
      // The line must hold up to the streak's farthest look, k + 1 + kSpan.
      if (k + 1 + Streak::kSpan > cold.to) cold_from(k);
      std::int64_t best;
      std::uint32_t c = scan_unrolled<D>(t, k, best);
      // A cold class may win (or tie) only where the line reaches the best
      // hot score: there every class is compared (scan()).
      if (cold.at(k) >= best) c = scan(k);
      std::uint32_t x;
      if (rings >> c & 1) {
        x = t[c].top;
        base[x] -= total;
        const std::uint32_t after = next[x];
        std::uint32_t top = after == kNil ? head[c] : after;
        ++counts[ids[x]];
        // A streak: class c wins again as long as its next tops stay surely
        // above every other class's top (which do not move while c wins):
        // those picks are walked with no scan (WHY_EXACT section 5). A
        // streak that reaches the bound's span is followed by another.
        while (done + 1 < end) {
          const std::int64_t b1 = base[top];
          if (picks_ + 1 + Streak::kSpan > cold.to) cold_from(picks_ + 1);
          const Streak s = streak_of<D>(t, c, b1, picks_, cold);
          if (s.lead <= 0) break;
          std::int64_t room = s.lead * Streak::kSpan;  // the bound at the next pick, times kSpan
          const std::uint64_t most = std::min<std::uint64_t>(end - done - 1, Streak::kSpan + 1);
          std::uint64_t j = 0;
          for (; j < most; ++j) {
            const std::int64_t bj = base[top];
            if (b1 - bj >= room / Streak::kSpan) break;  // (room / kSpan: at most the bound)
            x = top;
            base[x] = bj - total;
            const std::uint32_t after2 = next[x];
            top = after2 == kNil ? head[c] : after2;
            ++counts[ids[x]];
            room += s.slope;
          }
          done += j;
          picks_ += static_cast<std::int64_t>(j);
          if (j != Streak::kSpan + 1) break;
        }
        t[c].top = top;
        t[c].base = base[top];
      } else {
        x = move_winner(c);
        ++counts[ids[x]];
        if (c >= D) {  // a cold class's top moved: the line again
          cold_from(k + 1);
          continue;
        }
        // A class that was not a ring may have become one (its last member
        // out of order back in its queue, WHY_EXACT section 1): walked from
        // here on, as the next run would have found it. A run can be long
        // (route_slice's runs over the milliseconds with no weight change,
        // PL-45), and the classes left out of the walk for the rest of it
        // took 2.6 times the instructions in count_by_scan<7>.
        const Members& m = members_[c];
        if (is_ring(m)) {
          rings |= 1u << c;
          head[c] = m.head;
        }
      }
    }
    for (std::uint32_t c = 0; c < D; ++c)
      if (rings >> c & 1) turn_queue(members_[c], t[c].top);
  }
  return 0;
}

// count_many's classes put in two parts: first the hot ones, then the cold
// ones, those whose members take less than 1/64 of the picks between them
// (count * weight against the total: the fleet's ramping classes), when
// there are at least two; returns how many are hot (all when none are
// cold). The slots' order decides nothing in a pick (a tie goes to the
// earlier backend, whatever its class's slot).
std::size_t SmoothWrr::hot_first() {
  const std::size_t d = tops_.size();
  const double cold_below = static_cast<double>(total_) / 64.0;
  std::size_t hot = 0;
  for (std::size_t c = 0; c < d; ++c) {
    if (static_cast<double>(tops_[c].weight) * static_cast<double>(members_[c].count) < cold_below) continue;
    if (c != hot) swap_slots(static_cast<std::uint32_t>(c), static_cast<std::uint32_t>(hot));
    ++hot;
  }
  return hot == 0 || d - hot < 2 ? d : hot;
}

void SmoothWrr::swap_slots(std::uint32_t a, std::uint32_t b) {
  std::swap(tops_[a], tops_[b]);
  std::swap(members_[a], members_[b]);
  slot_of_.set(tops_[a].weight, a);
  slot_of_.set(tops_[b].weight, b);
}

// A queue turned so that it starts at x (one of its members): the members
// before x move, in their order, behind its tail.
void SmoothWrr::turn_queue(Members& m, std::uint32_t x) {
  if (x == m.head) return;
  next_[m.tail] = m.head;
  prev_[m.head] = m.tail;
  m.tail = prev_[x];
  next_[m.tail] = kNil;
  prev_[x] = kNil;
  m.head = x;
}

void SmoothWrr::add_member(std::uint32_t x) {
  const std::int64_t w = weight_[x];
  std::uint32_t c = slot_of_.find(w);
  if (c == WeightSlots::kMissing) {
    c = static_cast<std::uint32_t>(tops_.size());
    slot_of_.set(w, c);
    tops_.push_back({0, w, kNil});
    members_.emplace_back();
  }
  Members& m = members_[c];
  // Room for every member in the heap, so that a pick never allocates.
  if (m.heap.capacity() <= m.count) m.heap.reserve(std::max<std::size_t>(8, 2 * (m.count + 1)));
  enter(c, x);
  refresh_top(c);
  class_changed(c);
}

void SmoothWrr::remove_member(std::uint32_t x) {
  const std::uint32_t c = slot_of_.find(weight_[x]);
  leave(c, x);
  Members& m = members_[c];
  if (m.count > 0) {
    if (m.heap.capacity() > 64 && m.heap.capacity() > 4 * m.count) {
      std::vector<std::uint32_t> smaller;
      smaller.reserve(2 * m.count);
      smaller.assign(m.heap.begin(), m.heap.end());
      m.heap.swap(smaller);
    }
    refresh_top(c);
    class_changed(c);
    return;
  }
  // The class is empty: the last slot moves into its place.
  const auto last = static_cast<std::uint32_t>(tops_.size() - 1);
  slot_of_.erase(tops_[c].weight);
  if (c != last) {
    tops_[c] = tops_[last];
    members_[c] = std::move(members_[last]);
    slot_of_.set(tops_[c].weight, c);
  }
  tops_.pop_back();
  members_.pop_back();
  if (!tree_.active()) return;
  if (tops_.size() < kScanClasses / 2) {  // (half: no rebuilding back and forth)
    tree_.clear();
    rebuild_ = false;
    for (std::uint32_t d : dirty_) is_dirty_[d] = 0;
    dirty_.clear();
    return;
  }
  class_changed(last);
  if (c != last) class_changed(c);
}

void SmoothWrr::class_changed(std::uint32_t c) {
  if (rebuild_) return;
  const auto count = static_cast<std::uint32_t>(tops_.size());
  if (!tree_.active() ? want_tree() : c >= tree_.capacity()) {
    // A new or larger tree: built here, so that picks never allocate.
    if (order_stale_) reorder();
    if (tops_stale_) refresh_tops();
    tree_.build(tops_, count, picks_);
    for (std::uint32_t d : dirty_) is_dirty_[d] = 0;
    dirty_.clear();
    is_dirty_.resize(tree_.capacity(), 0);
    return;
  }
  if (!tree_.active()) return;
  if (!is_dirty_[c]) {
    is_dirty_[c] = 1;
    dirty_.push_back(c);
  }
}

void SmoothWrr::flush_tree() {
  const auto count = static_cast<std::uint32_t>(tops_.size());
  // Replaying every path costs about dirty * depth nodes; the whole tree, its size.
  std::size_t depth = 1;
  while ((std::size_t{1} << depth) < tree_.capacity()) ++depth;
  if (rebuild_ || dirty_.size() * depth >= tree_.capacity()) {
    tree_.build(tops_, count, picks_);
  } else {
    for (std::uint32_t d : dirty_) tree_.update(d, d < count, tops_, picks_);
  }
  for (std::uint32_t d : dirty_) is_dirty_[d] = 0;
  dirty_.clear();
  rebuild_ = false;
}

void SmoothWrr::enter(std::uint32_t c, std::uint32_t x) {
  Members& m = members_[c];
  ++m.count;
  if (m.tail != kNil && !before(m.tail, x)) {
    heap_push(m, x);  // out of order: it belongs before the queue's end
    return;
  }
  prev_[x] = m.tail;
  next_[x] = kNil;
  hpos_[x] = kInQueue;
  if (m.tail == kNil) m.head = x;
  else next_[m.tail] = x;
  m.tail = x;
}

void SmoothWrr::leave(std::uint32_t c, std::uint32_t x) {
  Members& m = members_[c];
  --m.count;
  if (hpos_[x] != kInQueue) {
    heap_erase(m, hpos_[x]);
    return;
  }
  const std::uint32_t p = prev_[x], n = next_[x];
  if (p == kNil) m.head = n;
  else next_[p] = n;
  if (n == kNil) m.tail = p;
  else prev_[n] = p;
}

void SmoothWrr::refresh_tops() {
  for (std::uint32_t c = 0; c < tops_.size(); ++c) refresh_top(c);
  tops_stale_ = false;
}

void SmoothWrr::refresh_top(std::uint32_t c) {
  const Members& m = members_[c];
  std::uint32_t t = m.head;
  if (!m.heap.empty() && (t == kNil || before(m.heap[0], t))) t = m.heap[0];
  tops_[c].top = t;
  tops_[c].base = base_[t];
}

void SmoothWrr::heap_push(Members& m, std::uint32_t x) {
  m.heap.push_back(x);
  hpos_[x] = static_cast<std::uint32_t>(m.heap.size() - 1);
  heap_up(m, hpos_[x]);
}

void SmoothWrr::heap_erase(Members& m, std::uint32_t pos) {
  const std::uint32_t last = m.heap.back();
  m.heap.pop_back();
  if (pos == m.heap.size()) return;
  heap_place(m, pos, last);
  heap_up(m, pos);
  heap_down(m, hpos_[last]);
}

void SmoothWrr::heap_up(Members& m, std::uint32_t pos) {
  const std::uint32_t x = m.heap[pos];
  while (pos > 0) {
    const std::uint32_t parent = (pos - 1) / 2;
    if (!before(x, m.heap[parent])) break;
    heap_place(m, pos, m.heap[parent]);
    pos = parent;
  }
  heap_place(m, pos, x);
}

void SmoothWrr::heap_down(Members& m, std::uint32_t pos) {
  const std::uint32_t x = m.heap[pos];
  const auto n = static_cast<std::uint32_t>(m.heap.size());
  for (;;) {
    std::uint32_t child = 2 * pos + 1;
    if (child >= n) break;
    if (child + 1 < n && before(m.heap[child + 1], m.heap[child])) ++child;
    if (!before(m.heap[child], x)) break;
    heap_place(m, pos, m.heap[child]);
    pos = child;
  }
  heap_place(m, pos, x);
}

}  // namespace slowstart
