// The SPEC's numeric limits, in one place so the parser, the imperative API
// and the docs can never disagree.
#pragma once
#include <cstddef>
#include <cstdint>

namespace slowstart {

// A backend's configured weight: 0 ... 1,000,000.
inline constexpr std::int64_t kMaxWeight = 1'000'000;
// A ramp window and the clock, in seconds: 0 ... 10^12. The SPEC gives the
// ramp's limit; we apply the same one to NOW so that target * elapsed and
// now - joined both stay far inside 64 bits (10^6 * 10^12 = 10^18 < 9.2e18).
inline constexpr std::int64_t kMaxTime = 1'000'000'000'000;
// The most backends one pool may hold. Memory stays proportional to input,
// and a 100,000-backend pool is well inside it.
inline constexpr std::size_t kMaxBackends = 1'000'000;
// Quoted input in a diagnostic is cut to this many bytes, so a 10 MB token
// cannot produce a 10 MB message.
inline constexpr std::size_t kMaxQuoted = 60;

}  // namespace slowstart
