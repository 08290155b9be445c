#include "traffic/budget.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "fast/decimal.hpp"

namespace slowstart {

std::string count_text(double n) {
  if (n == std::floor(n) && std::fabs(n) < 1e15) return decimal(static_cast<std::int64_t>(n));
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2g", n);
  return buf;
}

std::string rough_text(double n) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2g", n);
  return buf;
}

bool picks_scan(const TrafficOptions& o) {
  if (o.ramp_by == RampBy::Skip) return true;
  switch (o.policy) {
    case Policy::SmoothWrr:
    case Policy::LeastRequest:
    case Policy::StaticRr:
      return false;
    case Policy::Random:
    case Policy::P2C:
    case Policy::LeastConn:
    case Policy::RoundRobin:
    case Policy::CaddyLeastConn:
    case Policy::NginxLeastConn:
    case Policy::HAProxyLeastConn:
      return true;
  }
  return true;
}

ScenarioSize size_of(const TrafficOptions& o, const ScriptFacts& script) {
  ScenarioSize s;
  s.duration = o.duration == 0 ? script.end + 10.0 : o.duration;
  s.requests = std::ceil(s.duration * o.rps);
  s.backends = static_cast<double>(script.backends);
  s.name_bytes = static_cast<double>(script.name_bytes);
  s.buckets = std::max(1.0, std::ceil(s.duration / o.bucket));
  s.cells = s.buckets * s.backends;
  s.scans = picks_scan(o);
  const bool one_by_one = s.scans || o.service.enabled || o.policy == Policy::LeastRequest;
  s.steps_per_request =
      (one_by_one ? kStepsPerAttempt : kStepsPerRoutedRequest) + (s.scans ? kStepsPerScanned * s.backends : 0);
  if (o.health.kind == HealthKind::Envoy) s.sweeps = std::floor(s.duration / o.health.interval);
  const double samples = o.service.enabled ? std::min(s.buckets * 10, s.requests) * s.backends : 0;
  s.steps = s.requests * s.steps_per_request + s.sweeps * kStepsPerScanned * s.backends + samples +
            s.cells * kStepsPerCell + static_cast<double>(script.bytes) * kStepsPerScriptByte;
  return s;
}

Problem script_too_large(std::size_t bytes) {
  if (bytes <= kMaxScriptBytes) return std::nullopt;
  return "script too large: more than " + count_text(static_cast<double>(kMaxScriptBytes)) + " bytes (at most " +
         count_text(static_cast<double>(kMaxScriptBytes)) + ")";
}

Problem over_budget(const ScenarioSize& s, const TrafficOptions& o) {
  if (!(s.requests <= kMaxSimRequests))
    return "simulation too large: " + count_text(s.requests) + " requests (at most " + count_text(kMaxSimRequests) +
           "); lower rps or duration";
  if (!(s.cells <= kMaxSimCells))
    return "simulation too large: " + count_text(s.buckets) + " buckets x " + count_text(s.backends) +
           " backends = " + count_text(s.cells) + " rows (at most " + count_text(kMaxSimCells) +
           "); widen the bucket";
  if (!(s.steps <= kMaxWorkSteps)) {
    // Say what makes it large: the sweeps, the scans, or the requests themselves.
    std::string why;
    const double sweep_steps = s.sweeps * kStepsPerScanned * s.backends;
    if (sweep_steps > s.requests * s.steps_per_request)
      why = count_text(s.sweeps) + " sweeps of Envoy's check (duration / interval) over " + count_text(s.backends) +
            " backends; lengthen the interval or shorten the duration";
    else if (s.scans)
      why = count_text(s.requests) + " requests, each a pick that looks at all " + count_text(s.backends) +
            " backends (" + name_of(o.policy) + (o.ramp_by == RampBy::Skip ? ", ramp-by skip" : "") +
            "); lower rps or duration, use fewer backends, or wrr or least-request";
    else
      why = count_text(s.requests) + " requests at " + rough_text(s.steps_per_request) +
            " steps each; lower rps or duration";
    return "simulation too large: about " + rough_text(s.steps) + " steps of work (at most " +
           rough_text(kMaxWorkSteps) + "): " + why;
  }
  return std::nullopt;
}

namespace {
std::string seconds_text(double t) {
  char buf[40];
  std::snprintf(buf, sizeof buf, t < 1e15 ? "%.3f" : "%.3g", t);
  return buf;
}
}  // namespace

std::string work_overrun(double limit, double t, double duration) {
  return "simulation too large: more than " + rough_text(limit) + " steps of work by " + seconds_text(t) +
         " s of " + seconds_text(duration) +
         " s (retries, health checks and ramps add to the requests' own); lower rps or duration";
}

std::string in_flight_overrun(double limit, double t) {
  return "simulation too large: more than " + count_text(limit) +
         " requests in flight or waiting for a worker at once (at " + seconds_text(t) +
         " s); set a timeout, or lower rps or the service time";
}

std::string latency_bins_overrun(double limit, double t) {
  return "simulation too large: more than " + count_text(limit) + " latency histogram bins held at once (at " +
         seconds_text(t) + " s: the open buckets' and every backend's over the run); use fewer backends, " +
         "narrow the bucket, or set a timeout";
}

}  // namespace slowstart
