// The fast exact pick (smooth_wrr.hpp) against the O(n) oracle (smooth_pick),
// and the ramp schedule that makes NOW cost only what changes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "../support/allocation_counter.hpp"
#include "../support/pick_differential.hpp"
#include "spec/pick.hpp"
#include "fast/ramp_schedule.hpp"
#include "fast/smooth_wrr.hpp"

using slowstart::kNone;
using slowstart::smooth_pick;
using slowstart::SmoothWrr;

namespace {

// Random operation streams, seeded: the same runs on every machine.
std::vector<std::uint8_t> random_bytes(std::uint64_t seed, std::size_t n) {
  slowstart_test::Mix mix(seed);
  std::vector<std::uint8_t> out(n);
  for (auto& b : out) b = static_cast<std::uint8_t>(mix.next());
  return out;
}

// A SmoothWrr and the oracle's arrays with the same weights and scores.
struct Twin {
  SmoothWrr wrr;
  std::vector<std::int64_t> w, s;
  explicit Twin(const std::vector<std::int64_t>& weights) : w(weights), s(weights.size(), 0) {
    wrr.reset(w.size());
    for (std::size_t i = 0; i < w.size(); ++i) wrr.set_weight(i, w[i]);
  }
  void score(std::size_t i, std::int64_t v) {
    s[i] = v;
    wrr.set_score(i, v);
  }
  // Picks `n` times on both sides; the first difference, or -1.
  long long first_difference(std::size_t n) {
    for (std::size_t k = 0; k < n; ++k) {
      const std::int32_t want = smooth_pick(w.data(), s.data(), w.size());
      if (wrr.pick() != want) return static_cast<long long>(k);
    }
    for (std::size_t i = 0; i < w.size(); ++i)
      if (wrr.score(i) != s[i]) return static_cast<long long>(n);
    return -1;
  }
};

}  // namespace

// Each run is a few seconds here; tests/fuzz/run.sh --pick runs the same
// driver coverage-guided for as long as asked.
TEST(SmoothWrrDifferential, RandomOperationStreamsMatchTheOracle) {
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    const auto bytes = random_bytes(seed, 1500);
    slowstart_test::ByteSource in(bytes.data(), bytes.size());
    ASSERT_EQ(slowstart_test::run_wrr_ops(in), "") << "seed " << seed;
  }
}

TEST(SmoothWrrDifferential, RandomPoolScriptsMatchTheOracle) {
  for (std::uint64_t seed = 1; seed <= 60; ++seed) {
    const auto bytes = random_bytes(seed * 7919, 1500);
    slowstart_test::ByteSource in(bytes.data(), bytes.size());
    ASSERT_EQ(slowstart_test::run_pool_ops(in), "") << "seed " << seed;
  }
}

TEST(SmoothWrr, SmallPoolsUseThePlainPassLargeOnesTheIndex) {
  SmoothWrr wrr;
  wrr.reset(SmoothWrr::kIndexFrom - 1);
  EXPECT_FALSE(wrr.indexed());
  wrr.push_back();
  EXPECT_TRUE(wrr.indexed());
  wrr.set_plain(true);  // custom rules: always the plain arrays
  EXPECT_FALSE(wrr.indexed());
}

TEST(SmoothWrr, NginxOrderInEveryMode) {
  // 5/1/1 gives a a b a c a a; padding with weight-0 backends forces the
  // index, which must give the same order.
  for (std::size_t pad : {std::size_t{0}, std::size_t{100}}) {
    std::vector<std::int64_t> w{5, 1, 1};
    w.resize(3 + pad, 0);
    Twin t(w);
    std::string order;
    for (int k = 0; k < 14; ++k) order += static_cast<char>('a' + t.wrr.pick());
    EXPECT_EQ(order, "aabacaaaabacaa") << pad;
  }
}

