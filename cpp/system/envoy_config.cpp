#include "system/envoy_config.hpp"

#include <algorithm>
#include <cmath>

#include "system/config_text.hpp"
#include "system/yaml_tree.hpp"
#include "traffic/traffic.hpp"

namespace slowstart::system {

namespace {

// The route that sends to the cluster, and the virtual host's retry policy
// it inherits.
struct RouteUse {
  const YamlNode* action = nullptr;    // the `route:` map
  const YamlNode* vhost_retry = nullptr;
};

bool has_any(const YamlNode& n, std::initializer_list<std::string_view> keys) {
  for (const std::string_view k : keys)
    if (n.get(k)) return true;
  return false;
}

bool looks_like_cluster(const YamlNode& n) {
  return n.is_map() && n.get("name") &&
         has_any(n, {"load_assignment", "lb_policy", "connect_timeout", "type", "hosts", "cluster_type",
                     "outlier_detection", "eds_cluster_config", "load_balancing_policy"});
}

std::size_t endpoint_count(const YamlNode& cluster) {
  std::size_t n = 0;
  const YamlNode* la = cluster.get("load_assignment");
  const YamlNode* list = la ? la->get("endpoints") : nullptr;
  if (list && list->is_seq())
    for (const YamlNode& locality : list->seq)
      if (const YamlNode* lbs = locality.get("lb_endpoints"); lbs && lbs->is_seq()) n += lbs->seq.size();
  return n;
}

std::string_view text_of(const YamlNode* n) { return n && n->is_scalar() ? std::string_view(n->text) : std::string_view(); }

// Protobuf's JSON names are lowerCamelCase ("lbPolicy", "consecutive5xx"),
// and Envoy takes both: a key without '_' becomes its proto field name
// (a digit run before "xx", the 5xx family, gets its '_' back too).
void proto_names(YamlNode& n) {
  for (YamlEntry& e : n.map) {
    std::string& k = e.key;
    if (!k.empty() && k[0] != '@' && k.find('_') == std::string::npos) {
      std::string snake;
      for (std::size_t i = 0; i < k.size(); ++i) {
        const char c = k[i];
        const bool after_letter = i > 0 && ((k[i - 1] >= 'a' && k[i - 1] <= 'z') || (k[i - 1] >= 'A' && k[i - 1] <= 'Z'));
        if (c >= 'A' && c <= 'Z') snake += '_', snake += static_cast<char>(c - 'A' + 'a');
        else if (c >= '0' && c <= '9' && after_letter && k.compare(i + 1, 2, "xx") == 0) snake += '_', snake += c;
        else snake += c;
      }
      k = std::move(snake);
    }
    proto_names(e.value);
  }
  for (YamlNode& c : n.seq) proto_names(c);
}

class EnvoyReader {
 public:
  EnvoyReader(ImportedConfig& out, ConfigError& error) : out_(out), error_(error) {}

  bool read(std::string_view text, std::string_view pool) {
    out_ = ImportedConfig{};
    out_.format = ConfigFormat::Envoy;
    YamlError ye;
    if (!read_yaml(text, root_, ye)) return fail(ye.line, ye.column, ye.message);
    proto_names(root_);
    collect_clusters(root_);
    if (clusters_.empty()) return fail(0, 0, "no cluster in the file (a bootstrap's static_resources.clusters, a cluster, or a list of them)");
    find_routes(root_, nullptr);
    const YamlNode* cluster = nullptr;
    if (!pool.empty()) {
      for (const YamlNode* c : clusters_)
        if (text_of(c->get("name")) == pool) cluster = c;
      if (!cluster) return fail(0, 0, "no cluster named " + quote(pool) + " (the file has: " + names() + ")");
    } else {
      // The clusters routes send to, then the others: the first with two
      // endpoints or more, else the first.
      std::vector<const YamlNode*> candidates;
      for (const auto& [name, use] : routes_)
        for (const YamlNode* c : clusters_)
          if (text_of(c->get("name")) == name) candidates.push_back(c);
      candidates.insert(candidates.end(), clusters_.begin(), clusters_.end());
      for (const YamlNode* c : candidates)
        if (!cluster && endpoint_count(*c) >= 2) cluster = c;
      if (!cluster) cluster = candidates.front();
    }
    out_.pool = std::string(text_of(cluster->get("name")));
    for (const YamlNode* c : clusters_)
      if (c != cluster)
        out_.note(c->line, std::string("not read: cluster ") + std::string(text_of(c->get("name"))) + " (choose it with --from-pool " +
                               std::string(text_of(c->get("name"))) + ")");
    return read_cluster(*cluster) && read_route(*cluster);
  }

