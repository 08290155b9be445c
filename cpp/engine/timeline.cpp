#include "timeline.hpp"

namespace slowstart {

std::uint32_t TimelineRecorder::id_of(const std::string& name) {
  auto [it, inserted] =
      ids_.try_emplace(name, static_cast<std::uint32_t>(timeline_.names.size()));
  if (inserted) timeline_.names.push_back(name);
  return it->second;
}

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
  if (new_block) {
    t.block_start.push_back(static_cast<std::uint32_t>(t.cell_backend.size()));
    for (std::size_t i = 0; i < pool.size(); ++i) {
      t.cell_backend.push_back(id_of(pool.backend(i).name));
      t.cell_up.push_back(pool.backend(i).up ? 1 : 0);
      t.cell_weight.push_back(pool.weight(i));
    }
    stale_ = false;
  }
  t.step_line.push_back(line);
  t.step_now.push_back(pool.now());
  std::int32_t w = kNotAPick;
  if (op == Op::Pick) w = winner == kNone ? kNone : static_cast<std::int32_t>(id_of(pool.backend(winner).name));
  t.step_winner.push_back(w);
  t.step_block.push_back(static_cast<std::uint32_t>(t.block_start.size() - 1));
}

}  // namespace slowstart
