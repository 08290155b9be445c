// SmoothWrr::count_many's runs by scan (the Traffic lab's routing-only
// picks, PL-28): up to kUnrolledClasses weight classes compared unrolled,
// and classes in ring order walked instead of moved, their queues turned at
// the end of the run. Held against a hand-worked case and against the
// oracle's one-by-one pick (smooth_pick) over weight changes, joins, leaves,
// ramps and scores set out of order.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "../support/pick_differential.hpp"
#include "fast/smooth_wrr.hpp"
#include "spec/pick.hpp"

using slowstart::kNone;
using slowstart::smooth_pick;
using slowstart::SmoothWrr;

namespace {

// The fast pick that counts and the oracle's arrays, kept equal.
struct CountTwin {
  SmoothWrr wrr;
  std::vector<std::int64_t> w, s;
  std::vector<std::uint32_t> ids, counts, want;
  explicit CountTwin(std::size_t n) : w(n, 0), s(n, 0), ids(n), counts(n, 0), want(n, 0) {
    wrr.reset(n);
    // Counts go through an id map (the lab's position -> id): reversed here.
    for (std::size_t i = 0; i < n; ++i) ids[i] = static_cast<std::uint32_t>(n - 1 - i);
  }
  void weight(std::size_t i, std::int64_t v) {
    w[i] = v;
    wrr.set_weight(i, v);
  }
  void score(std::size_t i, std::int64_t v) {
    s[i] = v;
    wrr.set_score(i, v);
  }
  void add() {
    w.push_back(0), s.push_back(0), counts.push_back(0), want.push_back(0);
    wrr.push_back();
    // The new backend takes the next id; ids stay a permutation.
    ids.push_back(static_cast<std::uint32_t>(ids.size()));
  }
  // n picks counted by count_many and one by one by the oracle; what differs, or "".
  std::string run(std::uint64_t n) {
    std::uint64_t none = 0;
    for (std::uint64_t k = 0; k < n; ++k) {
      const std::int32_t p = smooth_pick(w.data(), s.data(), w.size());
      if (p == kNone) ++none;
      else ++want[ids[static_cast<std::size_t>(p)]];
    }
    const std::uint64_t got_none = wrr.count_many(n, ids.data(), counts.data());
    if (got_none != none) return "none " + std::to_string(got_none) + " against " + std::to_string(none);
    for (std::size_t id = 0; id < counts.size(); ++id)
      if (counts[id] != want[id])
        return "id " + std::to_string(id) + " counted " + std::to_string(counts[id]) + " against " + std::to_string(want[id]);
    for (std::size_t i = 0; i < w.size(); ++i)
      if (wrr.score(i) != s[i]) return "score of " + std::to_string(i);
    return "";
  }
};

}  // namespace

TEST(SmoothWrrCount, RingClassesLapByHand) {
  // a=2 b=2 c=1 (T = 5), padded with weight-0 backends to force the index:
  // two classes, {a, b} (a ring: a lowered by 5 comes after b) and {c}.
  // Scores after each pick (+w, then the winner -5; a tie goes to the
  // earliest): a (-3 2 1), b (-1 -1 2), c (1 1 -2), a (-2 3 -1), b (0 0 0):
  // a b c a b, then a again: 6 picks count a 3, b 2, c 1 and leave
  // a -3, b 2, c 1 (the scores after pick 1). The class {a, b} was picked 5
  // times, so b is its top and its queue must start at b again: the next
  // picks one by one are b (a -1, b 4, c 2), c (a 1, b 1, c 3), a (3 3 -1).
  CountTwin t(40);
  t.weight(0, 2), t.weight(1, 2), t.weight(2, 1);
  ASSERT_TRUE(t.wrr.indexed());
  ASSERT_EQ(t.wrr.classes(), 2u);
  EXPECT_EQ(t.wrr.count_many(6, t.ids.data(), t.counts.data()), 0u);
  EXPECT_EQ(t.counts[39], 3u);  // a (id 39: the map is reversed)
  EXPECT_EQ(t.counts[38], 2u);  // b
  EXPECT_EQ(t.counts[37], 1u);  // c
  EXPECT_EQ(t.wrr.score(0), -3);
  EXPECT_EQ(t.wrr.score(1), 2);
  EXPECT_EQ(t.wrr.score(2), 1);
  EXPECT_EQ(t.wrr.pick(), 1);
  EXPECT_EQ(t.wrr.pick(), 2);
  EXPECT_EQ(t.wrr.pick(), 0);
  // Nine more counted (picks 10 ... 18 of the cycle a b c a b): b a b c a
  // b a b c, so a 3, b 4, c 2 more; pick 19 is a.
  EXPECT_EQ(t.wrr.count_many(9, t.ids.data(), t.counts.data()), 0u);
  EXPECT_EQ(t.counts[39], 3u + 3u);
  EXPECT_EQ(t.counts[38], 2u + 4u);
  EXPECT_EQ(t.counts[37], 1u + 2u);
  EXPECT_EQ(t.wrr.pick(), 0);
}

