// Ramps (traffic/ramps.hpp) finds each ramping backend's next weight change
// once and waits for it. For the linear curve the change is found in closed
// form (Ramps::linear_change); the search still runs, by compares, so that
// the work meter counts what the curve's own search would have (budget.hpp).
// Checked millisecond by millisecond against curve_weight_ms itself, and the
// meter against the search written out here with the curve's evaluations.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "traffic/budget.hpp"
#include "traffic/curves.hpp"
#include "traffic/fleet.hpp"
#include "traffic/options.hpp"
#include "traffic/ramps.hpp"

using namespace slowstart;

namespace ramps_next_change_tests {  // named: unity builds put test files side by side

struct Ramp {
  std::int64_t target, window_s, start_ms;
};

// The search as Ramps ran it before the closed form: the curve evaluated at
// each probe. Returns the change's millisecond; adds its evaluations to `evaluations`.
std::int64_t searched(const Curve& c, const Ramp& r, std::int64_t tick, std::int64_t w, double& evaluations) {
  const auto at = [&](std::int64_t t) { return curve_weight_ms(c, r.target, r.window_s, t - r.start_ms, true); };
  const std::int64_t end = r.start_ms + r.window_s * 1000;
  std::int64_t same = tick, step = 1;
  while (same + step < end && at(same + step) == w) same += step, step *= 2, ++evaluations;
  std::int64_t differs = std::min(same + step, end);
  while (differs - same > 1) {
    const std::int64_t mid = same + (differs - same) / 2;
    (at(mid) == w ? same : differs) = mid;
    ++evaluations;
  }
  return differs;
}

// Runs `ramps` one millisecond at a time over [from, to) and checks each
// backend's weight and when it is told of a change; returns the meter's steps
// against the oracle's.
void check_by_millisecond(const Curve& c, const std::vector<Ramp>& rs, std::int64_t from, std::int64_t to) {
  TrafficOptions o;
  o.curve = c;
  Fleet fleet;
  WorkMeter meter;
  Ramps ramps(o, fleet, meter);
  ramps.reset(rs.size());
  for (std::size_t i = 0; i < rs.size(); ++i) {
    fleet.backends.push_back(Backend{"b", rs[i].target, rs[i].window_s, 0, true, Joined::Up});
    ramps.begin(i, rs[i].start_ms, rs[i].window_s);
    ASSERT_TRUE(ramps.restart(i));
  }
  double oracle = 0;
  std::vector<std::int64_t> next(rs.size(), from);  // the oracle's next change of each
  std::vector<std::int64_t> told;
  for (std::int64_t t = from; t < to; ++t) {
    told.clear();
    ramps.advance(t, [&](const std::uint32_t* pos, std::size_t n) { told.insert(told.end(), pos, pos + n); });
    std::vector<std::int64_t> expected;
    for (std::size_t i = 0; i < rs.size(); ++i) {
      const std::int64_t w = curve_weight_ms(c, rs[i].target, rs[i].window_s, t - rs[i].start_ms, true);
      ASSERT_EQ(ramps.curve(i), w) << "backend " << i << " at " << t;
      if (next[i] != t) continue;
      expected.push_back(static_cast<std::int64_t>(i));
      oracle += 1;
      const std::int64_t end = rs[i].start_ms + rs[i].window_s * 1000;
      next[i] = t >= end ? -1 : searched(c, rs[i], t, w, oracle);
    }
    std::sort(told.begin(), told.end());
    ASSERT_EQ(told, expected) << "at " << t;
  }
  EXPECT_EQ(meter.steps(), oracle);
}

TEST(RampsNextChange, LinearChangesFoundAtTheirMillisecondByHand) {
  // Weight 1 at resolution 100 over 30 s: floor(100 e / 30000) steps at every
  // 300 ms (e = 300: 1, e = 299: 0); weight 7 at 1 over 3 s: floor(7 e / 3000)
  // steps at 429 (7 x 429 = 3003), 858, 1286 (7 x 1286 = 9002) ...
  Curve c{CurveKind::Linear, 100};
  TrafficOptions o;
  o.curve = c;
  Fleet fleet;
  WorkMeter meter;
  Ramps ramps(o, fleet, meter);
  ramps.reset(1);
  fleet.backends.push_back(Backend{"a", 1, 30, 0, true, Joined::Up});
  ramps.begin(0, 0, 30);
  ASSERT_TRUE(ramps.restart(0));
  std::vector<std::int64_t> at;
  for (std::int64_t t = 0; t <= 1000; ++t) ramps.advance(t, [&](const std::uint32_t*, std::size_t) { at.push_back(t); });
  EXPECT_EQ(at, (std::vector<std::int64_t>{0, 300, 600, 900}));
  EXPECT_EQ(ramps.curve(0), 3);

  Curve one{CurveKind::Linear, 1};
  o.curve = one;
  fleet.backends[0] = Backend{"a", 7, 3, 0, true, Joined::Up};
  ramps.reset(1);
  ramps.begin(0, 0, 3);
  ASSERT_TRUE(ramps.restart(0));
  at.clear();
  for (std::int64_t t = 0; t <= 3500; ++t) ramps.advance(t, [&](const std::uint32_t*, std::size_t) { at.push_back(t); });
  EXPECT_EQ(at, (std::vector<std::int64_t>{0, 429, 858, 1286, 1715, 2143, 2572, 3000}));
  EXPECT_EQ(ramps.curve(0), 7);
}

TEST(RampsNextChange, LinearMatchesTheCurveEveryMillisecondAndMetersTheSearch) {
  // Resolutions 1, 16, 100 and 1000; weights whose steps fall between
  // milliseconds, every millisecond (1000 x 1000 over 1 s), or never (0);
  // ramps starting before, at and after the first millisecond.
  for (const std::int64_t res : {1, 16, 100, 1000}) {
    SCOPED_TRACE(res);
    check_by_millisecond(Curve{CurveKind::Linear, res},
                         {{1, 30, 0}, {7, 3, -1234}, {3, 1, 500}, {1000, 1, 0}, {0, 5, 0}, {13, 7, 2999}, {1, 1, 0}},
                         0, 9000);
  }
}

TEST(RampsNextChange, LinearPastSixtyFourBits) {
  // (w + 1) x the window in milliseconds past 2^63 (9.2 x 10^18): weight 10^6
  // at resolution 1000 (10^9) over 10^8 s (10^11 ms), checked over 30 s
  // halfway (5 x 10^8 x 10^11), where the weight steps every 100 ms; and
  // over 10^9 s, 40 % in and from its start.
  check_by_millisecond(Curve{CurveKind::Linear, 1000}, {{1'000'000, 100'000'000, -50'000'000'000}}, 0, 30'000);
  check_by_millisecond(Curve{CurveKind::Linear, 1000},
                       {{1'000'000, 1'000'000'000, -400'000'000'000}, {999'999, 999'999'999, -3}}, 0, 20'000);
  // Either side of the 64-bit path's bounds (a weight or a window in
  // milliseconds of 2^31 = 2,147,483,648): weights of 3 x 10^9 over 2 s,
  // a window of 2,147,483 s (below) and 2,147,484 s (above).
  check_by_millisecond(Curve{CurveKind::Linear, 1000},
                       {{3'000'000, 2, 0}, {2'000'000, 2'147'483, -1'000'000'000}, {2'000'000, 2'147'484, -1'000'000'000}},
                       0, 3000);
}

TEST(RampsNextChange, OtherCurvesStillSearchTheCurve) {
  // HAProxy's sixteenths and Envoy's curve keep the search by evaluation.
  check_by_millisecond(Curve{CurveKind::HAProxy, 16}, {{1, 30, 0}, {7, 3, -1234}, {3, 1, 500}}, 0, 6000);
  check_by_millisecond(Curve{CurveKind::Envoy, 1000}, {{1, 30, 0}, {7, 3, -1234}, {3, 1, 500}}, 0, 6000);
}


// Ramps alike (the same target, start and window, restarted before the same
// weighing: a wave of a rolling restart) wait as one group (PL-48): one
// change found for all, the group told at once, the meter counting each
// member as before.
TEST(RampsNextChange, RampsAlikeWaitAsOneGroupByHand) {
  // Linear at resolution 1 over 3 s from 0: target 2 (b0, b1, b2) steps at
  // ceil((w + 1) x 3000 / 2): 1,500 and 3,000 ms; target 3 (b3) at 1,000,
  // 2,000 and 3,000 ms. b1 restarted at 1,700 from 1,700: a group of its
  // own, stepping at 3,200 and 4,700. b2's start moved to 500 at 1,200
  // without a restart: at the group's next change (1,500) it is weighed on
  // its own figures (elapsed 1,000: weight 0; its next change 500 + 1,500).
  TrafficOptions o;
  o.curve = Curve{CurveKind::Linear, 1};
  Fleet fleet;
  WorkMeter meter;
  Ramps ramps(o, fleet, meter);
  ramps.reset(4);
  for (const std::int64_t target : {2, 2, 2, 3}) fleet.backends.push_back(Backend{"b", target, 3, 0, true, Joined::Up});
  for (std::size_t i = 0; i < 4; ++i) {
    ramps.begin(i, 0, 3);
    ASSERT_TRUE(ramps.restart(i));
  }
  std::vector<std::string> told;
  for (std::int64_t t = 0; t <= 5000; ++t) {
    if (t == 1200) ramps.begin(2, 500, 3);
    if (t == 1700) {
      ramps.begin(1, 1700, 3);
      ASSERT_TRUE(ramps.restart(1));
    }
    ramps.advance(t, [&](const std::uint32_t* pos, std::size_t n) {
      std::string g = std::to_string(t) + ":";
      for (std::size_t k = 0; k < n; ++k) g += " b" + std::to_string(pos[k]) + "=" + std::to_string(ramps.curve(pos[k]));
      told.push_back(g);
    });
  }
  std::sort(told.begin(), told.end());  // (the groups of one millisecond in any order)
  EXPECT_EQ(told, (std::vector<std::string>{"0: b0=0 b1=0 b2=0", "0: b3=0", "1000: b3=1", "1500: b0=1 b1=1", "1500: b2=0",
                                            "1700: b1=0", "2000: b2=1", "2000: b3=2", "3000: b0=2", "3000: b3=3",
                                            "3200: b1=1", "3500: b2=2", "4700: b1=2"}));
}

TEST(RampsNextChange, GroupsMatchEachRampOnItsOwnThroughRestarts) {
  // 24 backends over a few ramps (targets 1-3 x resolution 100, windows of
  // 1-2 s, starts on a coarse grid: many alike), restarted at random
  // milliseconds, a few at a time (groups formed, left, joined), some with
  // their start moved without a restart; every millisecond each backend's
  // weight and who is told, and the meter at the end, against each ramp on
  // its own (the curve and the search written out).
  for (std::uint64_t seed = 1; seed <= 8; ++seed) {
    std::uint64_t state = seed * 0x9E3779B97F4A7C15ull;
    const auto pick = [&state](std::uint64_t n) {
      state ^= state << 13, state ^= state >> 7, state ^= state << 17;
      return static_cast<std::int64_t>(state % n);
    };
    const Curve c{seed % 4 == 3 ? CurveKind::HAProxy : CurveKind::Linear, seed % 4 == 3 ? 16 : 100};
    TrafficOptions o;
    o.curve = c;
    Fleet fleet;
    WorkMeter meter;
    Ramps ramps(o, fleet, meter);
    const std::size_t n = 24;
    ramps.reset(n);
    std::vector<Ramp> rs(n);
    std::vector<std::int64_t> next(n, -1), have(n, 0);  // each one's next change and weight
    double oracle = 0;
    const auto restart = [&](std::size_t i, std::int64_t t) {
      rs[i] = Ramp{1 + pick(3), 1 + pick(2), t - t % 250 - 250 * pick(2)};
      fleet.backends[i] = Backend{"b", rs[i].target, rs[i].window_s, 0, true, Joined::Up};
      ramps.begin(i, rs[i].start_ms, rs[i].window_s);
      ASSERT_TRUE(ramps.restart(i));
      next[i] = t;  // weighed at the next advance
    };
    for (std::size_t i = 0; i < n; ++i) fleet.backends.push_back(Backend{"b", 1, 1, 0, true, Joined::Up});
    for (std::size_t i = 0; i < n; ++i) restart(i, 0);
    std::vector<std::int64_t> told, expected;
    std::uint64_t groups = 0, moved = 0;
    for (std::int64_t t = 0; t < 6000; ++t) {
      if (pick(40) == 0)
        for (std::int64_t k = 1 + pick(5); k > 0; --k) restart(static_cast<std::size_t>(pick(n)), t);
      if (pick(300) == 0) {  // a start moved without a restart: weighed on its own at its next change
        const auto i = static_cast<std::size_t>(pick(n));
        rs[i].start_ms -= 1 + pick(100);
        ramps.begin(i, rs[i].start_ms, rs[i].window_s);
        ++moved;
      }
      told.clear();
      ramps.advance(t, [&](const std::uint32_t* pos, std::size_t m) {
        told.insert(told.end(), pos, pos + m);
        groups += m > 1;
      });
      expected.clear();
      for (std::size_t i = 0; i < n; ++i) {
        if (next[i] != t) continue;
        expected.push_back(static_cast<std::int64_t>(i));
        oracle += 1;
        const std::int64_t w = have[i] = curve_weight_ms(c, rs[i].target, rs[i].window_s, t - rs[i].start_ms, true);
        const std::int64_t end = rs[i].start_ms + rs[i].window_s * 1000;
        next[i] = t >= end ? -1 : searched(c, rs[i], t, w, oracle);
      }
      for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(ramps.curve(i), have[i]) << "seed " << seed << " backend " << i << " at " << t;
      std::sort(told.begin(), told.end());
      ASSERT_EQ(told, expected) << "seed " << seed << " at " << t;
    }
    EXPECT_EQ(meter.steps(), oracle) << "seed " << seed;
    EXPECT_GT(groups, 20u) << "seed " << seed;  // (groups of two or more told)
  }
}

}  // namespace ramps_next_change_tests
