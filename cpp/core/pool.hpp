// The pool: an ordered list of backends, the clock, and the pick.
//
// Methods take values that are already valid (command.hpp and validate.hpp
// check them); they cannot fail except where they say so. Effective weights are
// cached and refreshed only when they can change: a backend changes, or the
// clock moves through its ramp (ramp_schedule.hpp). The pick is smooth_wrr.hpp:
// nginx's exact order, without a pass over the pool, and no allocation.
//
// With other Rules (curves, a learner's code) everything takes the plain
// path instead: every weight refreshed on every clock change, and the rules'
// own pick over the flat weight and score arrays.
#pragma once
#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "fast/byte_buffer.hpp"
#include "fast/cold.hpp"
#include "fast/name_table.hpp"
#include "spec/pick.hpp"
#include "fast/ramp_schedule.hpp"
#include "spec/rules.hpp"
#include "fast/smooth_wrr.hpp"

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

// The same with the name as a view (the interpreter's fast path reads a
// POOL line's entries in place: docs/ARCHITECTURE.md).
struct PoolEntryView {
  std::string_view name;
  std::int64_t weight = 0;
};

class Pool {
 public:
  // POOL: replaces everything; all UP, ramp 0, score 0. Names must be unique.
  // The names are moved out of `entries`, which is left empty with its
  // capacity (the parser's, for the next POOL line). `names`, when it maps
  // every entry's name to its position (the parser's duplicate check), is
  // taken as the name index instead of hashing every name again; it gets
  // the old index in exchange (its memory, for the next line).
  // The names are copied: views into the line for the interpreter's fast
  // path, into a Command's strings for the parser's.
  SLOWSTART_OUT_OF_LINE void replace(std::span<const PoolEntryView> entries, NameTable* names = nullptr);
  void replace(std::initializer_list<PoolEntryView> entries) { replace({entries.begin(), entries.size()}); }
  // NOW
  void set_now(std::int64_t now);
  // ADD: replaces a backend of that name in place, or appends.
  SLOWSTART_OUT_OF_LINE void add(std::string name, std::int64_t target, std::int64_t ramp);
  // DOWN / UP: false (and no change) when there is no such backend.
  SLOWSTART_OUT_OF_LINE bool down(std::string_view name);
  SLOWSTART_OUT_OF_LINE bool up(std::string_view name, std::int64_t ramp);
  // The same for the backend at position i (< size()).
  SLOWSTART_OUT_OF_LINE void down_at(std::size_t i);
  SLOWSTART_OUT_OF_LINE void up_at(std::size_t i, std::int64_t ramp);
  // PICK: the winner's index in pool order, or kNone.
  SLOWSTART_HOT std::int32_t pick() {
    if (rules_) return rules_->pick(backends_.data(), wrr_.plain_weights(), wrr_.plain_scores(), size());
    return wrr_.pick();
  }
  // n picks in a row, the winners (or kNone) written to out[0..n).
  void pick_many(std::size_t n, std::int32_t* out);

  // Replaces the SPEC's rules (nullptr: back to them). Not owned; it must
  // outlive its use. Weights are recomputed with the new rules at once.
  SLOWSTART_COLD void set_rules(Rules* rules);
  Rules* rules() const { return rules_; }

  std::int64_t now() const { return now_; }
  std::size_t size() const { return backends_.size(); }
  // No backend's name is longer than this (a bound: names never shrink it).
  std::size_t longest_name() const { return longest_name_; }
  bool contains(std::string_view name) const;
  // The position of a backend, or -1.
  std::int64_t find(std::string_view name) const;
  const Backend& backend(std::size_t i) const { return backends_[i]; }
  // Backend i's name: backend(i).name as a view, kept beside the backends
  // (the per-line paths read names through it: a libc++ string, as in the
  // WebAssembly build, says with a branch or select where its bytes are).
  // An aliasing trick, re-pointed by hand where the strings move: about 1 %
  // alone, natively too; kept with SLOWSTART_HOT for the 1.3x goal (PL-15).
  std::string_view name(std::size_t i) const { return names_[i]; }
  // The effective weight and the smooth-WRR score, as they are now. O(1).
  std::int64_t weight(std::size_t i) const { return wrr_.weight(i); }
  std::int64_t score(std::size_t i) const { return wrr_.score(i); }
  // Indices in byte order of name, kept up to date as backends come and go.
  SLOWSTART_OUT_OF_LINE const std::vector<std::uint32_t>& by_name() const;

  // WEIGHTS: "name=effective ..." sorted by name; empty for an empty pool.
  std::string weights_line() const;
  // The same into `out` (replacing what it held; its memory is reused).
  void weights_line(std::string& out) const;
  // The same and a '\n' appended to `out`, written there in place (the CLIs'
  // text sink: no copy of the line).
  void append_weights_line(ByteBuffer& out) const;

 private:
  // WEIGHTS' order, and its line's length; the line written at `at`.
  const std::vector<std::uint32_t>& weights_order(std::vector<std::uint32_t>& mistaken) const;
  std::size_t weights_length(const std::vector<std::uint32_t>& order) const;
  void write_weights(char* at, const std::vector<std::uint32_t>& order) const;
  std::int64_t effective(const Backend& b) const;
  void refresh(std::size_t i) { wrr_.set_weight(i, effective(backends_[i])); }
  // Backend i (re)joined: its score restarts and its ramp is scheduled.
  SLOWSTART_OUT_OF_LINE void joined(std::size_t i);
  SLOWSTART_OUT_OF_LINE void schedule(std::size_t i);

  std::vector<Backend> backends_;
  SmoothWrr wrr_;        // cached effective weights and the scores; the pick
  RampSchedule ramps_;   // whose weight the clock can change (SPEC rules only)
  // name -> position, reading the names from backends_.
  NameTable index_;
  std::string_view name_at(std::uint32_t i) const { return backends_[i].name; }
  std::uint32_t lookup(std::string_view name) const {
    return index_.find(name, [this](std::uint32_t i) { return names_[i]; });
  }
  // names_ again from the backends' strings (after the vector moved them).
  void refresh_names();
  std::vector<std::string_view> names_;
  // Sorted lazily: by_name_[0, by_name_sorted_) is sorted; new backends are
  // appended and merged in on the next by_name(). ADD stays O(1) and WEIGHTS
  // O(n + k log k) for k new names, whatever order names arrive in.
  mutable std::vector<std::uint32_t> by_name_;
  mutable std::size_t by_name_sorted_ = 0;
  std::int64_t now_ = 0;
  std::size_t longest_name_ = 0;
  Rules* rules_ = nullptr;
};

}  // namespace slowstart