TEST(SmoothWrrCount, MatchesTheOneByOnePickThroughChangesAndRamps) {
  // Pools of 32 ... 300 backends over 1 ... 20 weight classes (so both the
  // unrolled runs and the plain one past 16 classes), groups ramping
  // together in steps (the lab's waves), leaving (weight 0), joining,
  // scores set out of order (members in a class's heap, classes not in ring
  // order), backends added, and a small rebase interval in some pools.
  for (std::uint64_t seed = 1; seed <= 60; ++seed) {
    slowstart_test::Mix mix(seed);
    const auto pick = [&mix](std::uint64_t n) { return static_cast<std::int64_t>(mix.next() % n); };
    const std::size_t n = 32 + static_cast<std::size_t>(pick(270));
    const std::int64_t palette = 1 + pick(20);
    const std::int64_t scale = pick(2) ? 100 : 1;
    CountTwin t(n);
    if (seed % 4 == 0) t.wrr.set_rebase_interval(1 + pick(300));
    for (std::size_t i = 0; i < n; ++i) t.weight(i, (1 + pick(palette)) * scale);
    for (int step = 0; step < 120; ++step) {
      const std::int64_t op = pick(10);
      if (op < 3) {  // a wave ramps one step: every member to the same weight
        const std::size_t from = static_cast<std::size_t>(pick(static_cast<std::int64_t>(t.w.size())));
        const std::int64_t to = pick(palette * scale + 1);
        for (std::size_t i = from; i < t.w.size() && i < from + 12; ++i) t.weight(i, to);
      } else if (op < 5) {  // one leaves, or joins at its target
        const auto i = static_cast<std::size_t>(pick(static_cast<std::int64_t>(t.w.size())));
        t.weight(i, t.w[i] > 0 ? 0 : (1 + pick(palette)) * scale);
      } else if (op == 5) {  // a score set out of order
        const auto i = static_cast<std::size_t>(pick(static_cast<std::int64_t>(t.w.size())));
        t.score(i, pick(4000) - 2000);
      } else if (op == 6) {
        t.add();
      }
      const std::string diff = t.run(1 + static_cast<std::uint64_t>(pick(op == 9 ? 3000 : 200)));
      ASSERT_EQ(diff, "") << "seed " << seed << " step " << step << " classes " << t.wrr.classes();
    }
  }
}

