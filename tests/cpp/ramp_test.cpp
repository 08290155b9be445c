// The ramp, against the SPEC's table and its edge cases, worked by hand.
#include <gtest/gtest.h>

#include "spec/limits.hpp"
#include "spec/ramp.hpp"

using slowstart::kNoClockBound;
using slowstart::ramp_weight;
using slowstart::steady_span;

TEST(Ramp, SpecTableTarget10Ramp20) {
  // now - joined:      0  5  10 15 19 20  100
  const int elapsed[] = {0, 5, 10, 15, 19, 20, 100};
  const int expected[] = {0, 2, 5, 7, 9, 10, 10};
  for (int k = 0; k < 7; ++k)
    EXPECT_EQ(ramp_weight(10, 20, 1000, 1000 + elapsed[k]), expected[k]) << "elapsed " << elapsed[k];
}

TEST(Ramp, RoundsDownNotToNearest) {
  EXPECT_EQ(ramp_weight(10, 20, 0, 5), 2);   // 10*5/20 = 2.5 -> 2
  EXPECT_EQ(ramp_weight(10, 20, 0, 15), 7);  // 7.5 -> 7, not 8
  EXPECT_EQ(ramp_weight(3, 4, 0, 3), 2);     // 2.25 -> 2
  EXPECT_EQ(ramp_weight(1, 30, 0, 29), 0);   // 0.966 -> 0: weight 1 jumps at the end
  EXPECT_EQ(ramp_weight(1, 30, 0, 30), 1);
}

TEST(Ramp, CapAtTarget) {
  EXPECT_EQ(ramp_weight(10, 20, 0, 21), 10);
  EXPECT_EQ(ramp_weight(10, 20, 0, 1'000'000), 10);
  EXPECT_EQ(ramp_weight(7, 1, 0, 5), 7);
}

TEST(Ramp, ZeroRampMeansFullWeightAtOnce) {
  EXPECT_EQ(ramp_weight(10, 0, 50, 50), 10);
  EXPECT_EQ(ramp_weight(10, 0, 50, 0), 10);  // even with the clock before joining
  EXPECT_EQ(ramp_weight(0, 0, 0, 0), 0);
}

TEST(Ramp, ZeroAtTheMomentOfJoining) {
  EXPECT_EQ(ramp_weight(1'000'000, 1, 7, 7), 0);
}

TEST(Ramp, ClockSetBackwardsClampsElapsedAtZero) {
  EXPECT_EQ(ramp_weight(10, 20, 100, 40), 0);
  EXPECT_EQ(ramp_weight(10, 20, 100, 0), 0);
}

TEST(Ramp, LargestValuesDoNotOverflow) {
  const std::int64_t W = slowstart::kMaxWeight, T = slowstart::kMaxTime;
  // 10^6 * (10^12 - 1) / 10^12 = 999999.999999 -> 999999
  EXPECT_EQ(ramp_weight(W, T, 0, T - 1), 999'999);
  EXPECT_EQ(ramp_weight(W, T, 0, T / 2), 500'000);
  EXPECT_EQ(ramp_weight(W, T, 0, T), W);
  EXPECT_EQ(ramp_weight(W, T, T, 0), 0);
  EXPECT_EQ(ramp_weight(W, T, 0, 1), 0);  // 10^6 / 10^12 rounds down to 0
  EXPECT_EQ(ramp_weight(W, T, 0, 1'000'000), 1);
}

// steady_span: where the weight at `now` holds, worked from the SPEC's table
// (target 10, ramp 20, joined at 1000: weight = elapsed / 2, rounded down).
TEST(RampSpan, WhereTheWeightHolds) {
  auto span = steady_span(10, 20, 1000, 1005);  // weight 2 for elapsed 4 and 5
  EXPECT_EQ(span.from, 1004);
  EXPECT_EQ(span.to, 1006);
  span = steady_span(10, 20, 1000, 1000);  // weight 0 from any time before to elapsed 1
  EXPECT_EQ(span.from, -kNoClockBound);
  EXPECT_EQ(span.to, 1002);
  EXPECT_EQ(steady_span(10, 20, 1000, 900).to, 1002);  // the clock before the join: 0 too
  span = steady_span(10, 20, 1000, 1019);  // weight 9, the last step before the target
  EXPECT_EQ(span.from, 1018);
  EXPECT_EQ(span.to, 1020);
  span = steady_span(10, 20, 1000, 1020);  // the target from the ramp's end on
  EXPECT_EQ(span.from, 1020);
  EXPECT_EQ(span.to, kNoClockBound);
  span = steady_span(1, 30, 0, 29);  // weight 1 over 30 s: 0 until the end
  EXPECT_EQ(span.from, -kNoClockBound);
  EXPECT_EQ(span.to, 30);
  span = steady_span(1'000'000, 1, 7, 7);  // a 1 s ramp: 0 at the join, the target a second later
  EXPECT_EQ(span.to, 8);
  span = steady_span(1'000'000, 1'000'000'000'000, 0, 999'999'999'999);  // the largest products
  EXPECT_EQ(ramp_weight(1'000'000, 1'000'000'000'000, 0, span.from), 999'999);
  EXPECT_EQ(ramp_weight(1'000'000, 1'000'000'000'000, 0, span.to), 1'000'000);
  EXPECT_EQ(span.to, 1'000'000'000'000);
}

// Every span is exactly the run of clock values with the same weight: the
// same inside, different just outside, for every small ramp and clock.
TEST(RampSpan, IsExactlyTheRunOfEqualWeights) {
  for (std::int64_t target = 1; target <= 12; ++target)
    for (std::int64_t ramp = 1; ramp <= 15; ++ramp)
      for (std::int64_t now = -3; now <= ramp + 3; ++now) {
        const auto span = steady_span(target, ramp, 0, now);
        const std::int64_t w = ramp_weight(target, ramp, 0, now);
        const std::int64_t from = span.from == -kNoClockBound ? -5 : span.from;
        const std::int64_t to = span.to == kNoClockBound ? ramp + 5 : span.to;
        ASSERT_LE(from, now);
        ASSERT_LT(now, to);
        for (std::int64_t t = from; t < to; ++t)
          ASSERT_EQ(ramp_weight(target, ramp, 0, t), w) << target << "/" << ramp << " at " << t;
        if (span.from != -kNoClockBound) ASSERT_NE(ramp_weight(target, ramp, 0, span.from - 1), w);
        if (span.to != kNoClockBound) ASSERT_NE(ramp_weight(target, ramp, 0, span.to), w);
      }
}
