#include "traffic/slow_start_rule.hpp"

namespace slowstart {

namespace {

// Whether `balancer` ramps under the (resolved) policy `p`.
//   HAProxy: every dynamic algorithm, not static-rr (H8);
//   Envoy: round_robin and least_request only (E6);
//   NGINX Plus: not with random (nor hash, ip_hash: not modelled) (N8);
//   nginx-mod: the round-robin scheduler only (N9).
bool ramps_under(CurveKind curve, NginxRule rule, Policy p) {
  switch (p) {
    case Policy::SmoothWrr:
      return true;
    case Policy::StaticRr:
      return curve != CurveKind::HAProxy;
    case Policy::LeastRequest:
      return curve != CurveKind::Linear || rule == NginxRule::NginxPlus;
    case Policy::Random:
    case Policy::P2C:
      return curve == CurveKind::HAProxy;
    case Policy::LeastConn:  // resolved before (resolve_policy)
    case Policy::RoundRobin:
    case Policy::CaddyLeastConn:
    case Policy::NginxLeastConn:
    case Policy::HAProxyLeastConn:
      return curve == CurveKind::HAProxy || (curve == CurveKind::Linear && rule == NginxRule::NginxPlus);
  }
  return false;
}

}  // namespace

bool policy_ramps(const TrafficOptions& o) {
  return ramps_under(o.curve.kind, o.slow_start_rule, resolve_policy(o.policy, o.health.kind));
}

const char* rule_name(const TrafficOptions& o) {
  switch (o.curve.kind) {
    case CurveKind::HAProxy: return "haproxy";
    case CurveKind::Envoy: return "envoy";
    case CurveKind::Linear: return name_of(o.slow_start_rule);
  }
  return "";
}

namespace {

RampDecision haproxy(Entry e) {
  switch (e) {
    case Entry::Start:
    case Entry::Reload:
      return RampDecision::None;  // H9: servers start RUNNING
    case Entry::Add:
    case Entry::Up:
    case Entry::CheckRecovery:
    case Entry::PassiveReturn:
      return RampDecision::Ramp;  // H9: leaving maintenance, leaving DOWN
  }
  return RampDecision::None;
}

RampDecision envoy(Entry e) {
  switch (e) {
    case Entry::Start:
    case Entry::Add:
    case Entry::Up:
    case Entry::CheckRecovery:
      return RampDecision::Ramp;  // E7: a new host, or an active check's recovery
    case Entry::Reload:
      return RampDecision::Keep;  // the same host, kept by the update
    case Entry::PassiveReturn:
      return RampDecision::None;  // E7: never after an outlier ejection
  }
  return RampDecision::None;
}

RampDecision nginx_plus(Entry e) {
  switch (e) {
    case Entry::Start:
    case Entry::Reload:
      return RampDecision::None;  // N8: only a server that becomes available again
    case Entry::Add:
    case Entry::Up:
    case Entry::CheckRecovery:
    case Entry::PassiveReturn:
      return RampDecision::Ramp;
  }
  return RampDecision::None;
}

RampDecision nginx_mod(Entry e) {
  switch (e) {
    case Entry::Start:
    case Entry::Reload:
    case Entry::Add:
      return RampDecision::Ramp;  // N9: from the peer's creation, every reload
    case Entry::Up:
    case Entry::CheckRecovery:
    case Entry::PassiveReturn:
      return RampDecision::None;
  }
  return RampDecision::None;
}

}  // namespace

RampDecision balancer_ramps(const TrafficOptions& o, Entry entry) {
  if (!policy_ramps(o)) return RampDecision::None;
  switch (o.curve.kind) {
    case CurveKind::HAProxy: return haproxy(entry);
    case CurveKind::Envoy: return envoy(entry);
    case CurveKind::Linear:
      switch (o.slow_start_rule) {
        case NginxRule::NginxPlus: return nginx_plus(entry);
        case NginxRule::NginxMod: return nginx_mod(entry);
      }
  }
  return RampDecision::None;
}

}  // namespace slowstart
