#include "fast/ramp_schedule.hpp"

#include <algorithm>

#include "spec/ramp.hpp"

namespace slowstart {

void RampSchedule::reset(std::size_t n) {
  epoch_.assign(n, 0);
  ramp_.assign(n, Ramp{});
  inside_.clear();
  before_.clear();
  after_.clear();
}

void RampSchedule::track(std::size_t i, std::int64_t target, std::int64_t ramp, std::int64_t joined,
                         std::int64_t now) {
  ramp_[i] = Ramp{target, ramp, joined};
  place(static_cast<std::uint32_t>(i), ++epoch_[i], now);
  // Dead entries (of re-tracked or untracked backends) may not pile up.
  if (stored() > 2 * epoch_.size() + 64) compact();
}

void RampSchedule::heap_push(std::vector<Entry>& heap, const Entry& e, KeyAbove order) {
  heap.push_back(e);
  std::push_heap(heap.begin(), heap.end(), order);
}

void RampSchedule::heap_pop(std::vector<Entry>& heap, KeyAbove order) {
  std::pop_heap(heap.begin(), heap.end(), order);
  heap.pop_back();
}

void RampSchedule::place(std::uint32_t i, std::uint32_t epoch, std::int64_t now) {
  const Ramp& r = ramp_[i];
  const std::int64_t end = r.joined + r.ramp;
  if (now <= r.joined) heap_push(before_, Entry{r.joined, i, epoch}, kByStart);
  else if (now >= end) heap_push(after_, Entry{end, i, epoch}, kByEnd);
  else {
    const ClockSpan span = steady_span(r.target, r.ramp, r.joined, now);
    inside_.push_back(Inside{span.from, span.to, i, epoch});
  }
}

const std::vector<std::uint32_t>& RampSchedule::advance(std::int64_t now) {
  changed_.clear();
  moving_.clear();
  // Inside a window: those whose weight holds stay as they are; the others
  // (dead ones dropped) changed, and are placed again below.
  std::size_t kept = 0;
  for (const Inside& e : inside_) {
    if (!live(e)) continue;
    if (e.from <= now && now < e.to) inside_[kept++] = e;
    else changed_.push_back(e.i);
  }
  inside_.resize(kept);
  // Windows the clock moved into (or past) from before their start: the
  // weight was 0, and still is early in a long ramp...
  while (!before_.empty() && before_.front().key < now) {
    const Entry e = before_.front();
    heap_pop(before_, kByStart);
    if (!live(e)) continue;
    const Ramp& r = ramp_[e.i];
    (ramp_weight(r.target, r.ramp, r.joined, now) > 0 ? changed_ : moving_).push_back(e.i);
  }
  // ...or back into (or before) from after their end: from the target to less.
  while (!after_.empty() && after_.front().key > now) {
    const Entry e = after_.front();
    heap_pop(after_, kByEnd);
    if (live(e)) changed_.push_back(e.i);
  }
  for (const std::uint32_t i : changed_) place(i, epoch_[i], now);
  for (const std::uint32_t i : moving_) place(i, epoch_[i], now);
  return changed_;
}

void RampSchedule::compact() {
  const auto dead = [&](const auto& e) { return !live(e); };
  inside_.erase(std::remove_if(inside_.begin(), inside_.end(), dead), inside_.end());
  before_.erase(std::remove_if(before_.begin(), before_.end(), dead), before_.end());
  after_.erase(std::remove_if(after_.begin(), after_.end(), dead), after_.end());
  std::make_heap(before_.begin(), before_.end(), kByStart);
  std::make_heap(after_.begin(), after_.end(), kByEnd);
}

}  // namespace slowstart
