#include "traffic/ramps.hpp"

#include "core/split_mix64.hpp"

#include <algorithm>
#include <cmath>

namespace slowstart {

void Ramps::reset(std::size_t n) {
  curve_.assign(n, 0);
  epoch_.assign(n, 0);
  joined_ms_.assign(n, 0);
  window_s_.assign(n, 0);
  recovering_.assign(n, 0);
  changes_ = {};
  groups_.clear();
  free_groups_.clear();
  open_.clear();
}

std::size_t Ramps::RampKeyHash::operator()(const RampKey& k) const {
  // Each field seeds SplitMix64 in turn (mixed: size_t is 32 bits in WebAssembly, the low bits count).
  std::uint64_t h = static_cast<std::uint64_t>(k.recovering);
  for (const std::int64_t v : {k.target, k.joined_ms, k.window_s}) h = SplitMix64(h ^ static_cast<std::uint64_t>(v)).next();
  return static_cast<std::size_t>(h);
}

std::uint32_t Ramps::new_group() {
  if (!free_groups_.empty()) {
    const std::uint32_t id = free_groups_.back();
    free_groups_.pop_back();
    return id;
  }
  groups_.emplace_back();
  return static_cast<std::uint32_t>(groups_.size() - 1);
}

void Ramps::push_back() {
  curve_.push_back(0);
  epoch_.push_back(0);
  joined_ms_.push_back(0);
  window_s_.push_back(0);
  recovering_.push_back(0);
}

void Ramps::joined(std::size_t i) {
  joined_ms_[i] = fleet_.backends[i].joined * 1000;
  window_s_[i] = fleet_.backends[i].ramp;
  recovering_[i] = fleet_.backends[i].how == Joined::Up;
}

void Ramps::begin(std::size_t i, std::int64_t start_ms, std::int64_t window_s) {
  joined_ms_[i] = start_ms;
  window_s_[i] = window_s;
  recovering_[i] = 1;  // the rule chose: HAProxy's curve ramps it too
}

void Ramps::readmitted(std::size_t i, double t) {
  joined_ms_[i] = static_cast<std::int64_t>(std::floor(t * 1000.0));
  recovering_[i] = 1;
}

bool Ramps::may_ramp(std::size_t i) const {
  const Backend& b = fleet_.backends[i];
  if (!b.up || !o_.slow_start || window_s_[i] == 0) return false;
  return !(o_.curve.kind == CurveKind::HAProxy && !recovering_[i]);
}

bool Ramps::restart(std::size_t i) {
  ++epoch_[i];
  const Backend& b = fleet_.backends[i];
  if (may_ramp(i)) {
    // With a group restarted since the last advance whose ramp is the same
    // function of time (a wave's UP lines), else in a group of its own.
    const auto x = static_cast<std::uint32_t>(i);
    const auto [at, added] = open_.try_emplace(key_of(i), 0);
    if (added) {
      at->second = new_group();
      changes_.push(Change{kNow, at->second});
    }
    Group& g = groups_[at->second];
    g.pos.push_back(x);
    g.epoch.push_back(epoch_[i]);
    return true;
  }
  curve_[i] = b.up ? b.target * resolution_of(o_.curve) : 0;
  return false;
}

double Ramps::factor(std::size_t i, std::int64_t tick) const {
  if (!may_ramp(i)) return 1.0;
  return ramp_factor(o_.curve, static_cast<double>(tick - joined_ms_[i]) / 1000.0, static_cast<double>(window_s_[i]),
                     recovering_[i]);
}

double Ramps::ramp_end(std::size_t i) const {
  return static_cast<double>(joined_ms_[i] + window_s_[i] * 1000) / 1000.0;
}

}  // namespace slowstart
