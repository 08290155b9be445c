// What the chart draws from: for each executed line, the clock, every
// backend's state and effective weight, and the pick's winner.
//
// Stored flat (structure of arrays) so the WASM layer can hand each column to
// JavaScript as one typed array. Pool snapshots ("blocks") are taken only
// after lines that can change weights (POOL, NOW, ADD, DOWN, UP); a run of
// PICKs shares one block. Total size is capped so that no script, however
// long, makes the timeline grow without bound; `truncated` says it stopped.
#pragma once
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "command.hpp"
#include "pool.hpp"

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

  bool truncated = false;
};

class TimelineRecorder {
 public:
  // Limits keep a huge script or pool from exhausting memory; the defaults
  // are far above what a chart can show.
  explicit TimelineRecorder(std::size_t max_steps = 1'000'000,
                            std::size_t max_cells = 4'000'000)
      : max_steps_(max_steps), max_cells_(max_cells) {}

  // Records one executed line. `winner` is the pool index for a PICK.
  void record(std::uint64_t line, Op op, const Pool& pool, std::int32_t winner);

  Timeline take() { return std::move(timeline_); }
  const Timeline& timeline() const { return timeline_; }

 private:
  std::uint32_t id_of(const std::string& name);

  Timeline timeline_;
  std::unordered_map<std::string, std::uint32_t> ids_;
  std::size_t max_steps_, max_cells_;
  bool stale_ = true;  // pool changed since the last block
};

}  // namespace slowstart
