#include "core/timeline.hpp"

#include <type_traits>

namespace slowstart {

namespace {

// Out of line, one copy per element type: at -O3 a vector's growth path
// would otherwise be inlined at every push, a few hundred bytes of
// WebAssembly each (and the engine module has a size budget, 40 KB gzipped).
template <typename T>
[[gnu::noinline]] void append(std::vector<T>& v, std::type_identity_t<T> x) {
  v.push_back(x);
}

}  // namespace

void TimelineRecorder::record(std::uint64_t line, Op op, const Pool& pool,
                              std::int32_t winner) {
  Timeline& t = timeline_;
  if (t.truncated) return;
  if (op != Op::Pick && op != Op::Weights) stale_ = true;
  const bool new_block = stale_ || t.block_start.empty();
  if (t.step_line.size() >= max_steps_ ||
      (new_block && t.cell_backend.size() + pool.size() > max_cells_)) {
    t.truncated = true;
    return;
  }
  if (new_block) take_block(pool);
  else if (op == Op::Pick && !t.scores_truncated) record_scores(pool);
  append(t.step_line, line);
  append(t.step_now, pool.now());
  std::int32_t w = kNotAPick;
  if (op == Op::Pick) w = winner == kNone ? kNone : static_cast<std::int32_t>(ids_.id_of(pool.backend(winner).name));
  append(t.step_winner, w);
  append(t.step_block, static_cast<std::uint32_t>(t.block_start.size() - 1));
  append(t.step_scores_end, static_cast<std::uint32_t>(t.score_cell.size()));
  if (!t.scores_truncated) t.scored_steps = t.step_line.size();
}

void TimelineRecorder::take_block(const Pool& pool) {
  Timeline& t = timeline_;
  append(t.block_start, static_cast<std::uint32_t>(t.cell_backend.size()));
  scores_.resize(pool.size());
  participants_.clear();
  for (std::size_t i = 0; i < pool.size(); ++i) {
    const bool up = pool.backend(i).up;
    append(t.cell_backend, ids_.id_of(pool.backend(i).name));
    append(t.cell_up, up ? std::uint8_t{1} : std::uint8_t{0});
    append(t.cell_weight, pool.weight(i));
    append(t.cell_score, scores_[i] = pool.score(i));
    if (up && pool.weight(i) > 0) append(participants_, static_cast<std::uint32_t>(i));
  }
  stale_ = false;
}

// The scores this PICK changed. With the SPEC's rules those are among the
// participants (all of them but a lone winner), so the work is what the
// pick itself touched; other rules (a learner's code) may change any score,
// so every backend is compared. A step's changes are kept whole or not at
// all: the scores stay an exact prefix of the run.
void TimelineRecorder::record_scores(const Pool& pool) {
  Timeline& t = timeline_;
  const bool any = pool.rules() != nullptr;
  const std::size_t candidates = any ? pool.size() : participants_.size();
  if (t.score_cell.size() + candidates > max_score_changes_) {
    t.scores_truncated = true;
    return;
  }
  const std::uint32_t first_cell = t.block_start.back();
  for (std::size_t k = 0; k < candidates; ++k) {
    const std::size_t i = any ? k : participants_[k];
    const std::int64_t s = pool.score(i);
    if (s == scores_[i]) continue;
    scores_[i] = s;
    append(t.score_cell, first_cell + static_cast<std::uint32_t>(i));
    append(t.score_value, s);
  }
}

}  // namespace slowstart
