#include "balancer.hpp"

#include "decimal.hpp"

namespace slowstart {

Problem Balancer::set_pool_text(const std::vector<std::pair<std::string, std::string>>& entries) {
  // Reuse the POOL line's parser so that every rule (names, weights,
  // duplicates, size) is checked in exactly one place.
  std::vector<std::string> texts;
  texts.reserve(entries.size());
  for (const auto& [name, weight] : entries) {
    // A name with '=' or blanks would re-split differently; reject it first.
    if (Problem p = check_name(name)) return p;
    texts.push_back(name + '=' + weight);
  }
  std::vector<std::string_view> tokens{"POOL"};
  tokens.reserve(entries.size() + 1);
  for (const std::string& t : texts) tokens.push_back(t);
  Command cmd;
  if (Problem p = parse_command(tokens, cmd)) return p;
  return apply(pool_, cmd);
}

Problem Balancer::set_pool(const std::vector<std::pair<std::string, std::int64_t>>& entries) {
  std::vector<std::pair<std::string, std::string>> texts;
  texts.reserve(entries.size());
  for (const auto& [name, weight] : entries) {
    if (Problem p = check_quantity(weight, Quantity::Weight)) return p;
    texts.emplace_back(name, decimal(weight));
  }
  return set_pool_text(texts);
}

Problem Balancer::set_now_text(std::string_view seconds) {
  Command cmd;
  cmd.op = Op::Now;
  if (Problem p = parse_quantity(seconds, Quantity::Time, cmd.seconds)) return p;
  return apply(pool_, cmd);
}

Problem Balancer::set_now(std::int64_t seconds) {
  if (Problem p = check_quantity(seconds, Quantity::Time)) return p;
  pool_.set_now(seconds);
  return std::nullopt;
}

Problem Balancer::add_text(std::string_view name, std::string_view weight, std::string_view ramp) {
  if (Problem p = check_name(name)) return p;
  Command cmd;
  cmd.op = Op::Add;
  cmd.name.assign(name);
  if (Problem p = parse_quantity(weight, Quantity::Weight, cmd.weight)) return p;
  if (Problem p = parse_quantity(ramp, Quantity::Ramp, cmd.seconds)) return p;
  return apply(pool_, cmd);
}

Problem Balancer::add(std::string_view name, std::int64_t weight, std::int64_t ramp) {
  if (Problem p = check_quantity(weight, Quantity::Weight)) return p;
  if (Problem p = check_quantity(ramp, Quantity::Ramp)) return p;
  return add_text(name, decimal(weight), decimal(ramp));
}

Problem Balancer::down(std::string_view name) {
  Command cmd;
  cmd.op = Op::Down;
  cmd.name.assign(name);
  return apply(pool_, cmd);
}

Problem Balancer::up_text(std::string_view name, std::string_view ramp) {
  Command cmd;
  cmd.op = Op::Up;
  cmd.name.assign(name);
  if (Problem p = parse_quantity(ramp, Quantity::Ramp, cmd.seconds)) return p;
  return apply(pool_, cmd);
}

Problem Balancer::up(std::string_view name, std::int64_t ramp) {
  if (Problem p = check_quantity(ramp, Quantity::Ramp)) return p;
  return up_text(name, decimal(ramp));
}

std::vector<std::pair<std::string, std::int64_t>> Balancer::weights() const {
  std::vector<std::pair<std::string, std::int64_t>> out;
  out.reserve(pool_.size());
  for (std::uint32_t i : by_name()) out.emplace_back(pool_.backend(i).name, pool_.weight(i));
  return out;
}

void Balancer::pick_many(std::size_t n, std::int32_t* out) { pool_.pick_many(n, out); }

}  // namespace slowstart