 private:
  bool fail(std::uint32_t line, std::uint32_t column, std::string message) {
    error_ = ConfigError{line, column, std::move(message)};
    return false;
  }
  bool fail_at(const YamlNode& n, std::string_view field, std::string_view expected) {
    std::string got = n.is_scalar() ? quote(n.text) : n.is_map() ? "a mapping" : n.is_seq() ? "a list" : "nothing";
    return fail(n.line, n.column, std::string(field) + ": expected " + std::string(expected) + ", got " + got);
  }

  std::string names() const {
    std::string s;
    for (const YamlNode* c : clusters_) s += (s.empty() ? "" : ", ") + directive_text(text_of(c->get("name")));
    return s;
  }

  void collect_clusters(const YamlNode& root) {
    if (root.is_seq()) {
      for (const YamlNode& n : root.seq)
        if (looks_like_cluster(n)) clusters_.push_back(&n);
      return;
    }
    if (!root.is_map()) return;
    if (const YamlNode* s = root.get("static_resources")) {
      if (const YamlNode* c = s->get("clusters"); c && c->is_seq())
        for (const YamlNode& n : c->seq)
          if (n.is_map()) clusters_.push_back(&n);
      return;
    }
    if (const YamlNode* r = root.get("resources"); r && r->is_seq()) {
      for (const YamlNode& n : r->seq) {
        const std::string_view type = text_of(n.get("@type"));
        if (type.find("Cluster") != std::string_view::npos || looks_like_cluster(n)) clusters_.push_back(&n);
      }
      return;
    }
    if (const YamlNode* c = root.get("clusters"); c && c->is_seq()) {
      for (const YamlNode& n : c->seq)
        if (n.is_map()) clusters_.push_back(&n);
      return;
    }
    if (looks_like_cluster(root)) clusters_.push_back(&root);
  }

  // Every route action that names a cluster (or weighted clusters), with
  // its virtual host's retry_policy.
  void find_routes(const YamlNode& n, const YamlNode* vhost_retry) {
    if (n.is_map()) {
      if (n.get("routes") && n.get("retry_policy")) vhost_retry = n.get("retry_policy");
      if (const YamlNode* r = n.get("route"); r && r->is_map()) {
        if (const YamlNode* c = r->get("cluster"); c && c->is_scalar()) routes_.emplace_back(c->text, RouteUse{r, vhost_retry});
        if (const YamlNode* w = r->get("weighted_clusters"))
          if (const YamlNode* list = w->get("clusters"); list && list->is_seq())
            for (const YamlNode& c : list->seq)
              if (const YamlNode* name = c.get("name"); name && name->is_scalar())
                routes_.emplace_back(name->text, RouteUse{r, vhost_retry});
      }
      for (const YamlEntry& e : n.map) find_routes(e.value, vhost_retry);
    } else if (n.is_seq()) {
      for (const YamlNode& c : n.seq) find_routes(c, vhost_retry);
    }
  }

  // ---- values -------------------------------------------------------------

  bool duration(const YamlNode& n, std::string_view field, double& seconds) {
    if (n.is_scalar() && envoy_seconds(n.text, seconds)) return true;
    if (n.is_map()) {  // {seconds: 1, nanos: 500000000}
      double s = 0, ns = 0;
      const YamlNode* sec = n.get("seconds");
      const YamlNode* nan = n.get("nanos");
      if ((sec || nan) && (!sec || number_of(*sec, s)) && (!nan || number_of(*nan, ns))) {
        seconds = s + ns / 1e9;
        return true;
      }
    }
    return fail_at(n, field, "a duration in seconds such as \"30s\" or \"0.25s\"");
  }
  static bool number_of(const YamlNode& n, double& v) { return n.is_scalar() && decimal_number(n.text, v); }
  bool number(const YamlNode& n, std::string_view field, double& v) {
    if (number_of(n, v)) return true;
    return fail_at(n, field, "a number");
  }
  // A wrapped number (UInt32Value, Percent, DoubleValue) as {value: N} or N;
  // a RuntimeDouble as {default_value: N}.
  bool wrapped(const YamlNode& n, std::string_view field, double& v) {
    if (number_of(n, v)) return true;
    if (n.is_map()) {
      if (const YamlNode* x = n.get("value"); x && number_of(*x, v)) return true;
      if (const YamlNode* x = n.get("default_value"); x && number_of(*x, v)) return true;
    }
    return fail_at(n, field, "a number or {value: N}");
  }
  bool boolean(const YamlNode& n, std::string_view field, bool& v) {
    const YamlNode* x = n.is_map() ? n.get("value") : &n;
    if (x && x->is_scalar() && (x->text == "true" || x->text == "True")) return v = true, true;
    if (x && x->is_scalar() && (x->text == "false" || x->text == "False")) return v = false, true;
    return fail_at(n, field, "true or false");
  }

