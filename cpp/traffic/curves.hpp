// Ramp curves of real balancers, and the integer resolution weights are kept
// at. The SPEC's rule is `linear` at resolution 1; the others exist to show
// how balancers differ and why integer weights make small targets jump.
//
//   linear   weight = target * min(e, ramp) / ramp             (NGINX Plus, the SPEC)
//   envoy    factor = max((max(e, 1 ms) / W)^(1/aggression), min_weight_percent / 100)
//            while e < W, else 1                                (Envoy slow_start_config)
//   haproxy  step = 1 + floor(16 * floor(e) / S), factor = step / 16 while e < S;
//            only a backend recovering from DOWN ramps          (HAProxy slowstart)
//
// The internal weight is floor(target * resolution * factor): resolution 1
// is the SPEC's integers; 16, 100 or 1000 give finer steps (HAProxy keeps
// weights x16, nginx-mod scales by a 0-100 factor). By default each curve
// has its own (resolution_of): linear 100, haproxy 16, envoy 1000.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "core/pool.hpp"
#include "spec/rules.hpp"
#include "core/validate.hpp"
#include "traffic/names.hpp"

namespace slowstart {

struct Curve {
  CurveKind kind = CurveKind::Linear;
  std::int64_t resolution = 0;      // 1, 16, 100 or 1000; 0: the curve's own (resolution_of)
  double aggression = 1.0;          // envoy: > 0; 1 is linear
  double min_weight_percent = 10.0; // envoy: floor of the factor, 0 ... 100
};

// The resolution a curve's weights are kept at: the one set, else the
// curve's own: HAProxy's sixteenths (BE_WEIGHT_SCALE 16, H10), nginx-mod's
// 0-100 factor for the linear curve (N9), and 1000 for Envoy, whose weights
// are doubles (E6): the finest the lab keeps.
std::int64_t resolution_of(const Curve& curve);

// The curve's options as the option table has them (defined there, in
// traffic/option_table.cpp, with their ranges):
// "linear", "envoy" or "haproxy";
Problem parse_curve_kind(std::string_view text, CurveKind& out);
// the resolution from a number as a front end reads it (1, 16, 100 or
// 1000; `shown` is how the user wrote it, for the message);
Problem set_resolution(double value, std::string_view shown, Curve& curve);
// resolution, aggression and floor checked.
Problem check_curve(const Curve& curve);

// The share of its target a backend has after `elapsed` seconds of a
// `window`-second ramp (window > 0), in [0, 1]. `recovering` is false for a
// backend that joined with ADD or POOL (HAProxy ramps only on recovery).
double ramp_factor(const Curve& curve, double elapsed, double window, bool recovering);

// The internal integer weight of an UP backend `elapsed` seconds after it
// joined. Linear with whole seconds is computed in integers, exactly the SPEC.
std::int64_t curve_weight(const Curve& curve, std::int64_t target, std::int64_t ramp,
                          double elapsed, bool recovering);

// The same at a whole number of milliseconds (the traffic simulation's
// clock): linear and HAProxy in exact integers, Envoy's power curve in
// doubles. It never decreases as elapsed_ms grows (so the next change can
// be searched for), and at whole seconds it equals curve_weight.
std::int64_t curve_weight_ms(const Curve& curve, std::int64_t target, std::int64_t ramp,
                             std::int64_t elapsed_ms, bool recovering);

// Rules with a curve for the weight and the SPEC's smooth WRR for the pick,
// for script runs ("what would WEIGHTS print under Envoy's ramp?").
class CurveRules : public Rules {
 public:
  explicit CurveRules(Curve curve) : curve_(curve) {}
  std::int64_t effective_weight(const Backend& b, std::int64_t now) override;
  std::int32_t pick(const Backend*, const std::int64_t* weights, std::int64_t* scores,
                    std::size_t n) override {
    return smooth_pick(weights, scores, n);
  }

 private:
  Curve curve_;
};

}  // namespace slowstart
