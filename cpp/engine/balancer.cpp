#include "decimal.hpp"
#include "balancer.hpp"

#include <unordered_set>

#include "limits.hpp"

namespace slowstart {

namespace {

void check(Problem p) {
  if (p) throw Error(*p);
}

std::string entry_text(std::string_view name, std::string_view weight) {
  std::string token(name);
  token += '=';
  token += weight;
  return token;
}

}  // namespace

void Balancer::run(Command& cmd) { check(apply(pool_, cmd)); }

void Balancer::set_pool_text(const std::vector<std::pair<std::string, std::string>>& entries) {
  // Reuse the POOL line's parser so that every rule (names, weights,
  // duplicates, size) is checked in exactly one place.
  std::vector<std::string> texts;
  texts.reserve(entries.size());
  std::vector<std::string_view> tokens{"POOL"};
  tokens.reserve(entries.size() + 1);
  for (const auto& [name, weight] : entries) {
    // A name with '=' or blanks would re-split differently; reject it first.
    check(check_name(name));
    texts.push_back(entry_text(name, weight));
  }
  for (const std::string& t : texts) tokens.push_back(t);
  Command cmd;
  check(parse_command(tokens, cmd));
  run(cmd);
}

void Balancer::set_pool(const std::vector<std::pair<std::string, std::int64_t>>& entries) {
  std::vector<std::pair<std::string, std::string>> texts;
  texts.reserve(entries.size());
  for (const auto& [name, weight] : entries) {
    check(check_quantity(weight, Quantity::Weight));
    texts.emplace_back(name, decimal(weight));
  }
  set_pool_text(texts);
}

void Balancer::set_now_text(std::string_view seconds) {
  Command cmd;
  cmd.op = Op::Now;
  check(parse_quantity(seconds, Quantity::Time, cmd.seconds));
  run(cmd);
}

void Balancer::set_now(std::int64_t seconds) {
  check(check_quantity(seconds, Quantity::Time));
  pool_.set_now(seconds);
}

void Balancer::add_text(std::string_view name, std::string_view weight, std::string_view ramp) {
  check(check_name(name));
  Command cmd;
  cmd.op = Op::Add;
  cmd.name.assign(name);
  check(parse_quantity(weight, Quantity::Weight, cmd.weight));
  check(parse_quantity(ramp, Quantity::Ramp, cmd.seconds));
  run(cmd);
}

void Balancer::add(std::string_view name, std::int64_t weight, std::int64_t ramp) {
  check(check_quantity(weight, Quantity::Weight));
  check(check_quantity(ramp, Quantity::Ramp));
  add_text(name, decimal(weight), decimal(ramp));
}

void Balancer::down(std::string_view name) {
  Command cmd;
  cmd.op = Op::Down;
  cmd.name.assign(name);
  run(cmd);
}

void Balancer::up_text(std::string_view name, std::string_view ramp) {
  Command cmd;
  cmd.op = Op::Up;
  cmd.name.assign(name);
  check(parse_quantity(ramp, Quantity::Ramp, cmd.seconds));
  run(cmd);
}

void Balancer::up(std::string_view name, std::int64_t ramp) {
  check(check_quantity(ramp, Quantity::Ramp));
  up_text(name, decimal(ramp));
}

std::vector<std::pair<std::string, std::int64_t>> Balancer::weights() const {
  std::vector<std::pair<std::string, std::int64_t>> out;
  out.reserve(pool_.size());
  for (std::uint32_t i : pool_.by_name()) out.emplace_back(pool_.backend(i).name, pool_.weight(i));
  return out;
}

void Balancer::pick_many(std::size_t n, std::int32_t* out) {
  for (std::size_t k = 0; k < n; ++k) out[k] = pool_.pick();
}

}  // namespace slowstart