  void ignore_entry(const YamlEntry& e, std::string_view parent, std::string_view why = "not modelled") {
    std::string shown = std::string(parent) + e.key;
    if (e.value.is_scalar()) shown += std::string(": ") + e.value.text;
    out_.ignore(e.line, std::string("`") + directive_text(shown) + "` (" + std::string(why) + ")");
  }

  // ---- the cluster ----------------------------------------------------------

  bool read_cluster(const YamlNode& c) {
    const std::uint32_t line = c.line;
    out_.set("curve", "envoy", line, "slow_start_config: Envoy's curve");
    std::string policy = "ROUND_ROBIN";
    std::uint32_t policy_line = line;
    std::string policy_source;  // empty: "lb_policy <name>"
    const YamlNode* policy_config = nullptr;  // round_robin_lb_config / least_request_lb_config / typed_config
    for (const YamlEntry& e : c.map) {
      const std::string& k = e.key;
      if (k == "name" || k == "@type") continue;
      if (k == "lb_policy") {
        if (!e.value.is_scalar()) return fail_at(e.value, "lb_policy", "a policy name");
        policy = e.value.text;
        policy_line = e.line;
      } else if (k == "round_robin_lb_config" || k == "least_request_lb_config") {
        if (!policy_config) policy_config = &e.value;
      } else if (k == "load_balancing_policy") {
        if (!typed_policy(e.value, policy, policy_line, policy_config, policy_source)) return false;
      } else if (k == "load_assignment") {
        if (!endpoints(e.value)) return false;
      } else if (k == "hosts") {
        if (!legacy_hosts(e)) return false;
      } else if (k == "outlier_detection") {
        if (!outlier(e)) return false;
      } else if (k == "common_lb_config") {
        if (!common_lb(e.value)) return false;
      } else if (k == "circuit_breakers") {
        if (!breakers(e.value)) return false;
      } else if (k == "health_checks") {
        out_.ignore(e.line, "`health_checks` (active checks: the lab's backends always pass them)");
      } else {
        ignore_entry(e, "");
      }
    }
    if (out_.servers.empty())
      return fail(line, 0, std::string("cluster ") + out_.pool + " has no endpoints the lab can use (load_assignment)");
    // The policy.
    if (policy_source.empty()) policy_source = "lb_policy " + directive_text(policy);
    if (policy == "ROUND_ROBIN") {
      out_.set("policy", "wrr", policy_line, policy_source);
    } else if (policy == "LEAST_REQUEST") {
      out_.set("policy", "least-request", policy_line, policy_source);
    } else if (policy == "RANDOM") {
      out_.set("policy", "random", policy_line, policy_source);
    } else {
      out_.set("policy", "wrr", policy_line, std::string("round robin in place of ") + policy);
      out_.ignore(policy_line, std::string("`lb_policy: ") + directive_text(policy) + "` (not modelled: the lab balances by weighted round robin instead)");
    }
    if (policy_config && !lb_config(*policy_config, policy)) return false;
    return true;
  }

