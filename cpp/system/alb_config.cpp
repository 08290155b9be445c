#include "system/alb_config.hpp"

#include <algorithm>

#include "system/config_text.hpp"
#include "system/yaml_tree.hpp"

namespace slowstart::system {

namespace {

struct Pair {
  std::string key, value;
  std::uint32_t line = 0, column = 0;
};

struct Found {
  std::vector<Pair> attributes;  // Key, Value
  std::vector<Pair> targets;     // Id (value: the port, if any)
};

bool word_byte(char c) { return c != ' ' && c != '\t' && c != '\n' && c != '\r' && c != '\'' && c != '"' && c != '\\'; }

// The CLI's shorthand (Key=k,Value=v and Id=x[,Port=n]) and Terraform's
// `slow_start = 60`, line by line.
void scan_lines(std::string_view text, Found& found) {
  std::uint32_t line = 0;
  for (std::size_t start = 0; start < text.size();) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view l = text.substr(start, end - start);
    ++line;
    for (std::size_t i = 0; i < l.size(); ++i) {
      if (i > 0 && word_byte(l[i - 1])) continue;  // at the start of a word only
      std::size_t j = i;
      while (j < l.size() && word_byte(l[j])) ++j;
      const std::string_view w = l.substr(i, j - i);
      const auto field = [&](std::string_view name) -> std::string {
        const std::size_t at = w.find(name);
        if (at == std::string_view::npos || (at > 0 && w[at - 1] != ',')) return "";
        const std::size_t from = at + name.size();
        return std::string(w.substr(from, w.find(',', from) - from));
      };
      if (w.rfind("Key=", 0) == 0 && w.find(",Value=") != std::string_view::npos)
        found.attributes.push_back(Pair{field("Key="), field("Value="), line, static_cast<std::uint32_t>(i + 1)});
      else if (w.rfind("Id=", 0) == 0)
        found.targets.push_back(Pair{field("Id="), field("Port="), line, static_cast<std::uint32_t>(i + 1)});
      i = j;
    }
    // Terraform: name = value
    std::string_view t = l;
    while (!t.empty() && (t.front() == ' ' || t.front() == '\t')) t.remove_prefix(1);
    for (const std::string_view key : {"slow_start", "load_balancing_algorithm_type", "idle_timeout", "target_id"}) {
      if (t.substr(0, key.size()) != key) continue;
      std::string_view rest = t.substr(key.size());
      while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
      if (rest.empty() || rest.front() != '=') continue;
      rest.remove_prefix(1);
      while (!rest.empty() && (rest.front() == ' ' || rest.front() == '"')) rest.remove_prefix(1);
      std::size_t e = 0;
      while (e < rest.size() && rest[e] != '"' && rest[e] != ' ' && rest[e] != '\r' && rest[e] != '#') ++e;
      const std::string value(rest.substr(0, e));
      const auto column = static_cast<std::uint32_t>(l.size() - t.size() + 1);
      if (key == "slow_start") found.attributes.push_back(Pair{"slow_start.duration_seconds", value, line, column});
      else if (key == "load_balancing_algorithm_type") found.attributes.push_back(Pair{"load_balancing.algorithm.type", value, line, column});
      else if (key == "idle_timeout") found.attributes.push_back(Pair{"idle_timeout.timeout_seconds", value, line, column});
      else found.targets.push_back(Pair{value, "", line, column});
    }
    start = end + 1;
  }
}

// JSON or YAML: every {Key, Value} map, every {Id[, Port]} map.
void scan_tree(const YamlNode& n, Found& found) {
  if (n.is_map()) {
    const YamlNode* k = n.get("Key");
    const YamlNode* v = n.get("Value");
    const YamlNode* id = n.get("Id");
    if (k && v && k->is_scalar()) found.attributes.push_back(Pair{k->text, v->is_scalar() ? v->text : "", n.line, n.column});
    else if (id && id->is_scalar())
      found.targets.push_back(Pair{id->text, n.get("Port") && n.get("Port")->is_scalar() ? n.get("Port")->text : "", n.line, n.column});
    for (const YamlEntry& e : n.map) scan_tree(e.value, found);
  } else if (n.is_seq()) {
    for (const YamlNode& c : n.seq) scan_tree(c, found);
  }
}

}  // namespace