// Streaks (count_by_scan: WHY_EXACT section 5): after a pick, the winner's
// class keeps the picks while its next tops stay surely above every other
// class's top, walked with no scan; a tie, or a heavier class catching up,
// is left to the scan.
TEST(SmoothWrrCount, StreaksByHand) {
  // Class A: a0 ... a5 (positions 0-5) at weight 1, scores 0; class B: b
  // (position 6) at weight 6, score -20; the rest weight 0 (to force the
  // index). T = 12. Scores after each pick (+w, the winner -12):
  //   1: a 1 x6, b -14        -> a0 (-11)
  //   2: a1-a5 2, b -8        -> a1 (-10)   (a streak: a1 leads b by 10,
  //   3: a2-a5 3, b -2        -> a2 (-9)     b gains 5 a pick)
  //   4: a3-a5 4, b 4         -> a3 (-8)    a tie: the earlier wins (the scan's)
  //   5: a4 a5 5, b 10        -> b  (-2)    (b caught up: no streak reaches here)
  // So 5 picks count a0 a1 a2 a3 b and leave a0-a3 at -7, a4 a5 5, b -2.
  CountTwin t(40);
  for (std::size_t i = 0; i < 6; ++i) t.weight(i, 1);
  t.weight(6, 6);
  t.score(6, -20);
  ASSERT_TRUE(t.wrr.indexed());
  ASSERT_EQ(t.wrr.classes(), 2u);
  EXPECT_EQ(t.wrr.count_many(5, t.ids.data(), t.counts.data()), 0u);
  for (std::uint32_t i = 0; i < 4; ++i) EXPECT_EQ(t.counts[39 - i], 1u) << "a" << i;  // (ids reversed)
  EXPECT_EQ(t.counts[39 - 4], 0u);
  EXPECT_EQ(t.counts[39 - 5], 0u);
  EXPECT_EQ(t.counts[39 - 6], 1u);
  for (std::size_t i = 0; i < 4; ++i) EXPECT_EQ(t.wrr.score(i), -7) << "a" << i;
  EXPECT_EQ(t.wrr.score(4), 5);
  EXPECT_EQ(t.wrr.score(5), 5);
  EXPECT_EQ(t.wrr.score(6), -2);

  // b's weight changes mid-ramp to 2 (T = 8):
  //   6: a0-a3 -6, a4 a5 6, b 0      -> a4 (-2)
  //   7: a0-a3 -5, a4 -1, a5 7, b 2  -> a5 (-1)   (a streak of one: a5 leads b by 5)
  //   8: a0-a3 -4, a4 0, a5 0, b 4   -> b  (-4)
  //   9: a0-a3 -3, a4 1, a5 1, b -2  -> a4 (-7)
  t.weight(6, 2);
  std::fill(t.counts.begin(), t.counts.end(), 0u);
  EXPECT_EQ(t.wrr.count_many(4, t.ids.data(), t.counts.data()), 0u);
  EXPECT_EQ(t.counts[39 - 6], 1u);  // b
  EXPECT_EQ(t.counts[39 - 4], 2u);  // a4
  EXPECT_EQ(t.counts[39 - 5], 1u);  // a5
  for (std::uint32_t i = 0; i < 4; ++i) EXPECT_EQ(t.counts[39 - i], 0u) << "a" << i;
  for (std::size_t i = 0; i < 4; ++i) EXPECT_EQ(t.wrr.score(i), -3) << "a" << i;
  EXPECT_EQ(t.wrr.score(4), -7);
  EXPECT_EQ(t.wrr.score(5), 1);
  EXPECT_EQ(t.wrr.score(6), -2);

  // b leaves (weight 0, its score kept); c (position 7) joins at weight 3,
  // score 0 (T = 9):
  //   10: a0-a3 -2, a4 -6, a5 2, c 3   -> c  (-6)
  //   11: a0-a3 -1, a4 -5, a5 3, c -3  -> a5 (-6)
  //   12: a0-a3 0, a4 -4, a5 -5, c 0   -> a0 (-9)   a tie of five: the earliest
  //   13: a0 -8, a1-a3 1, c 3          -> c  (-6)
  //   14: a0 -7, a1-a3 2, c -3         -> a1 (-7)
  //   15: a0 -6, a2 a3 3, c 0          -> a2 (-6)   (a streak: a2 leads c by 3)
  t.weight(6, 0);
  t.weight(7, 3);
  std::fill(t.counts.begin(), t.counts.end(), 0u);
  EXPECT_EQ(t.wrr.count_many(6, t.ids.data(), t.counts.data()), 0u);
  EXPECT_EQ(t.counts[39 - 7], 2u);  // c
  EXPECT_EQ(t.counts[39 - 5], 1u);  // a5
  EXPECT_EQ(t.counts[39 - 0], 1u);
  EXPECT_EQ(t.counts[39 - 1], 1u);
  EXPECT_EQ(t.counts[39 - 2], 1u);
  EXPECT_EQ(t.counts[39 - 3], 0u);
  EXPECT_EQ(t.counts[39 - 4], 0u);
  EXPECT_EQ(t.counts[39 - 6], 0u);  // b, gone
  const std::int64_t after[] = {-6, -6, -6, 3, -1, -2, -2, 0};
  for (std::size_t i = 0; i < 8; ++i) EXPECT_EQ(t.wrr.score(i), after[i]) << "backend " << i;
  // And the oracle agrees with all of it, pick by pick, from here on.
  t.s.assign(after, after + 8);
  t.s.resize(40, 0);
  std::fill(t.counts.begin(), t.counts.end(), 0u);
  EXPECT_EQ(t.run(500), "");
}

