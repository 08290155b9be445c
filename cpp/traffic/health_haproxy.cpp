#include "traffic/health_haproxy.hpp"

#include <cmath>

namespace slowstart {

void HAProxyCheck::report(const Fleet& fleet, FleetEvents& events, std::uint32_t id, double t, bool failed,
                          bool retried) {
  if (failed && retried) return;
  if (!failed) {
    errors_[id] = 0;
  } else if (++errors_[id] >= c_.error_limit && !fleet.passive[id].out) {
    events.eject(id, t);
    const double up = (std::floor(t / c_.inter) + c_.rise) * c_.inter;
    events.schedule(Timer{up, id, fleet.passive[id].epoch, TimerKind::Readmit});
  }
}

}  // namespace slowstart
