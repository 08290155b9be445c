// Latency percentiles (p50, p99) per bucket and backend, per bucket for the
// client, and over the whole run, from small log-scale histograms.
//
// The bins: a latency x ms falls in bin 0 below 2^-10 ms (about 1 µs);
// otherwise its octave [2^e, 2^(e+1)) for e = -10 ... 26 is cut into 128
// equal bins (an exponent and the top 7 bits of the mantissa of a double:
// exact, and the same in the native and WebAssembly engines, no libm), and
// 2^27 ms (37 hours) and above share the last bin. A bin is at most 1/128
// (0.8 %) of its lower edge wide: kLatencyBins = 1 + 37 x 128 = 4,737 bins.
//
// What a percentile reports: nearest rank. Of N latencies sorted, the p-th
// percentile is the one at rank ceil(p * N / 100) (p50: rank ceil(N / 2),
// p99: ceil(0.99 N)); the histogram reports the LARGEST latency recorded in
// that latency's bin. So it is never below the true nearest-rank value and at
// most 0.8 % above it (or 1 µs below 1 µs), and exact when the bin holds one
// value only (a constant service time, a timeout).
//
// Memory stays bounded: the histograms are sparse (a bin costs 16 bytes only
// once a latency fell in it), a bucket's bins are turned into its
// percentiles and dropped as soon as no latency can still arrive in it, and
// only the whole run's bins per backend (and the client's) are kept to the
// end. `bins()` is what is held; the run stops over RunLimits::latency_bins
// (budget.hpp). What it costs a run: docs/performance-log.md, PL-26.
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "traffic/result.hpp"

namespace slowstart {

inline constexpr int kLatencyMinOctave = -10;  // 2^-10 ms, about 1 µs
inline constexpr int kLatencyMaxOctave = 26;   // the last octave, [2^26, 2^27) ms
inline constexpr std::uint32_t kLatencySubBins = 128;
inline constexpr std::uint32_t kLatencyBins =
    1 + static_cast<std::uint32_t>(kLatencyMaxOctave - kLatencyMinOctave + 1) * kLatencySubBins;

// The bin of a latency in ms (0 for anything below 2^-10 ms, NaN included).
// Inline: on every attempt's path.
inline std::uint32_t latency_bin(double ms) {
  constexpr double kLowest = 1.0 / 1024, kBeyond = 134217728.0;  // 2^-10 ms, 2^27 ms
  static_assert(kLatencyMinOctave == -10 && kLatencyMaxOctave + 1 == 27);
  if (!(ms >= kLowest)) return 0;
  if (ms >= kBeyond) return kLatencyBins - 1;
  std::uint64_t bits;  // a normal double: 2^e x 1.m
  std::memcpy(&bits, &ms, sizeof bits);
  const int octave = static_cast<int>((bits >> 52) & 0x7ff) - 1023;
  const auto sub = static_cast<std::uint32_t>((bits >> (52 - 7)) & (kLatencySubBins - 1));
  return 1 + static_cast<std::uint32_t>(octave - kLatencyMinOctave) * kLatencySubBins + sub;
}

// The nearest rank of the p-th percentile of n values (1 ... n; 0 when n is 0).
std::uint64_t nearest_rank(std::uint64_t n, unsigned percent);

// The histograms of one run. Columns 0 ... backends-1 are the backends, column
// `backends` is the client. Latencies arrive for any bucket not yet closed.
class LatencyHistograms {
 public:
  LatencyHistograms(std::size_t buckets, std::size_t backends);

  void add(std::size_t bucket, std::uint32_t column, double ms) {
    top_bucket_ = std::max(top_bucket_, bucket);
    const std::uint64_t key = (static_cast<std::uint64_t>(bucket) * columns_ + column) * kLatencyBins + latency_bin(ms);
    const auto max_ms = static_cast<float>(ms);
    // A column's latencies often fall in the bin its last one did (a warm
    // backend's constant service time): that bin without a lookup.
    const Last& last = last_[column];
    if (last.key == key && last.generation == open_.generation()) {
      Bin& b = open_.slots()[last.slot];
      ++b.count;
      b.max_ms = std::max(b.max_ms, max_ms);
      return;
    }
    add_new(key, column, max_ms);
  }

  // No latency will arrive any more for the buckets below `bucket`: their
  // percentiles go into `r` (p50_ms, p99_ms, client_p50_ms, client_p99_ms),
  // and their bins are dropped (in batches: each bin is looked at a bounded
  // number of times). Returns the bins it looked at (the budget's steps).
  std::size_t close_below(std::size_t bucket, TrafficResult& r);
  // Closes every bucket and writes the whole run's percentiles.
  std::size_t finish(TrafficResult& r);

  // Bins held now (16 bytes each, in tables at least half full).
  std::size_t bins() const { return open_.size() + run_.size(); }

 private:
  struct Bin {
    std::uint64_t key = kEmpty;  // (bucket x columns + column) x kLatencyBins + bin
    std::uint32_t count = 0;
    float max_ms = 0;  // the largest latency that fell in it
  };
  static constexpr std::uint64_t kEmpty = ~std::uint64_t{0};

  // An open-addressing table of bins (linear probing, a power of two).
  class Table {
   public:
    // Adds to the key's bin; returns its slot.
    std::size_t add(std::uint64_t key, std::uint32_t count, float max_ms);
    std::size_t size() const { return size_; }
    std::vector<Bin>& slots() { return slots_; }
    void clear_keep_capacity();
    // Changes whenever slots move (a slot remembered before is stale).
    std::uint32_t generation() const { return generation_; }

   private:
    void grow();
    std::vector<Bin> slots_;
    std::size_t size_ = 0;
    std::uint32_t generation_ = 0;
  };

  // A column's last bin in open_, while its slot holds.
  struct Last {
    std::uint64_t key = kEmpty;
    std::size_t slot = 0;
    std::uint32_t generation = 0;
  };

  void add_new(std::uint64_t key, std::uint32_t column, float ms);

  // Percentiles of sorted bins, a group (one bucket's column, or one
  // column over the run) at a time: write(group, from, to, p50, p99), its
  // bins sorted[from, to).
  template <typename Write>
  static void percentiles(const std::vector<Bin>& sorted, Write write);

  std::size_t buckets_, columns_;
  std::size_t closed_ = 0;      // the buckets below are written
  std::size_t top_bucket_ = 0;  // the highest bucket a latency arrived for
  Table open_;                  // the open buckets' bins
  Table run_;                   // the whole run's bins per column
  std::vector<Last> last_;      // by column
  std::vector<Bin> closing_, keep_;  // scratch
};

}  // namespace slowstart