TEST(SmoothWrrCount, StreaksMatchTheOneByOnePickInAFleet) {
  // The Traffic lab's fleet in small: 1,400 backends at weights 1-7 x 100,
  // scores 0 (classes of equal scores: long streaks), then waves of 20
  // leaving, coming back and ramping together in steps of 1 to 17 (the
  // total changing between runs: near-equal scores, short streaks),
  // counted in runs of 1 to 400 picks against the oracle's picks one by one.
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    slowstart_test::Mix mix(seed);
    const auto pick = [&mix](std::uint64_t n) { return static_cast<std::int64_t>(mix.next() % n); };
    const std::size_t n = 1400;
    CountTwin t(n);
    for (std::size_t i = 0; i < n; ++i) t.weight(i, 100 * static_cast<std::int64_t>(1 + i % 7));
    std::size_t wave = 0;
    for (int step = 0; step < 300; ++step) {
      if (step % 30 == 0) {  // a wave leaves
        wave = static_cast<std::size_t>(pick(n / 20)) * 20;
        for (std::size_t i = wave; i < wave + 20; ++i) t.weight(i, 0);
      } else if (step % 30 >= 5) {  // and ramps back, a step at a time
        const std::int64_t part = step % 30 - 4;  // 1 ... 25
        for (std::size_t i = wave; i < wave + 20; ++i) t.weight(i, 100 * static_cast<std::int64_t>(1 + i % 7) * part / 25 + pick(3));
      }
      const std::string diff = t.run(1 + static_cast<std::uint64_t>(pick(400)));
      ASSERT_EQ(diff, "") << "seed " << seed << " step " << step << " classes " << t.wrr.classes();
    }
  }
}

TEST(SmoothWrrCount, StreakLeavesATieToTheScan) {
  // b (position 0) at weight 6, score -10; a0 ... a5 (positions 1-6) at
  // weight 1, scores 0; T = 12.
  //   1: a 1 x6, b -4                  -> a0 (-11)
  //   2: a1-a5 2, b 2                  -> b  (-10)  a tie with a1: b is earlier
  //   3: a0 -9, a1-a5 3, b -4          -> a1 (-9)
  //   4: a0 a1 -8, a2-a5 4, b 2        -> a2 (-8)   (a streak: a2 leads b by 2)
  //   5: a0-a2 -7, a3-a5 5, b 8        -> b  (-4)
  CountTwin t(40);
  t.weight(0, 6);
  t.score(0, -10);
  for (std::size_t i = 1; i < 7; ++i) t.weight(i, 1);
  ASSERT_TRUE(t.wrr.indexed());
  EXPECT_EQ(t.wrr.count_many(5, t.ids.data(), t.counts.data()), 0u);
  EXPECT_EQ(t.counts[39 - 0], 2u);  // b
  for (std::uint32_t i = 1; i < 4; ++i) EXPECT_EQ(t.counts[39 - i], 1u) << "a" << i - 1;
  for (std::uint32_t i = 4; i < 7; ++i) EXPECT_EQ(t.counts[39 - i], 0u) << "a" << i - 1;
  const std::int64_t after[] = {-4, -7, -7, -7, 5, 5, 5};
  for (std::size_t i = 0; i < 7; ++i) EXPECT_EQ(t.wrr.score(i), after[i]) << "backend " << i;
}