bool read_alb(std::string_view text, ImportedConfig& out, ConfigError& error) {
  out = ImportedConfig{};
  out.format = ConfigFormat::Alb;
  out.pool = "target group";
  Found found;
  YamlNode tree;
  YamlError ye;
  if (read_yaml(text, tree, ye) && (tree.is_map() || tree.is_seq())) scan_tree(tree, found);
  if (found.attributes.empty() && found.targets.empty()) scan_lines(text, found);
  if (found.attributes.empty() && found.targets.empty()) {
    error = ConfigError{0, 0, "no target group attributes or targets (Key=slow_start.duration_seconds,Value=N, "
                              "{\"Key\": ..., \"Value\": ...}, or Terraform's slow_start = N)"};
    return false;
  }
  const std::uint32_t first = found.attributes.empty() ? found.targets.front().line : found.attributes.front().line;
  out.set("curve", "linear", first, "ALB's slow start ramps linearly");
  out.set("policy", "wrr", first, "load_balancing.algorithm.type round_robin (ALB's default)");
  out.set("health", "none", first, "ALB's health checks are active only (the lab's backends always pass them)");
  out.set("timeout-ms", "60000", first, "idle_timeout.timeout_seconds 60 (ALB's default)");
  out.set("retries", "0", first, "an ALB does not retry a timed-out request");
  for (const Pair& a : found.attributes) {
    const std::string shown = directive_text(a.key + "=" + a.value);
    if (a.key == "slow_start.duration_seconds") {
      std::uint64_t s = 0;
      if (!whole_number(a.value, 1'000'000, s) || (s != 0 && (s < kAlbMinSlowStart || s > kAlbMaxSlowStart))) {
        error = ConfigError{a.line, a.column, std::string("slow_start.duration_seconds must be 0 (off) or 30 to 900, got ") + quote(a.value)};
        return false;
      }
      if (s > 0) out.set("slow-start", std::to_string(s), a.line, shown);
    } else if (a.key == "load_balancing.algorithm.type") {
      const std::string policy = a.value == "round_robin" ? "wrr" : a.value == "least_outstanding_requests" ? "least-conn"
                                 : a.value == "weighted_random" ? "random" : "";
      if (policy.empty()) {
        error = ConfigError{a.line, a.column, std::string("load_balancing.algorithm.type must be round_robin, "
                                              "least_outstanding_requests or weighted_random, got ") + quote(a.value)};
        return false;
      }
      out.set("policy", policy, a.line, shown);
    } else if (a.key == "idle_timeout.timeout_seconds") {
      double s = 0;
      if (!decimal_number(a.value, s)) {
        error = ConfigError{a.line, a.column, std::string("idle_timeout.timeout_seconds takes a number of seconds, got ") + quote(a.value)};
        return false;
      }
      out.set("timeout-ms", number_text(s * 1000), a.line, shown);
    } else {
      out.ignore(a.line, std::string("`") + shown + "` (not modelled)");
    }
  }
  if (out.find("slow-start") && out.find("policy")->value == "least-conn")
    out.note(out.find("slow-start")->line, "AWS does not allow slow start with least_outstanding_requests");
  std::vector<std::string> taken;
  for (const Pair& t : found.targets) {
    const std::string raw = t.value.empty() ? t.key : t.key + ":" + t.value;
    out.servers.push_back(ImportedServer{script_name(raw, "target", taken), 1, false, t.line});
  }
  if (out.servers.empty()) out.note(first, "no targets: the script's POOL gives the pool");
  return true;
}

}  // namespace slowstart::system
