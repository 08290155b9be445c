// The service model: how long a backend takes to serve a request, and how
// much longer while it is cold. Each backend serves `workers` requests at
// once in arrival order (a FIFO queue beyond); a request's service time is
// base_ms, times up to cold_factor the moment the backend (re)starts,
// falling linearly to base_ms as it warms. What warms it is WarmBy
// (names.hpp): seconds serving (the clock stops while it is ejected), plain
// time, or requests served.
#pragma once
#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <vector>

#include "traffic/fleet.hpp"
#include "traffic/options.hpp"

namespace slowstart {

// A backend's busy workers' end times, least first. They mostly come in
// order (a warm backend's service time is the same for every request), so
// they wait in a queue, read from its front: a heap of them cost a tenth of
// the health workload's run (PL-32). An end earlier than the queue's last
// (a cold backend warming, a queue of waiting requests) waits in a small
// heap beside it; the least is the earlier of the two fronts.
class EndTimes {
 public:
  bool empty() const { return head_ == queue_.size() && heap_.empty(); }
  std::size_t size() const { return queue_.size() - head_ + heap_.size(); }
  // The least (not empty).
  double least() const {
    if (heap_.empty()) return queue_[head_];
    if (head_ == queue_.size()) return heap_.front();
    return std::min(queue_[head_], heap_.front());
  }
  void pop_least() {
    if (!heap_.empty() && (head_ == queue_.size() || heap_.front() < queue_[head_])) {
      std::pop_heap(heap_.begin(), heap_.end(), std::greater<>());
      heap_.pop_back();
      return;
    }
    if (++head_ == queue_.size()) {
      queue_.clear();
      head_ = 0;
    } else if (head_ >= 64 && 2 * head_ >= queue_.size()) {  // (the read part gone, in O(1) a pop)
      queue_.erase(queue_.begin(), queue_.begin() + static_cast<std::ptrdiff_t>(head_));
      head_ = 0;
    }
  }
  void push(double end) {
    if (head_ == queue_.size() || end >= queue_.back()) {
      queue_.push_back(end);
      return;
    }
    heap_.push_back(end);
    std::push_heap(heap_.begin(), heap_.end(), std::greater<>());
  }

 private:
  std::vector<double> queue_;  // ascending from head_
  std::size_t head_ = 0;
  std::vector<double> heap_;   // a min-heap
};

class ServiceTimes {
 public:
  ServiceTimes(const ServiceModel& model, std::size_t ids)
      : s_(model), warmth_(ids), busy_(model.enabled ? ids : 0) {}

  // The script changed the backend: its warmth's counters start over.
  void restart(std::uint32_t id) {
    warmth_[id].paused = 0;
    warmth_[id].served = 0;
  }
  // The script (re)started it at `t` (ADD, UP): cold from then. A backend
  // in the POOL from the start is warm.
  void started(std::uint32_t id, double t) { warmth_[id].since = t; }
  // An ejection of `seconds` ended (WarmBy::Serving does not count them).
  void paused(std::uint32_t id, double seconds) { warmth_[id].paused += seconds; }

  // How cold backend `id` is at `t`: 1 the moment it (re)starts, 0 warm.
  double coldness(std::uint32_t id, double t, const Passive& passive) const;

  // An attempt reaching backend `id` at `t`: when it ends (it starts when a
  // worker is free, and takes the service time of that moment).
  double serve(std::uint32_t id, double t, const Passive& passive);

  // Requests the backends hold now (in service or waiting for a worker, as
  // their queues last saw them): memory the budget counts.
  std::size_t held() const { return held_; }

 private:
  struct Warmth {
    double since = -std::numeric_limits<double>::infinity();  // the (re)start
    double paused = 0;  // seconds ejected since the (re)start
    double served = 0;  // requests started since the (re)start
  };
  const ServiceModel& s_;
  std::vector<Warmth> warmth_;             // by id
  std::vector<EndTimes> busy_;             // by id: its busy workers' end times
  std::size_t held_ = 0;                   // busy_'s entries
};

// Both on every request's path: defined here so that the event loop inlines them.
inline double ServiceTimes::coldness(std::uint32_t id, double t, const Passive& passive) const {
  const Warmth& w = warmth_[id];
  if (w.since == -std::numeric_limits<double>::infinity()) return 0.0;  // in the POOL from the start: warm
  switch (s_.warm_by) {
    case WarmBy::Requests:
      return std::max(0.0, 1.0 - w.served / s_.warmup_requests);
    case WarmBy::Serving: {
      if (s_.warmup <= 0) return 0.0;
      double since = t - w.since - w.paused;
      if (passive.ejected) since -= std::max(0.0, t - passive.ejected_at);
      return std::max(0.0, 1.0 - since / s_.warmup);
    }
    case WarmBy::Time:
      break;
  }
  if (s_.warmup <= 0) return 0.0;
  return std::max(0.0, 1.0 - (t - w.since) / s_.warmup);
}

inline double ServiceTimes::serve(std::uint32_t id, double t, const Passive& passive) {
  // The busy workers' end times: a request starts at once if fewer than
  // `workers` are busy at `t`, else when the first one ends. (The same
  // starts as a slot per worker, without touching idle ones: requests reach
  // a backend in time order.)
  EndTimes& busy = busy_[id];
  while (!busy.empty() && busy.least() <= t) {
    busy.pop_least();
    --held_;
  }
  double start = t;
  if (busy.size() >= s_.workers) {
    start = busy.least();
    busy.pop_least();
    --held_;
  }
  double ms = s_.base_ms;
  const double cold = coldness(id, start, passive);
  if (cold > 0) ms *= 1.0 + (s_.cold_factor - 1.0) * cold;
  warmth_[id].served += 1;
  const double end = start + ms / 1000.0;
  busy.push(end);
  ++held_;
  return end;
}

}  // namespace slowstart
