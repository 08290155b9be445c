#include "traffic/health_nginx.hpp"

#include <algorithm>
#include <cmath>

namespace slowstart {

namespace {
std::int64_t whole_second(double t) { return static_cast<std::int64_t>(std::floor(t)); }
}  // namespace

void NginxCheck::report(const Fleet& fleet, FleetEvents& events, std::uint32_t id, double t, bool failed) {
  // ngx_http_upstream_free_round_robin_peer: a failure counts, stamps the
  // time and lowers the effective weight by weight / max_fails; a success
  // clears the count only once the server was tried again after its last
  // failure.
  State& s = state_[id];
  const std::int64_t now = whole_second(t);
  if (failed) {
    ++s.fails;
    s.accessed = s.checked = now;
    const std::int64_t target = fleet.backends[static_cast<std::size_t>(fleet.id_pos[id])].target;
    if (c_.max_fails > 0) {
      s.dip = std::min<std::int64_t>(target, s.dip + target / c_.max_fails);
      if (s.dip > 0 && !listed_[id]) dipped_.push_back(id), listed_[id] = 1;
    }
    if (c_.max_fails > 0 && s.fails >= c_.max_fails) {
      s.probe = false;
      events.eject(id, t);
      events.schedule(Timer{static_cast<double>(now) + c_.fail_timeout + 1, id, fleet.passive[id].epoch, TimerKind::NginxProbe});
    } else {
      events.reweigh(id);
    }
  } else if (s.accessed < s.checked) {
    s.fails = 0;
    if (fleet.passive[id].ejected || fleet.passive[id].out) events.readmit(id, t);
  }
}

void NginxCheck::after_pick(const Fleet& fleet, FleetEvents& events, std::int32_t pos, double t) {
  // Every pick raises each dipped effective weight by 1 (of the servers it
  // looked at), and the chosen server is stamped "checked".
  meter_.add(static_cast<double>(dipped_.size()));
  for (std::size_t k = 0; k < dipped_.size();) {
    const std::uint32_t id = dipped_[k];
    State& s = state_[id];
    if (s.dip > 0 && !fleet.passive[id].out && fleet.id_pos[id] != kNone) {
      --s.dip;
      events.reweigh(id);
    }
    if (s.dip == 0 || fleet.id_pos[id] == kNone) {
      s.dip = 0;
      listed_[id] = 0;
      dipped_[k] = dipped_.back();
      dipped_.pop_back();
    } else {
      ++k;
    }
  }
  if (pos == kNone) return;
  const std::uint32_t id = fleet.pos_id[static_cast<std::size_t>(pos)];
  State& s = state_[id];
  const std::int64_t now = whole_second(t);
  if (now - s.checked > static_cast<std::int64_t>(c_.fail_timeout)) {
    s.checked = now;
    if (s.probe) {  // the probe is out: no more picks until it answers or fail_timeout passes again
      s.probe = false;
      events.void_timers(id);
      events.set_out(id, true);
      events.schedule(Timer{static_cast<double>(now) + c_.fail_timeout + 1, id, fleet.passive[id].epoch, TimerKind::NginxProbe});
    }
  }
}

}  // namespace slowstart
