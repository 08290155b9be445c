#include "traffic/option_table.hpp"

#include "core/args.hpp"
#include "fast/decimal.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

namespace slowstart {

std::string one_of(std::span<const char* const> names) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i) out += i + 1 == names.size() ? " or " : ", ";
    out += names[i];
  }
  return out;
}

std::string not_one_of(std::string_view label, std::span<const char* const> names, std::string_view text) {
  return std::string(label) + " must be " + one_of(names) + ", got " + quote(text);
}

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kMaxCount = 1'000'000;      // a health check's counts
constexpr double kMaxSeconds = 1'000'000;    // a health check's times

// The resolutions, as the CLI and the API write them (traffic/curves.hpp).
// 0: the curve's own (resolution_of).
constexpr std::array<const char*, 5> kResolutionNames = {"0", "1", "16", "100", "1000"};

// --summary json's resolution: the one the run used (the curve's own for 0).
double resolution_in_force(const TrafficOptions& o) { return static_cast<double>(resolution_of(o.curve)); }

// A field of TrafficOptions as a number: `FIELD(service.base_ms)`.
#define FIELD(path)                                                                  \
  OptionField {                                                                      \
    [](const TrafficOptions& o) { return static_cast<double>(o.path); },           \
        [](TrafficOptions& o, double v) { o.path = static_cast<decltype(o.path)>(v); } \
  }

std::uint64_t& seed_of(TrafficOptions& o) { return o.seed; }

constexpr std::span<const char* const> kNoChoices{};
template <typename E>
constexpr std::span<const char* const> names() {
  return Names<E>::list;
}

using G = OptionGroup;
using K = ValueKind;

