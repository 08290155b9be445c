#include "traffic/health_envoy.hpp"

#include <algorithm>
#include <cmath>

namespace slowstart {

void EnvoyCheck::report(const Fleet& fleet, FleetEvents& events, std::uint32_t id, double t, bool failed) {
  State& s = state_[id];
  if (!failed) {
    s.errors = 0;
    return;
  }
  if (++s.errors != c_.consecutive_5xx || fleet.passive[id].out) return;
  std::size_t up = 0, out = 0;
  meter_.add(kStepsPerScanned * static_cast<double>(fleet.backends.size()));
  for (std::size_t i = 0; i < fleet.backends.size(); ++i) {
    if (!fleet.backends[i].up) continue;
    ++up;
    out += fleet.passive[fleet.pos_id[i]].out;
  }
  if (out == 0 || 100.0 * static_cast<double>(out) / static_cast<double>(up) < c_.max_ejection_percent) {
    const auto cap = static_cast<std::uint32_t>(
        std::ceil(std::max(c_.max_ejection_time, c_.base_ejection_time) / c_.base_ejection_time));
    s.multiplier = std::min(s.multiplier + 1, cap);
    events.eject(id, t);
  }
}

void EnvoyCheck::sweep(const Fleet& fleet, FleetEvents& events, double t) {
  // (The budget counts a sweep as a pass over every backend the script names.)
  meter_.add(kStepsPerScanned * static_cast<double>(fleet.id_pos.size()));
  for (std::size_t i = 0; i < fleet.backends.size(); ++i) {
    const std::uint32_t id = fleet.pos_id[i];
    const Passive& p = fleet.passive[id];
    State& s = state_[id];
    if (p.out) {
      const double time = std::min(c_.base_ejection_time * s.multiplier, std::max(c_.max_ejection_time, c_.base_ejection_time));
      if (t >= p.ejected_at + time - 1e-9) events.readmit(id, t);
    } else if (s.multiplier > 0 && t - std::max(p.readmitted_at, 0.0) >= c_.interval - 1e-9 && p.readmitted_at >= 0) {
      --s.multiplier;
    }
  }
  events.schedule(Timer{t + c_.interval, 0, 0, TimerKind::EnvoySweep});
}

}  // namespace slowstart
