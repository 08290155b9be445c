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
