// The two rules a slow-start balancer is made of, as an interface: the
// effective weight of a backend and the pick. The engine's own
// implementation is the SPEC's (ramp.hpp + pick.hpp), and the pool uses it
// without a virtual call when no other Rules are set. Other implementations:
// ramp curves of real balancers (curves.hpp) and, in the browser, a
// learner's JavaScript (cpp/wasm/bindings.cpp).
#pragma once
#include <cstddef>
#include <cstdint>

namespace slowstart {

struct Backend;

class Rules {
 public:
  virtual ~Rules() = default;
  // The weight of an UP backend at `now` (the pool handles DOWN: weight 0).
  virtual std::int64_t effective_weight(const Backend& b, std::int64_t now) = 0;
  // One pick over all n backends in pool order (DOWN ones included, with
  // weight 0): update scores[] and return the winner's index, or kNone.
  virtual std::int32_t pick(const Backend* backends, const std::int64_t* weights,
                            std::int64_t* scores, std::size_t n) = 0;
  // The score a backend (re)joining with ADD or UP starts with. The SPEC's
  // answer is 0; it is a rule here so that a learner's code can get it wrong.
  virtual std::int64_t score_on_join(const Backend& /*b*/, std::int64_t /*old_score*/) { return 0; }
  // The script line about to run, so rules can say where something went wrong.
  virtual void begin_line(std::uint64_t /*line*/) {}
};

}  // namespace slowstart
