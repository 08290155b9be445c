#include "ramp_schedule.hpp"

#include <algorithm>

namespace slowstart {

void RampSchedule::reset(std::size_t n) {
  epoch_.assign(n, 0);
  inside_.clear();
  before_.clear();
  after_.clear();
}

void RampSchedule::track(std::size_t i, std::int64_t start, std::int64_t end, std::int64_t now) {
  ++epoch_[i];
  place(Entry{start, end, static_cast<std::uint32_t>(i), epoch_[i]}, now);
  // Dead entries (of re-tracked or untracked backends) may not pile up.
  if (stored() > 2 * epoch_.size() + 64) compact();
}

void RampSchedule::heap_push(std::vector<Entry>& heap, const Entry& e, KeyAbove order) {
  heap.push_back(e);
  std::push_heap(heap.begin(), heap.end(), order);
}

RampSchedule::Entry RampSchedule::heap_pop(std::vector<Entry>& heap, KeyAbove order) {
  std::pop_heap(heap.begin(), heap.end(), order);
  const Entry e = heap.back();
  heap.pop_back();
  return e;
}

void RampSchedule::place(const Entry& e, std::int64_t now) {
  if (now <= e.start) heap_push(before_, e, kByStart);
  else if (now >= e.end) heap_push(after_, e, kByEnd);
  else inside_.push_back(e);
}

const std::vector<std::uint32_t>& RampSchedule::advance(std::int64_t now) {
  changed_.clear();
  // Everyone inside a window moves with the clock.
  scratch_.swap(inside_);
  inside_.clear();
  for (const Entry& e : scratch_) {
    if (!live(e)) continue;
    changed_.push_back(e.i);
    place(e, now);
  }
  scratch_.clear();
  // Windows the clock moved into (or past) from before their start...
  while (!before_.empty() && before_.front().start < now) {
    const Entry e = heap_pop(before_, kByStart);
    if (!live(e)) continue;
    changed_.push_back(e.i);
    place(e, now);
  }
  // ...or back into (or before) from after their end.
  while (!after_.empty() && after_.front().end > now) {
    const Entry e = heap_pop(after_, kByEnd);
    if (!live(e)) continue;
    changed_.push_back(e.i);
    place(e, now);
  }
  return changed_;
}

void RampSchedule::compact() {
  const auto dead = [&](const Entry& e) { return !live(e); };
  inside_.erase(std::remove_if(inside_.begin(), inside_.end(), dead), inside_.end());
  before_.erase(std::remove_if(before_.begin(), before_.end(), dead), before_.end());
  after_.erase(std::remove_if(after_.begin(), after_.end(), dead), after_.end());
  std::make_heap(before_.begin(), before_.end(), kByStart);
  std::make_heap(after_.begin(), after_.end(), kByEnd);
}

}  // namespace slowstart
