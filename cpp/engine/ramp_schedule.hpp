// Which backends a clock change can re-weight, so that NOW costs what it
// changes: a 100,000-backend pool with 10 backends ramping pays for 10.
//
// A ramping backend's weight depends on the clock only inside its window
// (joined, joined + ramp): at or before its start the weight is 0, at or
// after its end the target. Each tracked backend sits in one of three
// places: inside its window (a list, all of it revisited by every clock
// change), before it (a min-heap by start) or after it (a max-heap by end).
// A clock change revisits the list and pops from the heaps only the
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

#include "cold.hpp"

namespace slowstart {

class RampSchedule {
 public:
  // n backends, none tracked.
  void reset(std::size_t n);
  void push_back() { epoch_.push_back(0); }

  // Backend i's weight varies with the clock in (start, end); the clock is now.
  SLOWSTART_COLD void track(std::size_t i, std::int64_t start, std::int64_t end, std::int64_t now);
  // Its weight no longer depends on the clock.
  void untrack(std::size_t i) { ++epoch_[i]; }

  // The clock moves to `now`: the backends whose weight may differ from what
  // it was at the previous clock (each once, in no particular order).
  const std::vector<std::uint32_t>& advance(std::int64_t now);

  // How many entries are stored (for tests: bounded by the tracked backends).
  std::size_t stored() const { return inside_.size() + before_.size() + after_.size(); }

 private:
  struct Entry {
    std::int64_t start, end;
    std::uint32_t i, epoch;
  };
  bool live(const Entry& e) const { return epoch_[e.i] == e.epoch; }
  // Both heaps keep the entry with the smallest key on top: before_ keyed
  // by start, after_ by -end (the latest end on top). One comparator type,
  // so one copy of the heap code.
  struct KeyAbove {
    bool by_end;
    std::int64_t key(const Entry& e) const { return by_end ? -e.end : e.start; }
    bool operator()(const Entry& a, const Entry& b) const { return key(a) > key(b); }
  };
  static constexpr KeyAbove kByStart{false}, kByEnd{true};
  SLOWSTART_COLD static void heap_push(std::vector<Entry>& heap, const Entry& e, KeyAbove order);
  SLOWSTART_COLD static Entry heap_pop(std::vector<Entry>& heap, KeyAbove order);
  SLOWSTART_COLD void place(const Entry& e, std::int64_t now);
  SLOWSTART_COLD void compact();

  std::vector<std::uint32_t> epoch_;
  std::vector<Entry> inside_, before_, after_, scratch_;
  std::vector<std::uint32_t> changed_;
};

}  // namespace slowstart
