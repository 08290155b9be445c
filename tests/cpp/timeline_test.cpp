// The timeline (cpp/core/timeline.*): its steps, blocks and winners, its
// caps, and its scores: after every step, each backend's smooth-WRR score
// as the engine has it, checked against values worked by hand from the SPEC
// (never read back from the engine), and the bound on what they cost. (The
// caps under a million-line script or a huge pool: robustness_test.cpp.)
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core/interpreter.hpp"
#include "spec/pick.hpp"
#include "spec/rules.hpp"
#include "core/timeline.hpp"

using namespace slowstart;

namespace {

// Every backend's score after step `step`, in the order of its block's cells
// (pool order), rebuilt the way a reader of the timeline does: the block's
// scores, then the changes of the block's steps up to this one.
std::vector<std::int64_t> scores_after(const Timeline& t, std::size_t step) {
  const std::uint32_t block = t.step_block[step];
  const std::uint32_t start = t.block_start[block];
  const std::size_t end = block + 1 < t.block_start.size() ? t.block_start[block + 1] : t.cell_score.size();
  std::vector<std::int64_t> s(t.cell_score.begin() + start, t.cell_score.begin() + static_cast<std::ptrdiff_t>(end));
  std::size_t first = step;
  while (first > 0 && t.step_block[first - 1] == block) --first;
  for (std::size_t i = first; i <= step; ++i) {
    for (std::uint32_t k = i > 0 ? t.step_scores_end[i - 1] : 0; k < t.step_scores_end[i]; ++k) {
      EXPECT_GE(t.score_cell[k], start) << "a change outside its step's block";
      EXPECT_LT(t.score_cell[k], end) << "a change outside its step's block";
      s[t.score_cell[k] - start] = t.score_value[k];
    }
  }
  return s;
}

using Scores = std::vector<std::int64_t>;

}  // namespace

