// Which backends a clock change re-weights, so that NOW costs what it
// changes: a 100,000-backend pool with 10 backends ramping looks at those
// 10, and recomputes only the ones whose integer weight really steps.
//
// A ramping backend's weight depends on the clock only inside its window
// (joined, joined + ramp): at or before its start the weight is 0, at or
// after its end the target. Each tracked backend sits in one of three
// places: inside its window (a list, looked at by every clock change),
// before it (a min-heap by start) or after it (a max-heap by end). Inside,
// an entry also holds the span of clock values over which its weight stays
// what it is (steady_span, ramp.hpp), so a clock change that stays within
// it costs two comparisons. A clock change pops from the heaps only the
// backends whose window it enters. The clock may go back, which brings
// finished ramps back into their windows.
//
// Entries are never searched for: untracking a backend bumps its epoch, and
// entries of an older epoch are dropped when met (and all of them once they
// outnumber the live ones).
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "fast/cold.hpp"

namespace slowstart {

class RampSchedule {
 public:
  // n backends, none tracked.
  void reset(std::size_t n);
  void push_back() {
    epoch_.push_back(0);
    ramp_.push_back({});
  }

  // Backend i ramps to `target` over `ramp` seconds from `joined` (both
  // above 0): its weight is ramp_weight(target, ramp, joined, clock). The
  // clock is now.
  SLOWSTART_OUT_OF_LINE void track(std::size_t i, std::int64_t target, std::int64_t ramp, std::int64_t joined,
                            std::int64_t now);
  // Its weight no longer depends on the clock.
  void untrack(std::size_t i) { ++epoch_[i]; }

  // The clock moves to `now`: the backends whose weight differs from what it
  // was at the previous clock, each once, in no particular order.
  const std::vector<std::uint32_t>& advance(std::int64_t now);

  // How many entries are stored (for tests: bounded by the tracked backends).
  std::size_t stored() const { return inside_.size() + before_.size() + after_.size(); }

 private:
  struct Ramp {
    std::int64_t target = 0, ramp = 0, joined = 0;
  };
  // In a heap, `key` is the window's start (before_) or end (after_);
  // inside, the weight holds while from <= clock < to.
  struct Entry {
    std::int64_t key;
    std::uint32_t i, epoch;
  };
  struct Inside {
    std::int64_t from, to;
    std::uint32_t i, epoch;
  };
  template <class E>
  bool live(const E& e) const {
    return epoch_[e.i] == e.epoch;
  }
  // Both heaps keep the entry with the smallest key on top: before_ keyed
  // by start, after_ by -end (the latest end on top). One comparator type,
  // so one copy of the heap code.
  struct KeyAbove {
    bool negate;
    std::int64_t key(const Entry& e) const { return negate ? -e.key : e.key; }
    bool operator()(const Entry& a, const Entry& b) const { return key(a) > key(b); }
  };
  static constexpr KeyAbove kByStart{false}, kByEnd{true};
  SLOWSTART_OUT_OF_LINE static void heap_push(std::vector<Entry>& heap, const Entry& e, KeyAbove order);
  SLOWSTART_OUT_OF_LINE static void heap_pop(std::vector<Entry>& heap, KeyAbove order);
  // Backend i (of this epoch) where the clock `now` puts it.
  SLOWSTART_OUT_OF_LINE void place(std::uint32_t i, std::uint32_t epoch, std::int64_t now);
  SLOWSTART_COLD void compact();

  std::vector<std::uint32_t> epoch_;
  std::vector<Ramp> ramp_;
  std::vector<Inside> inside_;
  std::vector<Entry> before_, after_;
  std::vector<std::uint32_t> changed_;
  std::vector<std::uint32_t> moving_;  // into a window, the weight still 0
};

}  // namespace slowstart
