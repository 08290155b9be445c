// nginx's passive health check (ngx_http_upstream_module, `server ...
// max_fails=N fail_timeout=T`; the rules are ngx_http_upstream_round_robin.c's,
// docs/WHY-SLOW-START.md section 7 cites them):
//   - a failure counts, stamps the second and lowers the server's effective
//     weight by weight / max_fails; max_fails failures make it unavailable;
//   - every pick raises each lowered effective weight by 1;
//   - after fail_timeout the server takes part again and the pick that
//     chooses it is a single probe: until it answers (or fail_timeout passes
//     again) nothing else goes there; a success clears the count once the
//     server was tried again after its last failure.
// Its clock is whole seconds, as nginx's.
#pragma once
#include <cstdint>
#include <vector>

#include "traffic/budget.hpp"
#include "traffic/fleet.hpp"
#include "traffic/options.hpp"

namespace slowstart {

// An upstream of one server (nginx's `peers->single`): never marked
// unavailable, its failures not counted, a failed request not passed on
// (docs/proxy-rules.md N2). The lab's pool is the upstream.
inline bool single_server(const Fleet& fleet) { return fleet.backends.size() == 1; }

// Whether nginx passes a request on after its attempt number `tries` failed,
// `elapsed_ms` after the first attempt began (`ngx_http_upstream_next`,
// ngx_http_upstream.c), the lab's --retries allowing it:
//   - never from a single server (N2: the tries left are set to 0);
//   - each server at most once (N6): the tries are bounded by the upstream's
//     servers (`peers->tries`, ngx_http_upstream_init_round_robin), so
//     `proxy_next_upstream_tries 0` is every server once, and a retry never
//     finds every server tried;
//   - not once `proxy_next_upstream_timeout` has passed since the first
//     attempt (N7: `ngx_current_msec - u->peer.start_time >= timeout`); 0: no limit.
inline bool nginx_passes_on(const Fleet& fleet, std::uint32_t tries, double elapsed_ms, double next_upstream_timeout_ms) {
  if (single_server(fleet)) return false;
  if (next_upstream_timeout_ms > 0 && elapsed_ms >= next_upstream_timeout_ms) return false;
  // More servers than tries so far (nginx counts those not marked `down`: the
  // lab's UP ones); the count stops there, a step or two for a first retry.
  std::uint32_t servers = 0;
  for (const Backend& b : fleet.backends)
    if ((servers += b.up) > tries) return true;
  return false;
}

class NginxCheck {
 public:
  // Every pick's pass over the lowered effective weights adds to `meter`.
  NginxCheck(const HealthCheck& check, std::size_t ids, WorkMeter& meter)
      : c_(check), meter_(meter), state_(ids), listed_(ids, 0) {}

  // The script (re)started or took down the backend: its counters start over.
  void restart(std::uint32_t id) { state_[id] = State{}; }
  // The check let it back.
  void readmitted(std::uint32_t id) { state_[id].probe = false; }
  // An attempt on backend `id` (UP, in the pool) failed or succeeded at `t`.
  void report(const Fleet& fleet, FleetEvents& events, std::uint32_t id, double t, bool failed);
  // After every pick (`pos`: the winner's position, or kNone).
  void after_pick(const Fleet& fleet, FleetEvents& events, std::int32_t pos, double t);
  // fail_timeout passed: the server takes part again; the pick that chooses it is the probe.
  void probe_due(FleetEvents& events, std::uint32_t id) {
    state_[id].probe = true;
    events.set_out(id, false);
  }
  // How far its effective weight is below its weight.
  std::int64_t dip(std::uint32_t id) const { return state_[id].dip; }

 private:
  struct State {
    bool probe = false;       // fail_timeout passed: the next pick is a probe
    std::uint32_t fails = 0;  // nginx's fails
    std::int64_t checked = 0, accessed = -1;  // whole seconds
    std::int64_t dip = 0;     // weight - effective_weight
  };
  const HealthCheck& c_;
  WorkMeter& meter_;
  std::vector<State> state_;           // by id
  std::vector<std::uint32_t> dipped_;  // ids whose effective weight is below their weight
  std::vector<std::uint8_t> listed_;   // by id: in dipped_
};

}  // namespace slowstart