const TrafficOption kTable[] = {
    // ---- load
    {.flag = "--rps", .metavar = "N", .key = "rps", .json = "rps", .label = "rps", .group = G::Load,
     .kind = K::Number, .min = 0, .max = kInf, .above_min = true,
     .help = "requests per second, arriving at a fixed rate", .field = FIELD(rps)},
    {.flag = "--duration", .metavar = "S", .key = "duration", .json = "duration", .label = "duration",
     .group = G::Load, .kind = K::Number, .min = 0, .max = kInf, .unit = "seconds",
     .help = "seconds to simulate from 0", .default_text = "10 s past the last ramp", .field = FIELD(duration)},
    {.flag = "--bucket", .metavar = "S", .key = "bucket", .json = "bucket", .label = "bucket", .group = G::Load,
     .kind = K::Number, .min = 0, .max = kInf, .above_min = true, .unit = "seconds",
     .help = "width of a report row (a bucket) in seconds", .field = FIELD(bucket)},

    // ---- policy: how the balancer picks, and its slow start
    {.flag = "--curve", .metavar = "NAME", .key = "curve.kind", .json = "curve", .label = "curve",
     .group = G::Policy, .kind = K::Choice, .choices = names<CurveKind>(),
     .help = "how a ramping backend's weight grows: linear (the SPEC, NGINX Plus), Envoy's curve, or HAProxy's "
             "16 steps (only a backend coming back up ramps)",
     .field = FIELD(curve.kind)},
    {.flag = "--resolution", .metavar = "R", .key = "curve.resolution", .json = "resolution", .label = "resolution",
     .group = G::Policy, .kind = K::Level, .zero = "the curve's own: linear 100 (nginx-mod's), haproxy 16, envoy 1000",
     .choices = kResolutionNames,
     .help = "internal weight scale: 1 is the script's integers, 16 HAProxy's sixteenths, 100 nginx-mod's",
     .field = FIELD(curve.resolution), .shown = resolution_in_force},
    {.flag = "--aggression", .metavar = "A", .key = "curve.aggression", .json = "aggression", .label = "aggression",
     .group = G::Policy, .kind = K::Number, .min = 0, .max = kInf, .above_min = true,
     .help = "envoy: the curve's aggression (1 is linear, above 1 starts faster)", .when_key = "curve.kind",
     .when_value = "envoy", .field = FIELD(curve.aggression)},
    {.flag = "--min-weight", .metavar = "P", .key = "curve.minWeightPercent", .json = "min_weight",
     .label = "min-weight", .group = G::Policy, .kind = K::Number, .min = 0, .max = 100, .unit = "percent",
     .help = "envoy: the least percent of its weight a ramping backend gets", .when_key = "curve.kind",
     .when_value = "envoy", .field = FIELD(curve.min_weight_percent)},
    {.flag = "--policy", .metavar = "P", .key = "policy", .json = "policy", .label = "policy", .group = G::Policy,
     .kind = K::Choice, .choices = names<Policy>(),
     .help = "how the balancer picks; least-conn is the balancer's own least connections (nginx's or "
             "HAProxy's under its health check, else Caddy's), each also by name",
     .field = FIELD(policy)},
    {.flag = "--ramp-by", .metavar = "HOW", .key = "rampBy", .json = "ramp_by", .label = "ramp-by",
     .group = G::Policy, .kind = K::Choice, .choices = names<RampBy>(),
     .help = "how a policy applies the ramp: scale (each policy's own way) or skip (leave a warming host out "
             "with probability 1 - ramp)",
     .field = FIELD(ramp_by)},
    {.flag = "--no-slow-start", .key = "slowStart", .json = "slow_start", .label = "slow start", .group = G::Policy,
     .kind = K::Switch, .help = "ignore the ramps: full weight at once", .field = FIELD(slow_start)},
    // ---- slow start as the proxies configure it (traffic/slow_start_rule.hpp)
    {.flag = "--slow-start", .metavar = "S", .key = "slowStartWindow", .json = "slow_start_window",
     .label = "slow-start window", .group = G::Policy, .kind = K::Whole, .min = 0, .max = 1'000'000,
     .unit = "seconds", .zero = "the script's ADD and UP ramps",
     .help = "every backend's slow-start window, kept across reloads: each join or recovery the balancer's "
             "own rule ramps (haproxy: not at start or reload; envoy: not after an outlier ejection; linear: "
             "--slow-start-rule) ramps over S seconds; the ramps written on ADD and UP lines are then not used",
     .field = FIELD(slow_start_window), .json_when_set = true},
    {.flag = "--slow-start-rule", .metavar = "NAME", .key = "slowStartRule", .json = "slow_start_rule",
     .label = "slow-start rule", .group = G::Policy, .kind = K::Choice, .choices = names<NginxRule>(),
     .help = "linear curve with --slow-start: NGINX Plus's rule (a server back from unavailable, an UP or a "
             "run-time add ramps; not at start or reload) or nginx-mod's (start, every reload, a run-time "
             "add; never a recovery)",
     .when_key = "curve.kind", .when_value = "linear", .field = FIELD(slow_start_rule), .json_when_set = true},
    {.flag = "--seed", .metavar = "N", .key = "seed", .json = "seed", .label = "seed", .group = G::Policy,
     .kind = K::Seed, .help = "seed of the random choices (random, p2c, Caddy's least-conn ties, skip)",
     .seed = seed_of},
    {.flag = "--bias", .metavar = "B", .key = "bias", .json = "bias", .label = "bias", .group = G::Policy,
     .kind = K::Number, .min = 0, .max = kInf, .help = "least-request: the active-request bias",
     .when_key = "policy", .when_value = "least-request", .field = FIELD(bias)},
    {.flag = "--choice-count", .metavar = "N", .key = "choiceCount", .json = "choice_count", .label = "choice-count",
     .group = G::Policy, .kind = K::Whole, .min = 2, .max = 100,
     .help = "least-request with equal weights and no host ramping: hosts drawn per pick, the least active wins",
     .when_key = "policy", .when_value = "least-request", .field = FIELD(choice_count)},

    // ---- the service model
    {.flag = "--service", .key = "service", .json = "service", .label = "service model", .group = G::ServiceModel,
     .kind = K::Switch, .help = "model service: outstanding requests and latency (each option below implies it)",
     .field = FIELD(service.enabled), .implies_service = true},
    {.flag = "--service-ms", .metavar = "MS", .key = "service.baseMs", .json = "service.service_ms",
     .label = "service time", .group = G::ServiceModel, .kind = K::Number, .min = 0, .max = kInf,
     .above_min = true, .unit = "milliseconds", .help = "a warm backend's service time", .when_key = "service",
     .when_value = "true", .field = FIELD(service.base_ms), .implies_service = true},
    {.flag = "--cold-factor", .metavar = "F", .key = "service.coldFactor", .json = "service.cold_factor",
     .label = "cold factor", .group = G::ServiceModel, .kind = K::Number, .min = 1, .max = kInf,
     .help = "service time multiplier the moment a backend (re)joins", .when_key = "service", .when_value = "true",
     .field = FIELD(service.cold_factor), .implies_service = true},
    {.flag = "--warmup", .metavar = "S", .key = "service.warmup", .json = "service.warmup", .label = "warm-up",
     .group = G::ServiceModel, .kind = K::Number, .min = 0, .max = kInf, .unit = "seconds",
     .help = "seconds for a cold backend to warm up", .when_key = "service", .when_value = "true",
     .field = FIELD(service.warmup), .implies_service = true},
    {.flag = "--workers", .metavar = "N", .key = "service.workers", .json = "service.workers", .label = "workers",
     .group = G::ServiceModel, .kind = K::Whole, .min = 1, .max = kMaxWorkers,
     .help = "requests a backend serves at once (more wait in line)", .when_key = "service", .when_value = "true",
     .field = FIELD(service.workers), .implies_service = true},
    {.flag = "--warm-by", .metavar = "HOW", .key = "service.warmBy", .json = "service.warm_by", .label = "warm-by",
     .group = G::ServiceModel, .kind = K::Choice, .choices = names<WarmBy>(),
     .help = "what warms a restarted backend: seconds serving (paused while ejected), plain time, or requests "
             "served",
     .when_key = "service", .when_value = "true", .field = FIELD(service.warm_by), .implies_service = true},
    {.flag = "--warmup-requests", .metavar = "N", .key = "service.warmupRequests",
     .json = "service.warmup_requests", .label = "warm-up requests", .group = G::ServiceModel, .kind = K::Number,
     .min = 1, .max = kInf, .help = "requests to warm up, for --warm-by requests", .when_key = "service.warmBy",
     .when_value = "requests", .field = FIELD(service.warmup_requests), .implies_service = true},

    // ---- timeouts and retries
    {.flag = "--timeout-ms", .metavar = "MS", .key = "timeoutMs", .json = "timeout_ms", .label = "timeout",
     .group = G::Retries, .kind = K::Number, .min = 0, .max = kInf, .unit = "milliseconds", .zero = "none",
     .help = "a request slower than this fails (the CLI turns the service model on)", .field = FIELD(timeout_ms),
     .implies_service = true},
    {.flag = "--retries", .metavar = "N", .key = "retries", .json = "retries", .label = "retries",
     .group = G::Retries, .kind = K::Whole, .min = 0, .max = kMaxRetries,
     .help = "retry a failed request on another backend (envoy: on any, after a back-off)", .field = FIELD(retries)},
    {.flag = "--next-upstream-timeout-ms", .metavar = "MS", .key = "nextUpstreamTimeoutMs",
     .json = "next_upstream_timeout_ms", .label = "next-upstream-timeout", .group = G::Retries, .kind = K::Number,
     .min = 0, .max = kInf, .unit = "milliseconds", .zero = "none",
     .help = "nginx: no further server is tried once this long has passed since the first attempt "
             "(proxy_next_upstream_timeout)",
     .when_key = "health.kind", .when_value = "nginx", .field = FIELD(next_upstream_timeout_ms)},
    {.flag = "--max-retries-in-flight", .metavar = "N", .key = "maxRetriesInFlight", .json = "max_retries_in_flight",
     .label = "max-retries-in-flight", .group = G::Retries, .kind = K::Whole, .min = 0, .max = kMaxCount,
     .help = "envoy: the most retries in flight at once (the cluster's max_retries circuit breaker); past it a "
             "failure reaches the client",
     .when_key = "health.kind", .when_value = "envoy", .field = FIELD(max_retries_in_flight)},
    // Envoy's retry budget and route retry policy (docs/proxy-rules.md E14, E15)
    {.flag = "--retry-budget", .key = "retryBudget", .json = "retry_budget", .label = "retry-budget",
     .group = G::Retries, .kind = K::Switch,
     .help = "envoy: a retry budget instead of --max-retries-in-flight: retries in flight up to a percent of the "
             "requests in flight",
     .when_key = "health.kind", .when_value = "envoy", .field = FIELD(retry_budget)},
    {.flag = "--retry-budget-percent", .metavar = "P", .key = "retryBudgetPercent", .json = "retry_budget_percent",
     .label = "retry-budget-percent", .group = G::Retries, .kind = K::Number, .min = 0, .max = 100,
     .unit = "percent", .help = "envoy: the budget, in percent of the requests in flight (budget_percent)",
     .when_key = "retryBudget", .when_value = "true", .field = FIELD(retry_budget_percent)},
    {.flag = "--min-retry-concurrency", .metavar = "N", .key = "minRetryConcurrency", .json = "min_retry_concurrency",
     .label = "min-retry-concurrency", .group = G::Retries, .kind = K::Whole, .min = 0, .max = kMaxCount,
     .help = "envoy: retries in flight the budget always allows", .when_key = "retryBudget", .when_value = "true",
     .field = FIELD(min_retry_concurrency)},
    {.flag = "--retry-back-off-ms", .metavar = "MS", .key = "retryBackOffMs", .json = "retry_back_off_ms",
     .label = "retry-back-off-ms", .group = G::Retries, .kind = K::Whole, .min = 0, .max = kMaxSeconds * 1000,
     .unit = "milliseconds", .zero = "at once",
     .help = "envoy: a retry waits a random time below this, doubled for each later retry up to 10 times it "
             "(the route's base_interval)",
     .when_key = "health.kind", .when_value = "envoy", .field = FIELD(retry_back_off_ms)},
    {.flag = "--retry-other-host", .key = "retryOtherHost", .json = "retry_other_host", .label = "retry-other-host",
     .group = G::Retries, .kind = K::Switch,
     .help = "envoy: a retry never goes to a host the request tried (the previous_hosts predicate); without it "
             "it may",
     .when_key = "health.kind", .when_value = "envoy", .field = FIELD(retry_other_host)},

    // ---- passive health checks, each balancer's parameters and defaults
    {.flag = "--health", .metavar = "KIND", .key = "health.kind", .json = "health.kind", .label = "health",
     .group = G::HealthCheck, .kind = K::Choice, .choices = names<HealthKind>(),
     .help = "passive health check, with that software's defaults (needs --timeout-ms)",
     .field = FIELD(health.kind)},
    {.flag = "--max-fails", .metavar = "N", .key = "health.maxFails", .json = "health.max_fails",
     .label = "max-fails", .group = G::HealthCheck, .kind = K::Whole, .min = 0, .max = kMaxCount,
     .help = "nginx: failures that make a server unavailable", .when_key = "health.kind", .when_value = "nginx",
     .field = FIELD(health.max_fails)},
    {.flag = "--fail-timeout", .metavar = "S", .key = "health.failTimeout", .json = "health.fail_timeout",
     .label = "fail-timeout", .group = G::HealthCheck, .kind = K::Whole, .min = 1, .max = kMaxSeconds,
     .unit = "seconds", .help = "nginx: seconds to count failures in, and to stay unavailable",
     .when_key = "health.kind", .when_value = "nginx", .field = FIELD(health.fail_timeout)},
    {.flag = "--unhealthy-latency-ms", .metavar = "MS", .key = "health.unhealthyLatencyMs",
     .json = "health.unhealthy_latency_ms", .label = "unhealthy-latency", .group = G::HealthCheck, .kind = K::Number,
     .min = 0, .max = kInf, .unit = "milliseconds", .zero = "none",
     .help = "nginx, as Caddy's passive check: an answer taking at least this long counts as a failure, though "
             "the client gets it (Caddy's unhealthy_latency)",
     .when_key = "health.kind", .when_value = "nginx", .field = FIELD(health.unhealthy_latency_ms),
     .implies_service = true, .json_when_set = true},
    {.json = "health.observe", .label = "observe", .group = G::HealthCheck, .kind = K::Fixed,
     .help = "haproxy: errors are counted on live traffic, as observe layer7 does", .when_key = "health.kind",
     .when_value = "haproxy", .fixed = "layer7"},
    {.flag = "--error-limit", .metavar = "N", .key = "health.errorLimit", .json = "health.error_limit",
     .label = "error-limit", .group = G::HealthCheck, .kind = K::Whole, .min = 1, .max = kMaxCount,
     .help = "haproxy: consecutive errors that run on-error", .when_key = "health.kind",
     .when_value = "haproxy", .field = FIELD(health.error_limit)},
    {.flag = "--on-error", .metavar = "MODE", .key = "health.onError", .json = "health.on_error",
     .label = "on-error", .group = G::HealthCheck, .kind = K::Choice, .choices = names<OnError>(),
     .help = "haproxy: what the error limit does: count one failed check (the default), only check sooner, "
             "leave one failed check before down, or mark down at once",
     .when_key = "health.kind", .when_value = "haproxy", .field = FIELD(health.on_error)},
    {.flag = "--inter", .metavar = "S", .key = "health.inter", .json = "health.inter", .label = "inter",
     .group = G::HealthCheck, .kind = K::Number, .min = kMinInterval, .max = kMaxSeconds,
     .unit = "seconds", .help = "haproxy: seconds between active checks", .when_key = "health.kind",
     .when_value = "haproxy", .field = FIELD(health.inter)},
    {.flag = "--fastinter", .metavar = "S", .key = "health.fastinter", .json = "health.fastinter",
     .label = "fastinter", .group = G::HealthCheck, .kind = K::Number, .min = 0, .max = kMaxSeconds,
     .unit = "seconds",
     .help = "haproxy: seconds between checks while the health is in transition and after an error limit; "
             "0 is inter's value",
     .when_key = "health.kind", .when_value = "haproxy", .field = FIELD(health.fastinter)},
    {.flag = "--downinter", .metavar = "S", .key = "health.downinter", .json = "health.downinter",
     .label = "downinter", .group = G::HealthCheck, .kind = K::Number, .min = 0, .max = kMaxSeconds,
     .unit = "seconds", .help = "haproxy: seconds between checks while fully down; 0 is inter's value",
     .when_key = "health.kind", .when_value = "haproxy", .field = FIELD(health.downinter)},
    {.flag = "--rise", .metavar = "N", .key = "health.rise", .json = "health.rise", .label = "rise",
     .group = G::HealthCheck, .kind = K::Whole, .min = 1, .max = kMaxCount,
     .help = "haproxy: good checks in a row that bring a server back up", .when_key = "health.kind",
     .when_value = "haproxy", .field = FIELD(health.rise)},
    {.flag = "--fall", .metavar = "N", .key = "health.fall", .json = "health.fall", .label = "fall",
     .group = G::HealthCheck, .kind = K::Whole, .min = 1, .max = kMaxCount,
     .help = "haproxy: failed checks in a row that mark a server down", .when_key = "health.kind",
     .when_value = "haproxy", .field = FIELD(health.fall)},
    {.flag = "--check-ms", .metavar = "MS", .key = "health.checkMs", .json = "health.check_ms",
     .label = "check-ms", .group = G::HealthCheck, .kind = K::Number, .min = 0, .max = kMaxSeconds * 1000,
     .unit = "milliseconds",
     .help = "haproxy: how long an active check takes; the next one starts an interval after it ends",
     .when_key = "health.kind", .when_value = "haproxy", .field = FIELD(health.check_ms)},
    {.flag = "--legacy-fastinter", .key = "health.legacyFastinter", .json = "health.legacy_fastinter",
     .label = "legacy-fastinter", .group = G::HealthCheck, .kind = K::Switch,
     .help = "haproxy before 2.8: an error limit brings the next check to fastinter from now, even when down",
     .when_key = "health.kind", .when_value = "haproxy", .field = FIELD(health.legacy_fastinter)},
    {.flag = "--consecutive-5xx", .metavar = "N", .key = "health.consecutive5xx", .json = "health.consecutive_5xx",
     .label = "consecutive-5xx", .group = G::HealthCheck, .kind = K::Whole, .min = 1, .max = kMaxCount,
     .help = "envoy: failures in a row that eject a host", .when_key = "health.kind", .when_value = "envoy",
     .field = FIELD(health.consecutive_5xx)},
    {.flag = "--interval", .metavar = "S", .key = "health.interval", .json = "health.interval",
     .label = "interval", .group = G::HealthCheck, .kind = K::Number, .min = kMinInterval, .max = kMaxSeconds,
     .unit = "seconds", .help = "envoy: seconds between sweeps (ejections end at a sweep)",
     .when_key = "health.kind", .when_value = "envoy", .field = FIELD(health.interval)},
    {.flag = "--base-ejection-time", .metavar = "S", .key = "health.baseEjectionTime",
     .json = "health.base_ejection_time", .label = "base-ejection-time", .group = G::HealthCheck,
     .kind = K::Number, .min = kMinInterval, .max = kMaxSeconds, .unit = "seconds",
     .help = "envoy: seconds out, times the times ejected", .when_key = "health.kind", .when_value = "envoy",
     .field = FIELD(health.base_ejection_time)},
    {.flag = "--max-ejection-time", .metavar = "S", .key = "health.maxEjectionTime",
     .json = "health.max_ejection_time", .label = "max-ejection-time", .group = G::HealthCheck,
     .kind = K::Number, .min = kMinInterval, .max = kMaxSeconds, .unit = "seconds",
     .help = "envoy: the most seconds out", .when_key = "health.kind", .when_value = "envoy",
     .field = FIELD(health.max_ejection_time)},
    {.flag = "--max-ejection-percent", .metavar = "P", .key = "health.maxEjectionPercent",
     .json = "health.max_ejection_percent", .label = "max-ejection-percent", .group = G::HealthCheck,
     .kind = K::Number, .min = 0, .max = 100, .unit = "percent",
     .help = "envoy: an ejection only while (ejected + 1) / hosts stays within this percent (Envoy 1.28+)",
     .when_key = "health.kind", .when_value = "envoy", .field = FIELD(health.max_ejection_percent)},
    {.flag = "--always-eject-one-host", .key = "health.alwaysEjectOneHost", .json = "health.always_eject_one_host",
     .label = "always-eject-one-host", .group = G::HealthCheck, .kind = K::Switch,
     .help = "envoy: one host may be ejected whenever none is, whatever the percent (Envoy 1.31+)",
     .when_key = "health.kind", .when_value = "envoy", .field = FIELD(health.always_eject_one_host)},
    {.flag = "--legacy-ejection-percent", .key = "health.legacyEjectionPercent",
     .json = "health.legacy_ejection_percent", .label = "legacy-ejection-percent", .group = G::HealthCheck,
     .kind = K::Switch,
     .help = "envoy before 1.28: the share out before the ejection below the percent, the first always allowed",
     .when_key = "health.kind", .when_value = "envoy", .field = FIELD(health.legacy_ejection_percent)},
    {.flag = "--panic-threshold", .metavar = "P", .key = "health.panicThreshold", .json = "health.panic_threshold",
     .label = "panic-threshold", .group = G::HealthCheck, .kind = K::Number, .min = 0, .max = 100, .unit = "percent",
     .zero = "never",
     .help = "envoy: below this percent of hosts healthy, pick among all hosts, ejected ones too (healthy_panic_threshold)",
     .when_key = "health.kind", .when_value = "envoy", .field = FIELD(health.panic_threshold)},
    {.flag = "--ramp-after-ejection", .key = "health.rampAfterEjection", .json = "health.ramp_after_ejection",
     .label = "ramp-after-ejection", .group = G::HealthCheck, .kind = K::Switch,
     .help = "envoy: ramp a host back from an ejection, as Envoy does only when an active health check readmits it",
     .when_key = "health.kind", .when_value = "envoy", .field = FIELD(health.ramp_after_ejection)},
    // Envoy's success-rate and failure-percentage detection (docs/proxy-rules.md E10, E11)
    {.flag = "--success-rate-minimum-hosts", .metavar = "N", .key = "health.successRateMinimumHosts",
     .json = "health.success_rate_minimum_hosts", .label = "success-rate-minimum-hosts", .group = G::HealthCheck,
     .kind = K::Whole, .min = 0, .max = kMaxCount,
     .help = "envoy: hosts with enough requests needed for success-rate detection", .when_key = "health.kind",
     .when_value = "envoy", .field = FIELD(health.success_rate_minimum_hosts)},
    {.flag = "--success-rate-request-volume", .metavar = "N", .key = "health.successRateRequestVolume",
     .json = "health.success_rate_request_volume", .label = "success-rate-request-volume",
     .group = G::HealthCheck, .kind = K::Whole, .min = 0, .max = kMaxCount,
     .help = "envoy: requests in an interval that make a host count for success rate", .when_key = "health.kind",
     .when_value = "envoy", .field = FIELD(health.success_rate_request_volume)},
    {.flag = "--success-rate-stdev-factor", .metavar = "N", .key = "health.successRateStdevFactor",
     .json = "health.success_rate_stdev_factor", .label = "success-rate-stdev-factor", .group = G::HealthCheck,
     .kind = K::Whole, .min = 0, .max = kMaxCount,
     .help = "envoy: eject below the mean success rate minus N / 1000 standard deviations",
     .when_key = "health.kind", .when_value = "envoy", .field = FIELD(health.success_rate_stdev_factor)},
    {.flag = "--enforcing-success-rate", .metavar = "P", .key = "health.enforcingSuccessRate",
     .json = "health.enforcing_success_rate", .label = "enforcing-success-rate", .group = G::HealthCheck,
     .kind = K::Whole, .min = 0, .max = 100, .unit = "percent", .zero = "detect only",
     .help = "envoy: the chance in percent that a success-rate outlier is ejected", .when_key = "health.kind",
     .when_value = "envoy", .field = FIELD(health.enforcing_success_rate)},
    {.flag = "--failure-percentage-threshold", .metavar = "P", .key = "health.failurePercentageThreshold",
     .json = "health.failure_percentage_threshold", .label = "failure-percentage-threshold",
     .group = G::HealthCheck, .kind = K::Whole, .min = 0, .max = 100, .unit = "percent",
     .help = "envoy: eject a host failing at least this percent of its requests in an interval",
     .when_key = "health.kind", .when_value = "envoy", .field = FIELD(health.failure_percentage_threshold)},
    {.flag = "--failure-percentage-minimum-hosts", .metavar = "N", .key = "health.failurePercentageMinimumHosts",
     .json = "health.failure_percentage_minimum_hosts", .label = "failure-percentage-minimum-hosts",
     .group = G::HealthCheck, .kind = K::Whole, .min = 0, .max = kMaxCount,
     .help = "envoy: hosts with enough requests needed for failure-percentage detection",
     .when_key = "health.kind", .when_value = "envoy", .field = FIELD(health.failure_percentage_minimum_hosts)},
    {.flag = "--failure-percentage-request-volume", .metavar = "N", .key = "health.failurePercentageRequestVolume",
     .json = "health.failure_percentage_request_volume", .label = "failure-percentage-request-volume",
     .group = G::HealthCheck, .kind = K::Whole, .min = 0, .max = kMaxCount,
     .help = "envoy: requests in an interval that make a host count for failure percentage",
     .when_key = "health.kind", .when_value = "envoy", .field = FIELD(health.failure_percentage_request_volume)},
    {.flag = "--enforcing-failure-percentage", .metavar = "P", .key = "health.enforcingFailurePercentage",
     .json = "health.enforcing_failure_percentage", .label = "enforcing-failure-percentage",
     .group = G::HealthCheck, .kind = K::Whole, .min = 0, .max = 100, .unit = "percent", .zero = "detect only",
     .help = "envoy: the chance in percent that a failure-percentage outlier is ejected",
     .when_key = "health.kind", .when_value = "envoy", .field = FIELD(health.enforcing_failure_percentage)},

    // ---- output
    {.flag = "--stable-margin", .metavar = "P", .key = "stableMargin", .json = "stable_margin",
     .label = "stable margin", .group = G::Output, .kind = K::Number, .min = 0, .max = kInf, .unit = "percent",
     .help = "stable: every backend's mean latency within P % of the warm service time, and nothing failed or "
             "ejected",
     .field = FIELD(stable_margin)},
};

