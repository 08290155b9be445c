#include "fast/decimal.hpp"
#include "core/pool.hpp"
#include "fast/short_bytes.hpp"

#include <algorithm>
#include <cstring>

#include "spec/ramp.hpp"

namespace slowstart {

std::int64_t Pool::effective(const Backend& b) const {
  if (rules_) return b.up ? rules_->effective_weight(b, now_) : rules_->weight_when_down(b, now_);
  if (!b.up) return 0;
  return ramp_weight(b.target, b.ramp, b.joined, now_);
}

void Pool::set_rules(Rules* rules) {
  rules_ = rules;
  wrr_.set_plain(rules != nullptr);
  ramps_.reset(backends_.size());
  for (std::size_t i = 0; i < backends_.size(); ++i) {
    refresh(i);
    schedule(i);
  }
}

void Pool::schedule(std::size_t i) {
  const Backend& b = backends_[i];
  // Only the SPEC's ramp is scheduled; other rules refresh on every NOW.
  if (!rules_ && b.up && b.ramp > 0 && b.target > 0) ramps_.track(i, b.target, b.ramp, b.joined, now_);
  else ramps_.untrack(i);
}

void Pool::joined(std::size_t i) {
  wrr_.set_score(i, rules_ ? rules_->score_on_join(backends_[i], wrr_.score(i)) : 0);
  refresh(i);
  schedule(i);
}

void Pool::replace(std::span<const PoolEntryView> entries, NameTable* names) {
  // A whole-program mistake (rules.hpp): backends whose names were in the
  // old pool keep their scores (read before the old pool goes).
  std::vector<std::int64_t> kept;
  if (rules_ && rules_->pool_keeps_scores()) {
    kept.assign(entries.size(), 0);
    for (std::size_t i = 0; i < entries.size(); ++i)
      if (const std::uint32_t old = lookup(entries[i].name); old != NameTable::kMissing) kept[i] = wrr_.score(old);
  }
  backends_.clear();
  backends_.reserve(entries.size());
  const bool adopt = names && names->size() == entries.size();
  if (adopt) index_.swap(*names);
  else index_.clear(entries.size());
  longest_name_ = 0;
  for (const PoolEntryView& e : entries) {
    longest_name_ = std::max(longest_name_, e.name.size());
    const auto i = static_cast<std::uint32_t>(backends_.size());
    backends_.push_back(Backend{std::string(e.name), e.weight, 0, now_, true, Joined::Pool});
    if (!adopt) index_.insert(backends_[i].name, i, [this](std::uint32_t k) { return name_at(k); });
  }
  refresh_names();
  wrr_.reset(backends_.size());
  ramps_.reset(backends_.size());  // no ramps in a POOL
  for (std::size_t i = 0; i < kept.size(); ++i) wrr_.set_score(i, kept[i]);
  for (std::size_t i = 0; i < backends_.size(); ++i) refresh(i);
  by_name_.clear();
  by_name_sorted_ = 0;
}

void Pool::set_now(std::int64_t now) {
  if (now == now_) return;
  now_ = now;
  if (rules_) {
    for (std::size_t i = 0; i < backends_.size(); ++i) refresh(i);
    return;
  }
  for (std::uint32_t i : ramps_.advance(now)) refresh(i);
}

void Pool::add(std::string name, std::int64_t target, std::int64_t ramp) {
  std::size_t i = lookup(name);
  // A whole-program mistake (rules.hpp): ADD of a name already there appends
  // a second backend of that name (lookups keep finding the first).
  const AddExisting existing =
      rules_ && i != NameTable::kMissing ? rules_->add_existing() : AddExisting::ReplaceInPlace;
  if (i != NameTable::kMissing && existing == AddExisting::ReplaceInPlace) {
    // In place: keeps its position (and its name, which is the same).
    backends_[i] = Backend{std::move(name), target, ramp, now_, true, Joined::Add};
    names_[i] = backends_[i].name;  // (a long name's bytes moved)
  } else {
    i = backends_.size();
    longest_name_ = std::max(longest_name_, name.size());
    const Backend* const before = backends_.data();
    backends_.push_back(Backend{std::move(name), target, ramp, now_, true, Joined::Add});
    if (backends_.data() != before) refresh_names();  // (short names live inside the strings)
    else names_.push_back(backends_[i].name);
    // (A second backend of a name already there is not indexed: the first is found.)
    index_.insert(backends_[i].name, static_cast<std::uint32_t>(i), [this](std::uint32_t k) { return name_at(k); });
    wrr_.push_back();
    ramps_.push_back();
  }
  joined(i);
}

void Pool::refresh_names() {
  names_.resize(backends_.size());
  for (std::size_t i = 0; i < backends_.size(); ++i) names_[i] = backends_[i].name;
}

void Pool::pick_many(std::size_t n, std::int32_t* out) {
  if (!rules_) return wrr_.pick_many(n, out);
  for (std::size_t k = 0; k < n; ++k) out[k] = pick();
}

bool Pool::contains(std::string_view name) const { return find(name) >= 0; }

std::int64_t Pool::find(std::string_view name) const {
  const std::uint32_t i = lookup(name);
  return i == NameTable::kMissing ? -1 : static_cast<std::int64_t>(i);
}

bool Pool::down(std::string_view name) {
  const std::uint32_t i = lookup(name);
  if (i == NameTable::kMissing) return false;
  down_at(i);
  return true;
}

void Pool::down_at(std::size_t i) {
  backends_[i].up = false;
  refresh(i);
  ramps_.untrack(i);
}

bool Pool::up(std::string_view name, std::int64_t ramp) {
  const std::uint32_t i = lookup(name);
  if (i == NameTable::kMissing) return false;
  up_at(i, ramp);
  return true;
}

void Pool::up_at(std::size_t i, std::int64_t ramp) {
  Backend& b = backends_[i];
  if (b.up && rules_ && !rules_->up_restarts_up_backend()) return;  // a mistake (rules.hpp)
  b.up = true;
  b.ramp = ramp;
  b.joined = now_;
  b.how = Joined::Up;
  joined(i);
}

namespace {

// Merges the sorted runs [a, mid) and [mid, end) into out.
template <class Less>
void merge_runs(const std::uint32_t* a, const std::uint32_t* mid, const std::uint32_t* end,
                std::uint32_t* out, const Less& less) {
  const std::uint32_t* b = mid;
  while (a < mid && b < end) *out++ = less(*b, *a) ? *b++ : *a++;
  while (a < mid) *out++ = *a++;
  while (b < end) *out++ = *b++;
}

// Bottom-up merge sort of v[from, to) (one template instead of std::sort's
// and std::inplace_merge's several: the WebAssembly module has a budget).
template <class Less>
void merge_sort(std::vector<std::uint32_t>& v, std::size_t from, std::vector<std::uint32_t>& scratch,
                const Less& less) {
  const std::size_t n = v.size() - from;
  scratch.resize(v.size());
  std::uint32_t* src = v.data() + from;
  std::uint32_t* dst = scratch.data() + from;
  for (std::size_t width = 1; width < n; width *= 2) {
    for (std::size_t lo = 0; lo < n; lo += 2 * width) {
      const std::size_t mid = std::min(lo + width, n), hi = std::min(lo + 2 * width, n);
      merge_runs(src + lo, src + mid, src + hi, dst + lo, less);
    }
    std::swap(src, dst);
  }
  if (src != v.data() + from) std::copy(src, src + n, v.data() + from);
}

}  // namespace

const std::vector<std::uint32_t>& Pool::by_name() const {
  if (by_name_sorted_ == backends_.size()) return by_name_;
  const auto less = [&](std::uint32_t a, std::uint32_t b) {
    return bytes_before(names_[a], names_[b]);
  };
  const std::size_t old = by_name_sorted_;
  for (std::size_t i = by_name_.size(); i < backends_.size(); ++i)
    by_name_.push_back(static_cast<std::uint32_t>(i));
  std::vector<std::uint32_t> scratch;
  merge_sort(by_name_, old, scratch, less);  // the new names...
  merge_runs(by_name_.data(), by_name_.data() + old, by_name_.data() + by_name_.size(), scratch.data(),
             less);  // ...into the sorted ones
  by_name_.swap(scratch);
  by_name_sorted_ = by_name_.size();
  return by_name_;
}

std::string Pool::weights_line() const {
  std::string out;
  weights_line(out);
  return out;
}

// The line's exact length first, then every byte written in place: one
// allocation at most (none once the buffer is big enough), no append per
// piece. Another order only from custom Rules (a whole-program mistake,
// rules.hpp: the rules sort, so this module carries none of it).
const std::vector<std::uint32_t>& Pool::weights_order(std::vector<std::uint32_t>& mistaken) const {
  const bool other = rules_ && rules_->weights_order(backends_.data(), backends_.size(), mistaken);
  return other ? mistaken : by_name();
}

std::size_t Pool::weights_length(const std::vector<std::uint32_t>& order) const {
  std::size_t length = order.empty() ? 0 : order.size() - 1;
  for (std::uint32_t i : order) length += names_[i].size() + 1 + decimal_length(wrr_.weight(i));
  return length;
}

void Pool::weights_line(std::string& out) const {
  std::vector<std::uint32_t> mistaken;
  const std::vector<std::uint32_t>& order = weights_order(mistaken);
  out.resize(weights_length(order));
  write_weights(out.data(), order);
}

void Pool::append_weights_line(ByteBuffer& out) const {
  std::vector<std::uint32_t> mistaken;
  const std::vector<std::uint32_t>& order = weights_order(mistaken);
  const std::size_t length = weights_length(order);
  char* const at = out.extend(length + 1);
  write_weights(at, order);
  at[length] = '\n';
}

void Pool::write_weights(char* const line, const std::vector<std::uint32_t>& order) const {
  char digits[21];
  char* at = line;
  for (std::uint32_t i : order) {
    if (at != line) *at++ = ' ';
    const std::string_view name = names_[i];
    copy_short(at, name.data(), name.size());  // (names are short: no library call)
    at += name.size();
    *at++ = '=';
    const std::int64_t w = wrr_.weight(i);
    if (w >= 0 && w <= UINT32_MAX) {  // (every weight of the SPEC's rules): in place
      at += decimal_length(w);
      write_digits_before(at, static_cast<std::uint32_t>(w));
      continue;
    }
    const char* d = format_decimal(digits, w);
    const auto n = static_cast<std::size_t>(digits + 21 - d);
    copy_short(at, d, n);
    at += n;
  }
}

}  // namespace slowstart
