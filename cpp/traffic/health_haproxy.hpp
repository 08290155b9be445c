// HAProxy's passive health check as the lab models it (`server ... check
// observe layer7 error-limit N on-error mark-down inter T rise R`; the
// rules and their sources are in docs/WHY-SLOW-START.md section 7):
//   - observe layer7 counts consecutive errors of live traffic; error-limit
//     of them, with on-error mark-down, take the server down at once;
//   - active checks every `inter` seconds, on one grid from 0, bring it back
//     after `rise` good ones (the lab's checks always succeed);
//   - a timed-out request that is retried on another server
//     (retry-on response-timeout) is not an error it observes: recorded with
//     HAProxy 2.6 (tests/cpp/traffic_real/), 11 retried timeouts in a row and
//     the server stayed UP.
#pragma once
#include <cstdint>
#include <vector>

#include "traffic/fleet.hpp"
#include "traffic/options.hpp"

namespace slowstart {

class HAProxyCheck {
 public:
  HAProxyCheck(const HealthCheck& check, std::size_t ids) : c_(check), errors_(ids, 0) {}

  void restart(std::uint32_t id) { errors_[id] = 0; }
  void readmitted(std::uint32_t id) { errors_[id] = 0; }
  // `retried`: the failed request is tried again on another server.
  void report(const Fleet& fleet, FleetEvents& events, std::uint32_t id, double t, bool failed, bool retried);

 private:
  const HealthCheck& c_;
  std::vector<std::uint32_t> errors_;  // by id: consecutive errors
};

}  // namespace slowstart