#undef FIELD

// A double as the fewest digits that read back as the same double.
std::string shortest(double v) {
  char buf[40];
  for (int digits = 1; digits <= 17; ++digits) {
    std::snprintf(buf, sizeof buf, "%.*g", digits, v);
    if (std::strtod(buf, nullptr) == v) break;
  }
  return buf;
}

// A whole number of the table (a range bound, a count) as text: 1000000, not 1e+06.
std::string whole_text(double v) { return decimal(static_cast<std::int64_t>(v)); }

std::string bound_text(double v) { return v == std::floor(v) && std::fabs(v) < 1e15 ? whole_text(v) : shortest(v); }

// A switch whose JSON key names an object of the options under it (the
// service model): the object when on, null when off.
bool opens_object(const TrafficOption& option) {
  if (option.kind != ValueKind::Switch || !option.json) return false;
  const std::string prefix = std::string(option.json) + ".";
  for (const TrafficOption& other : kTable)
    if (other.json && std::string_view(other.json).substr(0, prefix.size()) == prefix) return true;
  return false;
}

}  // namespace

std::string exact_number(double v) {
  if (v == std::floor(v) && std::fabs(v) < 1e15) return whole_text(v);
  return shortest(v);
}

std::span<const TrafficOption> traffic_option_table() { return kTable; }