TEST(SmoothWrr, CountManyCountsTheNginxOrderInEveryMode) {
  // 5/1/1 picks a a b a c a a (see above): 7 picks count a 5, b 1, c 1, and
  // 9 picks (a a b a c a a, then a a) a 7. Counts go through the id map
  // (a is id 2, b id 0, c id 1) and add to what is there; padding with
  // weight-0 backends forces the index; 400 more backends with 40 weights
  // (1000 ... 1039, 10 each) force the tournament.
  for (std::size_t pad : {std::size_t{0}, std::size_t{100}}) {
    std::vector<std::int64_t> w{5, 1, 1};
    w.resize(3 + pad, 0);
    SmoothWrr wrr;
    wrr.reset(w.size());
    for (std::size_t i = 0; i < w.size(); ++i) wrr.set_weight(i, w[i]);
    std::vector<std::uint32_t> ids(w.size());
    for (std::size_t i = 0; i < ids.size(); ++i) ids[i] = static_cast<std::uint32_t>(i);
    ids[0] = 2, ids[1] = 0, ids[2] = 1;
    std::vector<std::uint32_t> counts(w.size(), 0);
    counts[2] = 100;
    EXPECT_EQ(wrr.count_many(7, ids.data(), counts.data()), 0u);
    EXPECT_EQ(counts[2], 105u) << pad;
    EXPECT_EQ(counts[0], 1u) << pad;
    EXPECT_EQ(counts[1], 1u) << pad;
    // The scores are back at 0 after a whole cycle of 7 (SPEC), then 2 more.
    EXPECT_EQ(wrr.count_many(2, ids.data(), counts.data()), 0u);
    EXPECT_EQ(counts[2], 107u) << pad;
    EXPECT_EQ(wrr.score(0), -4);
    EXPECT_EQ(wrr.score(1), 2);
    EXPECT_EQ(wrr.score(2), 2);
  }
  std::vector<std::int64_t> w{5, 1, 1};
  for (int c = 0; c < 40; ++c)
    for (int k = 0; k < 10; ++k) w.push_back(1000 + c);
  SmoothWrr wrr;
  wrr.reset(w.size());
  for (std::size_t i = 0; i < w.size(); ++i) wrr.set_weight(i, w[i]);
  wrr.pick();  // (the tree is built when a class changes; a weight change does it)
  wrr.set_weight(3, 999);
  ASSERT_TRUE(wrr.tournament());
  std::vector<std::uint32_t> ids(w.size());
  for (std::size_t i = 0; i < ids.size(); ++i) ids[i] = static_cast<std::uint32_t>(i);
  std::vector<std::uint32_t> counts(w.size(), 0);
  EXPECT_EQ(wrr.count_many(9, ids.data(), counts.data()), 0u);
  // By hand: the 10 backends of weight 1039 (393 ... 402) lead everyone
  // after every pick (j * 1039 against at most j * 1038), in pool order
  // (a tie goes to the earliest); the first pick took 393, so the 9 are
  // 394 ... 402.
  for (std::size_t i = 0; i < w.size(); ++i) EXPECT_EQ(counts[i], i >= 394 && i < 403 ? 1u : 0u) << i;
}

TEST(SmoothWrr, CountManyWithNoParticipantsCountsNone) {
  std::vector<std::int64_t> w(50, 0);
  SmoothWrr wrr;
  wrr.reset(w.size());
  std::vector<std::uint32_t> ids(50, 0), counts(50, 0);
  EXPECT_EQ(wrr.count_many(5, ids.data(), counts.data()), 5u);
  EXPECT_EQ(counts[0], 0u);
}

TEST(SmoothWrr, ScoreIsTrueAfterEveryPick) {
  // SPEC: after two picks of a=5 b=1 c=1, a -4, b 2, c 2 (here with the index).
  std::vector<std::int64_t> w(64, 0);
  w[0] = 5, w[1] = 1, w[2] = 1;
  SmoothWrr wrr;
  wrr.reset(w.size());
  for (std::size_t i = 0; i < w.size(); ++i) wrr.set_weight(i, w[i]);
  ASSERT_TRUE(wrr.indexed());
  wrr.pick();
  wrr.pick();
  EXPECT_EQ(wrr.score(0), -4);
  EXPECT_EQ(wrr.score(1), 2);
  EXPECT_EQ(wrr.score(2), 2);
  EXPECT_EQ(wrr.score(3), 0);
}

