// The event loop's two queues of end times (PL-32): EventQueue (the attempts
// in flight, a calendar of slots ahead of the clock and a heap beyond) and
// EndTimes (a backend's busy workers, a queue and a heap of stragglers).
// Each must pop exactly what a binary heap pops, in the same order, ties
// broken by the event's own total order: by hand on small cases, then
// against std::priority_queue on long random runs that cross the ring's
// reach, push behind the last popped, and tie in time.
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <queue>
#include <tuple>
#include <vector>

#include "core/split_mix64.hpp"
#include "traffic/event_queue.hpp"
#include "traffic/service_model.hpp"

using namespace slowstart;

namespace {

// An event like traffic.cpp's Done: a time, then a tie-break.
struct QueuedEvent {
  double t;
  std::uint32_t id;
  bool operator>(const QueuedEvent& o) const { return std::tie(t, id) > std::tie(o.t, o.id); }
  bool operator==(const QueuedEvent& o) const { return t == o.t && id == o.id; }
};

std::vector<QueuedEvent> drain_queue(EventQueue<QueuedEvent>& q) {
  std::vector<QueuedEvent> out;
  for (; !q.empty(); q.pop()) out.push_back(q.top());
  return out;
}

TEST(TrafficEventQueue, PopsByTimeThenByTheEventsOwnOrder) {
  EventQueue<QueuedEvent> q(1000.0);  // slots of 1 ms
  // Within one slot (0.0101 s and 0.0104 s: slot 10), out of order, and two at the same time.
  q.push({0.0104, 2});
  q.push({0.0101, 9});
  q.push({0.0104, 1});
  q.push({0.5, 0});
  q.push({0.0102, 3});  // between the slot's head and its tail
  EXPECT_EQ(q.size(), 5u);
  const std::vector<QueuedEvent> want = {{0.0101, 9}, {0.0102, 3}, {0.0104, 1}, {0.0104, 2}, {0.5, 0}};
  EXPECT_EQ(drain_queue(q), want);
}

TEST(TrafficEventQueue, EventsPastTheRingAndBehindTheClockStillComeInOrder) {
  EventQueue<QueuedEvent> q(1000.0);  // the ring reaches 16.384 s ahead
  q.push({100.0, 1});        // far past the ring: the heap
  q.push({2.0, 2});
  q.push({20.0, 3});  // past it too
  EXPECT_EQ(q.top(), (QueuedEvent{2.0, 2}));
  q.pop();  // the clock is at 2 s
  q.push({1.0, 4});  // behind the last popped (the loop never does it): still first
  q.push({17.5, 5});  // within 16.384 s of 2 s: the ring
  q.push({20.0, 0});  // the same time as one in the heap, before it by id
  q.push({1e300, 6});  // past 2^62 slots: the heap, and the ring's cursor does not run over
  q.push({3.0, 7});
  const std::vector<QueuedEvent> want = {{1.0, 4}, {3.0, 7}, {17.5, 5}, {20.0, 0}, {20.0, 3}, {100.0, 1}, {1e300, 6}};
  EXPECT_EQ(drain_queue(q), want);
}

TEST(TrafficEventQueue, AroundTheRingManyTimes) {
  // Slots of 10 ms: the ring (16,384 slots) is 163.84 s; a run of 2,000 s
  // goes around it a dozen times, with a slot left empty for a long while.
  EventQueue<QueuedEvent> q(100.0);
  std::priority_queue<QueuedEvent, std::vector<QueuedEvent>, std::greater<>> oracle;
  SplitMix64 rng(7);
  double now = 0;
  std::uint32_t id = 0;
  for (int step = 0; step < 200000; ++step) {
    const std::uint64_t r = rng.below(100);
    if (r < 55 || oracle.empty()) {
      // An end ahead of now: mostly near (a service time), sometimes on a
      // grid (a timeout), sometimes far (past the ring), sometimes tied.
      double t = now + static_cast<double>(rng.below(1000)) / 997.0;
      if (r < 10) t = now + 1.0;
      if (r == 11) t = now + 150.0 + static_cast<double>(rng.below(100));
      if (r == 12) t = now + 400.0;
      if (r == 13 && !oracle.empty()) t = oracle.top().t;
      const QueuedEvent e{t, id++ % 50};
      q.push(e);
      oracle.push(e);
    } else {
      ASSERT_EQ(q.top(), oracle.top()) << "step " << step;
      now = oracle.top().t;
      q.pop();
      oracle.pop();
    }
    ASSERT_EQ(q.size(), oracle.size());
  }
  for (; !oracle.empty(); oracle.pop(), q.pop()) ASSERT_EQ(q.top(), oracle.top());
  EXPECT_TRUE(q.empty());
}

TEST(TrafficEventQueue, ACrowdedSlotStaysInOrder) {
  // 2,000 ends within one slot of 1 ms, from two interleaved streams (one
  // rising, one falling), so most go between the slot's head and tail:
  // past a few steps into its list they wait in the heap, still in order.
  EventQueue<QueuedEvent> q(1000.0);
  std::priority_queue<QueuedEvent, std::vector<QueuedEvent>, std::greater<>> oracle;
  for (std::uint32_t i = 0; i < 1000; ++i) {
    for (const QueuedEvent e : {QueuedEvent{5.0 + 1e-7 * i, i}, QueuedEvent{5.0009 - 1e-7 * i, i}}) {
      q.push(e);
      oracle.push(e);
    }
  }
  for (; !oracle.empty(); oracle.pop(), q.pop()) ASSERT_EQ(q.top(), oracle.top());
  EXPECT_TRUE(q.empty());
}

TEST(TrafficEndTimes, TheLeastFirstWhateverOrderTheyCameIn) {
  EndTimes busy;
  EXPECT_TRUE(busy.empty());
  // In order (a warm backend), then two stragglers (a cold one's ends were later).
  for (double t : {1.0, 2.0, 3.0, 0.5, 2.5, 3.0}) busy.push(t);
  EXPECT_EQ(busy.size(), 6u);
  std::vector<double> out;
  for (; !busy.empty(); busy.pop_least()) out.push_back(busy.least());
  EXPECT_EQ(out, (std::vector<double>{0.5, 1.0, 2.0, 2.5, 3.0, 3.0}));
}

TEST(TrafficEndTimes, AgainstAHeapOnALongRun) {
  EndTimes busy;
  std::priority_queue<double, std::vector<double>, std::greater<>> oracle;
  SplitMix64 rng(11);
  double now = 0;
  for (int step = 0; step < 100000; ++step) {
    if (rng.below(2) == 0 || oracle.empty()) {
      // Mostly in order, now and then earlier than the last (a straggler).
      const double end = now + (rng.below(8) == 0 ? 0.001 * static_cast<double>(rng.below(50)) : 0.2);
      now += 0.0005;
      busy.push(end);
      oracle.push(end);
    } else {
      ASSERT_EQ(busy.least(), oracle.top()) << "step " << step;
      busy.pop_least();
      oracle.pop();
    }
    ASSERT_EQ(busy.size(), oracle.size());
  }
}

}  // namespace