const TrafficOption* find_option_by_flag(std::string_view flag) {
  for (const TrafficOption& option : kTable)
    if (option.flag && flag == option.flag) return &option;
  return nullptr;
}

const TrafficOption* find_option_by_key(std::string_view key) {
  for (const TrafficOption& option : kTable)
    if (option.key && key == option.key) return &option;
  return nullptr;
}

bool option_applies(const TrafficOption& option, const TrafficOptions& o) {
  if (!option.when_key) return true;
  const TrafficOption& when = *find_option_by_key(option.when_key);
  return option_applies(when, o) && option_text(when, o) == option.when_value;
}

std::string option_takes(const TrafficOption& option) {
  const std::string unit = *option.unit ? std::string(" of ") + option.unit : "";
  const std::string min = bound_text(option.min), max = bound_text(option.max);
  switch (option.kind) {
    case ValueKind::Number: {
      std::string out = "a number" + unit;
      if (std::isinf(option.max)) {
        if (option.above_min) return out + " above " + min;
        out += ", " + min;
        if (option.min == 0 && *option.zero) out += std::string(" (") + option.zero + ")";
        return out + " or more";
      }
      if (option.above_min) return out + " above " + min + ", at most " + max;
      return out + " from " + min + " to " + max;
    }
    case ValueKind::Whole:
      if (*option.unit) return "a whole number" + unit + " from " + min + " to " + max;
      return "between " + min + " and " + max;
    case ValueKind::Level:
    case ValueKind::Choice:
      return one_of(option.choices);
    case ValueKind::Switch:
      return "true or false";
    case ValueKind::Seed:
      return "a whole number";
    case ValueKind::Fixed:
      return option.fixed;
  }
  return "";
}

