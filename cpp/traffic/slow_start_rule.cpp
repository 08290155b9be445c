#include "traffic/slow_start_rule.hpp"

namespace slowstart {

bool policy_ramps(const TrafficOptions& o) {
  const Policy p = o.policy;
  switch (o.curve.kind) {
    case CurveKind::HAProxy:  // H8: static-rr is not dynamic
      return p != Policy::RoundRobin;
    case CurveKind::Envoy:  // E6: round_robin and least_request only
      return p == Policy::SmoothWrr || p == Policy::LeastRequest;
    case CurveKind::Linear:
      switch (o.slow_start_rule) {
        case NginxRule::NginxPlus:  // N8: not with hash, ip_hash or random
          return p != Policy::Random && p != Policy::P2C;
        case NginxRule::NginxMod:  // N9: the round-robin scheduler
          return p == Policy::SmoothWrr;
      }
  }
  return false;
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