  // load_balancing_policy: {policies: [{typed_extension_config: {typed_config: {"@type": ...}}}]}:
  // the first policy the lab knows.
  bool typed_policy(const YamlNode& n, std::string& policy, std::uint32_t& line, const YamlNode*& config,
                    std::string& source) {
    const YamlNode* list = n.get("policies");
    if (!list || !list->is_seq()) return fail_at(n, "load_balancing_policy", "{policies: [...]}");
    for (const YamlNode& p : list->seq) {
      const YamlNode* ext = p.get("typed_extension_config");
      const YamlNode* typed = ext ? ext->get("typed_config") : nullptr;
      const std::string_view type = typed ? text_of(typed->get("@type")) : std::string_view();
      std::string name;
      if (type.find("round_robin") != std::string_view::npos || type.find("RoundRobin") != std::string_view::npos) name = "ROUND_ROBIN";
      else if (type.find("least_request") != std::string_view::npos || type.find("LeastRequest") != std::string_view::npos) name = "LEAST_REQUEST";
      else if (type.find("random") != std::string_view::npos || type.find("Random") != std::string_view::npos) name = "RANDOM";
      if (name.empty()) {
        out_.ignore(p.line, std::string("`") + directive_text(std::string(type)) + "` (a load_balancing_policy the lab does not model)");
        continue;
      }
      policy = name;
      line = p.line;
      config = typed;
      source = "load_balancing_policy " + directive_text(type.substr(type.rfind('.') + 1));
      return true;
    }
    return true;
  }

  bool lb_config(const YamlNode& n, const std::string& policy) {
    for (const YamlEntry& e : n.map) {
      if (e.key == "@type") continue;
      if (e.key == "slow_start_config") {
        if (!slow_start(e.value)) return false;
      } else if (e.key == "choice_count" && policy == "LEAST_REQUEST") {
        double v = 0;
        if (!wrapped(e.value, "choice_count", v)) return false;
        out_.set("choice-count", number_text(v), e.line, std::string("choice_count: ") + number_text(v));
      } else if (e.key == "active_request_bias" && policy == "LEAST_REQUEST") {
        double v = 0;
        if (!wrapped(e.value, "active_request_bias", v)) return false;
        out_.set("bias", number_text(v), e.line, std::string("active_request_bias: ") + number_text(v));
      } else {
        ignore_entry(e, "");
      }
    }
    return true;
  }

  bool slow_start(const YamlNode& n) {
    for (const YamlEntry& e : n.map) {
      double v = 0;
      if (e.key == "slow_start_window") {
        if (!duration(e.value, "slow_start_window", v)) return false;
        out_.set("slow-start", number_text(v), e.line, std::string("slow_start_window: ") + number_text(v) + "s");
      } else if (e.key == "aggression") {
        if (!wrapped(e.value, "aggression", v)) return false;
        out_.set("aggression", number_text(v), e.line, std::string("aggression: ") + number_text(v));
        if (e.value.is_map() && e.value.get("runtime_key"))
          out_.note(e.line, "aggression's runtime_key is not read: its default_value is used");
      } else if (e.key == "min_weight_percent") {
        if (!wrapped(e.value, "min_weight_percent", v)) return false;
        out_.set("min-weight", number_text(v), e.line, std::string("min_weight_percent: ") + number_text(v));
      } else {
        ignore_entry(e, "slow_start_config.");
      }
    }
    if (!out_.find("slow-start")) out_.note(n.line, "slow_start_config without slow_start_window: no slow start");
    return true;
  }

