// The pick, against hand-worked smooth-WRR sequences from the SPEC.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/pool.hpp"

using slowstart::kNone;
using slowstart::Pool;
using slowstart::PoolEntry;

namespace {

Pool make_pool(std::vector<PoolEntry> entries) {
  Pool p;
  p.replace(std::move(entries));
  return p;
}

std::string picks(Pool& p, int n) {
  std::string out;
  for (int k = 0; k < n; ++k) {
    const auto w = p.pick();
    out += w == kNone ? std::string("NONE") : p.backend(w).name;
    out += ' ';
  }
  return out;
}

}  // namespace

TEST(Pick, NginxFiveOneOneSequence) {
  // nginx's documented order for weights 5/1/1, and it repeats every 7.
  Pool p = make_pool({{"a", 5}, {"b", 1}, {"c", 1}});
  EXPECT_EQ(picks(p, 14), "a a b a c a a a a b a c a a ");
}

TEST(Pick, ScoresAfterTwoPicksAreTheSpecs) {
  // The SPEC's worked example: after two picks, a -4, b 2, c 2.
  Pool p = make_pool({{"a", 5}, {"b", 1}, {"c", 1}});
  picks(p, 2);
  EXPECT_EQ(p.score(0), -4);
  EXPECT_EQ(p.score(1), 2);
  EXPECT_EQ(p.score(2), 2);
}

TEST(Pick, TiesGoToTheEarliestInPool) {
  Pool p = make_pool({{"z", 1}, {"y", 1}, {"x", 1}});
  EXPECT_EQ(picks(p, 6), "z y x z y x ");
}

TEST(Pick, WeightZeroNeverWinsAndKeepsItsScore) {
  Pool p = make_pool({{"a", 0}, {"b", 1}});
  EXPECT_EQ(picks(p, 5), "b b b b b ");
  EXPECT_EQ(p.score(0), 0);
  // b: +1 then -1 each pick -> stays 0
  EXPECT_EQ(p.score(1), 0);
}

TEST(Pick, NoParticipantsIsNoneAndChangesNothing) {
  Pool empty;
  EXPECT_EQ(empty.pick(), kNone);
  Pool p = make_pool({{"a", 2}, {"b", 1}});
  picks(p, 1);  // a: 2-3 = -1, b: 1
  p.down("a");
  p.down("b");
  EXPECT_EQ(p.pick(), kNone);
  EXPECT_EQ(p.score(0), -1);
  EXPECT_EQ(p.score(1), 1);
}

TEST(Pick, ScoresSurviveWhileWeightsChange) {
  // a=1 b=1: pick -> a (a -1, b 1). If scores were reset, the next pick would
  // be a again; with scores kept it is b.
  Pool p = make_pool({{"a", 1}, {"b", 1}});
  EXPECT_EQ(picks(p, 2), "a b ");
}

TEST(Pick, DownBackendsScoreIsFrozen) {
  Pool p = make_pool({{"a", 1}, {"b", 1}, {"c", 1}});
  picks(p, 1);  // a -2, b 1, c 1
  p.down("b");
  // participants a, c: a -1, c 2 -> c wins, c 2-2=0 ; b stays 1
  EXPECT_EQ(picks(p, 1), "c ");
  EXPECT_EQ(p.score(1), 1);
}

TEST(Pool, AddReplacesInPlaceAndResetsScore) {
  Pool p = make_pool({{"a", 1}, {"b", 1}, {"c", 1}});
  picks(p, 2);  // a: 1-3=-2 ; then a -1, b 2-3=-1, c 2 ... see below
  // pick 1: a1 b1 c1 -> a wins: a -2, b 1, c 1
  // pick 2: a -1, b 2, c 2 -> b wins: b -1
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
  Pool p = make_pool({{"a", 10}, {"b", 10}});
  picks(p, 1);  // a: 10-20 = -10
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
  Pool p = make_pool({{"b", 1}, {"a", 2}, {"B", 3}, {"\xc3\xa9", 4}});
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
  Pool p = make_pool({{"a", 1'000'000}});
  p.add("b", 1'000'000, 1'000'000'000'000);
  p.set_now(500'000'000'000);
  EXPECT_EQ(p.weight(1), 500'000);
  p.set_now(999'999'999'999);
  EXPECT_EQ(p.weight(1), 999'999);
}
