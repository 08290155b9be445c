// The ramp, against the SPEC's table and its edge cases, worked by hand.
#include <gtest/gtest.h>

#include "engine/limits.hpp"
#include "engine/ramp.hpp"

using slowstart::ramp_weight;

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
