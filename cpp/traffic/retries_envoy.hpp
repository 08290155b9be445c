// Envoy's limits and timing of retries, as the lab models them
// (docs/proxy-rules.md E13-E15). Only with --health envoy: without it, and
// for nginx and HAProxy, a retry goes at once to a backend the request has
// not tried, with no limit on the retries in flight.
#pragma once
#include <cstdint>

#include "traffic/options.hpp"

namespace slowstart {

// How many retries may be in flight at once with `active` requests in
// flight (first tries and retries; the lab has no connection pool, so no
// pending ones):
//   - the retry circuit breaker (E13; `CircuitBreakers.Thresholds.max_retries`,
//     circuit_breaker.proto): max_retries_in_flight;
//   - with a retry budget (E14; `RetryBudgetImpl::max`,
//     source/common/upstream/resource_manager_impl.h), which replaces it:
//     budget_percent / 100 x active, cut to a whole number, never below
//     min_retry_concurrency.
// A retry is made while the retries in flight (scheduled or being tried:
// `RetryStateImpl::shouldRetry` takes one as it schedules the retry, and
// gives it back when that try ends) are below it.
std::uint64_t envoy_retry_limit(const TrafficOptions& o, std::uint64_t active);

// The ceiling of the back-off before a request's retry number `retry` (1 for
// the first), in milliseconds (E15; `JitteredBackOffStrategy::nextBackOffMs`,
// source/common/common/backoff_strategy.cc, made per request by
// `RetryStateImpl`): `base` for the first, then doubled while below half the
// most, 10 x base (the route's default max_interval), then the most. The
// back-off itself is a draw below it (`random() % ceiling`): fully jittered.
std::uint64_t envoy_back_off_ceiling_ms(std::uint64_t base, std::uint32_t retry);

}  // namespace slowstart
