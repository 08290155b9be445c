#include "grading/random_script.hpp"

#include <algorithm>
#include <string_view>
#include <vector>

#include "core/split_mix64.hpp"
#include "fast/decimal.hpp"

namespace slowstart::grading {

namespace {

using Random = SplitMix64;

constexpr std::string_view kNames[] = {"a", "b", "c", "web1", "web2", "web10", "B", "db"};

std::string_view name(Random& r) { return kNames[r.below(std::size(kNames))]; }

std::string entry(Random& r, std::string_view n) { return std::string(n) + "=" + decimal(r.between(0, 12)); }

// A line the SPEC rejects: it changes nothing and prints nothing.
std::string rejected(Random& r) {
  switch (r.below(9)) {
    case 0: return "pick";
    case 1: return "Weights";
    case 2: return "ADD " + std::string(name(r)) + "=-1 5";
    case 3: return "NOW 1.5";
    case 4: return "DOWN nobody";
    case 5: return "PICK twice";
    case 6: return "POOL a=1 a=2";
    case 7: return "UP " + std::string(name(r));
    default: return "ADD x=1000001 0";
  }
}

}  // namespace

std::string random_script(std::uint64_t seed, std::uint64_t index) {
  Random r(seed * 0x100000001B3ULL + index + 1);
  // About half the scripts have rejected lines (a program must print nothing
  // for them, and exit 1), the other half none (it must exit 0).
  const bool with_rejected = r.chance(50);
  std::vector<std::string_view> pool;  // the names in the pool, to DOWN and UP
  const auto pool_line = [&](std::int64_t count, std::size_t rotation) {
    std::string line = "POOL";
    pool.clear();
    for (std::int64_t k = 0; k < count; ++k) {
      // Distinct names: the k-th of a rotation of the list.
      const std::string_view n = kNames[(static_cast<std::size_t>(k) * 3 + rotation) % std::size(kNames)];
      line += " " + entry(r, n);
      pool.push_back(n);
    }
    return line;
  };
  // A name to DOWN or UP: one in the pool, or (with rejected lines) any.
  const auto target = [&]() -> std::string_view {
    if (with_rejected || pool.empty()) return name(r);
    return pool[static_cast<std::size_t>(r.below(pool.size()))];  // (below the size: fits)
  };
  const std::int64_t first = r.between(1, 4);
  std::string s = pool_line(first, static_cast<std::size_t>(index)) + "\n";
  std::int64_t now = 0;
  const auto lines = r.between(12, 40);
  for (std::int64_t i = 0; i < lines; ++i) {
    // One draw per statement: the operands of + may be evaluated in any
    // order, and every platform must draw in the same one.
    const auto roll = r.below(100);
    if (roll < 30) {
      s += "PICK";
    } else if (roll < 42) {
      s += "WEIGHTS";
    } else if (roll < 56) {
      // Mostly forwards, sometimes back (the ramp then clamps at 0).
      now = r.chance(15) ? r.between(0, now) : now + r.between(1, 12);
      s += "NOW " + decimal(now);
    } else if (roll < 68) {
      const std::string_view n = name(r);
      const std::string added = entry(r, n);
      const std::int64_t ramp = r.chance(20) ? 0 : r.between(1, 30);
      s += "ADD " + added + " " + decimal(ramp);
      if (std::find(pool.begin(), pool.end(), n) == pool.end()) pool.push_back(n);
    } else if (roll < 76) {
      if (pool.empty() && !with_rejected) continue;
      s += "DOWN " + std::string(target());
    } else if (roll < 84) {
      if (pool.empty() && !with_rejected) continue;
      const std::string_view up = target();
      const std::int64_t ramp = r.between(0, 20);
      s += "UP " + std::string(up) + " " + decimal(ramp);
    } else if (roll < 87) {
      const std::int64_t count = r.between(0, 3);
      s += pool_line(count, static_cast<std::size_t>(i));
    } else if (roll < 90 || !with_rejected) {
      s += "# a comment";
    } else {
      s += rejected(r);
    }
    s += '\n';
  }
  return s;
}

std::string random_test_id(std::uint64_t index) { return "random-" + decimal(static_cast<std::int64_t>(index + 1)); }

std::string random_test_title(std::uint64_t seed, std::uint64_t index) {
  return "Generated script " + decimal(static_cast<std::int64_t>(index + 1)) + " (seed " + std::to_string(seed) + ")";
}

}  // namespace slowstart::grading
