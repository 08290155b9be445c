#include "traffic/latency_histograms.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace slowstart {

std::uint64_t nearest_rank(std::uint64_t n, unsigned percent) {
  if (n == 0) return 0;
  const std::uint64_t rank = (n * percent + 99) / 100;  // ceil(p * n / 100), in integers
  return std::max<std::uint64_t>(rank, 1);
}

std::size_t LatencyHistograms::Table::add(std::uint64_t key, std::uint32_t count, float max_ms) {
  if ((size_ + 1) * 4 > slots_.size() * 3) grow();  // at most 3/4 full
  const std::size_t mask = slots_.size() - 1;
  // Fibonacci hashing: neighbouring keys (a column's bins) spread apart.
  std::size_t i = static_cast<std::size_t>((key * 0x9E3779B97F4A7C15ull) >> 20) & mask;
  for (;; i = (i + 1) & mask) {
    Bin& b = slots_[i];
    if (b.key == key) {
      b.count += count;
      b.max_ms = std::max(b.max_ms, max_ms);
      return i;
    }
    if (b.key == kEmpty) {
      b = Bin{key, count, max_ms};
      ++size_;
      return i;
    }
  }
}

void LatencyHistograms::Table::grow() {
  ++generation_;
  std::vector<Bin> old = std::move(slots_);
  slots_.assign(std::max<std::size_t>(64, old.size() * 2), Bin{});
  size_ = 0;
  for (const Bin& b : old)
    if (b.key != kEmpty) add(b.key, b.count, b.max_ms);
}

void LatencyHistograms::Table::clear_keep_capacity() {
  ++generation_;
  std::fill(slots_.begin(), slots_.end(), Bin{});
  size_ = 0;
}

LatencyHistograms::LatencyHistograms(std::size_t buckets, std::size_t backends)
    : buckets_(buckets), columns_(backends + 1), last_(backends + 1) {}

void LatencyHistograms::add_new(std::uint64_t key, std::uint32_t column, float ms) {
  last_[column] = Last{key, open_.add(key, 1, ms), open_.generation()};
}

template <typename Write>
void LatencyHistograms::percentiles(const std::vector<Bin>& sorted, Write write) {
  for (std::size_t from = 0; from < sorted.size();) {
    const std::uint64_t group = sorted[from].key / kLatencyBins;
    const std::uint64_t end = (group + 1) * kLatencyBins;  // the next group's first key (no division a bin)
    std::size_t to = from;
    std::uint64_t n = 0;
    while (to < sorted.size() && sorted[to].key < end) n += sorted[to++].count;
    const std::uint64_t r50 = nearest_rank(n, 50), r99 = nearest_rank(n, 99);
    float p50 = 0, p99 = 0;
    std::uint64_t seen = 0;
    for (std::size_t i = from; i < to; ++i) {
      const std::uint64_t before = seen;
      seen += sorted[i].count;
      if (before < r50 && seen >= r50) p50 = sorted[i].max_ms;
      if (before < r99 && seen >= r99) p99 = sorted[i].max_ms;
    }
    write(group, from, to, p50, p99);
    from = to;
  }
}

std::size_t LatencyHistograms::close_below(std::size_t bucket, TrafficResult& r) {
  bucket = std::min(bucket, buckets_);
  // In batches: only once the closable buckets are at least as many as the
  // ones still open (so every bin is moved a bounded number of times).
  const std::size_t still_open = bucket > top_bucket_ ? 0 : top_bucket_ + 1 - bucket;
  if (bucket <= closed_ || (bucket < buckets_ && bucket - closed_ < still_open)) return 0;
  closing_.clear();
  keep_.clear();
  const std::uint64_t limit = static_cast<std::uint64_t>(bucket) * columns_ * kLatencyBins;  // the first key kept
  for (const Bin& b : open_.slots())
    if (b.key != kEmpty) (b.key < limit ? closing_ : keep_).push_back(b);
  const std::size_t looked = open_.slots().size();
  open_.clear_keep_capacity();
  for (const Bin& b : keep_) open_.add(b.key, b.count, b.max_ms);
  std::sort(closing_.begin(), closing_.end(), [](const Bin& a, const Bin& b) { return a.key < b.key; });
  const std::size_t backends = columns_ - 1;
  percentiles(closing_, [&](std::uint64_t group, std::size_t from, std::size_t to, float p50, float p99) {
    const std::size_t k = static_cast<std::size_t>(group / columns_), column = static_cast<std::size_t>(group % columns_);
    if (column == backends) {
      r.client_p50_ms[k] = p50, r.client_p99_ms[k] = p99;
    } else {
      r.p50_ms[k * backends + column] = p50, r.p99_ms[k * backends + column] = p99;
    }
    // Into the whole run's bins of the column: the same bin, without the bucket.
    const std::uint64_t shift = group * kLatencyBins, run_group = std::uint64_t{column} * kLatencyBins;
    for (std::size_t i = from; i < to; ++i) run_.add(closing_[i].key - shift + run_group, closing_[i].count, closing_[i].max_ms);
  });
  closed_ = bucket;
  return looked + closing_.size();
}

std::size_t LatencyHistograms::finish(TrafficResult& r) {
  std::size_t looked = close_below(buckets_, r);
  closing_.clear();
  for (const Bin& b : run_.slots())
    if (b.key != kEmpty) closing_.push_back(b);
  looked += run_.slots().size();
  std::sort(closing_.begin(), closing_.end(), [](const Bin& a, const Bin& b) { return a.key < b.key; });
  const std::size_t backends = columns_ - 1;
  percentiles(closing_, [&](std::uint64_t group, std::size_t, std::size_t, float p50, float p99) {
    const auto column = static_cast<std::size_t>(group);  // the run's groups are the columns
    if (column == backends) {
      r.run_client_p50_ms = p50, r.run_client_p99_ms = p99;
    } else {
      r.run_p50_ms[column] = p50, r.run_p99_ms[column] = p99;
    }
  });
  return looked;
}

}  // namespace slowstart
