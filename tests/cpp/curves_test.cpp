// Ramp curves and resolution, from the balancers' formulas worked by hand.
#include <gtest/gtest.h>

#include "traffic/curves.hpp"
#include "core/interpreter.hpp"

using namespace slowstart;

namespace {
Curve curve(CurveKind kind, std::int64_t resolution = 1) {
  Curve c;
  c.kind = kind;
  c.resolution = resolution;
  return c;
}
}  // namespace

TEST(Curves, LinearAtResolutionOneIsTheSpec) {
  const Curve c = curve(CurveKind::Linear);
  const int elapsed[] = {0, 5, 10, 15, 19, 20, 100};
  const int expected[] = {0, 2, 5, 7, 9, 10, 10};
  for (int k = 0; k < 7; ++k) EXPECT_EQ(curve_weight(c, 10, 20, elapsed[k], false), expected[k]);
  EXPECT_EQ(curve_weight(c, 10, 0, 0, false), 10);  // no ramp
  // Largest values: 10^6 * 1000 * (10^12 - 1) / 10^12 needs more than 64 bits on the way.
  EXPECT_EQ(curve_weight(curve(CurveKind::Linear, 1000), 1'000'000, 1'000'000'000'000, 999'999'999'999.0, false),
            999'999'999);
}

TEST(Curves, ResolutionRemovesTheWeightOneJump) {
  // target 1, ramp 30, 29 s in: 29/30 of the target.
  EXPECT_EQ(curve_weight(curve(CurveKind::Linear, 1), 1, 30, 29, false), 0);      // 0.97 -> 0
  EXPECT_EQ(curve_weight(curve(CurveKind::Linear, 16), 1, 30, 29, false), 15);    // 15.47
  EXPECT_EQ(curve_weight(curve(CurveKind::Linear, 100), 1, 30, 29, false), 96);   // 96.67
  EXPECT_EQ(curve_weight(curve(CurveKind::Linear, 1000), 1, 30, 29, false), 966); // 966.67
  EXPECT_EQ(curve_weight(curve(CurveKind::Linear, 1), 1, 30, 30, false), 1);
  // Fractional time (the traffic simulation): 100 * 1.5 / 30 = 5.
  EXPECT_EQ(curve_weight(curve(CurveKind::Linear, 100), 1, 30, 1.5, false), 5);
}

TEST(Curves, EnvoyAggressionAndFloor) {
  Curve c = curve(CurveKind::Envoy, 100);  // aggression 1, floor 10 %
  EXPECT_EQ(curve_weight(c, 1, 30, 0, false), 10);   // max((0.001/30)^1, 0.1) = 0.1
  EXPECT_EQ(curve_weight(c, 1, 30, 1, false), 10);   // 1/30 = 0.033 < 0.1
  EXPECT_EQ(curve_weight(c, 1, 30, 6, false), 20);   // 0.2
  EXPECT_EQ(curve_weight(c, 1, 30, 15, false), 50);  // 0.5
  EXPECT_EQ(curve_weight(c, 1, 30, 30, false), 100);
  c.aggression = 2.0;
  EXPECT_EQ(curve_weight(c, 1, 30, 15, false), 70);  // sqrt(0.5) = 0.7071
  EXPECT_EQ(curve_weight(c, 1, 30, 7.5, false), 50); // sqrt(0.25) = 0.5
  c.min_weight_percent = 0;
  c.aggression = 1.0;
  EXPECT_EQ(curve_weight(c, 1, 30, 0, false), 0);    // 0.001/30 * 100 = 0.003
  // At resolution 1 a weight-1 backend stays at 0 for the whole window.
  EXPECT_EQ(curve_weight(curve(CurveKind::Envoy, 1), 1, 30, 29, false), 0);
}

TEST(Curves, HAProxySixteenSteps) {
  const Curve c = curve(CurveKind::HAProxy);
  // target 16, slowstart 16 s, recovering: step = 1 + floor(16 e / 16) = 1 + e.
  EXPECT_EQ(curve_weight(c, 16, 16, 0, true), 1);    // 1/16 at once, not 0
  EXPECT_EQ(curve_weight(c, 16, 16, 1, true), 2);
  EXPECT_EQ(curve_weight(c, 16, 16, 14.9, true), 15);  // whole seconds: floor(14.9) = 14
  EXPECT_EQ(curve_weight(c, 16, 16, 15, true), 16);  // full at 15/16 of the window
  // slowstart 30 s, 10 s in: 1 + floor(160 / 30) = 6 -> 6/16 of 16.
  EXPECT_EQ(curve_weight(c, 16, 30, 10, true), 6);
  // target 10: 10 * 6 / 16 = 3.75 -> 3; at resolution 16: 160 * 6/16 = 60.
  EXPECT_EQ(curve_weight(c, 10, 30, 10, true), 3);
  EXPECT_EQ(curve_weight(curve(CurveKind::HAProxy, 16), 10, 30, 10, true), 60);
  // HAProxy never ramps at start-up: only a backend recovering from DOWN.
  EXPECT_EQ(curve_weight(c, 16, 30, 10, false), 16);
}

TEST(Curves, RulesInAScriptRun) {
  CurveRules rules(curve(CurveKind::HAProxy, 16));
  RunOptions o;
  o.rules = &rules;
  // b joins with ADD (full at once under HAProxy), a recovers with UP.
  const auto r = run_script("POOL a=1\nADD b=1 30\nDOWN a\nUP a 30\nNOW 10\nWEIGHTS\n", o);
  ASSERT_EQ(r.output.size(), 1u);
  EXPECT_EQ(r.output[0].text, "a=6 b=16");  // a: 16 * (1 + floor(160/30)) / 16 = 6
}

TEST(Curves, OptionsAreChecked) {
  Curve c;
  c.resolution = 10;
  EXPECT_EQ(*check_curve(c), "resolution must be 0, 1, 16, 100 or 1000, got '10'");
  CurveKind k;
  EXPECT_EQ(*parse_curve_kind("nginx", k), "curve must be linear, envoy or haproxy, got 'nginx'");
  EXPECT_FALSE(parse_curve_kind("envoy", k));
  EXPECT_EQ(k, CurveKind::Envoy);
}