TEST(SmoothWrrCount, ClassesThatBecomeRingsMidRunMatchTheOneByOnePick) {
  // Long runs (the lab routes the milliseconds with no weight change in one
  // run, PL-45): a class with members out of order (in its heap) when a run
  // starts is moved pick by pick until its last such member is back in its
  // queue, and walked as a ring from there on, in the same run. 700
  // backends at weights 1-7 x 100; before each run, a few members of random
  // classes get scores out of order (set_score: into their class's heap),
  // and a wave of 10 changes weight; runs of 3,000 to 30,000 picks against
  // the oracle's picks one by one.
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    slowstart_test::Mix mix(seed);
    const auto pick = [&mix](std::uint64_t n) { return static_cast<std::int64_t>(mix.next() % n); };
    const std::size_t n = 700;
    CountTwin t(n);
    for (std::size_t i = 0; i < n; ++i) t.weight(i, 100 * static_cast<std::int64_t>(1 + i % 7));
    for (int step = 0; step < 24; ++step) {
      for (int j = 0; j < 6; ++j) {
        const auto i = static_cast<std::size_t>(pick(n));
        t.score(i, t.wrr.score(i) + pick(2000) - 1000);
      }
      const auto wave = static_cast<std::size_t>(pick(n / 10)) * 10;
      for (std::size_t i = wave; i < wave + 10; ++i) t.weight(i, 100 * static_cast<std::int64_t>(1 + i % 7) * (1 + step % 4) / 4);
      const std::string diff = t.run(3000 + static_cast<std::uint64_t>(pick(27000)));
      ASSERT_EQ(diff, "") << "seed " << seed << " step " << step << " classes " << t.wrr.classes();
    }
  }
}

TEST(SmoothWrrCount, ColdClassesStandingAsOneLineMatchTheOneByOnePick) {
  // count_many's cold classes (under 1/64 of the picks between their
  // members) bounded by one line over windows of picks (WHY_EXACT 5a): 8
  // cold classes of 3 members (positions 0-23; weights 5-40, later 50-400)
  // and 6 hot ones of 90 (weights 100-600). Before some runs a cold member's
  // score is set so that it ties the oracle's next winner at the next pick
  // (the cold member is earlier in the pool: it wins the tie), the cold
  // classes win now and then anyway; runs of 1 to 20,000 picks against the
  // oracle's picks one by one.
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    slowstart_test::Mix mix(seed);
    const auto pick = [&mix](std::uint64_t n) { return static_cast<std::int64_t>(mix.next() % n); };
    const std::size_t cold = 24, n = cold + 540;
    CountTwin t(n);
    const auto cold_weights = [&t](std::int64_t scale) {
      for (std::size_t i = 0; i < cold; ++i) t.weight(i, scale * static_cast<std::int64_t>(1 + i % 8));
    };
    cold_weights(5);
    for (std::size_t i = cold; i < n; ++i) t.weight(i, 100 * static_cast<std::int64_t>(1 + i % 6));
    std::uint64_t cold_picks = 0, ties = 0;
    for (int step = 0; step < 60; ++step) {
      if (step % 10 == 5) cold_weights(step % 20 == 5 ? 50 : 5);  // heavier, then light again
      if (step % 3 == 1) {
        // The oracle's next winner w (on copies): cold member c set to
        // score(w) + weight(w) - weight(c), level with w at the next pick.
        std::vector<std::int64_t> s = t.s;
        const std::int32_t w = smooth_pick(t.w.data(), s.data(), t.w.size());
        const auto c = static_cast<std::size_t>(pick(cold));
        if (w != kNone && static_cast<std::size_t>(w) >= cold) {
          t.score(c, t.s[static_cast<std::size_t>(w)] + t.w[static_cast<std::size_t>(w)] - t.w[c]);
          ++ties;
        }
      }
      std::vector<std::uint32_t> before(t.counts);
      const std::string diff = t.run(1 + static_cast<std::uint64_t>(pick(20000)));
      ASSERT_EQ(diff, "") << "seed " << seed << " step " << step << " classes " << t.wrr.classes();
      for (std::size_t i = 0; i < cold; ++i) cold_picks += t.counts[t.ids[i]] - before[t.ids[i]];
    }
    EXPECT_GT(ties, 10u) << "seed " << seed;
    EXPECT_GT(cold_picks, 100u) << "seed " << seed << ": the cold classes won too rarely to be tested";
  }
}