namespace {

bool in_range(const TrafficOption& option, double v) {
  if (!std::isfinite(v)) return false;
  if (option.above_min ? !(v > option.min) : !(v >= option.min)) return false;
  if (v > option.max) return false;
  return option.kind != ValueKind::Whole || v == std::floor(v);
}

bool is_level(const TrafficOption& option, double v) {
  for (const char* level : option.choices)
    if (v == std::strtod(level, nullptr)) return true;
  return false;
}

Problem out_of_range(const TrafficOption& option) { return std::string(option.label) + " must be " + option_takes(option); }

}  // namespace

Problem check_option(const TrafficOption& option, const TrafficOptions& o) {
  switch (option.kind) {
    case ValueKind::Number:
    case ValueKind::Whole:
      if (!in_range(option, option.field.get(o))) return out_of_range(option);
      return std::nullopt;
    case ValueKind::Level: {
      const double v = option.field.get(o);
      if (!is_level(option, v)) return not_one_of(option.label, option.choices, exact_number(v));
      return std::nullopt;
    }
    case ValueKind::Choice:
    case ValueKind::Switch:
    case ValueKind::Seed:
    case ValueKind::Fixed:
      return std::nullopt;  // held as an enum, a bool or an integer: always one of its values
  }
  return std::nullopt;
}

