#include "traffic/lanes.hpp"

#include <algorithm>
#include <cmath>

namespace slowstart {

void paint_lanes(std::vector<StateChange>& log, TrafficResult& r) {
  const std::size_t n = r.names.size();
  std::stable_sort(log.begin(), log.end(), [](const StateChange& a, const StateChange& b) { return a.id < b.id; });
  const auto paint = [&](std::uint32_t id, double from, double to, BackendState s) {
    if (!(to > from) || s == BackendState::Out) return;
    const std::size_t k0 = r.bucket_of(std::max(0.0, from));
    const std::size_t k1 = r.bucket_of(std::max(0.0, std::nextafter(to, -1.0)));
    for (std::size_t k = k0; k <= k1 && k < r.buckets; ++k) {
      std::uint8_t& cell = r.state[k * n + id];
      cell = std::max(cell, static_cast<std::uint8_t>(s));
    }
  };
  for (std::size_t a = 0; a < log.size(); ++a) {
    const StateChange& c = log[a];
    const double end = (a + 1 < log.size() && log[a + 1].id == c.id) ? log[a + 1].t : r.duration;
    if (c.state == BackendState::Ramping && c.ramp_end < end) {
      paint(c.id, c.t, c.ramp_end, BackendState::Ramping);
      paint(c.id, c.ramp_end, end, BackendState::Serving);
    } else {
      paint(c.id, c.t, end, c.state);
    }
  }
}

void find_stable(TrafficResult& r, double latency_limit_ms) {
  const std::size_t n = r.names.size();
  r.stable_at = -1;
  for (std::size_t k = r.buckets; k-- > 0;) {
    bool calm = true;
    for (std::size_t id = 0; id < n && calm; ++id) {
      const std::size_t c = k * n + id;
      calm = r.failed[c] == 0 && r.state[c] != static_cast<std::uint8_t>(BackendState::Ejected) &&
             (r.requests[c] == 0 || r.latency_ms[c] <= latency_limit_ms);
    }
    if (!calm) return;
    r.stable_at = static_cast<double>(k) * r.bucket;
  }
}

}  // namespace slowstart
