// The attempts in flight, in time order: a calendar queue (a priority
// queue for the event loop's completions and timeouts).
//
// A binary heap of them cost a quarter of the health workload's run (PL-32):
// every attempt's end is pushed and popped once, through about nine levels of
// a heap of 400, each a 24-byte move and a compare of the whole order. Yet
// the ends fall on a fine grid ahead of the clock: an attempt ends after its
// service time or its timeout, never before the event being handled. So the
// queue keeps a ring of slots, one per 1/rate of a second ahead of the last
// event popped: an end goes to its slot (a short list, sorted by the event's
// own total order, `operator>`), a bit marks the slot used, and the next
// event is the first used slot's head, found by the bits. An event beyond
// the ring's reach, earlier than the last popped (the loop never makes one,
// but the queue stays right if it did), or that would go deep into a
// crowded slot's list (a cold backend's shrinking service times can squeeze
// many ends together) waits in a plain heap beside it;
// the next event is the earlier of the two. The order popped is the heap's:
// the least under `operator>`, a total order (traffic.cpp's Done says why).
//
// Event: `double t` and a total order `operator>` (a time below 0, infinite
// or not a number waits in the heap).
#pragma once
#include <algorithm>
#include <bit>
#include <cstdint>
#include <functional>
#include <queue>
#include <vector>

namespace slowstart {

template <class Event>
class EventQueue {
 public:
  // `slots_per_second`: the ring's grain; about one event a slot is best
  // (the arrival rate).
  explicit EventQueue(double slots_per_second)
      : per_second_(slots_per_second > 0 ? slots_per_second : 1.0), head_(kSlots, kNil), tail_(kSlots, kNil), used_(kSlots / 64, 0) {}

  bool empty() const { return size_ == 0; }
  std::size_t size() const { return size_; }

  // The least event (the queue must not be empty).
  const Event& top() {
    const std::uint32_t n = first_in_ring();
    if (n == kNil) return far_.top();
    if (!far_.empty() && nodes_[n].event > far_.top()) return far_.top();
    return nodes_[n].event;
  }

  void pop() {
    const std::uint32_t n = first_in_ring();
    --size_;
    if (n == kNil || (!far_.empty() && nodes_[n].event > far_.top())) {
      // The least of all: every event in the ring lies in its slot or later.
      const std::int64_t key = slot_of(far_.top().t);
      if (key != kNoSlot) floor_ = std::max(floor_, key);
      cursor_ = std::max(cursor_, floor_);
      far_.pop();
      return;
    }
    // The head of the cursor's slot.
    const std::size_t s = static_cast<std::size_t>(cursor_) & kMask;
    floor_ = cursor_;
    head_[s] = nodes_[n].next;
    if (head_[s] == kNil) {
      tail_[s] = kNil;
      used_[s >> 6] &= ~(std::uint64_t{1} << (s & 63));
    }
    free_.push_back(n);
  }

  void push(const Event& e) {
    ++size_;
    const std::int64_t key = slot_of(e.t);
    if (key == kNoSlot || key < floor_ || key - floor_ >= static_cast<std::int64_t>(kSlots)) {
      far_.push(e);
      return;
    }
    std::uint32_t n;
    if (free_.empty()) {
      n = static_cast<std::uint32_t>(nodes_.size());
      nodes_.push_back({e, kNil});
    } else {
      n = free_.back();
      free_.pop_back();
      nodes_[n] = {e, kNil};
    }
    if (key < cursor_) cursor_ = key;
    const std::size_t s = static_cast<std::size_t>(key) & kMask;
    std::uint32_t& head = head_[s];
    std::uint32_t& tail = tail_[s];
    if (head == kNil) {  // an empty slot
      head = tail = n;
      used_[s >> 6] |= std::uint64_t{1} << (s & 63);
    } else if (!(nodes_[tail].event > e)) {  // the usual case: at the end
      nodes_[tail].next = n;
      tail = n;
    } else if (nodes_[head].event > e) {
      nodes_[n].next = head;
      head = n;
    } else {  // between: after the last one not later than it, a few steps in at most
      std::uint32_t p = head;
      for (int step = 0; !(nodes_[nodes_[p].next].event > e); ++step) {
        if (step == kMostSteps) {  // a crowded slot (ends squeezed together): the heap, O(log n)
          free_.push_back(n);
          far_.push(e);
          return;
        }
        p = nodes_[p].next;
      }
      nodes_[n].next = nodes_[p].next;
      nodes_[p].next = n;
    }
  }

 private:
  static constexpr std::size_t kSlots = std::size_t{1} << 14;  // 8 s ahead at 2,000 requests/s
  static constexpr std::size_t kMask = kSlots - 1;
  static constexpr std::uint32_t kNil = 0xffffffffu;
  static constexpr int kMostSteps = 16;  // into a slot's list, before an event goes to the heap
  static constexpr double kFarKey = 4611686018427387904.0;  // 2^62: past it, the heap (no overflow)
  static constexpr std::int64_t kNoSlot = -1;

  struct Node {
    Event event;
    std::uint32_t next;
  };

  // The slot of time t: monotone in t (a product and a truncation), so a
  // later slot holds only later events; kNoSlot (the heap) for a time below
  // 0, past 2^62 slots or not a number.
  std::int64_t slot_of(double t) const {
    const double k = t * per_second_;
    return k >= 0 && k < kFarKey ? static_cast<std::int64_t>(k) : kNoSlot;
  }

  // The first used slot at or after the cursor (the cursor moves there), its
  // head; kNil when the ring is empty. Every event in the ring lies in
  // [floor_, floor_ + kSlots), and at or after the cursor.
  std::uint32_t first_in_ring() {
    if (size_ == far_.size()) return kNil;
    std::size_t s = static_cast<std::size_t>(cursor_) & kMask;
    if (head_[s] != kNil) return head_[s];
    // The used bits from s on, word by word, around the ring.
    std::size_t word = s >> 6;
    std::uint64_t bits = used_[word] & (~std::uint64_t{0} << (s & 63));
    while (bits == 0) {  // (the ring is not empty: this ends, around it at most once)
      word = (word + 1) & (kSlots / 64 - 1);
      bits = used_[word];
    }
    const std::size_t found = (word << 6) | static_cast<std::size_t>(std::countr_zero(bits));
    cursor_ += static_cast<std::int64_t>((found - s) & kMask);  // how far it moved
    return head_[found];
  }

  double per_second_;
  std::vector<Node> nodes_;
  std::vector<std::uint32_t> free_;
  std::vector<std::uint32_t> head_, tail_;  // by slot: its sorted list
  std::vector<std::uint64_t> used_;         // by slot: a bit, set while its list is not empty
  std::int64_t floor_ = 0;                  // the slot of the last event popped: none earlier in the ring
  std::int64_t cursor_ = 0;                 // no ring event before it
  std::size_t size_ = 0;
  std::priority_queue<Event, std::vector<Event>, std::greater<>> far_;
};

}  // namespace slowstart