  bool endpoints(const YamlNode& la) {
    const YamlNode* list = la.get("endpoints");
    if (!list) return true;
    if (!list->is_seq()) return fail_at(*list, "endpoints", "a list");
    for (const YamlNode& locality : list->seq) {
      double priority = 0;
      if (const YamlNode* p = locality.get("priority"); p && !number(*p, "priority", priority)) return false;
      const YamlNode* lbs = locality.get("lb_endpoints");
      if (!lbs) continue;
      if (!lbs->is_seq()) return fail_at(*lbs, "lb_endpoints", "a list");
      if (locality.get("load_balancing_weight"))
        out_.ignore(locality.get("load_balancing_weight")->line, "`load_balancing_weight` of a locality (not modelled)");
      for (const YamlNode& lb : lbs->seq) {
        std::string name;
        const YamlNode* ep = lb.get("endpoint");
        if (ep) {
          const YamlNode* addr = ep->get("address");
          const YamlNode* sock = addr ? addr->get("socket_address") : nullptr;
          const YamlNode* pipe = addr ? addr->get("pipe") : nullptr;
          if (const YamlNode* h = ep->get("hostname"); h && h->is_scalar() && !h->text.empty()) name = h->text;
          else if (sock) name = std::string(text_of(sock->get("address"))) + ":" + std::string(text_of(sock->get("port_value")));
          else if (pipe) name = std::string("unix:") + std::string(text_of(pipe->get("path")));
        }
        double weight = 1;
        if (const YamlNode* w = lb.get("load_balancing_weight"); w && !wrapped(*w, "load_balancing_weight", weight))
          return false;
        if (weight < 1 || weight > 1'000'000 || weight != std::floor(weight))
          return fail_at(*lb.get("load_balancing_weight"), "load_balancing_weight", "a whole number from 1");
        if (priority > 0) {
          out_.ignore(lb.line, std::string("`") + directive_text(name) + "` at priority " + number_text(priority) +
                                   " (failover priorities are not modelled; left out of the pool)");
          continue;
        }
        bool down = false;
        if (const YamlNode* hs = lb.get("health_status"))
          down = hs->is_scalar() && (hs->text == "UNHEALTHY" || hs->text == "DRAINING" || hs->text == "TIMEOUT");
        out_.servers.push_back(ImportedServer{script_name(name, "endpoint", taken_), static_cast<std::uint32_t>(weight), down, lb.line});
      }
    }
    return true;
  }

  bool legacy_hosts(const YamlEntry& e) {
    if (!e.value.is_seq()) return fail_at(e.value, "hosts", "a list");
    out_.note(e.line, "hosts: the v2 field, read as endpoints of weight 1 (v3 uses load_assignment)");
    for (const YamlNode& h : e.value.seq) {
      const YamlNode* sock = h.get("socket_address");
      const std::string name = sock ? std::string(text_of(sock->get("address"))) + ":" + std::string(text_of(sock->get("port_value"))) : "";
      out_.servers.push_back(ImportedServer{script_name(name, "endpoint", taken_), 1, false, h.line});
    }
    return true;
  }

  bool outlier(const YamlEntry& od) {
    out_.set("health", "envoy", od.line, "outlier_detection");
    const YamlNode& n = od.value;
    struct Field {
      const char* key;
      const char* option;
      bool is_duration;
    };
    static constexpr Field kFields[] = {
        {"consecutive_5xx", "consecutive-5xx", false},       {"interval", "interval", true},
        {"base_ejection_time", "base-ejection-time", true},   {"max_ejection_time", "max-ejection-time", true},
        {"max_ejection_percent", "max-ejection-percent", false},
        {"success_rate_minimum_hosts", "success-rate-minimum-hosts", false},
        {"success_rate_request_volume", "success-rate-request-volume", false},
        {"success_rate_stdev_factor", "success-rate-stdev-factor", false},
        {"enforcing_success_rate", "enforcing-success-rate", false},
    };
    for (const YamlEntry& e : n.map) {
      const Field* f = std::find_if(std::begin(kFields), std::end(kFields), [&](const Field& x) { return e.key == x.key; });
      double v = 0;
      if (f != std::end(kFields)) {
        if (f->is_duration ? !duration(e.value, e.key, v) : !wrapped(e.value, e.key, v)) return false;
        out_.set(f->option, number_text(v), e.line, e.key + ": " + (f->is_duration ? number_text(v) + "s" : number_text(v)));
      } else if (e.key == "always_eject_one_host") {
        bool b = false;
        if (!boolean(e.value, e.key, b)) return false;
        if (b) out_.set("always-eject-one-host", "", e.line, "always_eject_one_host: true");
      } else if (e.key == "enforcing_consecutive_5xx") {
        if (!wrapped(e.value, e.key, v)) return false;
        if (v < 100) {
          out_.note(e.line, std::string("enforcing_consecutive_5xx ") + number_text(v) + " %: the lab enforces every detection" +
                                (v == 0 ? " (here none would eject)" : ""));
          if (v == 0) out_.set("health", "none", e.line, "enforcing_consecutive_5xx: 0");
        }
      } else {
        ignore_entry(e, "outlier_detection.");
      }
    }
    return true;
  }

  bool common_lb(const YamlNode& n) {
    for (const YamlEntry& e : n.map) {
      if (e.key == "healthy_panic_threshold") {
        double v = 0;
        if (!wrapped(e.value, e.key, v)) return false;
        out_.set("panic-threshold", number_text(v), e.line, std::string("healthy_panic_threshold: ") + number_text(v));
      } else {
        ignore_entry(e, "common_lb_config.");
      }
    }
    return true;
  }