Problem set_option_number(const TrafficOption& option, double value, TrafficOptions& o) {
  switch (option.kind) {
    case ValueKind::Number:
    case ValueKind::Whole:
      if (!in_range(option, value)) return out_of_range(option);
      break;
    case ValueKind::Level:
      if (!is_level(option, value)) return not_one_of(option.label, option.choices, exact_number(value));
      break;
    case ValueKind::Switch:
      value = value != 0;
      break;
    case ValueKind::Choice:
      if (!(value >= 0 && value < static_cast<double>(option.choices.size())) || value != std::floor(value))
        return not_one_of(option.label, option.choices, exact_number(value));
      break;
    case ValueKind::Seed:
      if (!(value >= 0 && value <= 9007199254740991.0) || value != std::floor(value))
        return std::string(option.label) + " must be a whole number";
      option.seed(o) = static_cast<std::uint64_t>(value);
      return std::nullopt;
    case ValueKind::Fixed:
      return std::string(option.label) + " is not an option";
  }
  option.field.set(o, value);
  return std::nullopt;
}

Problem set_option_text(const TrafficOption& option, std::string_view text, TrafficOptions& o) {
  const std::string flag = option.flag ? option.flag : option.label;
  const auto takes = [&](const std::string& what) { return flag + " takes " + what + ", got " + quote(text); };
  switch (option.kind) {
    case ValueKind::Number: {
      double v = 0;
      if (!parse_real(std::string(text), v)) return takes("a number");
      return set_option_number(option, v, o);
    }
    case ValueKind::Whole: {
      std::uint64_t n = 0;
      if (!parse_whole(text, static_cast<std::uint64_t>(option.max), n) || static_cast<double>(n) < option.min)
        return takes("a whole number" + (*option.unit ? std::string(" of ") + option.unit : "") + " from " +
                     bound_text(option.min) + " to " + bound_text(option.max));
      option.field.set(o, static_cast<double>(n));
      return std::nullopt;
    }
    case ValueKind::Level: {
      double v = 0;
      if (!parse_real(std::string(text), v) || !is_level(option, v)) return not_one_of(option.label, option.choices, text);
      option.field.set(o, v);
      return std::nullopt;
    }
    case ValueKind::Choice:
      for (std::size_t i = 0; i < option.choices.size(); ++i)
        if (text == option.choices[i]) {
          option.field.set(o, static_cast<double>(i));
          return std::nullopt;
        }
      return not_one_of(option.label, option.choices, text);
    case ValueKind::Switch: {
      // The flag says the other way than the default: --service, --no-slow-start.
      const TrafficOptions defaults;
      option.field.set(o, option.field.get(defaults) == 0 ? 1 : 0);
      return std::nullopt;
    }
    case ValueKind::Seed:
      if (!parse_whole(text, std::numeric_limits<std::uint64_t>::max(), option.seed(o))) return takes("a whole number");
      return std::nullopt;
    case ValueKind::Fixed:
      return std::string(option.label) + " is not an option";
  }
  return std::nullopt;
}

