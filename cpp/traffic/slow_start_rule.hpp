// Slow start as the proxies configure it (`--slow-start S`): every backend has
// the same window, and the balancer's own rule says which of its joins and
// recoveries ramp. docs/proxy-rules.md has each rule with its source:
//
//                    start  reload  add  UP   check recovery  passive return
//   haproxy (H8-H10)  no     no      yes  yes  yes             yes (it left DOWN)
//   envoy   (E6-E7)   yes    kept    yes  yes  yes             no (outlier ejection)
//   nginx-plus (N8)   no     no      yes  yes  yes             yes (unavailable -> available)
//   nginx-mod  (N9)   yes    yes     yes  no   no              no
//
// "kept": Envoy keeps a host that an update still lists (its ramp, if any,
// goes on from its join); a host new to the pool joins. A reload under
// HAProxy and NGINX Plus starts every server at full weight (a ramp in
// progress ends). The policies: HAProxy ramps only dynamic algorithms (not
// static-rr); Envoy only round_robin and least_request (the lab's wrr and
// least-request); NGINX Plus not with random (nor hash, ip_hash: not
// modelled); nginx-mod only in the round-robin scheduler (the lab's wrr).
//
// The curve names the balancer (haproxy, envoy; linear is nginx's, whose
// rule --slow-start-rule chooses). Without --slow-start the script's ADD
// and UP ramps are used as written (traffic/ramps.hpp).
#pragma once
#include <cstdint>

#include "traffic/names.hpp"
#include "traffic/options.hpp"

namespace slowstart {

// How a backend (re)entered the pool, as the simulation sees it.
enum class Entry : std::uint8_t {
  Start,           // in the first POOL (the proxy starts), or new to the pool at a reload
  Reload,          // in a later POOL and in the one before (a reload keeps its name)
  Add,             // ADD: added at run time (HAProxy's `add server` + enable, a
                   // server-template slot; Envoy's new host; nginx's API)
  Up,              // UP: back from maintenance (HAProxy's `state ready`), admin up
  CheckRecovery,   // readmitted by an active health check (the lab's haproxy check;
                   // Envoy's with --ramp-after-ejection)
  PassiveReturn,   // back when a passive verdict ran out (nginx's fail_timeout, Envoy's ejection)
};

enum class RampDecision : std::uint8_t {
  None,   // full weight now (or, on a return, whatever ramp is left goes on)
  Ramp,   // a ramp of the window from now
  Keep,   // the ramp it had before the reload goes on
};

// Whether --slow-start is in force (the script's ramps are not used).
inline bool window_mode(const TrafficOptions& o) { return o.slow_start && o.slow_start_window > 0; }

// What the balancer does on `entry` (only meaningful in window_mode).
RampDecision balancer_ramps(const TrafficOptions& o, Entry entry);

// Whether the balancer ramps under `o`'s policy at all.
bool policy_ramps(const TrafficOptions& o);

// The balancer whose rule applies: "haproxy", "envoy", "nginx-plus" or "nginx-mod".
const char* rule_name(const TrafficOptions& o);

}  // namespace slowstart
