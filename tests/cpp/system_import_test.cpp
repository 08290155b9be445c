// Proxies' configurations read into the pool and simulate's options
// (cpp/system/*_config.*): realistic files of each format
// (tests/cpp/system_configs/, its README says what each holds), every
// option and the line that set it worked out by hand from the file and the
// software's documented defaults, what is listed as not modelled, and the
// errors, with their lines and columns.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "system/config_text.hpp"
#include "system/import_config.hpp"

namespace slowstart::system {
namespace {

std::string fixture(const std::string& name) {
  std::ifstream in(std::filesystem::path(SLOWSTART_SOURCE_DIR) / "tests/cpp/system_configs" / name, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

ImportedConfig read(const std::string& text, std::optional<ConfigFormat> format = std::nullopt,
                    std::string_view pool = {}) {
  ImportedConfig c;
  ConfigError e;
  EXPECT_TRUE(import_config(text, format, pool, c, e)) << e.line << ":" << e.column << ": " << e.message;
  return c;
}

ConfigError error_of(const std::string& text, ConfigFormat format, std::string_view pool = {}) {
  ImportedConfig c;
  ConfigError e;
  EXPECT_FALSE(import_config(text, format, pool, c, e)) << "read without an error";
  EXPECT_TRUE(c.servers.empty() && c.settings.empty());  // a failed read leaves nothing behind
  return e;
}

// "POOL ..." and "--option value@line" of every setting, in a stable order.
std::string pool_of(const ImportedConfig& c) { return pool_script(c); }
std::string option(const ImportedConfig& c, std::string_view name) {
  const ImportedSetting* s = c.find(name);
  return s ? s->value + "@" + std::to_string(s->line) : "(unset)";
}
bool ignored(const ImportedConfig& c, std::uint32_t line, std::string_view text) {
  for (const ImportedNote& n : c.ignored)
    if (n.line == line && n.text.find(text) != std::string::npos) return true;
  return false;
}
bool noted(const ImportedConfig& c, std::string_view text) {
  for (const ImportedNote& n : c.notes)
    if (n.text.find(text) != std::string::npos) return true;
  return false;
}

// ---- format detection ------------------------------------------------------

TEST(SystemImport, DetectsEachFixturesFormat) {
  const std::pair<const char*, ConfigFormat> files[] = {
      {"nginx-plus.conf", ConfigFormat::Nginx},         {"nginx-site.conf", ConfigFormat::Nginx},
      {"nginx-stream.conf", ConfigFormat::Nginx},       {"haproxy.cfg", ConfigFormat::HAProxy},
      {"envoy-bootstrap.yaml", ConfigFormat::Envoy},    {"envoy-cluster.json", ConfigFormat::Envoy},
      {"envoy-cds.yaml", ConfigFormat::Envoy},          {"Caddyfile", ConfigFormat::Caddy},
      {"alb-cli.sh", ConfigFormat::Alb},                {"alb-target-group.json", ConfigFormat::Alb},
      {"alb.tf", ConfigFormat::Alb}};
  for (const auto& [file, format] : files) {
    ConfigFormat got{};
    EXPECT_EQ(detect_format(fixture(file), got), std::nullopt) << file;
    EXPECT_EQ(got, format) << file;
  }
  ConfigFormat got{};
  // A Caddyfile that opens with its global options block is still a Caddyfile, not JSON.
  EXPECT_EQ(detect_format("{\n\temail admin@example.com\n}\n\nexample.com {\n\tencode gzip\n"
                          "\treverse_proxy a:80 b:80 {\n\t\tlb_policy round_robin\n\t}\n}\n",
                          got),
            std::nullopt);
  EXPECT_EQ(got, ConfigFormat::Caddy);
  EXPECT_EQ(detect_format("{\n  admin off\n}\n:8080 {\n  reverse_proxy a:80 b:80\n}\n", got), std::nullopt);
  EXPECT_EQ(got, ConfigFormat::Caddy);
  EXPECT_EQ(*detect_format("hello world\n", got),
            "cannot tell the file's format: name it with --from-format nginx, haproxy, envoy, caddy or alb");
}

// ---- nginx -------------------------------------------------------------------

TEST(SystemImport, NginxPlusUpstreamAndTheLocationThatUsesIt) {
  const ImportedConfig c = read(fixture("nginx-plus.conf"));
  EXPECT_EQ(c.format, ConfigFormat::Nginx);
  // Two upstreams; locations pass to both: the one with several servers is read.
  EXPECT_EQ(c.pool, "checkout");
  // The backup server is left out (listed), the others keep their weights.
  EXPECT_EQ(pool_of(c), "POOL 10.1.0.11:8080=3 10.1.0.12:8080=3 10.1.0.13:8080=1\n");
  EXPECT_EQ(option(c, "policy"), "nginx-least-conn@27");
  EXPECT_EQ(option(c, "slow-start"), "45@28");
  EXPECT_EQ(option(c, "curve"), "linear@25");
  EXPECT_EQ(option(c, "health"), "nginx@25");
  EXPECT_EQ(option(c, "max-fails"), "2@28");
  EXPECT_EQ(option(c, "fail-timeout"), "20@28");
  // The location's 1500ms overrides http's 10s; next_upstream is inherited
  // from http (it has `timeout`), tries 3: two retries.
  EXPECT_EQ(option(c, "timeout-ms"), "1500@52");
  EXPECT_EQ(option(c, "retries"), "2@53");
  EXPECT_TRUE(ignored(c, 13, "include /etc/nginx/mime.types"));
  EXPECT_TRUE(ignored(c, 57, "include /etc/nginx/snippets/errors.conf"));
  EXPECT_TRUE(ignored(c, 26, "zone checkout 64k"));
  EXPECT_TRUE(ignored(c, 30, "max_conns=200"));
  EXPECT_TRUE(ignored(c, 31, "backup"));
  EXPECT_TRUE(ignored(c, 32, "keepalive 16"));
  EXPECT_TRUE(ignored(c, 51, "proxy_connect_timeout 2s"));
  EXPECT_TRUE(ignored(c, 54, "proxy_set_header Host $host"));
  EXPECT_TRUE(noted(c, "not read: upstream static_files"));
  EXPECT_TRUE(noted(c, "open-source nginx rejects it"));
}

TEST(SystemImport, NginxOtherUpstreamByName) {
  const ImportedConfig c = read(fixture("nginx-plus.conf"), ConfigFormat::Nginx, "static_files");
  EXPECT_EQ(pool_of(c), "POOL 10.1.1.10:80=1\n");
  EXPECT_EQ(option(c, "timeout-ms"), "10000@22");  // http's, inherited by its location
  EXPECT_EQ(option(c, "retries"), "0@23");          // one server: nothing to retry on
  EXPECT_EQ(c.find("slow-start"), nullptr);
  EXPECT_TRUE(noted(c, "a single server: nginx never marks it unavailable"));
}

TEST(SystemImport, NginxSiteFileWithNginxDefaults) {
  const ImportedConfig c = read(fixture("nginx-site.conf"));
  EXPECT_EQ(pool_of(c), "POOL unix:/run/app/a.sock=1 unix:/run/app/b.sock=1 127.0.0.1:9000=1\nDOWN 127.0.0.1:9000\n");
  EXPECT_EQ(option(c, "policy"), "wrr@2");
  EXPECT_EQ(option(c, "max-fails"), "1@3");      // nginx's defaults
  EXPECT_EQ(option(c, "fail-timeout"), "10@3");
  EXPECT_EQ(option(c, "timeout-ms"), "60000@15");  // proxy_read_timeout 60s, at the proxy_pass
  EXPECT_EQ(option(c, "retries"), "0@16");         // proxy_next_upstream off
  EXPECT_EQ(c.find("timeout-ms")->source, "proxy_read_timeout 60s (nginx's default)");
}

TEST(SystemImport, NginxStreamUpstream) {
  const ImportedConfig c = read(fixture("nginx-stream.conf"));
  EXPECT_EQ(pool_of(c), "POOL db1.internal:5432=2 db2.internal:5432=1\n");
  EXPECT_EQ(option(c, "timeout-ms"), "30000@10");
  EXPECT_EQ(option(c, "retries"), "0@9");
  EXPECT_TRUE(ignored(c, 3, "hash $remote_addr consistent"));
  EXPECT_TRUE(ignored(c, 11, "proxy_connect_timeout 1s"));
}

TEST(SystemImport, NginxSyntaxAsNginxReadsIt) {
  // Quotes, escapes, a '#' inside a word, ${var}, comments after a ';',
  // directives on one line, CRLF endings.
  const std::string text =
      "http { upstream u { server \"a b\" weight=2; server c#d; server 'e;f'; # comment\r\n"
      "server g weight=3 ; } server { location / { set $x 1; proxy_pass http://u${x}; } } }\r\n";
  const ImportedConfig c = read(text, ConfigFormat::Nginx, "u");
  EXPECT_EQ(pool_of(c), "POOL a_b=2 c#d=1 e;f=1 g=3\n");  // a name has no blank: '_'
}

TEST(SystemImport, NginxErrorsNameTheLineAndColumn) {
  ConfigError e = error_of("http {\n  upstream u {\n    server a weight=0;\n  }\n}\n", ConfigFormat::Nginx);
  EXPECT_EQ(e.line, 3u);
  EXPECT_EQ(e.column, 14u);
  EXPECT_EQ(e.message, "invalid weight '0'");
  e = error_of("upstream u {\n  server a\n}\n", ConfigFormat::Nginx);
  EXPECT_EQ(e.line, 3u);
  EXPECT_EQ(e.message, "unexpected '}': 'server' has no ';'");
  e = error_of("upstream u {\n  server a;\n", ConfigFormat::Nginx);
  EXPECT_EQ(e.line, 1u);
  EXPECT_EQ(e.column, 1u);
  EXPECT_EQ(e.message, "unexpected end of file: the block of 'upstream' is not closed with '}'");
  e = error_of("upstream u { server a max_fails=x; }", ConfigFormat::Nginx);
  EXPECT_EQ(e.message, "invalid max_fails 'x'");
  e = error_of("upstream u { server \"a; }", ConfigFormat::Nginx);
  EXPECT_EQ(e.column, 21u);
  EXPECT_EQ(e.message, "unclosed quote \"");
  e = error_of("upstream u { server 'a'\\;b; }", ConfigFormat::Nginx);  // nginx: unexpected "\"
  EXPECT_EQ(e.column, 24u);
  EXPECT_EQ(e.message, "unexpected '\\' after a quoted word");
  // A server line that lost its ';' swallows the next one: nginx refuses it
  // (invalid parameter "server"), and so does the reader, at that word.
  e = error_of("upstream u {\n  server a:1 weight=2\n  server b:1;\n}\n", ConfigFormat::Nginx);
  EXPECT_EQ(e.line, 3u);
  EXPECT_EQ(e.column, 3u);
  EXPECT_EQ(e.message, "invalid parameter 'server' of the server on line 2 (a ';' missing at its end?)");
  e = error_of("upstream u { server a; }", ConfigFormat::Nginx, "v");
  EXPECT_EQ(e.message, "no upstream named 'v' (the file has: u)");
  e = error_of("http { server { listen 80; } }", ConfigFormat::Nginx);
  EXPECT_EQ(e.message, "no upstream block and no proxy_pass to an address: nothing to read");
}

// ---- HAProxy -------------------------------------------------------------------

TEST(SystemImport, HAProxyChoosesTheDefaultBackend) {
  const ImportedConfig c = read(fixture("haproxy.cfg"));
  EXPECT_EQ(c.pool, "web");
  EXPECT_EQ(pool_of(c), "POOL web1=1 web2=1\n");
  // `backend web` inherits the last defaults before it, api_defaults.
  EXPECT_EQ(option(c, "timeout-ms"), "1500@18");
  EXPECT_EQ(option(c, "health"), "none@29");  // check, but no observe layer7
  EXPECT_TRUE(noted(c, "active checks only"));
  EXPECT_TRUE(noted(c, "not read: backend api"));
  // The global section is said too (its maxconn and the like are the process's): nothing dropped silently.
  EXPECT_TRUE(noted(c, "not read: global"));
}

TEST(SystemImport, HAProxyBackendWithDefaultServerAndTemplate) {
  const ImportedConfig c = read(fixture("haproxy.cfg"), std::nullopt, "api");
  EXPECT_EQ(pool_of(c), "POOL api1=10 api2=10 api3=5 api-dns1=5 api-dns2=5\nDOWN api3\n");
  EXPECT_EQ(option(c, "curve"), "haproxy@34");
  EXPECT_EQ(option(c, "policy"), "haproxy-leastconn@35");
  EXPECT_EQ(option(c, "slow-start"), "60@40");
  EXPECT_EQ(option(c, "health"), "haproxy@34");
  EXPECT_EQ(option(c, "error-limit"), "5@40");
  EXPECT_EQ(option(c, "on-error"), "fastinter@40");
  EXPECT_EQ(option(c, "inter"), "3@40");
  EXPECT_EQ(option(c, "fastinter"), "1@40");
  EXPECT_EQ(option(c, "downinter"), "5@40");
  EXPECT_EQ(option(c, "rise"), "3@40");
  EXPECT_EQ(option(c, "fall"), "2@40");
  EXPECT_EQ(option(c, "timeout-ms"), "1500@18");  // "1500ms   # the API ...": the inline comment is not part of it
  EXPECT_EQ(option(c, "retries"), "2@20");        // retry-on has response-timeout; option redispatch
  EXPECT_TRUE(ignored(c, 36, "hash-type consistent"));
  EXPECT_TRUE(ignored(c, 37, "option httpchk GET /healthz"));
  EXPECT_TRUE(ignored(c, 41, "maxconn 500"));
  EXPECT_TRUE(ignored(c, 43, "resolvers consul"));
  EXPECT_TRUE(ignored(c, 44, "backup"));
  EXPECT_TRUE(ignored(c, 16, "timeout connect 2s"));
  EXPECT_FALSE(ignored(c, 10, "timeout connect 5s"));  // the other defaults section is not this backend's
}

// H8: slowstart ramps only dynamic algorithms. balance source (map-based
// hashing, HAProxy's default hash-type) is static: its stand-in, weighted
// round robin, gets no slow start, and the note says why; with hash-type
// consistent, and with first, HAProxy ramps, and so does the stand-in.
TEST(SystemImport, HAProxyStaticAlgorithmsDoNotRamp) {
  const std::string servers = " default-server slowstart 30s\n server a x:1\n server c y:1\n";
  for (const char* algo : {"source", "uri", "hdr(host)", "url_param userid", "rdp-cookie"}) {
    const ImportedConfig c = read(std::string("backend b\n balance ") + algo + "\n" + servers, ConfigFormat::HAProxy);
    EXPECT_EQ(option(c, "policy"), "wrr@2") << algo;
    EXPECT_EQ(option(c, "slow-start"), "(unset)") << algo;
    EXPECT_TRUE(noted(c, "ramps only dynamic algorithms (not this balance): no slow start is set on the lab's stand-in")) << algo;
  }
  ImportedConfig c = read("backend b\n balance source\n hash-type consistent\n" + servers, ConfigFormat::HAProxy);
  EXPECT_EQ(option(c, "slow-start"), "30@5");  // the first server's line
  EXPECT_FALSE(noted(c, "ramps only dynamic algorithms"));
  c = read("backend b\n balance first\n" + servers, ConfigFormat::HAProxy);
  EXPECT_EQ(option(c, "slow-start"), "30@4");
  // static-rr is the lab's own policy, which never ramps (H8): the window is kept, and said.
  c = read("backend b\n balance static-rr\n" + servers, ConfigFormat::HAProxy);
  EXPECT_EQ(option(c, "policy"), "static-rr@2");
  EXPECT_EQ(option(c, "slow-start"), "30@4");
  EXPECT_TRUE(noted(c, "ramps only dynamic algorithms (not this balance)"));
}

TEST(SystemImport, HAProxyDefaultsAndRetryRules) {
  // No retry-on: connection failures only (HAProxy's default), so timeouts are not retried.
  ImportedConfig c = read("defaults\n timeout server 2s\n retries 3\nbackend b\n server a 1.1.1.1:80\n server c 1.1.1.2:80\n",
                          ConfigFormat::HAProxy);
  EXPECT_EQ(option(c, "retries"), "0@3");
  EXPECT_EQ(option(c, "timeout-ms"), "2000@2");
  EXPECT_EQ(option(c, "policy"), "wrr@4");  // balance roundrobin, HAProxy's default
  // No timeout server: HAProxy waits forever; a bare number is milliseconds.
  c = read("backend b\n server a x:1 check observe layer7 inter 1500\n server c y:1\n", ConfigFormat::HAProxy);
  EXPECT_EQ(option(c, "timeout-ms"), "0@1");
  EXPECT_EQ(option(c, "inter"), "1.5@2");
  EXPECT_EQ(option(c, "error-limit"), "10@2");     // HAProxy's defaults
  EXPECT_EQ(option(c, "on-error"), "fail-check@2");
  EXPECT_TRUE(noted(c, "only some servers observe layer7"));
  // random draws two by default: the power of two choices.
  c = read("backend b\n balance random\n server a x:1\n server c y:1\n", ConfigFormat::HAProxy);
  EXPECT_EQ(option(c, "policy"), "p2c@2");
  c = read("backend b\n balance random(1)\n server a x:1\n server c y:1\n", ConfigFormat::HAProxy);
  EXPECT_EQ(option(c, "policy"), "random@2");
}

TEST(SystemImport, HAProxyQuotingAndComments) {
  const ImportedConfig c = read(
      "backend b # a comment\n"
      "  server a\\ b 1.1.1.1:80 weight 2#3\n"
      "  server 'c#d' 1.1.1.2:80 \"weight\" '4'\n"
      "  server \"e\\\"f\" 1.1.1.3:80\n",
      ConfigFormat::HAProxy);
  EXPECT_EQ(pool_of(c), "POOL a_b=2 c#d=4 e\"f=1\n");
}

TEST(SystemImport, HAProxyErrors) {
  ConfigError e = error_of("backend b\n  server a 1.1.1.1:80 weight \"3\n", ConfigFormat::HAProxy);
  EXPECT_EQ(e.line, 2u);
  EXPECT_EQ(e.column, 30u);
  EXPECT_EQ(e.message, "unclosed quote \"");
  e = error_of("backend b\n  server a 1.1.1.1:80 inter 2x\n", ConfigFormat::HAProxy);
  EXPECT_EQ(e.line, 2u);
  EXPECT_EQ(e.column, 29u);
  EXPECT_EQ(e.message, "invalid time '2x' (HAProxy's: 500ms, 2s, 1m)");
  e = error_of("backend b\n  server a 1.1.1.1:80 weight 300\n", ConfigFormat::HAProxy);
  EXPECT_EQ(e.message, "invalid number '300'");
  e = error_of("  server a 1.1.1.1:80\n", ConfigFormat::HAProxy);
  EXPECT_EQ(e.line, 1u);
  EXPECT_EQ(e.column, 3u);
  e = error_of("backend b\n  server a 1.1.1.1:80 observe\n", ConfigFormat::HAProxy);
  EXPECT_EQ(e.message, "'observe' needs a value");
  e = error_of("backend b\n  server a 1.1.1.1:80\n", ConfigFormat::HAProxy, "c");
  EXPECT_EQ(e.message, "no backend or listen section named 'c' (the file has: b)");
  // A statement with a word too many says so, on its line (the fuzzer's find:
  // a control byte in `retries 2\x10 ...` made one statement of two lines'
  // words, and the import failed with no message at all).
  e = error_of("defaults\n  retries 2\x10  retry-on conn-failure\nbackend b\n  server a 1.1.1.1:80\n", ConfigFormat::HAProxy);
  EXPECT_EQ(e.line, 2u);
  EXPECT_EQ(e.column, 3u);
  EXPECT_EQ(e.message, "retries takes one value");
  e = error_of("backend b\n  srvtimeout 2s 3s\n  server a 1.1.1.1:80\n", ConfigFormat::HAProxy);
  EXPECT_EQ(e.line, 2u);
  EXPECT_EQ(e.message, "srvtimeout takes one value");
}

// ---- Envoy -------------------------------------------------------------------

TEST(SystemImport, EnvoyBootstrapClusterAndItsRoute) {
  const ImportedConfig c = read(fixture("envoy-bootstrap.yaml"));
  EXPECT_EQ(c.pool, "orders");  // web has one endpoint; orders has a route and three
  // The DRAINING endpoint starts down; priority 1 is left out (listed).
  EXPECT_EQ(pool_of(c), "POOL 10.3.0.1:8000=2 orders-b=2 10.3.0.3:8000=1\nDOWN 10.3.0.3:8000\n");
  EXPECT_EQ(option(c, "policy"), "least-request@57");
  EXPECT_EQ(option(c, "choice-count"), "3@59");
  EXPECT_EQ(option(c, "bias"), "1.5@60");
  EXPECT_EQ(option(c, "slow-start"), "60@64");
  EXPECT_EQ(option(c, "aggression"), "2@65");
  EXPECT_EQ(option(c, "min-weight"), "5@68");
  EXPECT_EQ(option(c, "panic-threshold"), "30@71");
  EXPECT_EQ(option(c, "health"), "envoy@74");
  EXPECT_EQ(option(c, "consecutive-5xx"), "3@75");
  EXPECT_EQ(option(c, "interval"), "5@76");
  EXPECT_EQ(option(c, "base-ejection-time"), "15@77");
  EXPECT_EQ(option(c, "max-ejection-time"), "120@78");
  EXPECT_EQ(option(c, "max-ejection-percent"), "50@79");
  EXPECT_EQ(option(c, "always-eject-one-host"), "@80");
  EXPECT_EQ(option(c, "max-retries-in-flight"), "5@86");  // simulate's --max-retries-in-flight
  // per_try_timeout 0.8s is each try's timeout; 5xx retries two (three endpoints).
  EXPECT_EQ(option(c, "timeout-ms"), "800@30");
  EXPECT_EQ(option(c, "retries"), "2@30");
  EXPECT_EQ(option(c, "retry-other-host"), "@34");  // previous_hosts: the lab's own option, not an ignored line
  EXPECT_FALSE(ignored(c, 33, "retry_host_predicate"));
  EXPECT_TRUE(ignored(c, 113, "priority 1"));
  EXPECT_TRUE(ignored(c, 81, "consecutive_gateway_failure"));
  EXPECT_TRUE(ignored(c, 87, "priority HIGH"));
  EXPECT_TRUE(ignored(c, 54, "connect_timeout: 0.25s"));
  EXPECT_TRUE(noted(c, "not read: cluster web"));
}

TEST(SystemImport, EnvoyJsonWithProtobufNamesAndTypedPolicy) {
  const ImportedConfig c = read(fixture("envoy-cluster.json"));
  EXPECT_EQ(pool_of(c), "POOL 10.5.0.1:443=1 10.5.0.2:443=3\n");
  EXPECT_EQ(option(c, "policy"), "wrr@7");
  EXPECT_EQ(c.find("policy")->source, "load_balancing_policy RoundRobin");
  EXPECT_EQ(option(c, "slow-start"), "20@13");
  EXPECT_EQ(option(c, "min-weight"), "10@14");
  EXPECT_EQ(option(c, "consecutive-5xx"), "7@22");
  EXPECT_EQ(option(c, "base-ejection-time"), "10@23");
  EXPECT_EQ(option(c, "timeout-ms"), "15000@1");  // no route: Envoy's default route timeout
}

TEST(SystemImport, EnvoyDiscoveryResponse) {
  const ImportedConfig c = read(fixture("envoy-cds.yaml"));
  EXPECT_EQ(pool_of(c), "POOL 10.6.0.1:9200=1 10.6.0.2:9200=1\n");
  EXPECT_EQ(option(c, "policy"), "random@10");
  EXPECT_TRUE(ignored(c, 6, "eds_cluster_config"));
}

TEST(SystemImport, EnvoyRetriesNeedAPerTryTimeout) {
  const std::string cluster =
      "clusters:\n- name: c\n  load_assignment:\n    endpoints:\n    - lb_endpoints:\n"
      "      - endpoint: {address: {socket_address: {address: a, port_value: 1}}}\n"
      "      - endpoint: {address: {socket_address: {address: b, port_value: 1}}}\n"
      "routes:\n- route: {cluster: c, timeout: 2s, retry_policy: {retry_on: 5xx, num_retries: 3}}\n";
  const ImportedConfig c = read(cluster, ConfigFormat::Envoy);
  EXPECT_EQ(option(c, "timeout-ms"), "2000@9");
  EXPECT_EQ(option(c, "retries"), "0@9");
  EXPECT_TRUE(noted(c, "without per_try_timeout"));
}

// The route's retry back-off and host predicate are the lab's
// --retry-back-off-ms and --retry-other-host (docs/proxy-rules.md E15);
// without previous_hosts, Envoy may retry the same host, and a note says so.
TEST(SystemImport, EnvoyRetryBackOffAndHostPredicate) {
  const std::string head =
      "clusters:\n- name: c\n  outlier_detection: {consecutive_5xx: 2}\n  load_assignment:\n    endpoints:\n    - lb_endpoints:\n"
      "      - endpoint: {address: {socket_address: {address: a, port_value: 1}}}\n"
      "      - endpoint: {address: {socket_address: {address: b, port_value: 1}}}\n"
      "      - endpoint: {address: {socket_address: {address: d, port_value: 1}}}\n"
      "routes:\n- route:\n    cluster: c\n    retry_policy:\n      retry_on: 5xx\n      num_retries: 2\n      per_try_timeout: 0.5s\n";
  ImportedConfig c = read(head + "      retry_back_off: {base_interval: 0.1s, max_interval: 2s}\n", ConfigFormat::Envoy);
  EXPECT_EQ(option(c, "retry-back-off-ms"), "100@17");
  EXPECT_EQ(option(c, "retry-other-host"), "(unset)");
  EXPECT_TRUE(noted(c, "max_interval 2s: the lab's back-off stops at 10 times base_interval (1s)"));
  EXPECT_TRUE(noted(c, "Envoy may retry the same host"));
  c = read(head + "      retry_host_predicate:\n      - name: envoy.retry_host_predicates.previous_hosts\n"
                  "      - name: envoy.retry_host_predicates.omit_canary_hosts\n",
           ConfigFormat::Envoy);
  EXPECT_EQ(option(c, "retry-other-host"), "@18");
  EXPECT_EQ(option(c, "retry-back-off-ms"), "(unset)");
  EXPECT_TRUE(ignored(c, 19, "omit_canary_hosts"));
  EXPECT_FALSE(noted(c, "Envoy may retry the same host"));
}

TEST(SystemImport, EnvoyErrors) {
  ConfigError e = error_of("name: c\nlb_policy: ROUND_ROBIN\nload_assignment:\n  endpoints:\n  - lb_endpoints:\n"
                           "    - endpoint: {address: {socket_address: {address: a, port_value: 1}}}\n"
                           "round_robin_lb_config:\n  slow_start_config:\n    slow_start_window: 30\n",
                           ConfigFormat::Envoy);
  EXPECT_EQ(e.line, 9u);
  EXPECT_EQ(e.column, 24u);
  EXPECT_EQ(e.message, "slow_start_window: expected a duration in seconds such as \"30s\" or \"0.25s\", got '30'");
  e = error_of("clusters:\n- name: c\n\tlb_policy: RANDOM\n", ConfigFormat::Envoy);
  EXPECT_EQ(e.line, 3u);
  EXPECT_EQ(e.message, "tab in indentation (YAML indents with spaces)");
  e = error_of("{\"name\": \"c\", \"lb_policy\": \"RANDOM\"", ConfigFormat::Envoy);
  EXPECT_EQ(e.line, 1u);
  EXPECT_EQ(e.column, 1u);
  EXPECT_EQ(e.message, "unclosed {");
  e = error_of("admin: {}\n", ConfigFormat::Envoy);
  EXPECT_EQ(e.message, "no cluster in the file (a bootstrap's static_resources.clusters, a cluster, or a list of them)");
}

// ---- Caddy -------------------------------------------------------------------

TEST(SystemImport, CaddyfileReverseProxy) {
  const ImportedConfig c = read(fixture("Caddyfile"));
  EXPECT_EQ(c.pool, "api.example.com");
  EXPECT_EQ(pool_of(c), "POOL 10.7.0.1:9000=5 10.7.0.2:9000=5 10.7.0.3:9000=2\n");
  EXPECT_EQ(option(c, "policy"), "wrr@22");
  EXPECT_EQ(option(c, "slow-start"), "40@28");
  EXPECT_EQ(option(c, "curve"), "linear@20");
  EXPECT_EQ(option(c, "health"), "nginx@25");
  EXPECT_EQ(option(c, "max-fails"), "4@26");
  EXPECT_EQ(option(c, "fail-timeout"), "20@25");
  EXPECT_EQ(option(c, "timeout-ms"), "2000@33");
  EXPECT_EQ(option(c, "retries"), "1@23");
  EXPECT_EQ(option(c, "unhealthy-latency-ms"), "3000@27");  // docs/proxy-rules.md C1
  EXPECT_TRUE(ignored(c, 29, "health_uri /health"));
  EXPECT_TRUE(ignored(c, 18, "import logging"));
  EXPECT_TRUE(noted(c, "lb_slow_start is the proposal's"));
  EXPECT_TRUE(noted(c, "an approximation"));
}

// unhealthy_latency counts a slow answer as a failure (C1): a passive check
// with no response timeout still has failures to count, so it stays on; with
// no fail_duration the check is off and the directive is listed as ignored.
TEST(SystemImport, CaddyUnhealthyLatencyWithoutATimeout) {
  ImportedConfig c = read("a.com {\n  reverse_proxy x:1 y:1 {\n    fail_duration 30s\n    max_fails 3\n"
                          "    unhealthy_latency 750ms\n  }\n}\n",
                          ConfigFormat::Caddy);
  EXPECT_EQ(option(c, "health"), "nginx@3");
  EXPECT_EQ(option(c, "max-fails"), "3@4");
  EXPECT_EQ(option(c, "unhealthy-latency-ms"), "750@5");
  EXPECT_EQ(option(c, "timeout-ms"), "0@2");
  EXPECT_TRUE(noted(c, "only responses slower than unhealthy_latency count as failures"));
  c = read("a.com {\n  reverse_proxy x:1 y:1 {\n    unhealthy_latency 750ms\n  }\n}\n", ConfigFormat::Caddy);
  EXPECT_EQ(option(c, "health"), "none@2");
  EXPECT_EQ(option(c, "unhealthy-latency-ms"), "(unset)");
  EXPECT_TRUE(ignored(c, 3, "unhealthy_latency 750ms"));
}

TEST(SystemImport, CaddyfileOneSiteWithoutBraces) {
  const ImportedConfig c = read("localhost:8080\n\nreverse_proxy /api/* app1:9000 app2:9000\n", ConfigFormat::Caddy);
  EXPECT_EQ(c.pool, "localhost:8080");
  EXPECT_EQ(pool_of(c), "POOL app1:9000=1 app2:9000=1\n");
  EXPECT_EQ(option(c, "policy"), "random@3");  // Caddy's default
  EXPECT_EQ(option(c, "timeout-ms"), "0@3");
  EXPECT_EQ(option(c, "retries"), "0@3");
}

TEST(SystemImport, CaddyErrors) {
  ConfigError e = error_of("a.com {\n  reverse_proxy x:1 y:1 {\n    lb_policy weighted_round_robin 1\n  }\n}\n",
                           ConfigFormat::Caddy);
  EXPECT_EQ(e.line, 3u);
  EXPECT_EQ(e.column, 5u);
  EXPECT_EQ(e.message, "weighted_round_robin needs one weight per upstream (2)");
  e = error_of("a.com {\n  reverse_proxy x:1 {\n    fail_duration 30\n  }\n}\n", ConfigFormat::Caddy);
  EXPECT_EQ(e.line, 3u);
  EXPECT_EQ(e.column, 19u);
  EXPECT_EQ(e.message, "invalid duration '30' (Caddy's: 250ms, 30s, 1m)");
  // Caddy has no module for it and refuses the file; a policy it has but the lab lacks is a stand-in, listed.
  e = error_of("a.com {\n  reverse_proxy x:1 y:1 {\n    lb_policy bogus_policy\n  }\n}\n", ConfigFormat::Caddy);
  EXPECT_EQ(e.line, 3u);
  EXPECT_EQ(e.column, 15u);
  EXPECT_EQ(e.message.rfind("unknown lb_policy 'bogus_policy' (Caddy's: random, random_choose, ", 0), 0u) << e.message;
  const ImportedConfig c = read("a.com {\n  reverse_proxy x:1 y:1 {\n    lb_policy ip_hash\n  }\n}\n", ConfigFormat::Caddy);
  EXPECT_EQ(option(c, "policy"), "random@3");
  EXPECT_TRUE(ignored(c, 3, "lb_policy ip_hash"));
  e = error_of("a.com {\n  reverse_proxy x:1\n", ConfigFormat::Caddy);
  EXPECT_EQ(e.message, "unexpected end of file: the block of 'a.com' is not closed with '}'");
}

// ---- ALB -----------------------------------------------------------------------

TEST(SystemImport, AlbAsCliCalls) {
  const ImportedConfig c = read(fixture("alb-cli.sh"));
  EXPECT_EQ(pool_of(c), "POOL i-0a1b2c3d4e5f60001:8080=1 i-0a1b2c3d4e5f60002:8080=1 i-0a1b2c3d4e5f60003:8080=1\n");
  EXPECT_EQ(option(c, "slow-start"), "120@4");
  EXPECT_EQ(option(c, "policy"), "wrr@4");
  EXPECT_EQ(option(c, "timeout-ms"), "20000@7");
  EXPECT_EQ(option(c, "retries"), "0@4");
  EXPECT_EQ(option(c, "health"), "none@4");
  EXPECT_TRUE(ignored(c, 5, "deregistration_delay.timeout_seconds=30"));
}

TEST(SystemImport, AlbAsJsonAndTerraform) {
  ImportedConfig c = read(fixture("alb-target-group.json"));
  EXPECT_EQ(c.servers.size(), 0u);
  EXPECT_EQ(option(c, "slow-start"), "300@4");
  EXPECT_EQ(option(c, "policy"), "random@5");
  EXPECT_TRUE(ignored(c, 6, "anomaly_mitigation"));
  c = read(fixture("alb.tf"));
  EXPECT_EQ(pool_of(c), "POOL i-0123456789abcdef0=1\n");
  EXPECT_EQ(option(c, "slow-start"), "90@7");
  EXPECT_EQ(option(c, "policy"), "least-conn@8");
  EXPECT_TRUE(noted(c, "AWS does not allow slow start with least_outstanding_requests"));
}

TEST(SystemImport, AlbLimits) {
  const ConfigError e = error_of("--attributes Key=slow_start.duration_seconds,Value=10\n", ConfigFormat::Alb);
  EXPECT_EQ(e.line, 1u);
  EXPECT_EQ(e.column, 14u);
  EXPECT_EQ(e.message, "slow_start.duration_seconds must be 0 (off) or 30 to 900, got '10'");
}

// ---- durations and names -----------------------------------------------------

TEST(SystemImport, EachSoftwaresDurations) {
  double s = 0;
  EXPECT_TRUE(nginx_seconds("1m30s", s) && s == 90);
  EXPECT_TRUE(nginx_seconds("500ms", s) && s == 0.5);
  EXPECT_TRUE(nginx_seconds("30", s) && s == 30);  // nginx: seconds
  EXPECT_FALSE(nginx_seconds("1.5s", s));          // nginx takes whole numbers
  EXPECT_TRUE(haproxy_seconds("1500", s) && s == 1.5);  // HAProxy: milliseconds
  EXPECT_TRUE(haproxy_seconds("2m", s) && s == 120);
  EXPECT_FALSE(haproxy_seconds("1m30s", s));
  EXPECT_TRUE(go_seconds("1h2m0.5s", s) && s == 3720.5);
  EXPECT_TRUE(go_seconds("0", s) && s == 0);
  EXPECT_FALSE(go_seconds("30", s));  // Go wants a unit
  EXPECT_TRUE(envoy_seconds("0.25s", s) && s == 0.25);
  EXPECT_FALSE(envoy_seconds("250ms", s));
}

TEST(SystemImport, NamesFitTheScript) {
  std::vector<std::string> taken;
  EXPECT_EQ(script_name("a=b c", "x", taken), "a_b_c");
  EXPECT_EQ(script_name("a=b c", "x", taken), "a_b_c#2");
  EXPECT_EQ(script_name("", "x", taken), "x");
  EXPECT_EQ(script_name("\x01\xff", "x", taken), "__");
  EXPECT_EQ(script_name("\xE2\x80\xAE", "x", taken), "_");  // a bidirectional control
}

}  // namespace
}  // namespace slowstart::system
