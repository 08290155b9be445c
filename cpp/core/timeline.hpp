// What the chart draws from: for each executed line, the clock, every
// backend's state, effective weight and smooth-WRR score, and the pick's
// winner.
//
// Stored flat (structure of arrays) so the WASM layer can hand each column to
// JavaScript as one typed array. Pool snapshots ("blocks") are taken only
// after lines that can change weights (POOL, NOW, ADD, DOWN, UP); a run of
// PICKs shares one block. A PICK changes scores, not weights, so each PICK
// records only the scores it changed (its block has the ones before). Total
// size is capped so that no script, however long, makes the timeline grow
// without bound; `truncated` says it stopped, `scores_truncated` that the
// scores stopped earlier (their own cap) while the rest went on.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/command.hpp"
#include "fast/name_table.hpp"
#include "core/pool.hpp"

namespace slowstart {

inline constexpr std::int32_t kNotAPick = -2;  // step_winner of a non-PICK line

struct Timeline {
  // Backend ids: every name that was ever in the pool, in order of first
  // appearance. A name keeps its id for the whole run.
  std::vector<std::string> names;

  // One step per executed (not ignored, not rejected) line.
  std::vector<std::uint64_t> step_line;   // 1-based source line
  std::vector<std::int64_t> step_now;     // the clock after the line
  std::vector<std::int32_t> step_winner;  // backend id, kNone, or kNotAPick
  std::vector<std::uint32_t> step_block;  // the pool as it was after the line

  // Blocks: block b is cells [block_start[b], block_start[b+1]) (or to the
  // end for the last one), one cell per backend in pool order.
  std::vector<std::uint32_t> block_start;
  std::vector<std::uint32_t> cell_backend;  // backend id
  std::vector<std::uint8_t> cell_up;        // 1 UP, 0 DOWN
  std::vector<std::int64_t> cell_weight;    // effective weight
  std::vector<std::int64_t> cell_score;     // score after the step that took the block

  // Score changes: step i changed cells' scores [step_scores_end[i-1],
  // step_scores_end[i]) (from 0 for step 0): cell score_cell[k] (a cell of
  // the step's block) has score score_value[k] from that step on. With the
  // SPEC's rules only a PICK changes scores, and only its participants'.
  std::vector<std::uint32_t> step_scores_end;
  std::vector<std::uint32_t> score_cell;
  std::vector<std::int64_t> score_value;
  // Steps [0, scored_steps) have their scores. When the score changes would
  // pass their cap, scores stop (scores_truncated) and the steps go on.
  std::size_t scored_steps = 0;
  bool scores_truncated = false;

  bool truncated = false;
  // Some blocks hold only part of their pool (a light recording: see
  // TimelineRecorder::record_light). Never set otherwise.
  bool partial = false;
};

class TimelineRecorder {
 public:
  // Limits keep a huge script or pool from exhausting memory; the defaults
  // are far above what a chart can show.
  // A score change costs 12 bytes: 2,000,000 of them keep 24 MB at most.
  // That is every score of 2,000 PICKs in a 1,000-backend pool, or of
  // 400,000 PICKs in a pool of five.
  explicit TimelineRecorder(std::size_t max_steps = 1'000'000,
                            std::size_t max_cells = 4'000'000,
                            std::size_t max_score_changes = 2'000'000)
      : max_steps_(max_steps), max_cells_(max_cells), max_score_changes_(max_score_changes) {}

  // Records one executed line. `winner` is the pool index for a PICK.
  void record(std::uint64_t line, Op op, const Pool& pool, std::int32_t winner);

  // Records one executed line of a light recording, for a view that reads
  // a few backends of a big pool (the web page's background runs; the
  // SPEC's rules only). Whole blocks are taken while they fit in a 16th of
  // the cells (250,000 by default); past that, a line that changes weights
  // takes a light block: only the backends with the first kLightBackends
  // ids that are in the pool, in id order (a block the same as the last
  // light one is shared); and a PICK after such a block takes its whole pool
  // as it was before the pick, which the step before it then shares (so the
  // pick's scores before and after are both there). A pool of 100,000 built
  // by 100,000 ADD lines then costs a few light blocks and one whole block
  // per run of PICKs, where whole blocks stop at line 2,827. `partial` says
  // some block is light. (Not mixed with record() in one recording.)
  void record_light(std::uint64_t line, Op op, const Pool& pool, std::int32_t winner);
  static constexpr std::size_t kLightBackends = 60;
  static constexpr std::size_t kLightWholeShare = 16;

  // Under the SPEC's rules a PICK's score changes follow from its winner
  // (each participant gains its weight, the winner loses their total), so a
  // reader that works them out (the engine module's JavaScript, timeline.ts)
  // need not have them recorded: with false they are counted, not kept
  // (score_cell and score_value stay empty; scored_steps and
  // scores_truncated are what they would be). Recording them was most of a
  // run's timeline work (PL-29). For the SPEC's rules only: under other
  // rules any score may change, and run_script and its kin keep them
  // whatever RunOptions::score_changes says.
  void keep_score_changes(bool keep) { keep_score_changes_ = keep; }

  Timeline take() {
    timeline_.names = ids_.take_names();
    return std::move(timeline_);
  }
  // The timeline so far (its names are in take()'s result only).
  const Timeline& timeline() const { return timeline_; }

 private:
  void take_block(const Pool& pool, std::int32_t picked = kNotAPick);
  std::uint32_t id_of(std::string_view name);
  void record_scores(const Pool& pool);
  void append_step(std::uint64_t line, Op op, const Pool& pool, std::int32_t winner);
  void take_light_block(const Pool& pool);

  Timeline timeline_;
  NameIds ids_;  // the backend ids; their names become timeline_.names
  std::size_t max_steps_, max_cells_, max_score_changes_;
  std::size_t score_changes_ = 0;  // recorded or (keep_score_changes(false)) counted
  bool keep_score_changes_ = true;
  bool stale_ = true;  // pool changed since the last block
  bool light_block_ = false;  // the last block is a light one
  std::vector<std::int64_t> light_at_;  // position * kLightBackends + id of each light cell, reused
  // The current block's scores as last recorded, and (with the SPEC's
  // rules) its participants: the only backends whose score a PICK changes.
  std::vector<std::int64_t> scores_;
  std::vector<std::uint32_t> participants_;
};

}  // namespace slowstart
