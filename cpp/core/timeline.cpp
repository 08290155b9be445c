#include "core/timeline.hpp"

#include <type_traits>

#include "fast/cold.hpp"

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

// (One copy of the name table's insert, for every caller.)
SLOWSTART_OUT_OF_LINE std::uint32_t TimelineRecorder::id_of(std::string_view name) { return ids_.id_of(name); }

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
  append_step(line, op, pool, winner);
}

// The step itself (its block is taken).
SLOWSTART_OUT_OF_LINE void TimelineRecorder::append_step(std::uint64_t line, Op op, const Pool& pool, std::int32_t winner) {
  Timeline& t = timeline_;
  append(t.step_line, line);
  append(t.step_now, pool.now());
  std::int32_t w = kNotAPick;
  if (op == Op::Pick) w = winner == kNone ? kNone : static_cast<std::int32_t>(id_of(pool.backend(winner).name));
  append(t.step_winner, w);
  append(t.step_block, static_cast<std::uint32_t>(t.block_start.size() - 1));
  append(t.step_scores_end, static_cast<std::uint32_t>(t.score_cell.size()));
  if (!t.scores_truncated) t.scored_steps = t.step_line.size();
}

// `picked`: the pool is the one after a PICK of a light recording, and the
// block is the pool before it (record_light): with the SPEC's rules the
// pick added each participant's weight to its score and took the total from
// the winner's, so those scores are worked back.
SLOWSTART_OUT_OF_LINE void TimelineRecorder::take_block(const Pool& pool, std::int32_t picked) {
  Timeline& t = timeline_;
  std::int64_t total = 0;
  if (picked != kNotAPick)
    for (std::size_t i = 0; i < pool.size(); ++i) total += pool.backend(i).up && pool.weight(i) > 0 ? pool.weight(i) : 0;
  append(t.block_start, static_cast<std::uint32_t>(t.cell_backend.size()));
  scores_.resize(pool.size());
  participants_.clear();
  for (std::size_t i = 0; i < pool.size(); ++i) {
    const bool up = pool.backend(i).up;
    const bool takes_part = up && pool.weight(i) > 0;
    std::int64_t score = pool.score(i);
    if (picked != kNotAPick && takes_part) score += (static_cast<std::int64_t>(i) == picked ? total : 0) - pool.weight(i);
    append(t.cell_backend, id_of(pool.backend(i).name));
    append(t.cell_up, up ? std::uint8_t{1} : std::uint8_t{0});
    append(t.cell_weight, pool.weight(i));
    append(t.cell_score, scores_[i] = score);
    if (takes_part) append(participants_, static_cast<std::uint32_t>(i));
  }
  stale_ = false;
  light_block_ = false;
}

// A line of a light recording (record_light): its block, whole, light or the
// pick's, then the step; the timeline stops where a block does not fit.
SLOWSTART_COLD void TimelineRecorder::record_light(std::uint64_t line, Op op, const Pool& pool, std::int32_t winner) {
  Timeline& t = timeline_;
  if (t.truncated) return;
  if (t.step_line.size() >= max_steps_) {
    t.truncated = true;
    return;
  }
  if (op != Op::Pick && op != Op::Weights) stale_ = true;
  // Each backend is named when it enters the pool (ids in order of first appearance, as whole
  // blocks give them): POOL brings a new pool, ADD a backend at its end or in its place.
  const std::size_t n = pool.size();
  for (std::size_t i = op == Op::Pool ? 0 : op == Op::Add && n > 0 ? n - 1 : n; i < n; ++i) id_of(pool.name(i));
  const bool new_block = stale_ || t.block_start.empty();
  const std::size_t cells = t.cell_backend.size();
  if (new_block && cells + n <= max_cells_ / kLightWholeShare) {
    take_block(pool);
  } else if (new_block && op != Op::Pick && n > kLightBackends && cells + kLightBackends <= max_cells_) {
    take_light_block(pool);
  } else if ((new_block || (op == Op::Pick && light_block_)) && cells + n <= max_cells_) {
    // A small pool whole; or a PICK after a light block: the pool before it, which the step before shares.
    take_block(pool, op == Op::Pick ? winner : kNotAPick);
    if (op == Op::Pick && !t.step_block.empty()) t.step_block.back() = static_cast<std::uint32_t>(t.block_start.size() - 1);
  } else if (new_block || (op == Op::Pick && light_block_)) {
    t.truncated = true;
    return;
  }
  if (op == Op::Pick && !t.scores_truncated) record_scores(pool);
  append_step(line, op, pool, winner);
}

// The backends with the first kLightBackends ids that are in the pool, in
// id order; the last block again when it was light and is the same.
SLOWSTART_COLD void TimelineRecorder::take_light_block(const Pool& pool) {
  Timeline& t = timeline_;
  const auto& names = ids_.names();
  light_at_.clear();
  std::size_t c = light_block_ ? t.block_start.back() : t.cell_backend.size();
  bool same = light_block_;
  for (std::uint32_t id = 0; id < names.size() && id < kLightBackends; ++id) {
    const std::int64_t at = pool.find(names[id]);
    if (at < 0) continue;
    append(light_at_, at * kLightBackends + id);
    const auto i = static_cast<std::size_t>(at);
    same = same && c < t.cell_backend.size() && t.cell_backend[c] == id && t.cell_up[c] == (pool.backend(i).up ? 1 : 0) &&
           t.cell_weight[c] == pool.weight(i) && t.cell_score[c] == pool.score(i);
    ++c;
  }
  stale_ = false;
  t.partial = true;
  if (same && c == t.cell_backend.size()) return;  // the steps share the last block
  append(t.block_start, static_cast<std::uint32_t>(t.cell_backend.size()));
  for (const std::int64_t v : light_at_) {
    const auto i = static_cast<std::size_t>(v / kLightBackends);
    append(t.cell_backend, static_cast<std::uint32_t>(v % kLightBackends));
    append(t.cell_up, pool.backend(i).up ? std::uint8_t{1} : std::uint8_t{0});
    append(t.cell_weight, pool.weight(i));
    append(t.cell_score, pool.score(i));
  }
  light_block_ = true;
}

// The scores this PICK changed. With the SPEC's rules those are among the
// participants (all of them but a lone winner), so the work is what the
// pick itself touched; other rules (a learner's code) may change any score,
// so every backend is compared. A step's changes are kept whole or not at
// all: the scores stay an exact prefix of the run.
SLOWSTART_OUT_OF_LINE void TimelineRecorder::record_scores(const Pool& pool) {
  Timeline& t = timeline_;
  const bool any = pool.rules() != nullptr;
  const std::size_t candidates = any ? pool.size() : participants_.size();
  if (score_changes_ + candidates > max_score_changes_) {
    t.scores_truncated = true;
    return;
  }
  if (!keep_score_changes_) {
    // Counted only (the SPEC's rules): every participant's score moves but a lone one's (its weight is the total).
    score_changes_ += candidates - (candidates == 1);
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
  score_changes_ = t.score_cell.size();
}

}  // namespace slowstart