TEST(Timeline, StepsBlocksAndWinners) {
  const auto r = run_script("POOL a=2 b=1\n# c\nPICK\nADD c=10 10\nNOW 5\nbad\nPICK\nDOWN a\nWEIGHTS\n");
  const Timeline& t = r.timeline;
  ASSERT_EQ(t.names, (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(t.step_line, (std::vector<std::uint64_t>{1, 3, 4, 5, 7, 8, 9}));
  EXPECT_EQ(t.step_now, (std::vector<std::int64_t>{0, 0, 0, 5, 5, 5, 5}));
  // pick at 3: a=2 b=1 -> a. pick at 7: a 2-3+2=1, b 1+1=2, c 0+5=5 -> c.
  EXPECT_EQ(t.step_winner, (std::vector<std::int32_t>{kNotAPick, 0, kNotAPick, kNotAPick, 2,
                                                      kNotAPick, kNotAPick}));
  // New blocks after POOL, ADD, NOW, DOWN; PICK and WEIGHTS reuse the last.
  EXPECT_EQ(t.step_block, (std::vector<std::uint32_t>{0, 0, 1, 2, 2, 3, 3}));
  EXPECT_EQ(t.block_start, (std::vector<std::uint32_t>{0, 2, 5, 8}));
  EXPECT_EQ(t.cell_weight, (std::vector<std::int64_t>{2, 1, 2, 1, 0, 2, 1, 5, 0, 1, 5}));
  EXPECT_EQ(t.cell_up, (std::vector<std::uint8_t>{1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1}));
  EXPECT_FALSE(t.truncated);
}

TEST(Timeline, Optional) {
  RunOptions o;
  o.timeline = false;
  EXPECT_TRUE(run_script("POOL a=1\nPICK\n", o).timeline.step_line.empty());
}

TEST(Timeline, RecorderCapsStopWholeSteps) {
  Pool pool;
  pool.replace({{"a", 1}, {"b", 2}});
  TimelineRecorder rec(/*max_steps=*/5, /*max_cells=*/5);
  rec.record(1, Op::Pool, pool, kNone);  // block 0: 2 cells
  rec.record(2, Op::Pick, pool, 1);                 // shares block 0
  pool.set_now(3);
  rec.record(3, Op::Now, pool, kNone);   // block 1: 4 cells
  rec.record(4, Op::Weights, pool, kNone);
  pool.down("a");
  rec.record(5, Op::Down, pool, kNone);  // 6 cells > 5: truncated
  rec.record(6, Op::Pick, pool, 1);                 // nothing more is recorded
  const auto& t = rec.timeline();
  EXPECT_TRUE(t.truncated);
  EXPECT_EQ(t.step_line, (std::vector<std::uint64_t>{1, 2, 3, 4}));
  EXPECT_EQ(t.step_block, (std::vector<std::uint32_t>{0, 0, 1, 1}));
  EXPECT_EQ(t.step_winner, (std::vector<std::int32_t>{kNotAPick, 1, kNotAPick, kNotAPick}));
  EXPECT_EQ(t.cell_backend.size(), 4u);

  TimelineRecorder steps(/*max_steps=*/3, /*max_cells=*/100);
  for (std::uint64_t l = 1; l <= 10; ++l) steps.record(l, Op::Pick, pool, 1);
  EXPECT_TRUE(steps.timeline().truncated);
  EXPECT_EQ(steps.timeline().step_line.size(), 3u);
}

// nginx's example: weights 5, 1, 1 pick a a b a c a a, and the scores after
// each pick, worked by hand (add the weights, the highest wins, it gives back 7):
//   1: 5 1 1 -> a: -2 1 1      2: 3 2 2 -> a: -4 2 2      3: 1 3 3 -> b: 1 -4 3
//   4: 6 -3 4 -> a: -1 -3 4    5: 4 -2 5 -> c: 4 -2 -2    6: 9 -1 -1 -> a: 2 -1 -1
//   7: 7 0 0 -> a: 0 0 0
TEST(TimelineScores, TheFiveOneOnePoolsSevenPicks) {
  const auto r = run_script("POOL a=5 b=1 c=1\nPICK\nPICK\nPICK\nPICK\nPICK\nPICK\nPICK\n");
  const Timeline& t = r.timeline;
  ASSERT_EQ(t.step_line.size(), 8u);
  EXPECT_EQ(t.scored_steps, 8u);
  EXPECT_FALSE(t.scores_truncated);
  const std::vector<Scores> want = {{0, 0, 0},   {-2, 1, 1},  {-4, 2, 2}, {1, -4, 3},
                                    {-1, -3, 4}, {4, -2, -2}, {2, -1, -1}, {0, 0, 0}};
  for (std::size_t i = 0; i < want.size(); ++i) EXPECT_EQ(scores_after(t, i), want[i]) << "after step " << i;
  // All three scores change at every pick: 3 changes each, one block.
  EXPECT_EQ(t.block_start.size(), 1u);
  EXPECT_EQ(t.step_scores_end, (std::vector<std::uint32_t>{0, 3, 6, 9, 12, 15, 18, 21}));
}

// The SPEC's worked example. Scores: after the two picks a -4 b 2 c 2; ADD d
// starts d at 0; NOW and WEIGHTS change no score; at line 8 a 1 b 3 c 3 d 2
// before b (tie with c, pool order) gives back 9: b -6; DOWN a keeps a's 1;
// at line 10 b -5 c 4 d 4 before c (tie with d) gives back 4: c 0.
TEST(TimelineScores, TheSpecsWorkedExample) {
  const auto r = run_script(
      "POOL a=5 b=1 c=1\nPICK\nPICK\nADD d=10 20\nWEIGHTS\nNOW 5\nWEIGHTS\nPICK\nDOWN a\nPICK\npick\n");
  const Timeline& t = r.timeline;
  ASSERT_EQ(t.step_line, (std::vector<std::uint64_t>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}));
  const std::vector<Scores> want = {
      {0, 0, 0},        // POOL
      {-2, 1, 1},       // PICK a
      {-4, 2, 2},       // PICK a
      {-4, 2, 2, 0},    // ADD d
      {-4, 2, 2, 0},    // WEIGHTS
      {-4, 2, 2, 0},    // NOW 5
      {-4, 2, 2, 0},    // WEIGHTS
      {1, -6, 3, 2},    // PICK b
      {1, -6, 3, 2},    // DOWN a: its score is kept
      {1, -5, 0, 4},    // PICK c: a takes no part
  };
  for (std::size_t i = 0; i < want.size(); ++i) EXPECT_EQ(scores_after(t, i), want[i]) << "after line " << t.step_line[i];
  // The last pick changes b, c and d only: a (DOWN) is not a participant.
  const std::uint32_t before = t.step_scores_end[8];
  ASSERT_EQ(t.step_scores_end[9] - before, 3u);
  const std::uint32_t block = t.block_start[t.step_block[9]];
  EXPECT_EQ(t.score_cell[before] - block, 1u);
  EXPECT_EQ(t.score_cell[before + 2] - block, 3u);
}

TEST(TimelineScores, NoneAndALoneWinnerChangeNothing) {
  // A lone participant gains its weight and gives it back: its score stays 0.
  const auto r = run_script("POOL\nPICK\nPOOL a=3 b=0\nPICK\nPICK\nUP b 0\n");
  const Timeline& t = r.timeline;
  ASSERT_EQ(t.step_line.size(), 6u);
  EXPECT_TRUE(t.score_cell.empty());
  EXPECT_EQ(t.step_scores_end, (std::vector<std::uint32_t>{0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(scores_after(t, 4), (Scores{0, 0}));
  EXPECT_EQ(t.scored_steps, 6u);
}

TEST(TimelineScores, UpAndAddRestartAScoreAtZero) {
  // a b at 1/1: a wins (a -1, b 1). UP a: a restarts at 0. PICK: a 1 b 2 -> b: a 1 b 0.
  // ADD b in place: b restarts at 0, a keeps 1.
  const auto r = run_script("POOL a=1 b=1\nPICK\nUP a 0\nPICK\nADD b=1 0\n");
  const Timeline& t = r.timeline;
  EXPECT_EQ(scores_after(t, 1), (Scores{-1, 1}));
  EXPECT_EQ(scores_after(t, 2), (Scores{0, 1}));
  EXPECT_EQ(scores_after(t, 3), (Scores{1, 0}));
  EXPECT_EQ(scores_after(t, 4), (Scores{1, 0}));
}

TEST(TimelineScores, BeyondTheCapScoresStopAndStepsGoOn) {
  // Three participants: three changes per PICK. A cap of 10 keeps three
  // picks whole; the fourth would pass it, so scores stop before it.
  Pool pool;
  pool.replace({{"a", 5}, {"b", 1}, {"c", 1}});
  TimelineRecorder rec(/*max_steps=*/100, /*max_cells=*/100, /*max_score_changes=*/10);
  rec.record(1, Op::Pool, pool, kNone);
  for (std::uint64_t line = 2; line <= 8; ++line) rec.record(line, Op::Pick, pool, pool.pick());
  const Timeline& t = rec.timeline();
  EXPECT_FALSE(t.truncated);
  EXPECT_EQ(t.step_line.size(), 8u);           // every step is there...
  EXPECT_TRUE(t.scores_truncated);
  EXPECT_EQ(t.scored_steps, 4u);               // ...with scores for POOL and three picks
  EXPECT_EQ(t.score_cell.size(), 9u);          // never a part of a step
  EXPECT_EQ(scores_after(t, 3), (Scores{1, -4, 3}));
  EXPECT_EQ(t.step_winner[7], 0);              // picks are still recorded
}

// Other rules (a learner's code) may change any score, even a DOWN
// backend's: the timeline records what the pool holds, not what the SPEC says.
namespace {
class ScoreEveryone : public Rules {
 public:
  std::int64_t effective_weight(const Backend&, std::int64_t) override { return 1; }
  std::int32_t pick(const Backend*, const std::int64_t*, std::int64_t* scores, std::size_t n) override {
    for (std::size_t i = 0; i < n; ++i) scores[i] += 10;
    return n ? 0 : kNone;
  }
};
}  // namespace

TEST(TimelineScores, OtherRulesAreRecordedAsTheyAre) {
  ScoreEveryone rules;
  RunOptions o;
  o.rules = &rules;
  const auto r = run_script("POOL a=1 b=1\nDOWN b\nPICK\nPICK\n", o);
  const Timeline& t = r.timeline;
  EXPECT_EQ(scores_after(t, 2), (Scores{10, 10}));
  EXPECT_EQ(scores_after(t, 3), (Scores{20, 20}));
}

// ...even when the caller says it works the changes out from the winners
// (RunOptions::score_changes, which holds for the SPEC's rules only).
TEST(TimelineScores, OtherRulesKeepTheirChangesWhenLeftOut) {
  ScoreEveryone rules;
  RunOptions o;
  o.rules = &rules;
  o.score_changes = false;
  const auto r = run_script("POOL a=1 b=1\nDOWN b\nPICK\nPICK\n", o);
  const Timeline& t = r.timeline;
  EXPECT_EQ(t.score_cell.size(), 4u);  // two picks, each +10 to both (the DOWN one too)
  EXPECT_EQ(scores_after(t, 3), (Scores{20, 20}));
}

// The bound the issue asks for: 1,000 backends and 100,000 PICKs. A full
// snapshot per PICK would be 10^8 scores; here the changes stop at their cap
// (2,000,000: 2,000 whole picks of 1,000 participants) and the rest of the
// timeline goes on within its own caps.
TEST(TimelineScores, AThousandBackendsAndAHundredThousandPicksStayBounded) {
  std::string script = "POOL";
  for (int i = 0; i < 1000; ++i) script += " b" + std::to_string(i) + "=" + std::to_string(1 + i % 7);
  script += "\n";
  script.reserve(script.size() + 100'000 * 5);
  for (int i = 0; i < 100'000; ++i) script += "PICK\n";
  const auto r = run_script(script);
  const Timeline& t = r.timeline;
  EXPECT_FALSE(t.truncated);
  EXPECT_EQ(t.step_line.size(), 100'001u);
  EXPECT_EQ(t.cell_score.size(), 1000u);       // one block
  EXPECT_TRUE(t.scores_truncated);
  EXPECT_LE(t.score_cell.size(), 2'000'000u);
  EXPECT_EQ(t.score_value.size(), t.score_cell.size());
  // Whole picks only, and as many as fit: every participant of every
  // recorded pick changed except, at most, one lone winner (none here).
  EXPECT_EQ(t.scored_steps, 2'001u);
  EXPECT_EQ(t.score_cell.size(), 2'000'000u);
  // The scores of a participant pool always sum to 0 (each pick adds the
  // total and takes it back): a check that needs no engine numbers.
  for (std::size_t step : {1u, 999u, 2'000u}) {
    std::int64_t sum = 0;
    for (std::int64_t s : scores_after(t, step)) sum += s;
    EXPECT_EQ(sum, 0) << "after step " << step;
  }
}

// A pool of `n` backends n0, n1, ... of weight 1.
static void fill(Pool& pool, int n) {
  std::vector<std::string> names;
  for (int i = 0; i < n; ++i) names.push_back("n" + std::to_string(i));
  std::vector<PoolEntryView> entries;
  for (const auto& name : names) entries.push_back({name, 1});
  pool.replace(entries);
}

// A light recording (the web page's background runs): whole blocks while
// they fit in a 16th of the cells (here 1,600 / 16 = 100), then light blocks
// of the backends with the first 60 ids that are in the pool (one shared
// while they do not change), and a PICK after a light block takes the whole
// pool as it was before the pick, which the step before it then shares.
// Worked by hand: 70 backends n0..n69 of weight 1, then x and y (weight 1,
// no ramp): 72 at 1, scores 0. PICK 1: all sum 1, n0 wins (earliest) and
// gives back 72: n0 -71, the others 1. PICK 2: n0 -70, the others 2, n1
// wins: n1 2-72 = -70.
TEST(Timeline, LightRecordingReachesEveryPickWithFewCells) {
  Pool pool;
  fill(pool, 70);
  TimelineRecorder rec(/*max_steps=*/100, /*max_cells=*/1600);
  rec.record_light(1, Op::Pool, pool, kNone);  // whole: 70 cells
  pool.add("x", 1, 0);
  rec.record_light(2, Op::Add, pool, kNone);   // 70 + 71 > 100: light, n0..n59
  pool.add("y", 1, 0);
  rec.record_light(3, Op::Add, pool, kNone);   // the same light block
  std::int32_t w = pool.pick();
  EXPECT_EQ(w, 0);
  rec.record_light(4, Op::Pick, pool, w);      // the whole pool before the pick; step 3 shares it
  w = pool.pick();
  EXPECT_EQ(w, 1);
  rec.record_light(5, Op::Pick, pool, w);
  pool.set_now(5);
  rec.record_light(6, Op::Now, pool, kNone);   // light again
  rec.record_light(7, Op::Weights, pool, kNone);
  const Timeline t = rec.take();
  EXPECT_TRUE(t.partial);
  EXPECT_FALSE(t.truncated);
  ASSERT_EQ(t.names.size(), 72u);
  EXPECT_EQ(t.names[70], "x");
  EXPECT_EQ(t.names[71], "y");
  EXPECT_EQ(t.step_line, (std::vector<std::uint64_t>{1, 2, 3, 4, 5, 6, 7}));
  EXPECT_EQ(t.step_block, (std::vector<std::uint32_t>{0, 1, 2, 2, 2, 3, 3}));
  EXPECT_EQ(t.block_start, (std::vector<std::uint32_t>{0, 70, 130, 202}));
  EXPECT_EQ(t.cell_backend.size(), 262u);
  for (std::uint32_t k = 0; k < 60; ++k) {
    EXPECT_EQ(t.cell_backend[70 + k], k);
    EXPECT_EQ(t.cell_backend[202 + k], k);
  }
  EXPECT_EQ(t.cell_backend[130 + 70], 70u);  // x and y are in the pick's whole block
  EXPECT_EQ(t.cell_backend[130 + 71], 71u);
  EXPECT_EQ(t.step_winner[3], 0);
  EXPECT_EQ(t.step_winner[4], 1);
  EXPECT_EQ(scores_after(t, 2), Scores(72, 0));  // the pool before the first pick
  Scores one(72, 1);
  one[0] = -71;
  EXPECT_EQ(scores_after(t, 3), one);
  Scores two(72, 2);
  two[0] = -70;
  two[1] = -70;
  EXPECT_EQ(scores_after(t, 4), two);
  EXPECT_EQ(scores_after(t, 5), Scores(two.begin(), two.begin() + 60));
  EXPECT_EQ(t.scored_steps, 7u);
}

TEST(Timeline, LightRecordingStopsWhereAPickBlockDoesNotFit) {
  Pool pool;
  fill(pool, 120);
  TimelineRecorder rec(/*max_steps=*/100, /*max_cells=*/320);  // whole room 20
  rec.record_light(1, Op::Pool, pool, kNone);  // light: 60 cells
  std::int32_t w = pool.pick();
  rec.record_light(2, Op::Pick, pool, w);      // whole: 60 + 120 = 180
  pool.set_now(1);
  rec.record_light(3, Op::Now, pool, kNone);   // light: 240
  w = pool.pick();
  rec.record_light(4, Op::Pick, pool, w);      // 240 + 120 > 320: stops here
  const Timeline t = rec.take();
  EXPECT_TRUE(t.truncated);
  EXPECT_EQ(t.step_line, (std::vector<std::uint64_t>{1, 2, 3}));
  EXPECT_EQ(t.step_block, (std::vector<std::uint32_t>{1, 1, 2}));
}