std::string option_text(const TrafficOption& option, const TrafficOptions& o) {
  if (option.shown) return exact_number(option.shown(o));
  switch (option.kind) {
    case ValueKind::Number:
    case ValueKind::Whole:
    case ValueKind::Level:
      return exact_number(option.field.get(o));
    case ValueKind::Choice:
      return option.choices[static_cast<std::size_t>(option.field.get(o))];
    case ValueKind::Switch:
      return option.field.get(o) != 0 ? "true" : "false";
    case ValueKind::Seed:
      return std::to_string(option.seed(const_cast<TrafficOptions&>(o)));
    case ValueKind::Fixed:
      return option.fixed;
  }
  return "";
}

bool option_is_default(const TrafficOption& option, const TrafficOptions& o) {
  static const TrafficOptions defaults;
  switch (option.kind) {
    case ValueKind::Number:
    case ValueKind::Whole:
    case ValueKind::Level:
    case ValueKind::Choice:
    case ValueKind::Switch:
      return option.field.get(o) == option.field.get(defaults);
    case ValueKind::Seed:
      return option.seed(const_cast<TrafficOptions&>(o)) == option.seed(const_cast<TrafficOptions&>(defaults));
    case ValueKind::Fixed:
      return true;
  }
  return true;
}

Problem check_traffic_options(const TrafficOptions& o) {
  for (const TrafficOption& option : kTable)
    if (Problem p = check_option(option, o)) return p;
  if (o.timeout_ms > 0 && !o.service.enabled) return std::string("a timeout needs the service model");
  if (o.health.kind != HealthKind::None && o.timeout_ms == 0 &&
      !(o.health.kind == HealthKind::Nginx && o.health.unhealthy_latency_ms > 0))
    return std::string("health checks need failures: set a timeout");
  if (o.health.kind == HealthKind::Nginx && o.health.unhealthy_latency_ms > 0 && !o.service.enabled)
    return std::string("an unhealthy latency needs the service model");
  return std::nullopt;
}

std::string options_json(const TrafficOptions& o) {
  std::string j = "{";
  std::string_view object;  // the nested object open now ("service", "health"), or empty
  bool first = true;
  const auto key = [&](std::string_view name) {
    j += first ? "\"" : ", \"";
    first = false;
    j += name;
    j += "\": ";
  };
  for (const TrafficOption& option : kTable) {
    if (!option.json) continue;
    const std::string_view path = option.json;
    const std::size_t dot = path.find('.');
    const std::string_view parent = dot == std::string_view::npos ? std::string_view() : path.substr(0, dot);
    const std::string_view name = dot == std::string_view::npos ? path : path.substr(dot + 1);
    if (opens_object(option)) {
      // The service model is an object of its own, or null when it is off.
      if (option.field.get(o) == 0) key(name), j += "null";
      continue;
    }
    if (!option_applies(option, o) || (option.json_when_set && option_is_default(option, o))) continue;
    if (parent != object) {
      if (!object.empty()) j += "}";
      object = parent;
      if (!object.empty()) {
        key(object);
        j += "{";
        first = true;
      }
    }
    key(name);
    switch (option.kind) {
      case ValueKind::Choice:
      case ValueKind::Fixed:
        // Names hold no quote or backslash.
        j += '"';
        j += option_text(option, o);
        j += '"';
        break;
      case ValueKind::Number:
      case ValueKind::Whole:
      case ValueKind::Level:
      case ValueKind::Switch:
      case ValueKind::Seed:
        j += option_text(option, o);
        break;
    }
  }
  if (!object.empty()) j += "}";
  return j + "}";
}

