// HAProxy's health check as the lab models it (`server ... check observe
// layer7 error-limit N on-error MODE inter T fastinter F downinter D rise R
// fall L`). Each rule's source is in docs/proxy-rules.md (H1-H7, HAProxy
// 3.4.0's src/check.c and src/server.c) and docs/WHY-SLOW-START.md section 7:
//   - the health counter (H4; `set_server_check_status`): 0 .. rise + fall - 1,
//     UP at rise or above; a failed check lowers it by one, and below rise to
//     0 (DOWN); a passing check raises it by one, and from rise to the top.
//     The lab starts every server at the top (its checks ran before traffic);
//   - observe layer7 (H1; `__health_adjust`): consecutive errors of live
//     traffic; a good response or a passing check clears them; at error-limit
//     they go back to 0 and on-error runs (H3): fail-check counts one failed
//     check, sudden-death first lowers the health to one failure from DOWN,
//     mark-down sets it to rise so the failure marks it DOWN, fastinter only
//     forces the next check's interval. Nothing looks at the server's state,
//     so the errors of requests still in flight after a mark-down run on-error
//     again and undo the rise progress (H7);
//   - active checks (the lab's always pass) every `srv_getinter()` (H5,
//     `server.c`): inter at the top, downinter at 0, fastinter otherwise and
//     after an on-error event; with fastinter set an on-error event brings the
//     pending check forward when that is sooner (3.4: `CHK_ST_FASTINTER`;
//     before 2.8, legacy_fastinter: to now + fastinter, whatever the state);
//     the next check starts an interval after the last one ended (H6): with
//     check_ms a check takes, the results come every interval + check_ms,
//     the first at 0 (on 127.0.0.1 a check took about 3 ms in the
//     recordings: intervals of 1.003 s with inter 1s). That drift moves the
//     checks across the traffic, as in the real runs, instead of keeping them
//     on a grid that ties with the requests' timeouts;
//   - a timed-out request that is retried on another server
//     (retry-on response-timeout) is not an error it observes (H14):
//     recorded with HAProxy 2.6 (tests/cpp/traffic_real/), 11 retried
//     timeouts in a row and the server stayed UP.
// A server at the top with no forced check needs no timer: its checks only
// clear the errors, which the next report catches up with (catch_up).
#pragma once
#include <cstdint>
#include <vector>

#include "traffic/fleet.hpp"
#include "traffic/options.hpp"

namespace slowstart {

class HAProxyCheck {
 public:
  HAProxyCheck(const HealthCheck& check, std::size_t ids);

  // The script (re)started it or took it down: health at the top, no errors;
  // its checks keep their schedule.
  void restart(std::uint32_t id);
  void readmitted(std::uint32_t) {}
  // `retried`: the failed request is tried again on another server.
  void report(const Fleet& fleet, FleetEvents& events, std::uint32_t id, double t, bool failed, bool retried);
  // The check timer `seq` of backend `id` is due at `t`.
  void check_due(FleetEvents& events, std::uint32_t id, std::uint32_t seq, double t);

 private:
  struct State {
    std::uint32_t health = 0;
    std::uint32_t errors = 0;   // consecutive observed errors
    std::uint32_t seq = 0;      // the pending check timer's number; older ones are void
    bool forced = false;        // CHK_ST_FASTINTER: the next interval is not inter
    double next_check = 0;      // when the next check is due
  };
  std::uint32_t top() const { return c_.rise + c_.fall - 1; }
  double check_seconds() const { return c_.check_ms / 1000.0; }
  double interval(const State& s) const;
  void catch_up(State& s, double t) const;
  void fail(State& s, FleetEvents& events, std::uint32_t id, double t) const;
  void schedule_check(State& s, FleetEvents& events, std::uint32_t id) const;

  const HealthCheck& c_;
  std::vector<State> s_;  // by id
};

}  // namespace slowstart
