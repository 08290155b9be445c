// Names to positions: open addressing with linear probing over 32-bit ids.
//
// The table keeps no copy of the names: it reads a name's bytes from where
// its owner keeps them (name_of(id)), and compares a stored hash first. So
// there is one allocation per table, not one per name, and a lookup by
// string_view builds no string. Insert-only: the pool's names only come and
// go all together (POOL), which starts a new table.
//
// NameIds below is the table with its own list of names: ids in order of
// first appearance (the timeline's and the traffic simulation's backend ids).
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "fast/short_bytes.hpp"

namespace slowstart {

class NameTable {
 public:
  static constexpr std::uint32_t kMissing = 0xFFFFFFFFu;

  // Empties the table, with room for `expected` names before it grows.
  void clear(std::size_t expected = 0) {
    std::size_t capacity = 16;
    while (capacity < 2 * expected) capacity *= 2;
    slots_.assign(capacity, Slot{0, kMissing});
    size_ = 0;
  }

  std::size_t size() const { return size_; }
  void swap(NameTable& other) noexcept {
    slots_.swap(other.slots_);
    std::swap(size_, other.size_);
  }

  // The id of `name`, or kMissing.
  template <class NameOf>
  std::uint32_t find(std::string_view name, const NameOf& name_of) const {
    if (slots_.empty()) return kMissing;
    const std::uint32_t h = hash(name);
    for (std::size_t i = h & mask();; i = (i + 1) & mask()) {
      const Slot& s = slots_[i];
      if (s.id == kMissing) return kMissing;
      if (s.hash == h && same_bytes(name_of(s.id), name)) return s.id;
    }
  }

  // Adds `id` under `name` unless the name is there already; returns the
  // id the name has now (the old one, or `id`).
  template <class NameOf>
  std::uint32_t insert(std::string_view name, std::uint32_t id, const NameOf& name_of) {
    if (2 * (size_ + 1) > slots_.size()) grow();
    const std::uint32_t h = hash(name);
    std::size_t i = h & mask();
    for (;; i = (i + 1) & mask()) {
      const Slot& s = slots_[i];
      if (s.id == kMissing) break;
      if (s.hash == h && same_bytes(name_of(s.id), name)) return s.id;
    }
    slots_[i] = Slot{h, id};
    ++size_;
    return id;
  }

 private:
  struct Slot {
    std::uint32_t hash, id;
  };
  static std::uint32_t hash(std::string_view name) {
    return static_cast<std::uint32_t>(std::hash<std::string_view>{}(name));
  }
  std::size_t mask() const { return slots_.size() - 1; }
  void grow() {
    std::vector<Slot> old;
    old.swap(slots_);
    slots_.assign(old.empty() ? 16 : 2 * old.size(), Slot{0, kMissing});
    for (const Slot& s : old) {
      if (s.id == kMissing) continue;
      std::size_t i = s.hash & mask();
      while (slots_[i].id != kMissing) i = (i + 1) & mask();
      slots_[i] = s;
    }
  }

  std::vector<Slot> slots_;
  std::size_t size_ = 0;
};

// Every name seen, each with an id that is its index in names(): a name
// keeps its id however often it comes back.
class NameIds {
 public:
  // The name's id, a new one (the next index) the first time.
  std::uint32_t id_of(std::string_view name) {
    const auto next = static_cast<std::uint32_t>(names_.size());
    const std::uint32_t id = index_.insert(name, next, [this](std::uint32_t i) { return name_at(i); });
    if (id == next) names_.emplace_back(name);
    return id;
  }
  // The name's id, or NameTable::kMissing.
  std::uint32_t find(std::string_view name) const {
    return index_.find(name, [this](std::uint32_t i) { return name_at(i); });
  }
  const std::vector<std::string>& names() const { return names_; }
  // The names, moved out (the ids are forgotten with them).
  std::vector<std::string> take_names() {
    std::vector<std::string> out = std::move(names_);
    names_.clear();
    index_.clear();
    return out;
  }

 private:
  std::string_view name_at(std::uint32_t i) const { return names_[i]; }

  std::vector<std::string> names_;
  NameTable index_;
};

}  // namespace slowstart
