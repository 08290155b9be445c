// --emit (cpp/system/emit_config.*): the lab's options written as each
// proxy's configuration, read back with the same readers as --from. Each
// round trip starts from options worked out by hand for what the format can
// say, and expects exactly them back; what a format cannot say is expected
// in the comments (and not back). Then the commands as users run them:
// simulate --from ... --emit, overrides on the command line, recommend
// --emit, and bad formats.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "system/emit_config.hpp"
#include "system/import_config.hpp"
#include "system/recommend_command.hpp"
#include "system/simulate_from.hpp"

namespace slowstart::system {
namespace emit_test {

ImportedConfig read_back(const std::string& text, ConfigFormat format) {
  ImportedConfig c;
  ConfigError e;
  EXPECT_TRUE(import_config(text, format, {}, c, e)) << e.line << ":" << e.column << ": " << e.message << "\n" << text;
  return c;
}

std::string option(const ImportedConfig& c, std::string_view name) {
  const ImportedSetting* s = c.find(name);
  return s ? s->value : "(unset)";
}

// A pool of three: a and b weigh 3, c weighs 1 and starts down.
EmitInput three(std::string pool = "api") {
  EmitInput in;
  in.pool = std::move(pool);
  in.servers = {{"10.0.0.1:8080", 3, false, 1}, {"10.0.0.2:8080", 3, false, 2}, {"10.0.0.3:8080", 1, true, 3}};
  in.options.timeout_ms = 1500;
  in.options.retries = 1;
  return in;
}

bool has(const std::string& text, std::string_view part) { return text.find(part) != std::string::npos; }

TEST(SystemEmit, NginxPlusRoundTrip) {
  EmitInput in = three("checkout");
  in.options.policy = Policy::LeastConn;
  in.options.health.kind = HealthKind::Nginx;
  in.options.health.max_fails = 3;
  in.options.health.fail_timeout = 20;
  in.slow_start = 45;
  const std::string text = emit_config(EmitFormat::NginxPlus, in);
  EXPECT_TRUE(has(text, "server 10.0.0.1:8080 weight=3 max_fails=3 fail_timeout=20s slow_start=45s;")) << text;
  const ImportedConfig c = read_back(text, ConfigFormat::Nginx);
  EXPECT_EQ(c.pool, "checkout");
  EXPECT_EQ(pool_script(c), "POOL 10.0.0.1:8080=3 10.0.0.2:8080=3 10.0.0.3:8080=1\nDOWN 10.0.0.3:8080\n");
  EXPECT_EQ(option(c, "policy"), "nginx-least-conn");  // least-conn under --health nginx
  EXPECT_EQ(option(c, "health"), "nginx");
  EXPECT_EQ(option(c, "max-fails"), "3");
  EXPECT_EQ(option(c, "fail-timeout"), "20");
  EXPECT_EQ(option(c, "slow-start"), "45");
  EXPECT_EQ(option(c, "timeout-ms"), "1500");
  EXPECT_EQ(option(c, "retries"), "1");
}

TEST(SystemEmit, OpenSourceNginxSaysSlowStartNeedsPlus) {
  EmitInput in = three();
  in.slow_start = 60;
  const std::string text = emit_config(EmitFormat::Nginx, in);
  EXPECT_TRUE(has(text, "        server 10.0.0.1:8080 weight=3 max_fails=0;\n")) << text;  // open source refuses slow_start=
  EXPECT_TRUE(has(text, "# slow_start=60s needs NGINX Plus or nginx-mod")) << text;
  const ImportedConfig c = read_back(text, ConfigFormat::Nginx);
  EXPECT_EQ(option(c, "slow-start"), "(unset)");
  EXPECT_EQ(option(c, "health"), "none");  // max_fails=0: no passive check
  EXPECT_EQ(option(c, "retries"), "1");     // proxy_next_upstream_tries 2: one more server
}

TEST(SystemEmit, HAProxyRoundTrip) {
  EmitInput in = three("api");
  in.servers = {{"api1", 10, false, 1}, {"api2", 10, false, 2}, {"api3", 5, true, 3}};
  in.options.policy = Policy::LeastConn;
  in.options.health.kind = HealthKind::HAProxy;
  in.options.health.error_limit = 4;
  in.options.health.inter = 3;
  in.options.health.rise = 3;
  in.options.health.on_error = OnError::SuddenDeath;
  in.options.health.fall = 4;
  in.options.health.fastinter = 0.5;
  in.options.retries = 1;
  in.options.timeout_ms = 800;
  in.slow_start = 90;
  const std::string text = emit_config(EmitFormat::HAProxy, in);
  EXPECT_TRUE(has(text, "    timeout server 800ms\n")) << text;
  EXPECT_TRUE(has(text, "    server api3 api3:80 weight 5 disabled\n")) << text;
  const ImportedConfig c = read_back(text, ConfigFormat::HAProxy);
  EXPECT_EQ(pool_script(c), "POOL api1=10 api2=10 api3=5\nDOWN api3\n");
  EXPECT_EQ(option(c, "policy"), "haproxy-leastconn");  // least-conn under --health haproxy
  EXPECT_EQ(option(c, "curve"), "haproxy");
  EXPECT_EQ(option(c, "slow-start"), "90");
  EXPECT_EQ(option(c, "health"), "haproxy");
  EXPECT_EQ(option(c, "error-limit"), "4");
  EXPECT_EQ(option(c, "inter"), "3");
  EXPECT_EQ(option(c, "rise"), "3");
  EXPECT_EQ(option(c, "on-error"), "sudden-death");
  EXPECT_EQ(option(c, "fall"), "4");
  EXPECT_EQ(option(c, "fastinter"), "0.5");
  EXPECT_EQ(option(c, "downinter"), "0");  // not written: the lab's 0, inter's value as HAProxy's default
  EXPECT_EQ(option(c, "timeout-ms"), "800");
  EXPECT_EQ(option(c, "retries"), "1");
}

TEST(SystemEmit, HAProxyCapsWeightsAt256AndSaysSo) {
  EmitInput in = three();
  in.servers = {{"big", 1000, false, 1}, {"small", 1, false, 2}};
  const std::string text = emit_config(EmitFormat::HAProxy, in);
  EXPECT_TRUE(has(text, "# HAProxy's weights go to 256")) << text;
  EXPECT_EQ(pool_script(read_back(text, ConfigFormat::HAProxy)), "POOL big=256 small=1\n");
}

TEST(SystemEmit, EnvoyRoundTrip) {
  EmitInput in = three("payments");
  in.options.policy = Policy::LeastRequest;
  in.options.bias = 1.5;
  in.options.curve.aggression = 2;
  in.options.curve.min_weight_percent = 20;
  in.options.health.kind = HealthKind::Envoy;
  in.options.health.consecutive_5xx = 3;
  in.options.health.interval = 5;
  in.options.health.base_ejection_time = 15;
  in.options.health.max_ejection_time = 120;
  in.options.health.max_ejection_percent = 50;
  in.options.retries = 2;
  in.options.timeout_ms = 250;
  in.slow_start = 30;
  in.panic_threshold = 0;
  const std::string text = emit_config(EmitFormat::Envoy, in);
  EXPECT_TRUE(has(text, "timeout: 0.75s")) << text;  // the route's: three tries of 250 ms
  const ImportedConfig c = read_back(text, ConfigFormat::Envoy);
  EXPECT_EQ(c.pool, "payments");
  EXPECT_EQ(pool_script(c), "POOL 10.0.0.1:8080=3 10.0.0.2:8080=3 10.0.0.3:8080=1\nDOWN 10.0.0.3:8080\n");
  EXPECT_EQ(option(c, "policy"), "least-request");
  EXPECT_EQ(option(c, "bias"), "1.5");
  EXPECT_EQ(option(c, "curve"), "envoy");
  EXPECT_EQ(option(c, "slow-start"), "30");
  EXPECT_EQ(option(c, "aggression"), "2");
  EXPECT_EQ(option(c, "min-weight"), "20");
  EXPECT_EQ(option(c, "health"), "envoy");
  EXPECT_EQ(option(c, "consecutive-5xx"), "3");
  EXPECT_EQ(option(c, "interval"), "5");
  EXPECT_EQ(option(c, "base-ejection-time"), "15");
  EXPECT_EQ(option(c, "max-ejection-time"), "120");
  EXPECT_EQ(option(c, "max-ejection-percent"), "50");
  EXPECT_EQ(option(c, "panic-threshold"), "0");
  EXPECT_EQ(option(c, "timeout-ms"), "250");
  EXPECT_EQ(option(c, "retries"), "2");
}

// Envoy's circuit breakers (max_retries, or a retry budget), its panic
// threshold and always_eject_one_host, given on the command line: each is
// an Envoy setting its reader takes back, so each is written, and read back
// as the lab's own option (--max-retries-in-flight, --retry-budget ...).
TEST(SystemEmit, EnvoyCircuitBreakersPanicAndAlwaysEjectRoundTrip) {
  EmitInput in = three("payments");
  in.options.health.kind = HealthKind::Envoy;
  in.options.health.panic_threshold = 30;
  in.options.health.always_eject_one_host = true;
  in.options.max_retries_in_flight = 10;
  std::string text = emit_config(EmitFormat::Envoy, in);
  EXPECT_TRUE(has(text, "        max_retries: 10\n")) << text;
  ImportedConfig c = read_back(text, ConfigFormat::Envoy);
  EXPECT_EQ(option(c, "max-retries-in-flight"), "10");
  EXPECT_EQ(option(c, "retry-budget"), "(unset)");
  EXPECT_EQ(option(c, "panic-threshold"), "30");
  EXPECT_EQ(option(c, "always-eject-one-host"), "");

  in.options.retry_budget = true;
  in.options.retry_budget_percent = 25;
  in.options.min_retry_concurrency = 5;
  text = emit_config(EmitFormat::Envoy, in);
  c = read_back(text, ConfigFormat::Envoy);
  EXPECT_EQ(option(c, "retry-budget"), "");  // a flag: no value
  EXPECT_EQ(option(c, "retry-budget-percent"), "25");
  EXPECT_EQ(option(c, "min-retry-concurrency"), "5");

  // Envoy's defaults (50 %, 3 retries in flight) are not written.
  EmitInput plain = three("payments");
  plain.options.health.kind = HealthKind::Envoy;
  text = emit_config(EmitFormat::Envoy, plain);
  EXPECT_FALSE(has(text, "circuit_breakers")) << text;
  EXPECT_FALSE(has(text, "healthy_panic_threshold")) << text;
}

// Under --health envoy the lab retries as Envoy does (E15): the host
// predicate and the back-off are written only as the lab has them, and read
// back as the same options.
TEST(SystemEmit, EnvoyRetryHostPredicateAndBackOffRoundTrip) {
  EmitInput in = three("payments");
  in.options.health.kind = HealthKind::Envoy;
  in.options.retries = 2;
  std::string text = emit_config(EmitFormat::Envoy, in);
  EXPECT_FALSE(has(text, "previous_hosts")) << text;  // the lab may retry the same host: so may Envoy
  EXPECT_FALSE(has(text, "retry_back_off")) << text;  // 25 ms: Envoy's default
  ImportedConfig c = read_back(text, ConfigFormat::Envoy);
  EXPECT_EQ(option(c, "retry-other-host"), "(unset)");
  EXPECT_EQ(option(c, "retry-back-off-ms"), "(unset)");

  in.options.retry_other_host = true;
  in.options.retry_back_off_ms = 50;
  text = emit_config(EmitFormat::Envoy, in);
  EXPECT_TRUE(has(text, "retry_back_off: {base_interval: 0.05s}")) << text;
  c = read_back(text, ConfigFormat::Envoy);
  EXPECT_EQ(option(c, "retry-other-host"), "");
  EXPECT_EQ(option(c, "retry-back-off-ms"), "50");

  in.options.retry_back_off_ms = 0;  // at once: no Envoy form, said
  text = emit_config(EmitFormat::Envoy, in);
  EXPECT_TRUE(has(text, "# a retry at once (--retry-back-off-ms 0) has no Envoy form")) << text;

  // Without --health envoy the lab retries another host at once: previous_hosts.
  in.options.health.kind = HealthKind::None;
  in.options.retry_other_host = false;
  EXPECT_TRUE(has(emit_config(EmitFormat::Envoy, in), "previous_hosts"));
}

// What the lab runs but no configuration text says is named in the
// comments, never dropped without a word: the skip decorator (every
// format), and nginx-mod's slow-start rule (the same slow_start= text as
// NGINX Plus's, read back as NGINX Plus's).
TEST(SystemEmit, SaysWhatNoConfigurationCanSay) {
  EmitInput in = three();
  in.slow_start = 30;
  in.options.ramp_by = RampBy::Skip;
  for (const EmitFormat f : {EmitFormat::Nginx, EmitFormat::NginxPlus, EmitFormat::HAProxy, EmitFormat::Envoy, EmitFormat::Caddy, EmitFormat::Alb})
    EXPECT_TRUE(has(emit_config(f, in), "\n# the skip decorator (--ramp-by skip: ")) << emit_config(f, in);
  in.options.ramp_by = RampBy::Scale;
  EXPECT_FALSE(has(emit_config(EmitFormat::Caddy, in), "skip decorator"));
  in.options.slow_start_rule = NginxRule::NginxMod;
  const std::string text = emit_config(EmitFormat::NginxPlus, in);
  EXPECT_TRUE(has(text, "\n# nginx-mod's rule (--slow-start-rule nginx-mod")) << text;
  EXPECT_FALSE(has(emit_config(EmitFormat::HAProxy, in), "nginx-mod"));
  // Caddy's unhealthy_latency: only Caddy writes it; the others say so.
  in.options.health.kind = HealthKind::Nginx;
  in.options.health.unhealthy_latency_ms = 900;
  for (const EmitFormat f : {EmitFormat::Nginx, EmitFormat::NginxPlus, EmitFormat::HAProxy, EmitFormat::Envoy, EmitFormat::Alb})
    EXPECT_TRUE(has(emit_config(f, in), "\n# an unhealthy latency (--unhealthy-latency-ms 900: ")) << emit_config(f, in);
  EXPECT_FALSE(has(emit_config(EmitFormat::Caddy, in), "# an unhealthy latency")) << emit_config(EmitFormat::Caddy, in);
}

TEST(SystemEmit, CaddyRoundTrip) {
  EmitInput in = three();
  in.options.policy = Policy::SmoothWrr;
  in.options.health.kind = HealthKind::Nginx;
  in.options.health.max_fails = 4;
  in.options.health.fail_timeout = 20;
  in.options.health.unhealthy_latency_ms = 1250;
  in.options.timeout_ms = 2000;
  in.slow_start = 40;
  std::string text = emit_config(EmitFormat::Caddy, in);
  EXPECT_TRUE(has(text, "lb_policy weighted_round_robin 3 3 1")) << text;
  EXPECT_TRUE(has(text, "\t\tunhealthy_latency 1250ms\n")) << text;
  EXPECT_TRUE(has(text, "no Caddy release has it yet")) << text;  // lb_slow_start is a proposal
  const ImportedConfig c = read_back(text, ConfigFormat::Caddy);
  EXPECT_EQ(option(c, "policy"), "wrr");
  EXPECT_EQ(option(c, "health"), "nginx");
  EXPECT_EQ(option(c, "max-fails"), "4");
  EXPECT_EQ(option(c, "fail-timeout"), "20");
  EXPECT_EQ(option(c, "unhealthy-latency-ms"), "1250");
  EXPECT_EQ(option(c, "slow-start"), "40");
  EXPECT_EQ(option(c, "timeout-ms"), "2000");
  EXPECT_EQ(option(c, "retries"), "1");
  // Without a timeout the slow answers are the check's only failures: it stays on.
  in.options.timeout_ms = 0;
  in.options.retries = 0;
  text = emit_config(EmitFormat::Caddy, in);
  const ImportedConfig d = read_back(text, ConfigFormat::Caddy);
  EXPECT_EQ(option(d, "health"), "nginx") << text;
  EXPECT_EQ(option(d, "unhealthy-latency-ms"), "1250") << text;
  EXPECT_EQ(option(d, "timeout-ms"), "0") << text;
}

// Each balancer's own algorithm goes out as its directive and comes back as
// itself (docs/proxy-rules.md N3, N7, H8, H11); another balancer's is written
// as the nearest, with a note saying how it differs.
TEST(SystemEmit, BalancersOwnPoliciesRoundTrip) {
  struct Case {
    EmitFormat emit;
    ConfigFormat read;
    Policy policy;
    HealthKind health;
    const char* line;
    const char* back;
  };
  const Case cases[] = {
      {EmitFormat::Nginx, ConfigFormat::Nginx, Policy::NginxLeastConn, HealthKind::None, "        least_conn;\n", "nginx-least-conn"},
      {EmitFormat::Nginx, ConfigFormat::Nginx, Policy::LeastConn, HealthKind::Nginx, "        least_conn;\n", "nginx-least-conn"},
      {EmitFormat::HAProxy, ConfigFormat::HAProxy, Policy::HAProxyLeastConn, HealthKind::None, "    balance leastconn\n", "haproxy-leastconn"},
      {EmitFormat::HAProxy, ConfigFormat::HAProxy, Policy::StaticRr, HealthKind::HAProxy, "    balance static-rr\n", "static-rr"},
      {EmitFormat::HAProxy, ConfigFormat::HAProxy, Policy::SmoothWrr, HealthKind::HAProxy, "    balance roundrobin\n", "wrr"},
      {EmitFormat::Caddy, ConfigFormat::Caddy, Policy::CaddyLeastConn, HealthKind::None, "\t\tlb_policy least_conn\n", "caddy-least-conn"},
      {EmitFormat::Caddy, ConfigFormat::Caddy, Policy::LeastConn, HealthKind::None, "\t\tlb_policy least_conn\n", "caddy-least-conn"},
  };
  for (const Case& k : cases) {
    EmitInput in = three();
    in.options.policy = k.policy;
    in.options.health.kind = k.health;
    const std::string text = emit_config(k.emit, in);
    EXPECT_TRUE(has(text, k.line)) << policy_name(k.policy) << "\n" << text;
    EXPECT_EQ(option(read_back(text, k.read), "policy"), k.back) << policy_name(k.policy) << "\n" << text;
  }
  // Another balancer's least connections: the nearest, and why it differs.
  EmitInput in = three();
  in.options.policy = Policy::HAProxyLeastConn;
  std::string text = emit_config(EmitFormat::Nginx, in);
  EXPECT_TRUE(has(text, "least_conn;")) << text;
  EXPECT_TRUE(has(text, "HAProxy's leastconn puts every idle server first")) << text;
  in.options.policy = Policy::NginxLeastConn;
  text = emit_config(EmitFormat::HAProxy, in);
  EXPECT_TRUE(has(text, "balance leastconn")) << text;
  EXPECT_TRUE(has(text, "the nearest to nginx-least-conn")) << text;
  text = emit_config(EmitFormat::Caddy, in);
  EXPECT_TRUE(has(text, "Caddy's least_conn ignores weights")) << text;
}

TEST(SystemEmit, NginxNextUpstreamTimeoutRoundTrip) {
  EmitInput in = three();
  in.options.health.kind = HealthKind::Nginx;
  in.options.retries = 2;
  in.options.next_upstream_timeout_ms = 700;
  const std::string text = emit_config(EmitFormat::Nginx, in);
  EXPECT_TRUE(has(text, "            proxy_next_upstream_timeout 700ms;\n")) << text;
  const ImportedConfig c = read_back(text, ConfigFormat::Nginx);
  EXPECT_EQ(option(c, "next-upstream-timeout-ms"), "700");
  EXPECT_EQ(option(c, "retries"), "2");
  in.options.next_upstream_timeout_ms = 0;  // nginx's default: not written, not read
  EXPECT_EQ(option(read_back(emit_config(EmitFormat::Nginx, in), ConfigFormat::Nginx), "next-upstream-timeout-ms"), "(unset)");
}

TEST(SystemEmit, AlbRoundTripAndItsLimits) {
  EmitInput in = three();
  in.servers = {{"i-0a", 1, false, 1}, {"i-0b", 1, false, 2}};
  in.options.timeout_ms = 20000;
  in.options.retries = 0;
  in.slow_start = 120;
  ImportedConfig c = read_back(emit_config(EmitFormat::Alb, in), ConfigFormat::Alb);
  EXPECT_EQ(option(c, "slow-start"), "120");
  EXPECT_EQ(option(c, "timeout-ms"), "20000");
  EXPECT_EQ(pool_script(c), "POOL i-0a=1 i-0b=1\n");
  // 12.5 s is below an ALB's 30 s: 30, said; 1000 s above its 900: 900, said.
  in.slow_start = 12.5;
  std::string text = emit_config(EmitFormat::Alb, in);
  EXPECT_TRUE(has(text, "Value=30 ")) << text;
  EXPECT_TRUE(has(text, "13 s became 30 s")) << text;
  EXPECT_EQ(option(read_back(text, ConfigFormat::Alb), "slow-start"), "30");
  in.slow_start = 1000;
  text = emit_config(EmitFormat::Alb, in);
  EXPECT_TRUE(has(text, "1000 s became 900 s")) << text;
  EXPECT_EQ(option(read_back(text, ConfigFormat::Alb), "slow-start"), "900");
}

// AWS refuses slow start with least_outstanding_requests: the command would
// fail. The algorithm stays, slow start is off (0), and the comment gives the
// round_robin pair that ramps; read back: least-conn, no slow start.
TEST(SystemEmit, AlbNeverWritesSlowStartWithLeastOutstandingRequests) {
  for (const Policy p : {Policy::LeastConn, Policy::P2C, Policy::LeastRequest}) {
    EmitInput in = three();
    in.servers = {{"i-0a", 1, false, 1}, {"i-0b", 1, false, 2}};
    in.options.policy = p;
    in.slow_start = 120;
    const std::string text = emit_config(EmitFormat::Alb, in);
    EXPECT_TRUE(has(text, "Key=slow_start.duration_seconds,Value=0 Key=load_balancing.algorithm.type,Value=least_outstanding_requests\n")) << text;
    EXPECT_FALSE(has(text, "Value=120 Key=load_balancing.algorithm.type,Value=least_outstanding_requests")) << text;
    EXPECT_TRUE(has(text, "# AWS does not allow slow start with least_outstanding_requests: slow start is off here (Value=0); "
                          "for the 120 s ramp instead, set load_balancing.algorithm.type to round_robin and "
                          "slow_start.duration_seconds to 120\n")) << text;
    const ImportedConfig c = read_back(text, ConfigFormat::Alb);
    EXPECT_EQ(option(c, "policy"), "least-conn");
    EXPECT_EQ(option(c, "slow-start"), "(unset)");  // 0: off, as the reader takes it
  }
  // round_robin keeps its ramp.
  EmitInput in = three();
  in.options.policy = Policy::SmoothWrr;
  in.slow_start = 120;
  EXPECT_TRUE(has(emit_config(EmitFormat::Alb, in), "Value=120 Key=load_balancing.algorithm.type,Value=round_robin"));
}

TEST(SystemEmit, HostileNamesBecomeNamesEveryFormatTakes) {
  EmitInput in = three("my pool;}{");
  // Two names that become one ("a_b___": six bytes, four of them odd): the
  // second is "a_b___-2" ("#2" would start a comment in three formats).
  in.servers = {{"a b;\n}", 1, false, 1}, {"a_b___", 2, false, 2}, {"", 2, false, 3}};
  for (const EmitFormat f : {EmitFormat::Nginx, EmitFormat::HAProxy, EmitFormat::Envoy, EmitFormat::Caddy}) {
    const std::string text = emit_config(f, in);
    const ConfigFormat back = f == EmitFormat::Nginx ? ConfigFormat::Nginx
                              : f == EmitFormat::HAProxy ? ConfigFormat::HAProxy
                              : f == EmitFormat::Envoy  ? ConfigFormat::Envoy
                                                        : ConfigFormat::Caddy;
    const ImportedConfig c = read_back(text, back);
    ASSERT_EQ(c.servers.size(), 3u) << text;
    EXPECT_TRUE(has(text, "a_b___-2")) << text;
  }
}

// A pool's name that YAML or nginx would read as something else: a trailing
// colon (the fuzzer's "ht__tp:" from a proxy_pass of odd bytes: Envoy's YAML
// then had "cluster: ht__tp:"), a number, null, true, a leading dash. Every
// format reads back the name it wrote, and nginx's proxy_pass has no port.
TEST(SystemEmit, PoolNamesThatLookLikeSomethingElseReadBackAsNames) {
  const struct {
    const char* given;
    const char* written;
  } cases[] = {{"ht\xff\xfftp:", "ht__tp_"}, {"app:8080", "app_8080"}, {"123", "123"}, {"null", "null"},
               {"true", "true"}, {"-x", "-x"}, {"0x1F", "0x1F"}, {"~", "_"}};
  for (const auto& k : cases) {
    for (const EmitFormat f : {EmitFormat::Nginx, EmitFormat::HAProxy, EmitFormat::Envoy}) {
      const std::string text = emit_config(f, three(k.given));
      const ConfigFormat back = f == EmitFormat::Nginx ? ConfigFormat::Nginx : f == EmitFormat::HAProxy ? ConfigFormat::HAProxy : ConfigFormat::Envoy;
      const ImportedConfig c = read_back(text, back);
      EXPECT_EQ(c.pool, k.written) << k.given << "\n" << text;
      ASSERT_EQ(c.servers.size(), 3u) << k.given << "\n" << text;
    }
    EXPECT_TRUE(has(emit_config(EmitFormat::Nginx, three(k.given)), std::string("proxy_pass http://") + k.written + ";")) << k.given;
    EXPECT_TRUE(has(emit_config(EmitFormat::Envoy, three(k.given)), std::string("cluster: \"") + k.written + "\"")) << k.given;
  }
}

// ---- the commands ------------------------------------------------------------

struct Files {
  std::map<std::string, std::string> files;
  FileReader reader() const {
    return [this](const std::string& path, std::size_t, std::string& out) -> Problem {
      const auto it = files.find(path);
      if (it == files.end()) return "cannot open " + path;
      out = it->second;
      return std::nullopt;
    };
  }
};

const char* const kHAProxy =
    "defaults\n"
    "    timeout server 2s\n"
    "    retries 0\n"
    "backend app\n"
    "    balance roundrobin\n"
    "    server a 10.0.0.1:80 weight 2 check observe layer7 error-limit 3 on-error mark-down\n"
    "    server b 10.0.0.2:80 weight 1 check observe layer7 error-limit 3 on-error mark-down slowstart 20s\n";

TEST(SystemEmit, SimulateEmitsTheFileWithTheCommandLinesOverrides) {
  Files fs;
  fs.files["h.cfg"] = kHAProxy;
  fs.files["s.txt"] = "NOW 5\nDOWN b\nNOW 10\nUP b 0\n";
  std::string out, err;
  ASSERT_EQ(run_simulate_system({"--from", "h.cfg", "--timeout-ms", "900", "--slow-start", "35", "--emit", "haproxy", "s.txt"},
                                fs.reader(), out, err),
            0)
      << err;
  EXPECT_TRUE(has(out, "timeout server 900ms\n")) << out;  // the command line's, not the file's 2s
  EXPECT_TRUE(has(out, " slowstart 35s")) << out;
  EXPECT_TRUE(has(out, "error-limit 3 ")) << out;  // the file's
  const ImportedConfig c = read_back(out, ConfigFormat::HAProxy);
  EXPECT_EQ(pool_script(c), "POOL a=2 b=1\n");
  EXPECT_EQ(option(c, "timeout-ms"), "900");
  EXPECT_EQ(option(c, "slow-start"), "35");
  EXPECT_EQ(option(c, "error-limit"), "3");
}

// The same through the command line: simulate --from an Envoy file with
// circuit breakers runs (the file's settings are options simulate takes),
// and its --emit gives them back.
TEST(SystemEmit, SimulateFromEnvoysCircuitBreakersRunsAndEmitsThem) {
  for (const char* breaker : {"        max_retries: 7\n",
                              "        retry_budget:\n          budget_percent: {value: 25}\n          min_retry_concurrency: 4\n"}) {
    Files fs;
    fs.files["e.yaml"] = std::string(
                             "clusters:\n"
                             "- name: api\n"
                             "  lb_policy: ROUND_ROBIN\n"
                             "  outlier_detection: {consecutive_5xx: 3}\n"
                             "  circuit_breakers:\n"
                             "    thresholds:\n"
                             "      - priority: DEFAULT\n") +
                         breaker +
                         "  load_assignment:\n"
                         "    cluster_name: api\n"
                         "    endpoints:\n"
                         "    - lb_endpoints:\n"
                         "      - endpoint: {address: {socket_address: {address: a, port_value: 80}}}\n"
                         "      - endpoint: {address: {socket_address: {address: b, port_value: 80}}}\n";
    fs.files["s.txt"] = "NOW 5\n";
    std::string out, err;
    EXPECT_EQ(run_simulate_system({"--from", "e.yaml", "--explain", "s.txt"}, fs.reader(), out, err), 0) << err;
    EXPECT_FALSE(has(out, "this lab has no")) << out;
    out.clear();
    err.clear();
    EXPECT_EQ(run_simulate_system({"--from", "e.yaml", "--duration", "2", "s.txt"}, fs.reader(), out, err), 0) << err;
    out.clear();
    err.clear();
    ASSERT_EQ(run_simulate_system({"--from", "e.yaml", "--emit", "envoy", "s.txt"}, fs.reader(), out, err), 0) << err;
    EXPECT_TRUE(has(out, breaker)) << out;
  }
}

// The lab's --retries 0 means no timed-out request is retried; HAProxy's
// `retries 0` would also stop it retrying refused connections (its default,
// retries 3 with retry-on conn-failure, hid a restarted backend's refusals
// from clients in tests/cpp/system_recommend/). So no retries line, a note,
// and the text read back is still --retries 0.
TEST(SystemEmit, HAProxyWithoutRetriesKeepsItsConnectionRetries) {
  Files fs;
  fs.files["h.cfg"] = kHAProxy;  // retries 0
  fs.files["s.txt"] = "NOW 5\nDOWN b\nNOW 10\nUP b 0\n";
  std::string out, err;
  ASSERT_EQ(run_simulate_system({"--from", "h.cfg", "--emit", "haproxy", "s.txt"}, fs.reader(), out, err), 0) << err;
  EXPECT_FALSE(has(out, "    retries ")) << out;
  EXPECT_FALSE(has(out, "retry-on")) << out;
  EXPECT_TRUE(has(out, "# retries: yours, or HAProxy's default (3, connection failures only)")) << out;
  EXPECT_EQ(option(read_back(out, ConfigFormat::HAProxy), "retries"), "0");
  // With retries in the lab (one: two servers, the other one), they are
  // written, timeouts included.
  ASSERT_EQ(run_simulate_system({"--from", "h.cfg", "--retries", "1", "--emit", "haproxy", "s.txt"}, fs.reader(), out, err), 0)
      << err;
  EXPECT_TRUE(has(out, "    retries 1\n    retry-on conn-failure response-timeout\n    option redispatch\n")) << out;
}

TEST(SystemEmit, SimulateEmitsTheScriptsPoolWithoutAFile) {
  Files fs;
  fs.files["s.txt"] = "POOL x=5 y=1\nDOWN y\nNOW 10\nUP y 0\n";
  std::string out, err;
  ASSERT_EQ(run_simulate_system({"--policy", "least-conn", "--timeout-ms", "700", "--emit", "nginx-plus", "s.txt"},
                                fs.reader(), out, err),
            0)
      << err;
  const ImportedConfig c = read_back(out, ConfigFormat::Nginx);
  EXPECT_EQ(pool_script(c), "POOL x=5 y=1\nDOWN y\n");
  // least-conn without a health check is Caddy's: nginx's least_conn is the
  // nearest, said so, and it reads back as nginx's own.
  EXPECT_TRUE(has(out, "Caddy's ignores weights")) << out;
  EXPECT_EQ(option(c, "policy"), "nginx-least-conn");
  EXPECT_EQ(option(c, "timeout-ms"), "700");
}

TEST(SystemEmit, SimulatesHelpNamesTheSystemOptions) {
  std::string out, err;
  EXPECT_EQ(run_simulate_system({"--rps", "5", "--help"}, Files{}.reader(), out, err), 0);
  EXPECT_TRUE(has(out, "usage: slowstart simulate")) << out;
  for (const char* flag : {"\n  --from FILE ", "\n  --from-format F ", "\n  --from-pool NAME ", "\n  --explain ", "\n  --emit FORMAT "})
    EXPECT_TRUE(has(out, flag)) << flag;
}

TEST(SystemEmit, AnUnknownFormatIsRefusedAndNothingRuns) {
  Files fs;
  fs.files["s.txt"] = "POOL x=1\n";
  std::string out, err;
  EXPECT_EQ(run_simulate_system({"--emit", "iis", "s.txt"}, fs.reader(), out, err), 2);
  EXPECT_EQ(out, "");
  EXPECT_TRUE(has(err, "--emit: emit format must be nginx, nginx-plus, haproxy, envoy, caddy or alb, got 'iis'")) << err;
  out.clear(), err.clear();
  EXPECT_EQ(run_recommend({"--emit", "", "s.txt"}, fs.reader(), out, err), 2);
  EXPECT_EQ(out, "");
}

// Warming by requests served, the restarted server's first request is fully
// cold whatever the window: 100 ms x 12 = 1200 ms against a timeout of
// 1000 ms. No window helps; recommend says so, exits 1 and emits nothing.
TEST(SystemEmit, RecommendEmitsNothingWhenNoWindowHelps) {
  Files fs;
  fs.files["s.txt"] = "POOL a=1 b=1\nNOW 2\nDOWN b\nNOW 4\nUP b 0\n";
  std::string out, err;
  EXPECT_EQ(run_recommend({"--service-ms", "100", "--cold-factor", "12", "--warm-by", "requests", "--warmup-requests", "50", "--timeout-ms", "1000", "--rps",
                           "20", "--duration", "30", "--max-window", "60", "--emit", "haproxy", "s.txt"},
                          fs.reader(), out, err),
            1)
      << err;
  EXPECT_EQ(out, "");
  EXPECT_TRUE(has(err, "no window up to 60 s helps")) << err;
}

// A timeout below even the warm service time (80 ms against 100 ms): every
// request fails, warm or cold, so pre-warming would not help either; only a
// longer timeout does, and recommend says that alone.
TEST(SystemEmit, RecommendWhenEvenAWarmRequestIsSlowerThanTheTimeout) {
  Files fs;
  fs.files["s.txt"] = "POOL a=1 b=1\nNOW 2\nDOWN b\nNOW 4\nUP b 0\n";
  std::string out, err;
  EXPECT_EQ(run_recommend({"--service-ms", "100", "--timeout-ms", "80", "--rps", "20", "--duration", "30", "--max-window", "60", "s.txt"},
                          fs.reader(), out, err),
            1)
      << err;
  EXPECT_TRUE(has(err, "why: even a warm request takes 100 ms, longer than the 80 ms timeout")) << err;
  EXPECT_FALSE(has(err, "pre-warm")) << err;
  EXPECT_TRUE(has(err, "would help: a timeout above 120 ms\n")) << err;
}

// Worked by hand: c (weight 1, resolution 1) gets no request until its ramp
// ends, so the window is the first whole second at which a cold request
// beats the 500 ms timeout at the worst corner: cold factor 8 + 20 % of its
// excess = 9.4, warm-up 10 s + 20 % = 12 s, 100 ms x (1 + 8.4 (1 - t/12))
// < 500 ms from t = 6.29 s: 7 s. The emitted HAProxy lines carry it.
TEST(SystemEmit, RecommendEmitsTheWindowItFound) {
  Files fs;
  fs.files["s.txt"] = "POOL a=1 b=1 c=1\nNOW 2\nDOWN c\nNOW 4\nUP c 0\n";
  const std::vector<std::string> args = {"--service-ms", "100", "--cold-factor", "8", "--warmup", "10", "--timeout-ms",
                                         "500", "--rps", "60", "--duration", "60", "--max-window", "120", "--resolution", "1", "--health",
                                         "haproxy", "--emit", "haproxy", "s.txt"};
  std::string out, err;
  ASSERT_EQ(run_recommend(args, fs.reader(), out, err), 0) << err;
  EXPECT_TRUE(has(err, "a slow-start window of 7 s\n")) << err;
  EXPECT_TRUE(has(out, "# slowstart recommend: a slow-start window of 7 s")) << out;
  const ImportedConfig c = read_back(out, ConfigFormat::HAProxy);
  EXPECT_EQ(option(c, "slow-start"), "7");
  EXPECT_EQ(option(c, "timeout-ms"), "500");
  EXPECT_EQ(pool_script(c), "POOL a=1 b=1 c=1\n");
  std::vector<std::string> json = args;
  json.insert(json.begin(), "--json");
  out.clear(), err.clear();
  ASSERT_EQ(run_recommend(json, fs.reader(), out, err), 0) << err;
  EXPECT_EQ(out.rfind("{\"window_s\": 7, ", 0), 0u) << out;
  EXPECT_TRUE(has(out, "\"emit\": \"# slowstart: the lab's options as HAProxy configuration")) << out;
  EXPECT_TRUE(has(out, "slowstart 7s\\n")) << out;  // one JSON string: its newlines escaped
}

}  // namespace emit_test
}  // namespace slowstart::system
