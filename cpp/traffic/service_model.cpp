#include "traffic/service_model.hpp"

#include <algorithm>
#include <functional>

namespace slowstart {

double ServiceTimes::coldness(std::uint32_t id, double t, const Passive& passive) const {
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

double ServiceTimes::serve(std::uint32_t id, double t, const Passive& passive) {
  // The busy workers' end times, a min-heap: a request starts at once if
  // fewer than `workers` are busy at `t`, else when the first one ends.
  // (The same starts as a slot per worker, without touching idle ones:
  // requests reach a backend in time order.)
  std::vector<double>& busy = busy_[id];
  const auto later = std::greater<>();
  while (!busy.empty() && busy.front() <= t) {
    std::pop_heap(busy.begin(), busy.end(), later);
    busy.pop_back();
  }
  double start = t;
  if (busy.size() >= s_.workers) {
    start = busy.front();
    std::pop_heap(busy.begin(), busy.end(), later);
    busy.pop_back();
  }
  double ms = s_.base_ms;
  const double cold = coldness(id, start, passive);
  if (cold > 0) ms *= 1.0 + (s_.cold_factor - 1.0) * cold;
  warmth_[id].served += 1;
  const double end = start + ms / 1000.0;
  busy.push_back(end);
  std::push_heap(busy.begin(), busy.end(), later);
  return end;
}

}  // namespace slowstart