// A whole weight class relabelled (SmoothWrr::set_class_weight: the lab's
// group of ramps alike, PL-48; WHY_EXACT section 6): every member keeps its
// score, the class its order.
TEST(SmoothWrrCount, AWholeClassRelabelledByHand) {
  // a=3 b=3 c=5 (T = 11), padded with weight-0 backends to force the index.
  //   1: a 3  b 3  c 5   -> c (-6)
  //   2: a 6  b 6  c -1  -> a (-5)   (the tie: a is earlier)
  //   3: a -2 b 9  c 4   -> b (-2)
  //   4: a 1  b 1  c 9   -> c (-2)
  // Then {a, b} to weight 1 (T = 7), scores kept:
  //   5: a 2  b 2  c 3   -> c (-4)
  //   6: a 3  b 3  c 1   -> a (-4)
  //   7: a -3 b 4  c 6   -> c (-1)
  //   8: a -2 b 5  c 4   -> b (-2)
  CountTwin t(40);
  t.weight(0, 3), t.weight(1, 3), t.weight(2, 5);
  ASSERT_TRUE(t.wrr.indexed());
  ASSERT_EQ(t.run(4), "");
  const std::uint32_t a_b[] = {0, 1}, a[] = {0}, a_c[] = {0, 2};
  // Refused, nothing changed: not the whole class; a class of that weight
  // exists; members of two classes; weight 0; the same weight.
  EXPECT_FALSE(t.wrr.set_class_weight(a, 1, 1));
  EXPECT_FALSE(t.wrr.set_class_weight(a_b, 2, 5));
  EXPECT_FALSE(t.wrr.set_class_weight(a_c, 2, 1));
  EXPECT_FALSE(t.wrr.set_class_weight(a_b, 2, 0));
  EXPECT_FALSE(t.wrr.set_class_weight(a_b, 2, 3));
  EXPECT_EQ(t.wrr.weight(0), 3);
  EXPECT_EQ(t.wrr.classes(), 2u);
  const std::int64_t scores[] = {1, 1, -2};
  for (std::size_t i = 0; i < 3; ++i) EXPECT_EQ(t.wrr.score(i), scores[i]) << "backend " << i;
  ASSERT_TRUE(t.wrr.set_class_weight(a_b, 2, 1));
  t.w[0] = t.w[1] = 1;
  EXPECT_EQ(t.wrr.classes(), 2u);
  for (std::size_t i = 0; i < 3; ++i) EXPECT_EQ(t.wrr.score(i), scores[i]) << "backend " << i;
  const std::vector<std::uint32_t> before(t.counts);
  ASSERT_EQ(t.run(4), "");
  EXPECT_EQ(t.counts[39 - 0] - before[39 - 0], 1u);  // a
  EXPECT_EQ(t.counts[39 - 1] - before[39 - 1], 1u);  // b
  EXPECT_EQ(t.counts[39 - 2] - before[39 - 2], 2u);  // c
  const std::int64_t after[] = {-2, -2, 4};
  for (std::size_t i = 0; i < 3; ++i) EXPECT_EQ(t.wrr.score(i), after[i]) << "backend " << i;
  // Unindexed (fewer than kIndexFrom backends): refused.
  SmoothWrr small;
  small.reset(4);
  small.set_weight(0, 2);
  small.set_weight(1, 2);
  EXPECT_FALSE(small.set_class_weight(a_b, 2, 4));
}

