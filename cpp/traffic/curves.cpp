#include "traffic/curves.hpp"

#include <algorithm>
#include <cmath>

namespace slowstart {

namespace {
__extension__ using i128 = __int128;  // GCC, Clang and Emscripten all have it
}

std::int64_t resolution_of(const Curve& c) {
  if (c.resolution != 0) return c.resolution;
  switch (c.kind) {
    case CurveKind::Linear: return 100;
    case CurveKind::HAProxy: return 16;
    case CurveKind::Envoy: return 1000;
  }
  return 1;
}

double ramp_factor(const Curve& c, double elapsed, double window, bool recovering) {
  if (elapsed < 0) elapsed = 0;
  if (window <= 0 || elapsed >= window) return 1.0;
  switch (c.kind) {
    case CurveKind::Linear:
      return elapsed / window;
    case CurveKind::Envoy: {
      const double t = std::max(elapsed, 0.001);
      const double f = std::pow(t / window, 1.0 / c.aggression);
      return std::max(f, c.min_weight_percent / 100.0);
    }
    case CurveKind::HAProxy: {
      if (!recovering) return 1.0;
      const double step = 1.0 + std::floor(16.0 * std::floor(elapsed) / window);
      return std::min(step, 16.0) / 16.0;
    }
  }
  return 1.0;
}

std::int64_t curve_weight(const Curve& c, std::int64_t target, std::int64_t ramp, double elapsed,
                          bool recovering) {
  const std::int64_t full = target * resolution_of(c);  // <= 10^9
  if (ramp == 0) return full;
  if (c.kind == CurveKind::Linear && elapsed == std::floor(elapsed)) {
    // Exact integer path: with resolution 1 this is the SPEC's rule itself.
    // full * elapsed can reach 10^9 * 10^12, past 64 bits: use 128.
    if (elapsed <= 0) return 0;
    if (elapsed >= static_cast<double>(ramp)) return full;
    const auto e = static_cast<std::int64_t>(elapsed);
    return static_cast<std::int64_t>(static_cast<i128>(full) * e / ramp);
  }
  const double f = ramp_factor(c, elapsed, static_cast<double>(ramp), recovering);
  if (f >= 1.0) return full;
  // A tiny epsilon keeps 0.29 * 100 from landing on 28.999999...
  return std::min(full, static_cast<std::int64_t>(std::floor(static_cast<double>(full) * f + 1e-9)));
}

std::int64_t curve_weight_ms(const Curve& c, std::int64_t target, std::int64_t ramp,
                             std::int64_t elapsed_ms, bool recovering) {
  const std::int64_t full = target * resolution_of(c);
  if (ramp == 0) return full;
  const std::int64_t window_ms = ramp * 1000;  // <= 10^15
  if (elapsed_ms < 0) elapsed_ms = 0;
  switch (c.kind) {
    case CurveKind::Linear:
      if (elapsed_ms >= window_ms) return full;
      if (elapsed_ms < (std::int64_t{1} << 31) && full < (std::int64_t{1} << 31))
        return full * elapsed_ms / window_ms;  // the usual case, without 128-bit division
      return static_cast<std::int64_t>(static_cast<i128>(full) * elapsed_ms / window_ms);
    case CurveKind::HAProxy: {
      if (!recovering || elapsed_ms >= window_ms) return full;
      const i128 step = 1 + 16 * static_cast<i128>(elapsed_ms / 1000) / ramp;  // 1 ... 16
      return static_cast<std::int64_t>(static_cast<i128>(full) * (step < 16 ? step : 16) / 16);
    }
    case CurveKind::Envoy:
      break;
  }
  return curve_weight(c, target, ramp, static_cast<double>(elapsed_ms) / 1000.0, recovering);
}

std::int64_t CurveRules::effective_weight(const Backend& b, std::int64_t now) {
  const double elapsed = now > b.joined ? static_cast<double>(now - b.joined) : 0.0;
  return curve_weight(curve_, b.target, b.ramp, elapsed, b.how == Joined::Up);
}

}  // namespace slowstart