TEST(SmoothWrr, TiesAcrossClassesGoToTheEarliestBackend) {
  // Backends 0..99 all in different classes; set scores so that after the
  // next increment two backends of different weights tie for the lead.
  for (bool many_classes : {false, true}) {
    const std::size_t n = many_classes ? 200 : 40;
    std::vector<std::int64_t> w(n);
    for (std::size_t i = 0; i < n; ++i) w[i] = many_classes ? static_cast<std::int64_t>(1 + i) : 1 + i % 4;
    for (auto [early, late] : {std::pair<std::size_t, std::size_t>{7, 30}, {30, 7}}) {
      Twin t(w);
      EXPECT_EQ(t.wrr.tournament(), many_classes);
      // early: score x, weight w_e; late: score y, weight w_l, with x + w_e == y + w_l.
      t.score(early, 1000);
      t.score(late, 1000 + w[early] - w[late]);
      const std::int32_t want = static_cast<std::int32_t>(std::min(early, late));
      EXPECT_EQ(smooth_pick(t.w.data(), t.s.data(), t.w.size()), want);  // the oracle agrees...
      EXPECT_EQ(t.wrr.pick(), want);                                      // ...and so does the index
      EXPECT_EQ(t.first_difference(5000), -1);
    }
  }
}

TEST(SmoothWrr, TournamentCertificatesAtTiesBothWays) {
  // A heavy backend catching up on a light one lands exactly on a tie: it
  // wins the tie only when it is earlier in the pool.
  std::vector<std::int64_t> w(200);
  for (std::size_t i = 0; i < w.size(); ++i) w[i] = static_cast<std::int64_t>(10 + i);  // 200 classes
  for (std::size_t heavy : {std::size_t{3}, std::size_t{100}}) {
    Twin t(w);
    ASSERT_TRUE(t.wrr.tournament());
    // Everyone else far below; the light one (index 50) leads by exactly a
    // multiple of the weight difference.
    for (std::size_t i = 0; i < w.size(); ++i) t.score(i, -1'000'000);
    t.score(50, 0);
    t.score(heavy, -(w[heavy] - w[50]) * 6);
    EXPECT_EQ(t.first_difference(20000), -1) << heavy;
  }
}

TEST(SmoothWrr, RebaseEveryFewPicksChangesNothing) {
  // K is folded into the bases after every 1, 2, 3 ... picks: the winners and
  // the scores must be the oracle's all the way.
  std::vector<std::int64_t> w(300);
  slowstart_test::Mix mix(42);
  for (auto& x : w) x = static_cast<std::int64_t>(mix.below(1'000'001));
  for (std::int64_t every : {1, 2, 3, 7, 64}) {
    Twin t(w);
    t.wrr.set_rebase_interval(every);
    t.score(5, 123456789);
    EXPECT_EQ(t.first_difference(20000), -1) << every;
  }
}