TEST(SmoothWrrCount, ClassesRelabelledWholeMatchTheOneByOnePick) {
  // The lab's waves in small: 700 backends at weights 1-7 x 100; a wave of
  // 21 leaves, then ramps back in steps, its members of one target moved
  // together (a whole class while no other class has the weight: relabelled,
  // else one by one, as the lab's ramp_to does). K grows between the steps
  // (a relabel shifts the bases by K times the change), a small rebase
  // interval in some seeds, scores out of order (heaps) now and then;
  // counted in runs of 1 to 3,000 picks and picked one by one, against the oracle.
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    slowstart_test::Mix mix(seed);
    const auto pick = [&mix](std::uint64_t n) { return static_cast<std::int64_t>(mix.next() % n); };
    const std::size_t n = 700;
    CountTwin t(n);
    if (seed % 3 == 0) t.wrr.set_rebase_interval(1 + pick(5000));
    for (std::size_t i = 0; i < n; ++i) t.weight(i, 100 * static_cast<std::int64_t>(1 + i % 7));
    std::uint64_t relabelled = 0, refused = 0;
    std::size_t wave = 0;
    for (int step = 0; step < 200; ++step) {
      if (step % 25 == 0) {
        wave = static_cast<std::size_t>(pick(n / 21)) * 21;
        for (std::size_t i = wave; i < wave + 21; ++i) t.weight(i, 0);
      } else if (step % 25 >= 3) {
        const std::int64_t part = step % 25 - 2;  // 1 ... 22
        for (std::size_t target = 1; target <= 7; ++target) {
          std::vector<std::uint32_t> xs;
          for (std::size_t i = wave; i < wave + 21; ++i)
            if (1 + i % 7 == target) xs.push_back(static_cast<std::uint32_t>(i));
          const std::int64_t v = 100 * static_cast<std::int64_t>(target) * part / 22 + (seed % 2 ? 0 : pick(3));
          for (const std::uint32_t x : xs) t.w[x] = v;
          if (v > 0 && t.wrr.weight(xs[0]) > 0 && t.wrr.set_class_weight(xs.data(), xs.size(), v)) {
            ++relabelled;
            continue;
          }
          ++refused;
          for (const std::uint32_t x : xs) t.wrr.set_weight(x, v);
        }
      }
      if (step % 7 == 3) {
        const auto i = static_cast<std::size_t>(pick(n));
        t.score(i, t.wrr.score(i) + pick(2000) - 1000);
      }
      if (step % 2) {
        const std::string diff = t.run(1 + static_cast<std::uint64_t>(pick(3000)));
        ASSERT_EQ(diff, "") << "seed " << seed << " step " << step << " classes " << t.wrr.classes();
      } else {
        for (int k = pick(200); k > 0; --k) {
          const std::int32_t want = smooth_pick(t.w.data(), t.s.data(), t.w.size());
          ASSERT_EQ(t.wrr.pick(), want) << "seed " << seed << " step " << step;
        }
        for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(t.wrr.score(i), t.s[i]) << "seed " << seed << " step " << step;
      }
    }
    EXPECT_GT(relabelled, 300u) << "seed " << seed;
    EXPECT_GT(refused, 50u) << "seed " << seed;
  }
}
