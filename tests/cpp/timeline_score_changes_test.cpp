// RunOptions::score_changes = false (TimelineRecorder::keep_score_changes):
// the engine module's runs leave out a PICK's score changes, which its
// JavaScript works out from the winners. Everything else a run gives must be
// what it gives with them: output, diagnostics, every other timeline column,
// and where the scores stop (scored_steps, scores_truncated), worked here by
// hand from the SPEC's rule (each participant gains its weight, the winner
// loses their total, so every participant's score moves but a lone one's).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "core/interpreter.hpp"
#include "core/timeline.hpp"

using namespace slowstart;

namespace {

RunResult run(const std::string& script, bool score_changes) {
  RunOptions o;
  o.score_changes = score_changes;
  return run_script(script, o);
}

// Both runs alike in all but the score changes themselves.
void expect_alike_but_the_changes(const RunResult& kept, const RunResult& counted) {
  ASSERT_EQ(kept.output.size(), counted.output.size());
  for (std::size_t i = 0; i < kept.output.size(); ++i) {
    EXPECT_EQ(kept.output[i].line, counted.output[i].line);
    EXPECT_EQ(kept.output[i].text, counted.output[i].text);
  }
  ASSERT_EQ(kept.diagnostics.size(), counted.diagnostics.size());
  for (std::size_t i = 0; i < kept.diagnostics.size(); ++i) {
    EXPECT_EQ(kept.diagnostics[i].line, counted.diagnostics[i].line);
    EXPECT_EQ(kept.diagnostics[i].message, counted.diagnostics[i].message);
  }
  const Timeline& a = kept.timeline;
  const Timeline& b = counted.timeline;
  EXPECT_EQ(a.names, b.names);
  EXPECT_EQ(a.step_line, b.step_line);
  EXPECT_EQ(a.step_now, b.step_now);
  EXPECT_EQ(a.step_winner, b.step_winner);
  EXPECT_EQ(a.step_block, b.step_block);
  EXPECT_EQ(a.block_start, b.block_start);
  EXPECT_EQ(a.cell_backend, b.cell_backend);
  EXPECT_EQ(a.cell_up, b.cell_up);
  EXPECT_EQ(a.cell_weight, b.cell_weight);
  EXPECT_EQ(a.cell_score, b.cell_score);
  EXPECT_EQ(a.scored_steps, b.scored_steps);
  EXPECT_EQ(a.scores_truncated, b.scores_truncated);
  EXPECT_EQ(a.truncated, b.truncated);
  EXPECT_TRUE(b.score_cell.empty());
  EXPECT_TRUE(b.score_value.empty());
}

}  // namespace

TEST(TimelineScoreChanges, LeftOutTheRunIsTheSameInAllElse) {
  // Ramps, DOWN and UP, a lone participant (a alone: PICK changes nothing),
  // PICK NONE (all DOWN), rejected lines, WEIGHTS.
  const std::string script =
      "POOL a=3 b=2 c=1\nPICK\nPICK\nADD d=4 10\nNOW 5\nPICK\nWEIGHTS\nDOWN b\nDOWN c\nDOWN d\n"
      "PICK\nPICK\nDOWN a\nPICK\nbad line\nUP a 0\nUP b 4\nNOW 9\nPICK\nPICK\nPICK\nWEIGHTS\nNOW x\n";
  const RunResult kept = run(script, true);
  const RunResult counted = run(script, false);
  expect_alike_but_the_changes(kept, counted);
  EXPECT_FALSE(counted.timeline.scores_truncated);
  EXPECT_EQ(counted.timeline.scored_steps, counted.timeline.step_line.size());
  EXPECT_EQ(counted.timeline.step_line.size(), 21u);  // 23 lines, 2 rejected
  EXPECT_FALSE(kept.timeline.score_cell.empty());
}

TEST(TimelineScoreChanges, CountedAgainstTheCapAsIfKept) {
  // Three participants: three changes a PICK. A cap of 10 keeps three picks
  // whole (9); the fourth would pass it (12), so scores stop before it.
  for (const bool keep : {true, false}) {
    Pool pool;
    pool.replace({{"a", 5}, {"b", 1}, {"c", 1}});
    TimelineRecorder rec(/*max_steps=*/100, /*max_cells=*/100, /*max_score_changes=*/10);
    rec.keep_score_changes(keep);
    rec.record(1, Op::Pool, pool, kNone);
    for (std::uint64_t line = 2; line <= 8; ++line) rec.record(line, Op::Pick, pool, pool.pick());
    const Timeline& t = rec.timeline();
    EXPECT_EQ(t.step_line.size(), 8u) << keep;
    EXPECT_TRUE(t.scores_truncated) << keep;
    EXPECT_EQ(t.scored_steps, 4u) << keep;
    EXPECT_EQ(t.score_cell.size(), keep ? 9u : 0u);
  }
}

TEST(TimelineScoreChanges, ALoneParticipantChangesNothing) {
  // a alone (b is DOWN): a pick adds a's weight and takes it back. The cap
  // is asked about the participants (1 fits in 1), and counts no change, so
  // every pick has its scores; two picks of two participants then fill it
  // (2 + 2 > 3 stops the second).
  for (const bool keep : {true, false}) {
    Pool pool;
    pool.replace({{"a", 2}, {"b", 1}});
    ASSERT_TRUE(pool.down("b"));
    TimelineRecorder rec(/*max_steps=*/100, /*max_cells=*/100, /*max_score_changes=*/3);
    rec.keep_score_changes(keep);
    rec.record(1, Op::Down, pool, kNone);
    for (std::uint64_t line = 2; line <= 6; ++line) rec.record(line, Op::Pick, pool, pool.pick());
    EXPECT_FALSE(rec.timeline().scores_truncated) << keep;
    EXPECT_EQ(rec.timeline().scored_steps, 6u) << keep;
    ASSERT_TRUE(pool.up("b", 0));
    rec.record(7, Op::Up, pool, kNone);
    for (std::uint64_t line = 8; line <= 9; ++line) rec.record(line, Op::Pick, pool, pool.pick());
    EXPECT_TRUE(rec.timeline().scores_truncated) << keep;
    EXPECT_EQ(rec.timeline().scored_steps, 8u) << keep;  // the first pick of two fits (2), the next not
    EXPECT_EQ(rec.timeline().score_cell.size(), keep ? 2u : 0u);
  }
}

TEST(TimelineScoreChanges, TheDefaultCapStopsAtTheSameStep) {
  // 100 participants: 2,000,000 / 100 = 20,000 whole picks, so steps 0
  // (POOL) to 20,000 have scores and the 20,001st pick does not fit.
  std::string script = "POOL";
  for (int i = 0; i < 100; ++i) script += " b" + std::to_string(i) + "=" + std::to_string(1 + i % 7);
  script += "\n";
  for (int i = 0; i < 20'500; ++i) script += "PICK\n";
  const RunResult kept = run(script, true);
  const RunResult counted = run(script, false);
  expect_alike_but_the_changes(kept, counted);
  EXPECT_TRUE(counted.timeline.scores_truncated);
  EXPECT_EQ(counted.timeline.scored_steps, 20'001u);
  EXPECT_EQ(kept.timeline.score_cell.size(), 2'000'000u);
}