  bool breakers(const YamlNode& n) {
    const YamlNode* list = n.get("thresholds");
    for (const YamlEntry& e : n.map)
      if (e.key != "thresholds") ignore_entry(e, "circuit_breakers.");
    if (!list) return true;
    if (!list->is_seq()) return fail_at(*list, "thresholds", "a list");
    for (const YamlNode& t : list->seq) {
      const std::string_view priority = text_of(t.get("priority"));
      if (!priority.empty() && priority != "DEFAULT") {
        out_.ignore(t.line, std::string("`circuit_breakers` of priority ") + directive_text(priority) + " (not modelled)");
        continue;
      }
      for (const YamlEntry& e : t.map) {
        double v = 0;
        if (e.key == "priority") continue;
        if (e.key == "max_retries") {
          if (!wrapped(e.value, e.key, v)) return false;
          out_.set("max-retries-in-flight", number_text(v), e.line, std::string("circuit_breakers max_retries: ") + number_text(v));
        } else if (e.key == "retry_budget") {
          double percent = 20, min_concurrency = 3;
          if (const YamlNode* p = e.value.get("budget_percent"); p && !wrapped(*p, "budget_percent", percent)) return false;
          if (const YamlNode* m = e.value.get("min_retry_concurrency"); m && !wrapped(*m, "min_retry_concurrency", min_concurrency))
            return false;
          out_.set("retry-budget", "", e.line, "retry_budget");
          out_.set("retry-budget-percent", number_text(percent), e.line, std::string("retry_budget budget_percent: ") + number_text(percent));
          out_.set("min-retry-concurrency", number_text(min_concurrency), e.line,
                   std::string("retry_budget min_retry_concurrency: ") + number_text(min_concurrency));
        } else {
          ignore_entry(e, "circuit_breakers.");
        }
      }
    }
    return true;
  }

  // ---- the route ------------------------------------------------------------

