// A small hash map from a positive weight to the slot of its weight class:
// open addressing with linear probing and Fibonacci hashing (a multiply
// and a shift, no division), deletion by shifting back (no tombstones).
// std::unordered_map allocates a node per class and divides per lookup;
// this is one flat array, and a pick by pass looks a class up every time.
#pragma once
#include <cstdint>
#include <vector>

namespace slowstart {

class WeightSlots {
 public:
  static constexpr std::uint32_t kMissing = 0xFFFFFFFFu;

  void clear() {
    keys_.clear();
    values_.clear();
    size_ = 0;
    shift_ = 64;
  }
  std::uint32_t find(std::int64_t weight) const {
    if (size_ == 0) return kMissing;
    for (std::size_t i = home(weight);; i = next(i)) {
      if (keys_[i] == weight) return values_[i];
      if (keys_[i] == 0) return kMissing;
    }
  }
  // Sets weight's slot (weight > 0), adding it if missing.
  void set(std::int64_t weight, std::uint32_t slot) {
    if ((size_ + 1) * 2 > keys_.size()) grow();
    std::size_t i = home(weight);
    while (keys_[i] != 0 && keys_[i] != weight) i = next(i);
    if (keys_[i] == 0) ++size_;
    keys_[i] = weight;
    values_[i] = slot;
  }
  void erase(std::int64_t weight) {
    std::size_t i = home(weight);
    while (keys_[i] != weight) {
      if (keys_[i] == 0) return;
      i = next(i);
    }
    // Shift later entries of the probe run back into the hole.
    for (std::size_t j = next(i);; j = next(j)) {
      if (keys_[j] == 0) break;
      const std::size_t h = home(keys_[j]);
      // Entry j may move to i if its home is not cyclically in (i, j].
      if ((j > i && (h <= i || h > j)) || (j < i && h <= i && h > j)) {
        keys_[i] = keys_[j];
        values_[i] = values_[j];
        i = j;
      }
    }
    keys_[i] = 0;
    --size_;
  }

 private:
  std::size_t home(std::int64_t weight) const {
    return static_cast<std::size_t>((static_cast<std::uint64_t>(weight) * 0x9E3779B97F4A7C15ull) >> shift_);
  }
  std::size_t next(std::size_t i) const { return (i + 1) & (keys_.size() - 1); }
  void grow() {
    std::vector<std::int64_t> keys;
    std::vector<std::uint32_t> values;
    keys.swap(keys_);
    values.swap(values_);
    const std::size_t capacity = keys.empty() ? 16 : keys.size() * 2;
    keys_.assign(capacity, 0);
    values_.assign(capacity, 0);
    shift_ = 64;
    for (std::size_t c = capacity; c > 1; c /= 2) --shift_;
    size_ = 0;
    for (std::size_t i = 0; i < keys.size(); ++i)
      if (keys[i] != 0) set(keys[i], values[i]);
  }

  std::vector<std::int64_t> keys_;  // 0: empty (weights here are positive)
  std::vector<std::uint32_t> values_;
  std::size_t size_ = 0;
  unsigned shift_ = 64;  // 64 - log2(capacity)
};

}  // namespace slowstart
