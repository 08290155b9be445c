#include "system/emit_config.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>

#include "core/interpreter.hpp"
#include "system/alb_config.hpp"
#include "system/config_text.hpp"

namespace slowstart::system {

Problem parse_emit_format(std::string_view text, EmitFormat& out) {
  static constexpr std::pair<std::string_view, EmitFormat> kNames[] = {
      {"nginx", EmitFormat::Nginx}, {"nginx-plus", EmitFormat::NginxPlus}, {"haproxy", EmitFormat::HAProxy},
      {"envoy", EmitFormat::Envoy}, {"caddy", EmitFormat::Caddy},          {"alb", EmitFormat::Alb}};
  for (const auto& [name, f] : kNames)
    if (text == name) {
      out = f;
      return std::nullopt;
    }
  return "emit format must be nginx, nginx-plus, haproxy, envoy, caddy or alb, got " + quote(text);
}

namespace {

// A time as nginx, HAProxy and Caddy write it: "30s", or "1500ms".
std::string duration(double seconds) {
  const double ms = std::round(seconds * 1000);
  if (std::fmod(ms, 1000) == 0) return number_text(ms / 1000) + "s";
  return number_text(ms) + "ms";
}

// "host:port" from a name: the name itself when it has a port.
bool has_port(std::string_view name) {
  const std::size_t colon = name.rfind(':');
  return colon != std::string_view::npos && colon + 1 < name.size() &&
         std::all_of(name.begin() + static_cast<std::ptrdiff_t>(colon) + 1, name.end(), [](char c) { return c >= '0' && c <= '9'; });
}

struct Writer {
  std::string text;
  std::vector<std::string> notes;
  const char* comment = "# ";
  void line(const std::string& s) { text += s + '\n'; }
  void note(std::string s) { notes.push_back(std::move(s)); }
  std::string done(const std::string& title) const {
    std::string s = comment + title + '\n';
    for (const std::string& n : notes) s += comment + n + '\n';
    return s + text;
  }
};

const char* policy_word(Policy p) { return policy_name(p); }

// ---- nginx ---------------------------------------------------------------

std::string emit_nginx(const EmitInput& in, bool plus) {
  Writer w;
  const TrafficOptions& o = in.options;
  const HealthCheck& h = o.health;
  w.line("http {");
  w.line("    upstream " + in.pool + " {");
  // The lab's policy as it runs under these options (`least-conn` is the
  // balancer's own: names.hpp's resolve_policy).
  switch (resolve_policy(o.policy, h.kind)) {
    case Policy::SmoothWrr: break;
    case Policy::LeastConn:
    case Policy::NginxLeastConn: w.line("        least_conn;"); break;
    case Policy::CaddyLeastConn:
      w.line("        least_conn;");
      w.note("nginx's least_conn divides the connections by the weight and breaks ties by weighted round-robin "
             "(the lab's nginx-least-conn); Caddy's ignores weights");
      break;
    case Policy::HAProxyLeastConn:
      w.line("        least_conn;");
      w.note("nginx's least_conn weighs an idle server by its weight (the lab's nginx-least-conn); HAProxy's "
             "leastconn puts every idle server first");
      break;
    case Policy::StaticRr: w.note("nginx's round robin is weighted (the lab's wrr) and has no ramp to skip"); break;
    case Policy::P2C: w.line("        random two least_conn;"); break;
    case Policy::Random: w.line("        random;"); break;
    case Policy::LeastRequest:
      w.line("        least_conn;");
      w.note("nginx has no least-request: least_conn is nearest");
      break;
    case Policy::RoundRobin: w.note("nginx's round robin is weighted (the lab's wrr)"); break;
  }
  std::string params;
  if (h.kind == HealthKind::Nginx) params += " max_fails=" + std::to_string(h.max_fails) + " fail_timeout=" + duration(h.fail_timeout);
  else {
    params += " max_fails=0";
    if (h.kind != HealthKind::None) w.note(std::string("nginx's passive check is max_fails and fail_timeout: the lab's ") +
                                          health_name(h.kind) + " check has no nginx form (off here)");
  }
  if (in.slow_start > 0 && plus) params += " slow_start=" + duration(in.slow_start);
  if (in.slow_start > 0 && !plus)
    w.note("slow_start=" + duration(in.slow_start) + " needs NGINX Plus or nginx-mod (--emit nginx-plus): open-source nginx rejects it");
  for (const ImportedServer& s : in.servers)
    w.line("        server " + s.name + " weight=" + std::to_string(std::max<std::uint32_t>(1, s.weight)) + params +
           (s.down ? " down" : "") + ";");
  if (std::any_of(in.servers.begin(), in.servers.end(), [](const ImportedServer& s) { return s.weight == 0; }))
    w.note("nginx's weights start at 1: a weight of 0 became 1");
  w.line("    }");
  w.line("    server {");
  w.line("        location / {");
  w.line("            proxy_pass http://" + in.pool + ";");
  if (o.timeout_ms > 0) w.line("            proxy_read_timeout " + duration(o.timeout_ms / 1000) + ";");
  else w.note("no timeout in the lab: nginx's proxy_read_timeout is 60s by default");
  if (o.retries > 0) {
    w.line("            proxy_next_upstream error timeout;");
    w.line("            proxy_next_upstream_tries " + std::to_string(o.retries + 1) + ";");
    if (h.kind == HealthKind::Nginx && o.next_upstream_timeout_ms > 0)
      w.line("            proxy_next_upstream_timeout " + duration(o.next_upstream_timeout_ms / 1000) + ";");
  } else {
    w.line("            proxy_next_upstream off;");
  }
  w.line("        }");
  w.line("    }");
  w.line("}");
  return w.done(std::string("slowstart: the lab's options as ") + (plus ? "NGINX Plus (or nginx-mod)" : "nginx") +
                " configuration: merge the upstream and the location into yours");
}

// ---- HAProxy -------------------------------------------------------------

std::string emit_haproxy(const EmitInput& in) {
  Writer w;
  const TrafficOptions& o = in.options;
  const HealthCheck& h = o.health;
  w.line("defaults");
  w.line("    mode http");
  w.line("    timeout connect 5s");
  w.line("    timeout client 30s");
  if (o.timeout_ms > 0) w.line("    timeout server " + duration(o.timeout_ms / 1000));
  else w.note("no timeout in the lab: set timeout server (HAProxy warns without one)");
  if (o.retries > 0) {
    w.line("    retries " + std::to_string(o.retries));
    w.line("    retry-on conn-failure response-timeout");
    w.line("    option redispatch");
  } else {
    // The lab's 0 is "no timed-out request retried": `retries 0` would also
    // stop HAProxy retrying connection failures (its default, retries 3 with
    // retry-on conn-failure), so that a backend's restart, unseen by clients
    // behind the default, sends them its refused connections as 503s.
    w.note("retries: yours, or HAProxy's default (3, connection failures only): the lab retries no timed-out request");
  }
  w.line("backend " + in.pool);
  switch (resolve_policy(o.policy, h.kind)) {
    case Policy::SmoothWrr: w.line("    balance roundrobin"); break;
    case Policy::LeastConn:
    case Policy::HAProxyLeastConn: w.line("    balance leastconn"); break;
    case Policy::CaddyLeastConn:
    case Policy::NginxLeastConn:
      w.line("    balance leastconn");
      w.note(std::string("HAProxy's leastconn puts every idle server first, whatever its weight (the lab's "
                         "haproxy-leastconn): the nearest to ") + policy_word(resolve_policy(o.policy, h.kind)));
      break;
    case Policy::StaticRr: w.line("    balance static-rr"); break;
    case Policy::P2C: w.line("    balance random"); break;
    case Policy::Random: w.line("    balance random(1)"); break;
    case Policy::LeastRequest:
      w.line("    balance leastconn");
      w.note("HAProxy has no least-request: leastconn is nearest");
      break;
    case Policy::RoundRobin:
      w.line("    balance roundrobin");
      w.note("HAProxy's roundrobin is weighted (the lab's wrr)");
      break;
  }
  std::string defaults;
  if (h.kind == HealthKind::HAProxy) {
    defaults += " check observe layer7 error-limit " + std::to_string(h.error_limit) + " on-error " +
                name_of(h.on_error) + " inter " + duration(h.inter);
    if (h.fastinter > 0) defaults += " fastinter " + duration(h.fastinter);
    if (h.downinter > 0) defaults += " downinter " + duration(h.downinter);
    defaults += " rise " + std::to_string(h.rise) + " fall " + std::to_string(h.fall);
    if (h.legacy_fastinter) w.note("--legacy-fastinter is HAProxy before 2.8's rule: no configuration line chooses it");
  } else if (h.kind != HealthKind::None) {
    w.note(std::string("HAProxy's passive check is observe layer7 with error-limit: the lab's ") + health_name(h.kind) +
           " check has no HAProxy form (off here)");
  }
  if (in.slow_start > 0) defaults += " slowstart " + duration(in.slow_start);
  if (!defaults.empty()) w.line("    default-server" + defaults);
  for (const ImportedServer& s : in.servers)
    w.line("    server " + s.name + " " + (has_port(s.name) ? s.name : s.name + ":80") + " weight " +
           std::to_string(std::min<std::uint32_t>(256, s.weight)) + (s.down ? " disabled" : ""));
  if (std::any_of(in.servers.begin(), in.servers.end(), [](const ImportedServer& s) { return s.weight > 256; }))
    w.note("HAProxy's weights go to 256: higher ones became 256");
  return w.done("slowstart: the lab's options as HAProxy configuration (a defaults section and the backend)");
}

// ---- Envoy ---------------------------------------------------------------

// A name in double quotes: YAML types a bare null, true, 0x1F or 123 as no
// string, and Envoy wants one. Names are plain here (emit_config), so there is
// nothing to escape.
std::string quoted(const std::string& name) {
  return '"' + name + '"';
}

std::string emit_envoy(const EmitInput& in) {
  Writer w;
  const TrafficOptions& o = in.options;
  const HealthCheck& h = o.health;
  const Curve& c = o.curve;
  w.line("static_resources:");
  w.line("  listeners:");
  w.line("  - name: ingress");
  w.line("    address:");
  w.line("      socket_address: {address: 0.0.0.0, port_value: 8080}");
  w.line("    filter_chains:");
  w.line("    - filters:");
  w.line("      - name: envoy.filters.network.http_connection_manager");
  w.line("        typed_config:");
  w.line("          \"@type\": type.googleapis.com/envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager");
  w.line("          stat_prefix: ingress_http");
  w.line("          http_filters:");
  w.line("          - name: envoy.filters.http.router");
  w.line("            typed_config:");
  w.line("              \"@type\": type.googleapis.com/envoy.extensions.filters.http.router.v3.Router");
  w.line("          route_config:");
  w.line("            virtual_hosts:");
  w.line("            - name: all");
  w.line("              domains: [\"*\"]");
  w.line("              routes:");
  w.line("              - match: {prefix: \"/\"}");
  w.line("                route:");
  w.line("                  cluster: " + quoted(in.pool));
  const double timeout_s = o.timeout_ms / 1000;
  if (o.retries > 0 && o.timeout_ms > 0) {
    w.line("                  timeout: " + number_text(timeout_s * (o.retries + 1)) + "s");
    w.line("                  retry_policy:");
    w.line("                    retry_on: 5xx");
    w.line("                    num_retries: " + std::to_string(o.retries));
    w.line("                    per_try_timeout: " + number_text(timeout_s) + "s");
    // With --health envoy the lab retries as Envoy does (E15): on any host
    // unless --retry-other-host, after a back-off; without it, on another
    // host at once (previous_hosts, and the back-off's default).
    const bool envoy_retries = h.kind == HealthKind::Envoy;
    if (envoy_retries && o.retry_back_off_ms > 0 && o.retry_back_off_ms != TrafficOptions{}.retry_back_off_ms)
      w.line("                    retry_back_off: {base_interval: " + number_text(o.retry_back_off_ms / 1000.0) + "s}");
    if (envoy_retries && o.retry_back_off_ms == 0)
      w.note("a retry at once (--retry-back-off-ms 0) has no Envoy form: base_interval must be above 0 (Envoy's default 25ms here)");
    if (!envoy_retries || o.retry_other_host) {
      w.line("                    retry_host_predicate:");
      w.line("                    - name: envoy.retry_host_predicates.previous_hosts");
      w.line("                      typed_config:");
      w.line("                        \"@type\": type.googleapis.com/envoy.extensions.retry.host.previous_hosts.v3.PreviousHostsPredicate");
    }
  } else {
    w.line("                  timeout: " + number_text(timeout_s) + "s");
    if (o.timeout_ms == 0) w.note("no timeout in the lab: the route's timeout 0s turns Envoy's off");
  }
  w.line("  clusters:");
  w.line("  - name: " + quoted(in.pool));
  w.line("    connect_timeout: 1s");
  const bool least = o.policy == Policy::LeastRequest;
  w.line(std::string("    lb_policy: ") + (least ? "LEAST_REQUEST" : o.policy == Policy::Random ? "RANDOM" : "ROUND_ROBIN"));
  if (o.policy != Policy::SmoothWrr && o.policy != Policy::LeastRequest && o.policy != Policy::Random)
    w.note(std::string("Envoy has no ") + policy_word(o.policy) + ": ROUND_ROBIN");
  const bool slow = in.slow_start > 0 && o.policy != Policy::Random;
  if (in.slow_start > 0 && !slow) w.note("Envoy's slow start works with ROUND_ROBIN and LEAST_REQUEST only");
  if (slow || least) {
    w.line(std::string("    ") + (least ? "least_request_lb_config:" : "round_robin_lb_config:"));
    if (least) w.line("      active_request_bias: {default_value: " + number_text(o.bias) + ", runtime_key: " + quoted("upstream." + in.pool + ".bias") + "}");
    if (slow) {
      w.line("      slow_start_config:");
      w.line("        slow_start_window: " + number_text(in.slow_start) + "s");
      w.line("        aggression: {default_value: " + number_text(c.aggression) + ", runtime_key: " + quoted("upstream." + in.pool + ".aggression") + "}");
      w.line("        min_weight_percent: {value: " + number_text(c.min_weight_percent) + "}");
    }
  }
  // The options in force (the file's, and the command line's over them):
  // Envoy's own defaults (a panic threshold of 50 %, 3 retries in flight)
  // are left out unless the file wrote them.
  const TrafficOptions defaults;
  const bool envoy_check = h.kind == HealthKind::Envoy;
  const double panic = in.panic_threshold >= 0 ? in.panic_threshold
                       : envoy_check && h.panic_threshold != defaults.health.panic_threshold ? h.panic_threshold
                                                                                               : -1;
  if (panic >= 0) w.line("    common_lb_config: {healthy_panic_threshold: {value: " + number_text(panic) + "}}");
  if (envoy_check && (o.retry_budget || o.max_retries_in_flight != defaults.max_retries_in_flight)) {
    w.line("    circuit_breakers:");
    w.line("      thresholds:");
    w.line("      - priority: DEFAULT");
    if (o.retry_budget) {
      w.line("        retry_budget:");
      w.line("          budget_percent: {value: " + number_text(o.retry_budget_percent) + "}");
      w.line("          min_retry_concurrency: " + std::to_string(o.min_retry_concurrency));
    } else {
      w.line("        max_retries: " + std::to_string(o.max_retries_in_flight));
    }
  }
  if (envoy_check) {
    w.line("    outlier_detection:");
    w.line("      consecutive_5xx: " + std::to_string(h.consecutive_5xx));
    w.line("      interval: " + number_text(h.interval) + "s");
    w.line("      base_ejection_time: " + number_text(h.base_ejection_time) + "s");
    w.line("      max_ejection_time: " + number_text(h.max_ejection_time) + "s");
    w.line("      max_ejection_percent: " + number_text(h.max_ejection_percent));
    if (h.always_eject_one_host) w.line("      always_eject_one_host: true");
  } else if (h.kind != HealthKind::None) {
    w.note(std::string("Envoy's passive check is outlier_detection: the lab's ") + health_name(h.kind) +
           " check has no Envoy form (off here)");
  }
  w.line("    load_assignment:");
  w.line("      cluster_name: " + quoted(in.pool));
  w.line("      endpoints:");
  w.line("      - lb_endpoints:");
  for (const ImportedServer& s : in.servers) {
    const std::size_t colon = s.name.rfind(':');
    const bool port = has_port(s.name);
    w.line("        - endpoint:");
    w.line("            hostname: \"" + s.name + "\"");
    w.line("            address: {socket_address: {address: \"" + (port ? s.name.substr(0, colon) : s.name) +
           "\", port_value: " + (port ? s.name.substr(colon + 1) : "80") + "}}");
    w.line("          load_balancing_weight: " + std::to_string(std::max<std::uint32_t>(1, s.weight)));
    if (s.down) w.line("          health_status: DRAINING");
  }
  return w.done("slowstart: the lab's options as an Envoy v3 bootstrap's route and cluster");
}

// ---- Caddy ---------------------------------------------------------------

std::string emit_caddy(const EmitInput& in) {
  Writer w;
  const TrafficOptions& o = in.options;
  const HealthCheck& h = o.health;
  std::string to;
  for (const ImportedServer& s : in.servers) to += " " + s.name;
  w.line(":8080 {");
  w.line("\treverse_proxy" + to + " {");
  bool weighted = std::any_of(in.servers.begin(), in.servers.end(), [&](const ImportedServer& s) { return s.weight != in.servers.front().weight; });
  switch (resolve_policy(o.policy, h.kind)) {
    case Policy::StaticRr:
    case Policy::SmoothWrr: {
      std::string weights;
      for (const ImportedServer& s : in.servers) weights += " " + std::to_string(std::max<std::uint32_t>(1, s.weight));
      w.line("\t\tlb_policy weighted_round_robin" + weights);
      weighted = false;
      break;
    }
    case Policy::Random: w.line("\t\tlb_policy random"); break;
    case Policy::RoundRobin: w.line("\t\tlb_policy round_robin"); break;
    case Policy::LeastConn:
    case Policy::CaddyLeastConn: w.line("\t\tlb_policy least_conn"); break;
    case Policy::NginxLeastConn:
    case Policy::HAProxyLeastConn:
      w.line("\t\tlb_policy least_conn");
      w.note(std::string("Caddy's least_conn ignores weights (the lab's caddy-least-conn): the nearest to ") +
             policy_word(resolve_policy(o.policy, h.kind)));
      break;
    case Policy::P2C: w.line("\t\tlb_policy random_choose 2"); break;
    case Policy::LeastRequest:
      w.line("\t\tlb_policy least_conn");
      w.note("Caddy has no least-request: least_conn is nearest");
      break;
  }
  if (weighted) w.note("Caddy weighs upstreams only with weighted_round_robin: the weights are not written");
  if (o.retries > 0) w.line("\t\tlb_retries " + std::to_string(o.retries));
  if (h.kind == HealthKind::Nginx) {
    w.line("\t\tfail_duration " + duration(h.fail_timeout));
    w.line("\t\tmax_fails " + std::to_string(h.max_fails));
    if (h.unhealthy_latency_ms > 0) w.line("\t\tunhealthy_latency " + duration(h.unhealthy_latency_ms / 1000));
  } else if (h.kind != HealthKind::None) {
    w.note(std::string("Caddy's passive check is max_fails within fail_duration: the lab's ") + health_name(h.kind) +
           " check has no Caddy form (off here)");
  }
  if (in.slow_start > 0) {
    w.line("\t\t# the proposal's (\"reverse_proxy: slow-start warm-up\"): no Caddy release has it yet");
    w.line("\t\tlb_slow_start " + duration(in.slow_start));
  }
  if (o.timeout_ms > 0) {
    w.line("\t\ttransport http {");
    w.line("\t\t\tresponse_header_timeout " + duration(o.timeout_ms / 1000));
    w.line("\t\t}");
  }
  w.line("\t}");
  w.line("}");
  return w.done("slowstart: the lab's options as a Caddyfile site's reverse_proxy");
}

// ---- ALB -----------------------------------------------------------------

std::string emit_alb(const EmitInput& in) {
  Writer w;
  const TrafficOptions& o = in.options;
  double slow = std::ceil(in.slow_start);
  if (slow > 0 && slow < kAlbMinSlowStart) {
    w.note("an ALB's slow start is 30 to 900 s: " + number_text(slow) + " s became 30 s (a longer ramp is gentler)");
    slow = kAlbMinSlowStart;
  } else if (slow > kAlbMaxSlowStart) {
    w.note("an ALB's slow start is 30 to 900 s: " + number_text(slow) + " s became 900 s, shorter than recommended");
    slow = kAlbMaxSlowStart;
  }
  std::string algorithm = "round_robin";
  switch (o.policy) {
    case Policy::LeastConn:
    case Policy::CaddyLeastConn:
    case Policy::NginxLeastConn:
    case Policy::HAProxyLeastConn:
    case Policy::LeastRequest:
    case Policy::P2C: algorithm = "least_outstanding_requests"; break;
    case Policy::Random: algorithm = "weighted_random"; break;
    case Policy::SmoothWrr:
    case Policy::RoundRobin:
    case Policy::StaticRr: break;
  }
  if (o.policy == Policy::LeastRequest || o.policy == Policy::P2C)
    w.note(std::string("an ALB has no ") + policy_word(o.policy) + ": least_outstanding_requests is nearest");
  // AWS refuses the pair (the target group attributes' "Routing algorithm"
  // and "Slow start mode": no slow start with least outstanding requests),
  // so the command would fail: the algorithm is kept, slow start is off, and
  // the other choice is said.
  if (slow > 0 && algorithm == "least_outstanding_requests") {
    w.note("AWS does not allow slow start with least_outstanding_requests: slow start is off here (Value=0); for the " +
           number_text(slow) + " s ramp instead, set load_balancing.algorithm.type to round_robin and "
           "slow_start.duration_seconds to " + number_text(slow));
    slow = 0;
  }
  if (std::any_of(in.servers.begin(), in.servers.end(), [&](const ImportedServer& s) { return s.weight != in.servers.front().weight; }))
    w.note("an ALB's targets have no weights: every target gets an equal share");
  if (o.health.kind != HealthKind::None) w.note("an ALB's health checks are active only: no passive check is written");
  if (o.retries > 0) w.note("an ALB does not retry a timed-out request");
  w.line("aws elbv2 modify-target-group-attributes --target-group-arn \"$TARGET_GROUP_ARN\" \\");
  w.line("  --attributes Key=slow_start.duration_seconds,Value=" + number_text(slow) +
         " Key=load_balancing.algorithm.type,Value=" + algorithm);
  if (o.timeout_ms > 0) {
    const double seconds = std::clamp(std::ceil(o.timeout_ms / 1000), 1.0, 4000.0);
    if (seconds * 1000 != o.timeout_ms) w.note("an ALB's idle timeout is whole seconds, 1 to 4000: " + number_text(seconds) + " s");
    w.line("aws elbv2 modify-load-balancer-attributes --load-balancer-arn \"$LOAD_BALANCER_ARN\" \\");
    w.line("  --attributes Key=idle_timeout.timeout_seconds,Value=" + number_text(seconds));
  }
  if (!in.servers.empty()) {
    std::string targets;
    for (const ImportedServer& s : in.servers) {
      const std::size_t colon = s.name.rfind(':');
      targets += has_port(s.name) ? " Id=" + s.name.substr(0, colon) + ",Port=" + s.name.substr(colon + 1) : " Id=" + s.name;
    }
    w.line("aws elbv2 register-targets --target-group-arn \"$TARGET_GROUP_ARN\" \\");
    w.line("  --targets" + targets);
  }
  return w.done("slowstart: the lab's options as an AWS ALB target group (the AWS CLI)");
}

// The script's first POOL and the DOWNs right after it (before any NOW).
class PoolSink : public ScriptSink {
 public:
  void output(std::uint64_t, std::string_view) override {}
  void diagnostic(std::uint64_t, std::string_view, Span) override {}
  void applied(std::uint64_t line, const Command& cmd, const Pool& pool) override {
    if (done) return;
    if (cmd.op == Op::Pool && servers.empty()) {
      for (std::size_t i = 0; i < pool.size(); ++i)
        servers.push_back(ImportedServer{std::string(pool.backend(i).name), static_cast<std::uint32_t>(pool.backend(i).target),
                                         false, static_cast<std::uint32_t>(line)});
    } else if (cmd.op == Op::Down && !servers.empty()) {
      for (ImportedServer& s : servers)
        if (s.name == cmd.name) s.down = true;
    } else if (cmd.op == Op::Now || cmd.op == Op::Add || cmd.op == Op::Up) {
      done = !servers.empty();
    }
  }
  std::vector<ImportedServer> servers;
  bool done = false;
};

}  // namespace

std::vector<ImportedServer> script_pool(std::string_view script) {
  PoolSink sink;
  Interpreter in(sink);
  in.feed_text(script);
  in.finish();
  return sink.servers;
}

// What the lab runs under these options that no configuration text says
// (comments after the title, so that nothing is dropped without a word).
static std::vector<std::string> lab_only(EmitFormat format, const EmitInput& in) {
  std::vector<std::string> out;
  const TrafficOptions& o = in.options;
  if (o.ramp_by == RampBy::Skip)
    out.push_back("the skip decorator (--ramp-by skip: a warming host left out with probability 1 - its ramp) is the "
                  "lab's: no configuration says it (read back, the ramp scales)");
  if ((format == EmitFormat::Nginx || format == EmitFormat::NginxPlus) && in.slow_start > 0 && o.curve.kind == CurveKind::Linear &&
      o.slow_start_rule == NginxRule::NginxMod)
    out.push_back("nginx-mod's rule (--slow-start-rule nginx-mod: a ramp at start and every reload, never after a "
                  "recovery) has NGINX Plus's slow_start= text: read back, the rule is NGINX Plus's");
  if (format != EmitFormat::Caddy && o.health.kind == HealthKind::Nginx && o.health.unhealthy_latency_ms > 0)
    out.push_back("an unhealthy latency (--unhealthy-latency-ms " + number_text(o.health.unhealthy_latency_ms) +
                  ": a slow answer counted as a failure) is Caddy's unhealthy_latency: this format has none (read "
                  "back, only a timeout fails)");
  return out;
}

std::string emit_config(EmitFormat format, const EmitInput& given) {
  // Names every format takes as they are: letters, digits and . _ - (and a
  // server's : before its port; a pool's name is no address: nginx would read
  // "proxy_pass http://app:;" as a port, and Envoy's YAML "app:" as a key).
  EmitInput in = given;
  const auto plain = [](std::string name, const char* fallback, bool colon) {
    for (char& c : name)
      if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || (colon && c == ':') || c == '-')) c = '_';
    return name.empty() ? std::string(fallback) : name;
  };
  in.pool = plain(in.pool, "backend", false);
  // Unique as every format needs them ("a-2" for a second "a": script_name's
  // "a#2" would start a comment in nginx, HAProxy and Caddy).
  std::vector<std::string> taken;
  for (ImportedServer& s : in.servers) {
    const std::string name = plain(s.name, "server", true);
    s.name = name;
    for (int k = 2; std::find(taken.begin(), taken.end(), s.name) != taken.end(); ++k) s.name = name + "-" + std::to_string(k);
    taken.push_back(s.name);
  }
  std::string text;
  switch (format) {
    case EmitFormat::Nginx: text = emit_nginx(in, false); break;
    case EmitFormat::NginxPlus: text = emit_nginx(in, true); break;
    case EmitFormat::HAProxy: text = emit_haproxy(in); break;
    case EmitFormat::Envoy: text = emit_envoy(in); break;
    case EmitFormat::Caddy: text = emit_caddy(in); break;
    case EmitFormat::Alb: text = emit_alb(in); break;
  }
  // After the title line (every format's comments start with "# ").
  std::string more;
  for (const std::string& n : lab_only(format, in)) more += "# " + n + '\n';
  const std::size_t first = text.find('\n');
  return first == std::string::npos ? text : text.insert(first + 1, more);
}

}  // namespace slowstart::system
