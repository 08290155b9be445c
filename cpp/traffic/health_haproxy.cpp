#include "traffic/health_haproxy.hpp"

#include <algorithm>
#include <cmath>

namespace slowstart {

namespace {
// An interval as configured: 0 is "not set" (HAProxy's fastinter and
// downinter default to inter); no check comes sooner than 1 ms after the last.
double configured(double value, double inter) { return value > 0 ? std::max(value, kMinInterval) : inter; }
}  // namespace

HAProxyCheck::HAProxyCheck(const HealthCheck& check, std::size_t ids) : c_(check), s_(ids) {
  for (State& s : s_) s.health = top();
}

void HAProxyCheck::restart(std::uint32_t id) {
  State& s = s_[id];
  s.health = top();
  s.errors = 0;
  s.forced = false;
  ++s.seq;
}

// srv_getinter() (src/server.c): inter at the top unless a check is forced;
// downinter when DOWN at 0; fastinter otherwise.
double HAProxyCheck::interval(const State& s) const {
  if (!s.forced && s.health == top()) return c_.inter;
  if (s.health == 0) return configured(c_.downinter, c_.inter);
  return configured(c_.fastinter, c_.inter);
}

// Each check's result comes check_ms after it starts; the next starts an
// interval after that (process_chk_conn: `t->expire = now + srv_getinter()`
// at the check's end, src/check.c). The lab keeps the results' times: the
// first at 0, then each `check_ms + interval` after the last.
//
// The checks due before `t` of a server at the top with none forced: each
// passes and clears the errors (set_server_check_status, CHK_RES_PASSED);
// nothing else changes. (A check at `t` itself comes after what ends at `t`,
// as the event loop orders a timer after a completion at the same time.)
void HAProxyCheck::catch_up(State& s, double t) const {
  if (s.forced || s.health != top() || s.next_check >= t) return;
  const double period = c_.inter + check_seconds();
  s.next_check += std::ceil((t - s.next_check) / period) * period;
  while (s.next_check < t) s.next_check += period;
  s.errors = 0;
}

// A failed check (set_server_check_status, CHK_RES_FAILED): one lower, and
// below rise, 0. Falling below rise marks the server DOWN.
void HAProxyCheck::fail(State& s, FleetEvents& events, std::uint32_t id, double t) const {
  const bool was_up = s.health >= c_.rise;
  if (s.health > 0 && --s.health < c_.rise) s.health = 0;
  if (was_up && s.health < c_.rise) events.eject(id, t);
}

void HAProxyCheck::schedule_check(State& s, FleetEvents& events, std::uint32_t id) const {
  events.schedule(Timer{s.next_check, id, ++s.seq, TimerKind::HAProxyCheck});
}

void HAProxyCheck::report(const Fleet&, FleetEvents& events, std::uint32_t id, double t, bool failed, bool retried) {
  if (failed && retried) return;
  State& s = s_[id];
  catch_up(s, t);
  if (!failed) {
    s.errors = 0;
    return;
  }
  if (++s.errors < c_.error_limit) return;
  // __health_adjust (src/check.c): the limit reached, whatever the server's state.
  s.errors = 0;
  s.forced = true;
  switch (c_.on_error) {
    case OnError::FastInter: break;
    case OnError::SuddenDeath:
      if (s.health > c_.rise) s.health = c_.rise + 1;
      fail(s, events, id, t);
      break;
    case OnError::FailCheck: fail(s, events, id, t); break;
    case OnError::MarkDown:
      s.health = c_.rise;
      fail(s, events, id, t);
      break;
  }
  // With fastinter set, the check task is woken: it runs sooner if its next
  // interval from now is shorter than what is left (process_chk_conn, "health-check
  // was advanced"), and the forced flag ends there. HAProxy 2.6 requeued the
  // task at now + fastinter directly (no flag).
  if (c_.fastinter > 0) {
    if (c_.legacy_fastinter) s.forced = false;
    const double sooner = t + (c_.legacy_fastinter ? configured(c_.fastinter, c_.inter) : interval(s));
    if (sooner < s.next_check) {
      s.next_check = sooner;
      s.forced = false;
    }
  }
  if (s.forced || s.health != top()) schedule_check(s, events, id);
}

void HAProxyCheck::check_due(FleetEvents& events, std::uint32_t id, std::uint32_t seq, double t) {
  State& s = s_[id];
  if (seq != s.seq) return;
  const bool was_down = s.health < c_.rise;
  s.errors = 0;
  if (s.health < top() && ++s.health >= c_.rise) s.health = top();
  s.next_check = t + check_seconds() + interval(s);
  s.forced = false;
  if (was_down && s.health >= c_.rise) events.readmit(id, t);
  if (s.health != top()) schedule_check(s, events, id);
}

}  // namespace slowstart
