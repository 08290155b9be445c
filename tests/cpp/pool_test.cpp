// The pool: what ADD, UP, POOL and WEIGHTS do to its backends, positions,
// weights and scores, against values worked by hand from the SPEC (the
// pick's own order is pick_test.cpp's).
#include <gtest/gtest.h>

#include "core/pool.hpp"

using slowstart::Pool;

TEST(Pool, AddReplacesInPlaceAndResetsScore) {
  Pool p;
  p.replace({{"a", 1}, {"b", 1}, {"c", 1}});
  // pick 1: a1 b1 c1 -> a wins: a -2, b 1, c 1
  // pick 2: a -1, b 2, c 2 -> b wins: b -1
  EXPECT_EQ(p.pick(), 0);
  EXPECT_EQ(p.pick(), 1);
  EXPECT_EQ(p.score(1), -1);
  p.add("b", 4, 0);
  EXPECT_EQ(p.backend(1).name, "b");  // same position
  EXPECT_EQ(p.score(1), 0);
  EXPECT_EQ(p.weight(1), 4);
  EXPECT_EQ(p.size(), 3u);
  p.add("d", 1, 0);
  EXPECT_EQ(p.backend(3).name, "d");  // new names go to the end
}

TEST(Pool, UpRestartsTheRampAndResetsScore) {
  Pool p;
  p.replace({{"a", 10}, {"b", 10}});
  EXPECT_EQ(p.pick(), 0);  // a: 10-20 = -10
  EXPECT_EQ(p.score(0), -10);
  p.set_now(100);
  p.up("a", 20);  // already UP: ramp restarts from now
  EXPECT_EQ(p.score(0), 0);
  EXPECT_EQ(p.weight(0), 0);
  p.set_now(105);
  EXPECT_EQ(p.weight(0), 2);
}

TEST(Pool, PoolHasNoRampEvenLateInTheClock) {
  Pool p;
  p.set_now(1000);
  p.replace({{"a", 10}});
  EXPECT_EQ(p.weight(0), 10);
  EXPECT_EQ(p.backend(0).ramp, 0);
}

TEST(Pool, WeightsLineSortedByBytesDownShowsZero) {
  Pool p;
  p.replace({{"b", 1}, {"a", 2}, {"B", 3}, {"\xc3\xa9", 4}});
  p.down("b");
  // byte order: 'B' (0x42) < 'a' < 'b' < 0xC3
  EXPECT_EQ(p.weights_line(), "B=3 a=2 b=0 \xc3\xa9=4");
  p.add("A", 5, 0);
  EXPECT_EQ(p.weights_line(), "A=5 B=3 a=2 b=0 \xc3\xa9=4");
  Pool empty;
  EXPECT_EQ(empty.weights_line(), "");
}

TEST(Pool, HugeWeightsAndScoresDoNotOverflow) {
  // 10^6 weight ramping over 10^12 s: weight = 10^6 * e / 10^12.
  Pool p;
  p.replace({{"a", 1'000'000}});
  p.add("b", 1'000'000, 1'000'000'000'000);
  p.set_now(500'000'000'000);
  EXPECT_EQ(p.weight(1), 500'000);
  p.set_now(999'999'999'999);
  EXPECT_EQ(p.weight(1), 999'999);
}
