// The Traffic lab's options as C++ holds them. Every option's flag, API key,
// JSON key, default, range and help text are in one table
// (traffic/option_table.hpp): the CLI, the API, `--summary json` and the
// checks all read and write these structs through it. The defaults here are
// the table's defaults.
#pragma once
#include <cstdint>

#include "traffic/curves.hpp"
#include "traffic/names.hpp"

namespace slowstart {

// A health check's shortest interval, and shortest ejection, in seconds: a
// timer that fires every 1e-300 s would never let the clock move (`t + interval == t`).
inline constexpr double kMinInterval = 0.001;

struct HealthCheck {
  HealthKind kind = HealthKind::None;
  // nginx (ngx_http_upstream_module `server`): max_fails failures make the
  // server unavailable for fail_timeout seconds (whole seconds, nginx's clock).
  std::uint32_t max_fails = 1;
  double fail_timeout = 10;
  // Caddy's passive check, which the lab reads as nginx's (`unhealthy_latency`,
  // docs/proxy-rules.md C1): an answer that took at least this many ms counts
  // as a failure toward max_fails, though the client gets it; 0: only a
  // timeout fails.
  double unhealthy_latency_ms = 0;
  // HAProxy (`server ... check observe layer7 error-limit N on-error MODE
  // inter T fastinter F downinter D rise R fall L`; docs/proxy-rules.md
  // H1-H7, the model in health_haproxy.hpp): error_limit consecutive errors
  // run on_error; the health counter takes `fall` failed checks to go DOWN
  // and `rise` passing ones to come back; checks every `inter` seconds at the
  // top, `fastinter` in transition, `downinter` while DOWN (0: as inter).
  // check_ms: how long a check takes (H6). legacy_fastinter: HAProxy before 2.8's forced check after an on-error
  // event (now + fastinter, whatever the state; no flag kept).
  std::uint32_t error_limit = 10;
  OnError on_error = OnError::FailCheck;
  double inter = 2;
  double fastinter = 0;
  double downinter = 0;
  std::uint32_t rise = 2;
  std::uint32_t fall = 3;
  bool legacy_fastinter = false;
  // How long an active check takes (its result comes then; the next starts
  // an interval after it): about 3 ms on 127.0.0.1 in the recorded runs.
  double check_ms = 3;
  // Envoy (cluster outlier_detection): consecutive_5xx in a row eject it for
  // base_ejection_time x (times ejected), at most max_ejection_time; sweeps
  // every `interval`; an ejection only while (ejected + 1) / hosts stays
  // within max_ejection_percent (Envoy 1.28+, docs/proxy-rules.md E1), or
  // when none is out and always_eject_one_host is set (1.31+, E2);
  // legacy_ejection_percent: the rule before 1.28 (the share before the
  // ejection below the limit; the first ejection always allowed).
  std::uint32_t consecutive_5xx = 5;
  double interval = 10;
  double base_ejection_time = 30;
  double max_ejection_time = 300;
  double max_ejection_percent = 10;
  bool always_eject_one_host = false;
  bool legacy_ejection_percent = false;
  // Envoy's healthy_panic_threshold (E3): below this percent of hosts healthy
  // the balancer picks among all hosts, ejected ones included; 0: never.
  double panic_threshold = 50;
  // Envoy: a host back from an outlier ejection gets its full weight at once
  // (slow start counts from its join, or from an active check's recovery:
  // E7); ramp_after_ejection ramps it as if an active check had readmitted it.
  bool ramp_after_ejection = false;
  // Envoy's success-rate and failure-percentage detection, at each sweep over
  // the interval just ended (docs/proxy-rules.md E10, E11; the rule in
  // health_envoy.hpp): the hosts with at least the request volume count if
  // there are at least the minimum hosts of them; success rate ejects those
  // below mean - stdev_factor / 1000 x the standard deviation, failure
  // percentage those failing at least the threshold percent. Enforcing: the
  // percent chance that a detected outlier is ejected (Envoy's
  // enforcing_success_rate 100, enforcing_failure_percentage 0).
  std::uint32_t success_rate_minimum_hosts = 5;
  std::uint32_t success_rate_request_volume = 100;
  std::uint32_t success_rate_stdev_factor = 1900;
  std::uint32_t enforcing_success_rate = 100;
  std::uint32_t failure_percentage_threshold = 85;
  std::uint32_t failure_percentage_minimum_hosts = 5;
  std::uint32_t failure_percentage_request_volume = 50;
  std::uint32_t enforcing_failure_percentage = 0;
};

// The most workers one backend may have (the service model keeps a slot per worker).
inline constexpr std::uint32_t kMaxWorkers = 10'000;

struct ServiceModel {
  bool enabled = false;       // off: routing only (no latency, no outstanding)
  double base_ms = 200.0;     // a warm backend's service time
  double cold_factor = 5.0;   // service time multiplier the moment it joins
  double warmup = 30.0;       // seconds to decay linearly to base_ms
  std::uint32_t workers = 128;  // requests a backend serves at once (FIFO queue beyond)
  WarmBy warm_by = WarmBy::Serving;
  double warmup_requests = 10'000;  // WarmBy::Requests: requests to warm up
};

// The most retries of one request: nginx's default `proxy_next_upstream_tries 0`
// tries every server of the upstream once, so an upstream of up to 101 servers
// is modelled as nginx has it (a larger one is capped, with a note).
inline constexpr std::uint32_t kMaxRetries = 100;

struct TrafficOptions {
  double rps = 1000.0;      // requests per second
  double duration = 0.0;    // seconds from 0; 0 = until 10 s after the last ramp ends
  double bucket = 1.0;      // width of a reporting bucket, seconds
  Curve curve;              // weights: linear / envoy / haproxy at a resolution
  Policy policy = Policy::SmoothWrr;
  bool slow_start = true;   // false: ramps are ignored (full weight at once)
  // --slow-start S: every backend's window, whole seconds, on each join or
  // recovery the balancer's rule ramps (traffic/slow_start_rule.hpp), the
  // script's ADD and UP ramps not used; 0: the script's ramps, as written.
  double slow_start_window = 0;
  NginxRule slow_start_rule = NginxRule::NginxPlus;  // whose rule the linear curve follows
  double bias = 1.0;        // least-request's active-request bias (its weighted path)
  // least-request with equal weights and no host in slow start: the hosts
  // drawn for each pick (Envoy's choice_count; docs/proxy-rules.md E4).
  std::uint32_t choice_count = 2;
  ServiceModel service;
  // A request whose latency would pass timeout_ms fails at that moment (the
  // proxy gives up; the backend still does the work) and is retried on another
  // backend up to `retries` times. 0: no timeout. Needs the service model.
  double timeout_ms = 0;
  std::uint32_t retries = 0;
  // nginx's proxy_next_upstream_timeout (docs/proxy-rules.md N7): no further
  // server is tried once this long has passed since the first attempt; 0: no
  // limit. With --health nginx.
  double next_upstream_timeout_ms = 0;
  // Envoy's retry circuit breaker (the cluster's max_retries, 3): at most this
  // many retries in flight at once; a retry past it is not made and the
  // failure reaches the client (docs/proxy-rules.md E13). With --health envoy.
  std::uint32_t max_retries_in_flight = 3;
  // Envoy's retry budget (E14; CircuitBreakers.Thresholds.RetryBudget): when
  // on, it replaces max_retries_in_flight: retries in flight may be
  // retry_budget_percent of the requests in flight, never fewer than
  // min_retry_concurrency. With --health envoy.
  bool retry_budget = false;
  double retry_budget_percent = 20;
  std::uint32_t min_retry_concurrency = 3;
  // Envoy's route retry policy (E15): a retry waits a fully jittered
  // exponential back-off (base retry_back_off_ms, at most 10 x base; 0: at
  // once, the lab before), and may land on a host the request tried already
  // unless retry_other_host (Envoy's previous_hosts retry predicate; the lab
  // before, and nginx's and HAProxy's rule). With --health envoy; without it
  // a retry goes at once to another backend.
  std::uint32_t retry_back_off_ms = 25;
  bool retry_other_host = false;
  HealthCheck health;
  RampBy ramp_by = RampBy::Scale;
  std::uint64_t seed = 1;          // random, p2c, least-conn ties, the skip decorator
  double stable_margin = 50;       // percent above the warm service time that still counts as stable
};

}  // namespace slowstart