TEST(SmoothWrr, RebaseAtTheOverflowPointWithTheLargestWeights) {
  // Weights near 2^40: K * weight would pass 2^63 after 2^23 picks; the
  // index rebases before 2^21 picks. Run past that twice (oracle checks
  // every pick, scores every 100,000 picks).
  std::vector<std::int64_t> w(40);
  for (std::size_t i = 0; i < w.size(); ++i) w[i] = (std::int64_t{1} << 40) - static_cast<std::int64_t>(i % 3);
  w[7] = 1;  // and a tiny one, whose score moves slowly
  Twin t(w);
  ASSERT_TRUE(t.wrr.indexed());
  for (int round = 0; round < 50; ++round) ASSERT_EQ(t.first_difference(100'000), -1) << round;
}

TEST(SmoothWrr, WeightChangesBetweenPicksKeepTheScore) {
  std::vector<std::int64_t> w(64, 3);
  Twin t(w);
  ASSERT_EQ(t.first_difference(77), -1);
  const std::int64_t before = t.wrr.score(10);
  t.wrr.set_weight(10, 1000);  // into a new class
  t.w[10] = 1000;
  EXPECT_EQ(t.wrr.score(10), before);
  t.wrr.set_weight(10, 0);  // out of the pick
  t.w[10] = 0;
  EXPECT_EQ(t.wrr.score(10), before);
  EXPECT_EQ(t.first_difference(1000), -1);
  EXPECT_EQ(t.wrr.score(10), before);  // non-participants keep their score
}

TEST(SmoothWrr, APickThatReordersTheClassesDoesNotAllocate) {
  // 64 backends in 40 weight classes: picked by pass, which leaves the
  // classes' order stale. Eight classes then merge into others (32 left):
  // the next pick sorts every class again (reorder()) before it scans, and
  // that pick, like any other, must not allocate.
  std::vector<std::int64_t> w(64, 1);
  for (std::size_t i = 0; i < 40; ++i) w[i] = static_cast<std::int64_t>(1 + i);
  Twin t(w);
  ASSERT_EQ(t.first_difference(500), -1);  // picks by pass
  for (std::size_t i = 32; i < 40; ++i) {
    t.wrr.set_weight(i, 1);
    t.w[i] = 1;
  }
  ASSERT_EQ(t.wrr.classes(), 32u);
  std::int32_t first;
  std::uint64_t allocations;
  {
    AllocationCounter c;
    first = t.wrr.pick();
    allocations = c.count();
  }
  EXPECT_EQ(allocations, 0u);
  EXPECT_EQ(first, smooth_pick(t.w.data(), t.s.data(), t.w.size()));
  EXPECT_EQ(t.first_difference(2000), -1);
}

TEST(SmoothWrr, NoParticipantsIsNoneAndChangesNothing) {
  std::vector<std::int64_t> w(50, 0);
  Twin t(w);
  t.score(3, -7);
  EXPECT_EQ(t.wrr.pick(), kNone);
  EXPECT_EQ(t.wrr.score(3), -7);
}

// ---------------------------------------------------------------------------
// The ramp schedule.

TEST(RampSchedule, ANowVisitsOnlyTheBackendsWhoseWeightSteps) {
  slowstart::RampSchedule r;
  r.reset(100'000);
  // Ten backends joined at 0 with weight 60 over 60 s: weight = clock.
  for (std::size_t i = 0; i < 10; ++i) r.track(i * 1000, 60, 60, 0, 0);
  EXPECT_EQ(r.advance(30).size(), 10u);  // 0 -> 30
  EXPECT_EQ(r.advance(31).size(), 10u);  // 31
  EXPECT_EQ(r.advance(60).size(), 10u);  // the ramps end at 60...
  EXPECT_EQ(r.advance(61).size(), 0u);   // ...and nothing is left to visit
  EXPECT_EQ(r.advance(1000).size(), 0u);
  // Weight 1 over 30 s is 0 until the ramp's end (SPEC: rounded down), so
  // no clock step before 30 visits it; weight 3 over 30 s steps at 10, 20, 30.
  r.reset(2);
  r.track(0, 1, 30, 0, 0);
  r.track(1, 3, 30, 0, 0);
  for (std::int64_t t = 1; t < 30; ++t) {
    const auto changed = r.advance(t);
    if (t == 10 || t == 20) EXPECT_EQ(changed, std::vector<std::uint32_t>{1}) << "at " << t;
    else EXPECT_TRUE(changed.empty()) << "at " << t;
  }
  auto end = r.advance(30);
  std::sort(end.begin(), end.end());
  EXPECT_EQ(end, (std::vector<std::uint32_t>{0, 1}));
  EXPECT_EQ(r.advance(5).size(), 2u);  // back to weight 0 for both (3 * 5 / 30 = 0)
  EXPECT_EQ(r.advance(9).size(), 0u);
  EXPECT_EQ(r.advance(25).size(), 1u);  // only 1: 3 * 25 / 30 = 2
}

TEST(RampSchedule, TheClockGoingBackReopensFinishedRamps) {
  slowstart::RampSchedule r;
  r.reset(3);
  r.track(0, 20, 20, 100, 100);    // window (100, 120), weight = clock - 100
  r.track(1, 100, 100, 100, 100);  // window (100, 200), weight = clock - 100
  EXPECT_EQ(r.advance(500).size(), 2u);
  EXPECT_EQ(r.advance(600).size(), 0u);
  auto back = r.advance(150);  // inside 1's window only: 0 keeps its target 20
  EXPECT_EQ(back, std::vector<std::uint32_t>{1});
  back = r.advance(50);  // before both windows: both weigh 0 again
  std::sort(back.begin(), back.end());
  EXPECT_EQ(back, (std::vector<std::uint32_t>{0, 1}));
  EXPECT_EQ(r.advance(60).size(), 0u);  // still before both
  EXPECT_EQ(r.advance(110).size(), 2u);
}

TEST(RampSchedule, UntrackedBackendsAreForgottenAndEntriesStayBounded) {
  slowstart::RampSchedule r;
  r.reset(10);
  for (int round = 0; round < 10'000; ++round) {
    r.track(round % 10, 5, 5, round, round);
    if (round % 3 == 0) r.untrack((round + 1) % 10);
    r.advance(round + 2);
  }
  EXPECT_LE(r.stored(), 4 * 10 + 64u);
  r.reset(10);
  EXPECT_EQ(r.advance(5).size(), 0u);
}
