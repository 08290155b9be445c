#include "system/import_config.hpp"

#include <array>
#include <string>
#include <vector>

#include "system/alb_config.hpp"
#include "system/config_text.hpp"
#include "system/caddy_config.hpp"
#include "system/envoy_config.hpp"
#include "system/haproxy_config.hpp"
#include "system/nginx_config.hpp"

namespace slowstart::system {

namespace {

bool has(std::string_view text, std::string_view what) { return text.find(what) != std::string_view::npos; }

// A YAML key ("key:") or a JSON one ("\"key\"").
bool has_key(std::string_view text, std::string_view key) {
  std::string yaml(key), json = "\"";
  yaml += ':';
  json.append(key);
  json += '"';
  return has(text, yaml) || has(text, json);
}

// The first word of each line, and whether the line ends in ';' or '{'.
struct LineShape {
  std::string_view first;
  char last = 0;
};

std::vector<LineShape> shapes(std::string_view text, std::size_t limit) {
  std::vector<LineShape> out;
  for (std::size_t start = 0; start < text.size() && out.size() < limit;) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view l = text.substr(start, end - start);
    start = end + 1;
    const std::size_t hash = l.find('#');
    if (hash != std::string_view::npos) l = l.substr(0, hash);
    while (!l.empty() && (l.front() == ' ' || l.front() == '\t')) l.remove_prefix(1);
    while (!l.empty() && (l.back() == ' ' || l.back() == '\t' || l.back() == '\r')) l.remove_suffix(1);
    if (l.empty()) continue;
    std::size_t w = 0;
    while (w < l.size() && l[w] != ' ' && l[w] != '\t') ++w;
    out.push_back(LineShape{l.substr(0, w), l.back()});
  }
  return out;
}

}  // namespace

Problem detect_format(std::string_view text, ConfigFormat& out) {
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  // Scores, by evidence that only that format has.
  std::array<int, 5> score{};
  auto& nginx = score[static_cast<int>(ConfigFormat::Nginx)];
  auto& haproxy = score[static_cast<int>(ConfigFormat::HAProxy)];
  auto& envoy = score[static_cast<int>(ConfigFormat::Envoy)];
  auto& caddy = score[static_cast<int>(ConfigFormat::Caddy)];
  auto& alb = score[static_cast<int>(ConfigFormat::Alb)];
  if (has(text, "slow_start.duration_seconds") || has(text, "elbv2") || has(text, "aws_lb_target_group") ||
      has(text, "load_balancing.algorithm.type") || has(text, "AWS::ElasticLoadBalancingV2"))
    alb += 10;
  for (const std::string_view key : {"static_resources", "lb_policy", "load_assignment", "lb_endpoints",
                                     "outlier_detection", "envoy.config.cluster", "connect_timeout"})
    if (has_key(text, key)) envoy += 3;
  for (const LineShape& l : shapes(text, 5000)) {
    const std::string_view w = l.first;
    if (w == "upstream" || w == "proxy_pass" || w == "http" || w == "events" || w == "location" ||
        w == "worker_processes" || w == "grpc_pass" || w == "fastcgi_pass")
      nginx += 2;
    if (l.last == ';') ++nginx;
    if (w == "backend" || w == "defaults" || w == "frontend" || w == "listen" || w == "global" ||
        w == "default-server" || w == "balance" || w == "server-template")
      if (l.last != '{' && l.last != ';') haproxy += 2;
    if (w == "reverse_proxy" || w == "lb_policy" || w == "lb_slow_start" || w == "handle" || w == "route" ||
        w == "respond" || w == "file_server" || w == "to")
      if (l.last != ';') caddy += 2;
  }
  if (caddy > 0 && nginx > caddy) caddy = 0;
  // JSON (Envoy's, when it is not an ALB's): a '[' first, or a '{' whose next word is a quoted key
  // or its end. A Caddyfile may open with a '{' too, its global options block, whose words are bare.
  if (const std::size_t first = text.find_first_not_of(" \t\r\n"); first != std::string_view::npos && alb == 0) {
    const std::size_t next = text.find_first_not_of(" \t\r\n", first + 1);
    const char after = next == std::string_view::npos ? '}' : text[next];
    if (text[first] == '[' || (text[first] == '{' && (after == '"' || after == '}'))) envoy += 5;
  }
  int best = -1, best_score = 0;
  bool tie = false;
  for (int f = 0; f < 5; ++f) {
    if (score[f] > best_score) best = f, best_score = score[f], tie = false;
    else if (score[f] == best_score && best_score > 0) tie = true;
  }
  if (best < 0 || tie)
    return std::string("cannot tell the file's format: name it with --from-format nginx, haproxy, envoy, caddy or alb");
  out = static_cast<ConfigFormat>(best);
  return std::nullopt;
}

bool import_config(std::string_view text, std::optional<ConfigFormat> format, std::string_view pool,
                   ImportedConfig& out, ConfigError& error) {
  ConfigFormat f{};
  if (format) {
    f = *format;
  } else if (Problem p = detect_format(text, f)) {
    error = ConfigError{0, 0, *p};
    out = ImportedConfig{};
    return false;
  }
  bool read = false;
  switch (f) {
    case ConfigFormat::Nginx: read = read_nginx(text, pool, out, error); break;
    case ConfigFormat::HAProxy: read = read_haproxy(text, pool, out, error); break;
    case ConfigFormat::Envoy: read = read_envoy(text, pool, out, error); break;
    case ConfigFormat::Caddy: read = read_caddy(text, pool, out, error); break;
    case ConfigFormat::Alb: read = read_alb(text, out, error); break;
  }
  if (!read) {  // nothing half-read is left behind
    out = ImportedConfig{};
    out.format = f;
    error.message = printable(error.message);
  }
  return read;
}

}  // namespace slowstart::system