  bool read_route(const YamlNode& cluster) {
    const RouteUse* use = nullptr;
    for (const auto& [name, u] : routes_)
      if (name == out_.pool) {
        if (!use) use = &u;
        else if (u.action != use->action)
          out_.note(u.action->line, std::string("another route also sends to ") + out_.pool + ": the lab reads the first's (line " +
                                        std::to_string(use->action->line) + ") timeout and retries");
      }
    if (!use) {
      out_.set("timeout-ms", "15000", cluster.line, "route timeout 15s (Envoy's default; the file has no route to this cluster)");
      out_.set("retries", "0", cluster.line, "no retry_policy (no route in the file)");
      return true;
    }
    const YamlNode& r = *use->action;
    double timeout = 15;
    std::uint32_t timeout_line = r.line;
    std::string timeout_source = "route timeout 15s (Envoy's default)";
    if (const YamlNode* t = r.get("timeout")) {
      if (!duration(*t, "timeout", timeout)) return false;
      timeout_line = t->line;
      timeout_source = std::string("route timeout: ") + number_text(timeout) + "s";
    }
    const YamlNode* policy = r.get("retry_policy");
    if (!policy) policy = use->vhost_retry;
    double per_try = 0, retries = 0;
    bool retriable = false;
    std::uint32_t retry_line = r.line;
    if (policy) {
      retry_line = policy->line;
      retries = 1;
      if (const YamlNode* n = policy->get("num_retries"); n && !wrapped(*n, "num_retries", retries)) return false;
      if (const YamlNode* p = policy->get("per_try_timeout"); p && !duration(*p, "per_try_timeout", per_try)) return false;
      const std::string_view on = text_of(policy->get("retry_on"));
      for (std::size_t start = 0; start <= on.size();) {
        std::size_t end = on.find(',', start);
        if (end == std::string_view::npos) end = on.size();
        std::string_view cond = on.substr(start, end - start);
        while (!cond.empty() && cond.front() == ' ') cond.remove_prefix(1);
        while (!cond.empty() && cond.back() == ' ') cond.remove_suffix(1);
        retriable |= cond == "5xx" || cond == "gateway-error";
        start = end + 1;
      }
      // The lab has both (with --health envoy, docs/proxy-rules.md E15):
      // previous_hosts is --retry-other-host, retry_back_off's base_interval
      // --retry-back-off-ms (its max_interval fixed at 10 times it, Envoy's default).
      bool other_host = false;
      for (const YamlEntry& e : policy->map) {
        if (e.key == "retry_host_predicate" && e.value.is_seq()) {
          for (const YamlNode& pred : e.value.seq) {
            const YamlNode* typed = pred.get("typed_config");
            const std::string_view type = typed ? text_of(typed->get("@type")) : std::string_view();
            if (text_of(pred.get("name")) == "envoy.retry_host_predicates.previous_hosts" ||
                type.ends_with(".PreviousHostsPredicate")) {
              other_host = true;
              out_.set("retry-other-host", "", pred.line, "retry_host_predicate: previous_hosts");
            } else {
              out_.ignore(pred.line, std::string("`retry_host_predicate ") + directive_text(text_of(pred.get("name"))) + "` (not modelled)");
            }
          }
        } else if (e.key == "retry_back_off" && e.value.is_map()) {
          double base = 0.025;
          if (const YamlNode* b = e.value.get("base_interval"); b && !duration(*b, "base_interval", base)) return false;
          out_.set("retry-back-off-ms", number_text(base * 1000), e.line, std::string("retry_back_off base_interval: ") + number_text(base) + "s");
          double most = 0;
          if (const YamlNode* m = e.value.get("max_interval")) {
            if (!duration(*m, "max_interval", most)) return false;
            if (std::abs(most - 10 * base) > 1e-9)
              out_.note(m->line, std::string("max_interval ") + number_text(most) + "s: the lab's back-off stops at 10 times base_interval (" +
                                     number_text(10 * base) + "s), Envoy's default");
          }
          for (const YamlEntry& b : e.value.map)
            if (b.key != "base_interval" && b.key != "max_interval") ignore_entry(b, "retry_policy.retry_back_off.");
        } else if (e.key != "num_retries" && e.key != "per_try_timeout" && e.key != "retry_on") {
          ignore_entry(e, "retry_policy.");
        }
      }
      if (!other_host && retries > 0)
        out_.note(retry_line, "without retry_host_predicate previous_hosts Envoy may retry the same host (the lab too under outlier_detection; "
                              "without it the lab retries another)");
    }
    // A timed-out attempt is retried only when each try has its own timeout
    // (per_try_timeout) and retry_on counts its 504.
    if (per_try > 0) {
      out_.set("timeout-ms", number_text(per_try * 1000), retry_line, std::string("per_try_timeout: ") + number_text(per_try) + "s");
      if (timeout > 0 && timeout < per_try * (retries + 1))
        out_.note(timeout_line, std::string("the route's timeout (") + number_text(timeout) +
                                    "s) ends a request before all its tries: the lab has no overall deadline");
    } else {
      out_.set("timeout-ms", number_text(timeout * 1000), timeout_line, timeout_source);
    }
    std::uint64_t lab = 0;
    if (policy && retries > 0) {
      if (per_try <= 0) {
        out_.note(retry_line, "retry_policy without per_try_timeout: a timed-out request has used the route's whole "
                              "timeout and is not retried");
      } else if (!retriable) {
        out_.note(retry_line, "retry_on has neither 5xx nor gateway-error: a timed-out try is not retried");
      } else {
        lab = std::min<std::uint64_t>({static_cast<std::uint64_t>(retries), out_.servers.size() - 1, kMaxRetries});
        if (lab < retries)
          out_.note(retry_line, std::string("num_retries ") + number_text(retries) + ": the lab retries each request at most " +
                                    std::to_string(lab) + " times, on other hosts");
      }
    }
    out_.set("retries", std::to_string(lab), retry_line,
             policy ? std::string("retry_policy num_retries: ") + number_text(retries) : "no retry_policy");
    return true;
  }

  ImportedConfig& out_;
  ConfigError& error_;
  YamlNode root_;
  std::vector<const YamlNode*> clusters_;
  std::vector<std::pair<std::string, RouteUse>> routes_;
  std::vector<std::string> taken_;
};

}  // namespace

bool read_envoy(std::string_view text, std::string_view pool, ImportedConfig& out, ConfigError& error) {
  return EnvoyReader(out, error).read(text, pool);
}

}  // namespace slowstart::system
