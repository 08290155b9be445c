// The pick, against hand-worked smooth-WRR sequences from the SPEC.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/pool.hpp"

using slowstart::kNone;
using slowstart::Pool;
using slowstart::PoolEntryView;

namespace {

Pool make_pool(const std::vector<PoolEntryView>& entries) {
  Pool p;
  p.replace(entries);
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
