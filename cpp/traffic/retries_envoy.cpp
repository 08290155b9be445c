#include "traffic/retries_envoy.hpp"

#include <algorithm>

namespace slowstart {

std::uint64_t envoy_retry_limit(const TrafficOptions& o, std::uint64_t active) {
  if (!o.retry_budget) return o.max_retries_in_flight;
  // (std::max<uint64_t> of a double: the budget is cut to a whole number.)
  const auto budget = static_cast<std::uint64_t>(o.retry_budget_percent / 100.0 * static_cast<double>(active));
  return std::max<std::uint64_t>(budget, o.min_retry_concurrency);
}

std::uint64_t envoy_back_off_ceiling_ms(std::uint64_t base, std::uint32_t retry) {
  const std::uint64_t most = base * 10;
  std::uint64_t next = base;
  for (std::uint32_t k = 1; k < retry; ++k) next = next < most / 2 ? next * 2 : most;
  return next;
}

}  // namespace slowstart