std::vector<std::string> to_arguments(const TrafficOptions& o) {
  // --service only when no option that implies it is written.
  bool implied = false;
  for (const TrafficOption& option : kTable)
    if (option.flag && option.implies_service && option.kind != ValueKind::Switch && option_applies(option, o) &&
        !option_is_default(option, o))
      implied = true;
  std::vector<std::string> args;
  for (const TrafficOption& option : kTable) {
    if (!option.flag || !option_applies(option, o) || option_is_default(option, o)) continue;
    if (option.kind == ValueKind::Switch) {
      if (!(option.implies_service && implied)) args.emplace_back(option.flag);
      continue;
    }
    args.emplace_back(option.flag);
    args.push_back(option_text(option, o));
  }
  return args;
}

namespace {

// Appends `text` wrapped at 79 columns, every line but the first indented by `indent`.
void wrap(std::string& out, std::size_t column, std::size_t indent, std::string_view text) {
  constexpr std::size_t kWidth = 79;
  while (!text.empty()) {
    const std::size_t room = kWidth > column ? kWidth - column : 1;
    std::size_t cut = text.size();
    if (cut > room) {
      cut = text.rfind(' ', room);
      if (cut == std::string_view::npos || cut == 0) cut = text.find(' ');
      if (cut == std::string_view::npos) cut = text.size();
    }
    out += text.substr(0, cut);
    text.remove_prefix(cut);
    while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
    if (!text.empty()) {
      out += '\n';
      out.append(indent, ' ');
      column = indent;
    }
  }
  out += '\n';
}

// "(0 to 5; default 0)", "(wrr, ... or round-robin; default wrr)".
std::string range_and_default(const TrafficOption& option) {
  static const TrafficOptions defaults;
  std::string range;
  switch (option.kind) {
    case ValueKind::Number:
      if (!std::isinf(option.max))
        range = (option.above_min ? "above " : "") + bound_text(option.min) + " to " + bound_text(option.max);
      break;
    case ValueKind::Whole:
      range = bound_text(option.min) + " to " + bound_text(option.max);
      break;
    case ValueKind::Level:
    case ValueKind::Choice:
      range = one_of(option.choices);
      break;
    case ValueKind::Switch:
    case ValueKind::Fixed:
      return "";
    case ValueKind::Seed:
      break;
  }
  std::string value = *option.default_text ? option.default_text
                      : option.shown      ? exact_number(option.field.get(defaults))  // 0, not what it becomes
                                          : option_text(option, defaults);
  if (*option.zero && option.field.get(defaults) == 0) value += std::string(": ") + option.zero;
  return " (" + (range.empty() ? "" : range + "; ") + "default " + value + ")";
}

}  // namespace

std::string options_usage() {
  std::string out;
  bool any = false;
  OptionGroup group = OptionGroup::Load;
  for (const TrafficOption& option : kTable) {
    if (!any || option.group != group) {
      group = option.group;
      out += std::string(any ? "\n" : "") + name_of(group) + ":\n";
      any = true;
    }
    if (!option.flag) {  // a rule the model always applies
      out += "  (";
      wrap(out, 3, 3, std::string(option.help) + ")");
      continue;
    }
    std::string head = std::string("  ") + option.flag + (*option.metavar ? std::string(" ") + option.metavar : "");
    if (head.size() < 24) head.append(24 - head.size(), ' ');
    else head += "\n" + std::string(24, ' ');
    out += head;
    wrap(out, 24, 24, std::string(option.help) + range_and_default(option));
  }
  return out;
}

Problem set_workers(double workers, ServiceModel& service) {
  TrafficOptions o;
  o.service = service;
  if (Problem p = set_option_number(*find_option_by_key("service.workers"), workers, o)) return p;
  service.workers = o.service.workers;
  return std::nullopt;
}

Problem parse_policy(std::string_view text, Policy& out) { return parse_name(text, out); }
Problem parse_ramp_by(std::string_view text, RampBy& out) { return parse_name(text, out); }
Problem parse_health(std::string_view text, HealthKind& out) { return parse_name(text, out); }
Problem parse_warm_by(std::string_view text, WarmBy& out) { return parse_name(text, out); }
const char* policy_name(Policy policy) { return name_of(policy); }
const char* health_name(HealthKind kind) { return name_of(kind); }
const char* warm_by_name(WarmBy warm) { return name_of(warm); }

// Declared with the curves (traffic/curves.hpp); their ranges are the table's.
Problem parse_curve_kind(std::string_view text, CurveKind& out) { return parse_name(text, out); }

Problem set_resolution(double value, std::string_view shown, Curve& curve) {
  const TrafficOption& option = *find_option_by_key("curve.resolution");
  if (!is_level(option, value)) return not_one_of(option.label, option.choices, shown);
  curve.resolution = static_cast<std::int64_t>(value);
  return std::nullopt;
}

Problem check_curve(const Curve& curve) {
  TrafficOptions o;
  o.curve = curve;
  for (const TrafficOption& option : kTable) {
    if (!option.key || std::string_view(option.key).substr(0, 6) != "curve.") continue;
    if (Problem p = check_option(option, o)) return p;
  }
  return std::nullopt;
}

}  // namespace slowstart
