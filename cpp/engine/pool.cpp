#include "decimal.hpp"
#include "pool.hpp"

#include <algorithm>

#include "ramp.hpp"

namespace slowstart {

std::int64_t Pool::effective(const Backend& b) const {
  if (rules_) return b.up ? rules_->effective_weight(b, now_) : rules_->weight_when_down(b, now_);
  if (!b.up) return 0;
  return ramp_weight(b.target, b.ramp, b.joined, now_);
}

void Pool::set_rules(Rules* rules) {
  rules_ = rules;
  for (std::size_t i = 0; i < backends_.size(); ++i) refresh(i);
}

void Pool::replace(std::vector<PoolEntry> entries) {
  std::vector<Backend> backends;
  backends.reserve(entries.size());
  decltype(index_) index;
  index.reserve(entries.size());
  for (auto& e : entries) {
    index.emplace(e.name, static_cast<std::uint32_t>(backends.size()));
    backends.push_back(Backend{std::move(e.name), e.weight, 0, now_, true, Joined::Pool});
  }
  std::vector<std::int64_t> scores(backends.size(), 0);
  if (rules_ && rules_->pool_keeps_scores()) {  // a whole-program mistake (rules.hpp)
    for (std::size_t i = 0; i < backends.size(); ++i)
      if (auto old = index_.find(backends[i].name); old != index_.end()) scores[i] = scores_[old->second];
  }
  backends_ = std::move(backends);
  index_ = std::move(index);
  weights_.assign(backends_.size(), 0);
  scores_ = std::move(scores);
  for (std::size_t i = 0; i < backends_.size(); ++i) refresh(i);
  by_name_.clear();
  by_name_sorted_ = 0;
}

void Pool::set_now(std::int64_t now) {
  if (now == now_) return;
  now_ = now;
  for (std::size_t i = 0; i < backends_.size(); ++i) refresh(i);
}

void Pool::add(std::string name, std::int64_t target, std::int64_t ramp) {
  auto it = index_.find(name);
  // Whole-program mistakes (rules.hpp): ADD of a name already there appends
  // a second backend of that name (lookups keep finding the first), or
  // moves it to the end.
  const AddExisting existing =
      rules_ && it != index_.end() ? rules_->add_existing() : AddExisting::ReplaceInPlace;
  if (existing == AddExisting::MoveToEnd) {
    remove_at(it->second);
    it = index_.end();
  }
  std::size_t i;
  if (it != index_.end() && existing == AddExisting::ReplaceInPlace) {
    i = it->second;  // in place: keeps its position
    backends_[i] = Backend{std::move(name), target, ramp, now_, true, Joined::Add};
  } else {
    i = backends_.size();
    index_.emplace(name, static_cast<std::uint32_t>(i));
    backends_.push_back(Backend{std::move(name), target, ramp, now_, true, Joined::Add});
    weights_.push_back(0);
    scores_.push_back(0);
  }
  scores_[i] = rules_ ? rules_->score_on_join(backends_[i], scores_[i]) : 0;
  refresh(i);
}

bool Pool::contains(std::string_view name) const { return find(name) >= 0; }

std::int64_t Pool::find(std::string_view name) const {
  auto it = index_.find(name);
  return it == index_.end() ? -1 : static_cast<std::int64_t>(it->second);
}

bool Pool::down(std::string_view name) {
  auto it = index_.find(name);
  if (it == index_.end()) return false;
  backends_[it->second].up = false;
  refresh(it->second);
  return true;
}

bool Pool::up(std::string_view name, std::int64_t ramp) {
  auto it = index_.find(name);
  if (it == index_.end()) return false;
  Backend& b = backends_[it->second];
  if (b.up && rules_ && !rules_->up_restarts_up_backend()) return true;  // a mistake (rules.hpp)
  b.up = true;
  b.ramp = ramp;
  b.joined = now_;
  b.how = Joined::Up;
  scores_[it->second] = rules_ ? rules_->score_on_join(b, scores_[it->second]) : 0;
  refresh(it->second);
  return true;
}

const std::vector<std::uint32_t>& Pool::by_name() const {
  if (by_name_sorted_ == backends_.size()) return by_name_;
  const auto less = [&](std::uint32_t a, std::uint32_t b) {
    return backends_[a].name < backends_[b].name;  // std::string compares bytes
  };
  for (std::size_t i = by_name_.size(); i < backends_.size(); ++i)
    by_name_.push_back(static_cast<std::uint32_t>(i));
  const auto middle = by_name_.begin() + static_cast<std::ptrdiff_t>(by_name_sorted_);
  std::sort(middle, by_name_.end(), less);
  std::inplace_merge(by_name_.begin(), middle, by_name_.end(), less);
  by_name_sorted_ = by_name_.size();
  return by_name_;
}

void Pool::remove_at(std::size_t i) {
  index_.erase(backends_[i].name);
  backends_.erase(backends_.begin() + static_cast<std::ptrdiff_t>(i));
  weights_.erase(weights_.begin() + static_cast<std::ptrdiff_t>(i));
  scores_.erase(scores_.begin() + static_cast<std::ptrdiff_t>(i));
  for (auto& entry : index_)
    if (entry.second > i) --entry.second;
  by_name_.clear();
  by_name_sorted_ = 0;
}

// WEIGHTS in another order than the names' bytes: a whole-program mistake
// (rules.hpp), so only ever on the custom-Rules path.
static std::vector<std::uint32_t> mistaken_order(const std::vector<Backend>& backends, WeightsOrder order) {
  std::vector<std::uint32_t> out(backends.size());
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = static_cast<std::uint32_t>(i);
  if (order == WeightsOrder::IgnoreCase) {
    const auto lower = [](unsigned char c) { return c >= 'A' && c <= 'Z' ? c + 32 : c; };
    std::stable_sort(out.begin(), out.end(), [&](std::uint32_t a, std::uint32_t b) {
      const std::string &x = backends[a].name, &y = backends[b].name;
      return std::lexicographical_compare(x.begin(), x.end(), y.begin(), y.end(),
                                          [&](char p, char q) { return lower(p) < lower(q); });
    });
  }
  return out;
}

std::string Pool::weights_line() const {
  std::string out;
  bool first = true;
  const bool mistaken = rules_ && rules_->weights_order() != WeightsOrder::Bytes;
  std::vector<std::uint32_t> other;
  if (mistaken) other = mistaken_order(backends_, rules_->weights_order());
  for (std::uint32_t i : mistaken ? other : by_name()) {
    if (!first) out += ' ';
    first = false;
    out += backends_[i].name;
    out += '=';
    append_decimal(out, weights_[i]);
  }
  return out;
}

}  // namespace slowstart
