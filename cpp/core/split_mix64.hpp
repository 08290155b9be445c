// SplitMix64: a tiny seeded generator that gives the same numbers on every
// platform, so `slowstart grade --random N --seed S` writes the same scripts
// from both CLIs, and the benchmarks and tests their same generated scripts.
#pragma once

#include <cstdint>

namespace slowstart {

class SplitMix64 {
 public:
  explicit SplitMix64(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  // 0 ... n-1 (the bias of a modulo is irrelevant here).
  std::uint64_t below(std::uint64_t n) { return next() % n; }
  std::int64_t between(std::int64_t lo, std::int64_t hi) {
    return lo + static_cast<std::int64_t>(below(static_cast<std::uint64_t>(hi - lo + 1)));
  }
  bool chance(unsigned percent) { return below(100) < percent; }

 private:
  std::uint64_t state_;
};

}  // namespace slowstart
