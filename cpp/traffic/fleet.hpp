// The fleet as the traffic simulation's parts share it: who is in the pool
// (by position, as the script's pool has them), each backend's id (stable
// across POOL lines: the result's columns), the attempts in flight, and the
// passive health state every balancer's check keeps. The event loop
// (traffic.cpp) owns it; the health checks (health_*.cpp), the service model
// and the policies read it, and change it only through FleetEvents.
#pragma once
#include <cstdint>
#include <limits>
#include <tuple>
#include <vector>

#include "core/pool.hpp"
#include "spec/pick.hpp"

namespace slowstart {

// What every passive check keeps of a backend, by id.
struct Passive {
  bool out = false;         // the balancer leaves it out of picks
  bool ejected = false;     // counted as an ejection (the lane's Ejected)
  double ejected_at = 0;
  std::uint32_t epoch = 0;  // bumped on every change: older timers are void
  double readmitted_at = -1;
};

struct Fleet {
  // By position: the pool as the script has it now.
  std::vector<Backend> backends;
  std::vector<std::uint32_t> pos_id;
  // By id.
  std::vector<std::int32_t> id_pos;    // its position now, or kNone
  std::vector<std::uint32_t> active;   // its attempts in flight
  std::vector<Passive> passive;
  // Envoy's panic mode (docs/proxy-rules.md E3): too few hosts healthy, so
  // the balancer picks among all of them, those left out included.
  bool panic = false;

  // Backend `id` is in the pool and UP (the script's view; a check may still leave it out).
  bool up(std::uint32_t id) const {
    return id_pos[id] != kNone && backends[static_cast<std::size_t>(id_pos[id])].up;
  }
  // Position i can take a request: UP, a weight above 0, not left out by a
  // check (or in panic, when the check's verdict is overridden).
  bool available(std::size_t i) const {
    return backends[i].up && backends[i].target > 0 && (!passive[pos_id[i]].out || panic);
  }
};

// A health check's timer: HAProxy's next active check (its own numbering in
// `epoch`), nginx's fail_timeout passing, Envoy's sweep. nginx's is void when
// the backend's epoch moved on.
enum class TimerKind : std::uint8_t { HAProxyCheck, NginxProbe, EnvoySweep };
struct Timer {
  double t;
  std::uint32_t id, epoch;
  TimerKind kind;
  // A total order (see Done in traffic.cpp): a heap's ties differ between C++ libraries.
  bool operator>(const Timer& o) const { return std::tie(t, id, epoch, kind) > std::tie(o.t, o.id, o.epoch, o.kind); }
};

// What a health check may do to the fleet; the event loop does it (and
// keeps the weights, the lanes and the result in step).
class FleetEvents {
 public:
  virtual ~FleetEvents() = default;
  // Out of picks, counted as an ejection (once, until it is readmitted).
  virtual void eject(std::uint32_t id, double t) = 0;
  // Back in the pool: a recovery, with its ramp when slow start is on.
  virtual void readmit(std::uint32_t id, double t) = 0;
  // Out of picks for a moment, or back in them, without an ejection's bookkeeping (nginx's probe).
  virtual void set_out(std::uint32_t id, bool out) = 0;
  // Its weight changed (nginx's effective weight).
  virtual void reweigh(std::uint32_t id) = 0;
  virtual void schedule(const Timer& timer) = 0;
  // The backend's timers scheduled so far will not fire (a new epoch).
  virtual void void_timers(std::uint32_t id) = 0;
};

}  // namespace slowstart
