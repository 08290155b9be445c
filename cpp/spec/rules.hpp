// The two rules a slow-start balancer is made of, as an interface: the
// effective weight of a backend and the pick. The SPEC's rules are not an
// implementation of it: the pool applies them itself (ramp.hpp, and
// smooth_wrr.hpp for the pick) when no Rules are set, without a virtual
// call. Implementations: ramp curves of real balancers (CurveRules,
// curves.hpp), the SPEC's rules with one setting broken, which the mistake
// catalogue is made of (VariantRules, rule_variants.hpp), and, in the
// browser, a learner's JavaScript (JsRules, cpp/wasm/js_rules.hpp).
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace slowstart {

struct Backend;

// What ADD of a name already in the pool does. The SPEC: replace in place.
enum class AddExisting : std::uint8_t { ReplaceInPlace, AppendDuplicate };

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

  // Whole-program hooks: what a complete program decides besides the rules
  // above, so that the mistake catalogue can model a learner's program that
  // gets one of them wrong. The defaults are the SPEC's answers; the pool
  // asks only when custom Rules are set, so the SPEC's path never pays.
  //
  // The weight a DOWN backend has (WEIGHTS shows it; the pick sees it).
  virtual std::int64_t weight_when_down(const Backend& /*b*/, std::int64_t /*now*/) { return 0; }
  virtual AddExisting add_existing() const { return AddExisting::ReplaceInPlace; }
  // UP of a backend that is UP already: restart its ramp (and its score)?
  virtual bool up_restarts_up_backend() const { return true; }
  // POOL: do backends whose names were in the old pool keep their scores?
  virtual bool pool_keeps_scores() const { return false; }
  // WEIGHTS in another order than the names' bytes: fill `order` with the
  // positions to list and return true. The rules do the sorting, so that
  // the pool (and the engine module every page loads) carries none of it.
  virtual bool weights_order(const Backend* /*backends*/, std::size_t /*n*/, std::vector<std::uint32_t>& /*order*/) {
    return false;
  }
};

}  // namespace slowstart
