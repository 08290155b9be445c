// The pool: an ordered list of backends, the clock, and the pick.
//
// Methods take values that are already valid (see commands.hpp for the
// checks); they cannot fail except where they say so. Effective weights are
// cached and refreshed whenever the clock or a backend changes, so a pick is a
// single pass over two flat arrays with no division and no allocation.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "pick.hpp"
#include "rules.hpp"

namespace slowstart {

// How a backend last (re)joined: some balancers ramp only on recovery.
enum class Joined : std::uint8_t { Pool, Add, Up };

struct Backend {
  std::string name;
  std::int64_t target = 0;
  std::int64_t ramp = 0;
  std::int64_t joined = 0;
  bool up = true;
  Joined how = Joined::Pool;
};

struct PoolEntry {
  std::string name;
  std::int64_t weight = 0;
};

class Pool {
 public:
  // POOL: replaces everything; all UP, ramp 0, score 0. Names must be unique.
  void replace(std::vector<PoolEntry> entries);
  // NOW
  void set_now(std::int64_t now);
  // ADD: replaces a backend of that name in place, or appends.
  void add(std::string name, std::int64_t target, std::int64_t ramp);
  // DOWN / UP: false (and no change) when there is no such backend.
  bool down(std::string_view name);
  bool up(std::string_view name, std::int64_t ramp);
  // PICK: the winner's index in pool order, or kNone.
  std::int32_t pick() {
    if (rules_) return rules_->pick(backends_.data(), weights_.data(), scores_.data(), size());
    return smooth_pick(weights_.data(), scores_.data(), weights_.size());
  }

  // Replaces the SPEC's rules (nullptr: back to them). Not owned; it must
  // outlive its use. Weights are recomputed with the new rules at once.
  void set_rules(Rules* rules);
  Rules* rules() const { return rules_; }

  std::int64_t now() const { return now_; }
  std::size_t size() const { return backends_.size(); }
  bool contains(std::string_view name) const;
  // The position of a backend, or -1.
  std::int64_t find(std::string_view name) const;
  const Backend& backend(std::size_t i) const { return backends_[i]; }
  std::int64_t weight(std::size_t i) const { return weights_[i]; }
  std::int64_t score(std::size_t i) const { return scores_[i]; }
  // Indices in byte order of name, kept up to date as backends come and go.
  const std::vector<std::uint32_t>& by_name() const;

  // WEIGHTS: "name=effective ..." sorted by name; empty for an empty pool.
  std::string weights_line() const;

 private:
  std::int64_t effective(const Backend& b) const;
  void refresh(std::size_t i) { weights_[i] = effective(backends_[i]); }
  void remove_at(std::size_t i);  // O(n): only for a whole-program mistake (rules.hpp)

  std::vector<Backend> backends_;
  std::vector<std::int64_t> weights_;  // cached effective weight, per backend
  std::vector<std::int64_t> scores_;   // smooth-WRR score, per backend
  // name -> position; looked up by string_view without building a string.
  struct NameHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  std::unordered_map<std::string, std::uint32_t, NameHash, std::equal_to<>> index_;
  // Sorted lazily: by_name_[0, by_name_sorted_) is sorted; new backends are
  // appended and merged in on the next by_name(). ADD stays O(1) and WEIGHTS
  // O(n + k log k) for k new names, whatever order names arrive in.
  mutable std::vector<std::uint32_t> by_name_;
  mutable std::size_t by_name_sorted_ = 0;
  std::int64_t now_ = 0;
  Rules* rules_ = nullptr;
};

}  // namespace slowstart
