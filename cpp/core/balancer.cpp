#include "core/balancer.hpp"

#include "fast/decimal.hpp"

namespace slowstart {

Problem Balancer::set_pool_text(std::span<const std::string_view> fields) {
  if (set_plain_pool(fields)) return std::nullopt;
  // Reuse the POOL line's parser so that every rule (names, weights,
  // duplicates, size) is checked in exactly one place: the entries become
  // its tokens, name=weight, cut from one string.
  const std::size_t n = fields.size() / 2;
  std::size_t bytes = 0;
  for (std::size_t i = 0; i < 2 * n; ++i) bytes += fields[i].size() + 1;
  std::string joined;
  joined.reserve(bytes);
  for (std::size_t i = 0; i < n; ++i) {
    // A name with '=' or blanks would re-split differently; reject it first.
    if (Problem p = check_name(fields[2 * i])) return p;
    joined.append(fields[2 * i]).append(1, '=').append(fields[2 * i + 1]);
  }
  std::vector<std::string_view> tokens;
  tokens.reserve(n + 1);
  tokens.push_back("POOL");
  for (std::size_t i = 0, at = 0; i < n; ++i) {
    const std::size_t length = fields[2 * i].size() + 1 + fields[2 * i + 1].size();
    tokens.push_back(std::string_view(joined).substr(at, length));
    at += length;
  }
  Command cmd;
  if (Problem p = parse_command(tokens, cmd)) return p;
  return apply(pool_, cmd);
}

// The common case, every entry valid (a 100,000-backend setPool from
// JavaScript): each name checked by the script's own validator, each weight
// by its limits, and the pool replaced from views of the names, without
// joining them into a line for the parser. At the first doubt (a bad name or
// weight, a duplicate, too many) it changes nothing and returns false: the
// parser's path then finds the problem and words it exactly as a script
// line's.
bool Balancer::set_plain_pool(std::span<const std::string_view> names, std::span<const std::int64_t> weights) {
  const std::size_t n = names.size();
  if (n > kMaxBackends || weights.size() != n) return false;
  plain_views_.clear();
  plain_views_.reserve(n);
  plain_names_.clear(n);
  const auto name_of = [this](std::uint32_t i) { return plain_views_[i].name; };
  for (std::size_t i = 0; i < n; ++i) {
    if (check_name(names[i]) || check_quantity(weights[i], Quantity::Weight)) return false;
    const auto id = static_cast<std::uint32_t>(i);
    plain_views_.push_back({names[i], weights[i]});
    if (plain_names_.insert(names[i], id, name_of) != id) return false;
  }
  pool_.replace(plain_views_, &plain_names_);
  plain_views_.clear();
  return true;
}

bool Balancer::set_plain_pool(std::span<const std::string_view> fields) {
  const std::size_t n = fields.size() / 2;
  if (n > kMaxBackends) return false;
  plain_fields_.clear();
  plain_weights_.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    plain_fields_.push_back(fields[2 * i]);
    if (parse_quantity(fields[2 * i + 1], Quantity::Weight, plain_weights_[i])) return false;
  }
  return set_plain_pool(plain_fields_, plain_weights_);
}

Problem Balancer::set_pool(const std::vector<std::pair<std::string, std::int64_t>>& entries) {
  std::vector<std::string> weights;
  weights.reserve(entries.size());
  for (const auto& [name, weight] : entries) {
    if (Problem p = check_quantity(weight, Quantity::Weight)) return p;
    weights.push_back(decimal(weight));
  }
  std::vector<std::string_view> fields;
  fields.reserve(2 * entries.size());
  for (std::size_t i = 0; i < entries.size(); ++i) {
    fields.push_back(entries[i].first);
    fields.push_back(weights[i]);
  }
  return set_pool_text(fields);
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
