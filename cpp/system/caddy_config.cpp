#include "system/caddy_config.hpp"

#include <algorithm>
#include <cmath>

#include "system/block_syntax.hpp"
#include "system/config_text.hpp"
#include "traffic/traffic.hpp"

namespace slowstart::system {

namespace {

struct Proxy {
  const ConfigDirective* d;
  std::string site;  // the site's addresses, joined
};

bool is_matcher(const std::string& w) { return w == "*" || (!w.empty() && (w[0] == '/' || w[0] == '@')); }

std::size_t upstream_count(const ConfigDirective& rp) {
  std::size_t n = rp.words.size() > 1 && is_matcher(rp.words[1].text) ? rp.words.size() - 2 : rp.words.size() - 1;
  for (const ConfigDirective& d : rp.block)
    if (d.name() == "to") n += d.words.size() - 1;
  return n;
}

class CaddyReader {
 public:
  CaddyReader(ImportedConfig& out, ConfigError& error) : out_(out), error_(error) {}

  bool read(std::string_view text, std::string_view pool) {
    out_ = ImportedConfig{};
    out_.format = ConfigFormat::Caddy;
    if (!read_caddy_syntax(text, tree_, error_)) return false;
    sites();
    if (proxies_.empty()) return fail(0, 0, "no reverse_proxy in the Caddyfile: nothing to read");
    // The site asked for, or the first reverse_proxy with two upstreams or more, else the first.
    const Proxy* chosen = nullptr;
    for (const Proxy& p : proxies_)
      if (!chosen && (pool.empty() ? upstream_count(*p.d) >= 2 : p.site == pool)) chosen = &p;
    if (!chosen && pool.empty()) chosen = &proxies_.front();
    if (!chosen) {
      std::string sites;
      for (const Proxy& p : proxies_) sites += (sites.empty() ? "" : ", ") + directive_text(p.site);
      return fail(0, 0, "no reverse_proxy in a site named " + quote(pool) + " (the file has: " + sites + ")");
    }
    for (const Proxy& p : proxies_)
      if (&p != chosen)
        out_.note(p.d->line, std::string("not read: the reverse_proxy of ") + p.site + " (line " + std::to_string(p.d->line) +
                                 "; choose a site with --from-pool)");
    out_.pool = chosen->site;
    return read_proxy(*chosen->d);
  }

 private:
  bool fail(std::uint32_t line, std::uint32_t column, std::string message) {
    error_ = ConfigError{line, column, std::move(message)};
    return false;
  }
  bool fail_at(const ConfigWord& w, std::string message) { return fail(w.line, w.column, std::move(message)); }

  // Site blocks: "addr, addr { ... }"; one site may go without braces.
  void sites() {
    bool any_block = false;
    for (const ConfigDirective& d : tree_) {
      if (d.name().empty() && d.has_block) continue;  // the global options
      if (!d.name().empty() && d.name()[0] == '(') continue;  // a snippet
      any_block |= d.has_block;
    }
    for (std::size_t i = 0; i < tree_.size(); ++i) {
      const ConfigDirective& d = tree_[i];
      if (d.name() == "import") out_.ignore(d.line, std::string("`") + directive_text(d.text()) + "` (not followed: give the imported file itself)");
      if (d.name().empty() && d.has_block) {
        out_.note(d.line, "the global options block is not read");
        continue;
      }
      if (!d.name().empty() && d.name()[0] == '(') {
        out_.note(d.line, std::string("snippet ") + d.name() + " is not read (imports are not followed)");
        continue;
      }
      if (any_block) {
        if (d.has_block) find(d.block, address(d));
        else if (d.name() == "reverse_proxy") proxies_.push_back(Proxy{&d, "(top level)"});
      } else {
        // No braces: the first line is the site's address, the rest its directives.
        const std::string site = address(tree_[0]);
        for (std::size_t k = 1; k < tree_.size(); ++k) find_one(tree_[k], site);
        return;
      }
    }
  }
  static std::string address(const ConfigDirective& d) {
    std::string s;
    for (const ConfigWord& w : d.words) {
      std::string a = w.text;
      if (!a.empty() && a.back() == ',') a.pop_back();
      if (!a.empty()) s += (s.empty() ? "" : ",") + a;
    }
    return s.empty() ? "(no address)" : s;
  }
  void find(const std::vector<ConfigDirective>& list, const std::string& site) {
    for (const ConfigDirective& d : list) find_one(d, site);
  }
  void find_one(const ConfigDirective& d, const std::string& site) {
    if (d.name() == "reverse_proxy") proxies_.push_back(Proxy{&d, site});
    else if (d.name() == "import") out_.ignore(d.line, std::string("`") + directive_text(d.text()) + "` (not followed: give the imported file itself)");
    else if (d.has_block) find(d.block, site);
  }

  bool duration(const ConfigWord& w, double& seconds) {
    if (!go_seconds(w.text, seconds)) return fail_at(w, std::string("invalid duration ") + quote(w.text) + " (Caddy's: 250ms, 30s, 1m)");
    return true;
  }
  bool one_value(const ConfigDirective& d) {
    if (d.words.size() != 2) return fail_at(d.words[0], d.name() + " takes one value");
    return true;
  }

  bool read_proxy(const ConfigDirective& rp) {
    std::vector<const ConfigWord*> upstreams;
    std::size_t k = 1;
    if (k < rp.words.size() && is_matcher(rp.words[k].text)) ++k;
    for (; k < rp.words.size(); ++k) upstreams.push_back(&rp.words[k]);
    std::string policy = "random";
    const ConfigDirective* policy_d = nullptr;
    const ConfigDirective *slow = nullptr, *fail_duration = nullptr, *max_fails = nullptr, *retries_d = nullptr,
                          *try_duration = nullptr, *try_interval = nullptr, *header_timeout = nullptr,
                          *unhealthy_latency = nullptr;
    for (const ConfigDirective& d : rp.block) {
      const std::string& n = d.name();
      if (n == "to") {
        for (std::size_t j = 1; j < d.words.size(); ++j) upstreams.push_back(&d.words[j]);
      } else if (n == "lb_policy") {
        if (d.words.size() < 2) return fail_at(d.words[0], "lb_policy needs a policy");
        policy = d.words[1].text;
        policy_d = &d;
      } else if (n == "lb_slow_start") {
        if (!one_value(d)) return false;
        slow = &d;
      } else if (n == "fail_duration") {
        if (!one_value(d)) return false;
        fail_duration = &d;
      } else if (n == "max_fails") {
        if (!one_value(d)) return false;
        max_fails = &d;
      } else if (n == "lb_retries") {
        if (!one_value(d)) return false;
        retries_d = &d;
      } else if (n == "lb_try_duration") {
        if (!one_value(d)) return false;
        try_duration = &d;
      } else if (n == "lb_try_interval") {
        if (!one_value(d)) return false;
        try_interval = &d;
      } else if (n == "transport" && d.words.size() >= 2 && d.words[1].text == "http") {
        for (const ConfigDirective& t : d.block) {
          if (t.name() == "response_header_timeout") {
            if (!one_value(t)) return false;
            header_timeout = &t;
          } else {
            out_.ignore(t.line, std::string("`transport http ") + directive_text(t.text()) + "` (not modelled)");
          }
        }
      } else if (n.rfind("health_", 0) == 0) {
        out_.ignore(d.line, std::string("`") + directive_text(d.text()) + "` (active checks: the lab's backends always pass them)");
      } else if (n == "unhealthy_latency") {
        if (!one_value(d)) return false;
        unhealthy_latency = &d;
      } else {
        out_.ignore(d.line, std::string("`") + directive_text(d.text()) + "` (not modelled)");
      }
    }
    if (upstreams.empty()) return fail_at(rp.words[0], "reverse_proxy has no upstream");
    std::vector<std::uint64_t> weights(upstreams.size(), 1);
    const std::uint32_t line = rp.line;
    // The policy.
    if (policy == "weighted_round_robin") {
      if (policy_d->words.size() != upstreams.size() + 2)
        return fail_at(policy_d->words[0], std::string("weighted_round_robin needs one weight per upstream (") +
                                               std::to_string(upstreams.size()) + ")");
      for (std::size_t j = 0; j < upstreams.size(); ++j)
        if (!whole_number(policy_d->words[j + 2].text, 1'000'000, weights[j]))
          return fail_at(policy_d->words[j + 2], std::string("invalid weight ") + quote(policy_d->words[j + 2].text));
      out_.set("policy", "wrr", policy_d->line, directive_text(policy_d->text()));
    } else if (policy == "random") {
      out_.set("policy", "random", policy_d ? policy_d->line : line,
               policy_d ? directive_text(policy_d->text()) : "lb_policy random (Caddy's default)");
    } else if (policy == "round_robin") {
      out_.set("policy", "round-robin", policy_d->line, directive_text(policy_d->text()));
    } else if (policy == "least_conn") {
      out_.set("policy", "caddy-least-conn", policy_d->line, directive_text(policy_d->text()));
    } else if (policy == "random_choose") {
      out_.set("policy", "p2c", policy_d->line, directive_text(policy_d->text()));
      if (policy_d->words.size() > 2 && policy_d->words[2].text != "2")
        out_.note(policy_d->line, std::string("random_choose ") + directive_text(policy_d->words[2].text) + ": the lab chooses between two");
    } else if (policy == "first" || policy == "ip_hash" || policy == "client_ip_hash" || policy == "uri_hash" ||
               policy == "query" || policy == "header" || policy == "cookie") {
      out_.set("policy", "random", policy_d->line, std::string("random in place of ") + directive_text(policy));
      out_.ignore(policy_d->line, std::string("`") + directive_text(policy_d->text()) +
                                      "` (not modelled: the lab balances by random, Caddy's default, instead)");
    } else {
      // Caddy refuses a policy it has no module for (caddyfile.go's lb_policy:
      // caddyfile.UnmarshalModule of http.reverse_proxy.selection_policies.NAME;
      // the twelve it registers: selectionpolicies.go's init).
      return fail_at(policy_d->words[1], std::string("unknown lb_policy ") + quote(policy) +
                                             " (Caddy's: random, random_choose, least_conn, round_robin, "
                                             "weighted_round_robin, first, ip_hash, client_ip_hash, uri_hash, query, "
                                             "header, cookie)");
    }
    std::vector<std::string> taken;
    for (std::size_t j = 0; j < upstreams.size(); ++j)
      out_.servers.push_back(ImportedServer{script_name(upstreams[j]->text, "upstream", taken),
                                            static_cast<std::uint32_t>(weights[j]), false, upstreams[j]->line});
    // The proposal's slow start: linear, every upstream, on recovery and on joining.
    out_.set("curve", "linear", line, "lb_slow_start ramps linearly (the proposal)");
    if (slow) {
      double s = 0;
      if (!duration(slow->words[1], s)) return false;
      out_.set("slow-start", number_text(s), slow->line, directive_text(slow->text()));
      out_.note(slow->line, "lb_slow_start is the proposal's (\"reverse_proxy: slow-start warm-up\"), not in a Caddy release");
    }
    // Passive health: on when fail_duration is set; max_fails failures within it.
    double fail_seconds = 0, slow_seconds = 0;
    if (fail_duration && !duration(fail_duration->words[1], fail_seconds)) return false;
    if (unhealthy_latency && !duration(unhealthy_latency->words[1], slow_seconds)) return false;
    if (fail_seconds > 0) {
      std::uint64_t fails = 1;
      if (max_fails && !whole_number(max_fails->words[1].text, 1'000'000, fails))
        return fail_at(max_fails->words[1], std::string("invalid max_fails ") + quote(max_fails->words[1].text));
      out_.set("health", "nginx", fail_duration->line, directive_text(fail_duration->text()));
      out_.set("max-fails", std::to_string(fails), max_fails ? max_fails->line : fail_duration->line,
               max_fails ? directive_text(max_fails->text()) : "max_fails 1 (Caddy's default)");
      out_.set("fail-timeout", number_text(std::max(1.0, std::ceil(fail_seconds))), fail_duration->line,
               directive_text(fail_duration->text()));
      out_.note(fail_duration->line, "Caddy's passive check (max_fails within fail_duration) is read as nginx's "
                                     "(max_fails, then fail_timeout out): an approximation");
      // A response at least unhealthy_latency late is a failure to the check
      // (docs/proxy-rules.md C1).
      if (slow_seconds > 0)
        out_.set("unhealthy-latency-ms", number_text(slow_seconds * 1000), unhealthy_latency->line,
                 directive_text(unhealthy_latency->text()));
    } else {
      out_.set("health", "none", max_fails ? max_fails->line : line, "no fail_duration (Caddy's passive check is off)");
      if (unhealthy_latency)
        out_.ignore(unhealthy_latency->line, std::string("`") + directive_text(unhealthy_latency->text()) +
                                                 "` (no fail_duration: Caddy's passive check is off)");
    }
    // Timeout and retries.
    double timeout = 0;
    if (header_timeout) {
      if (!duration(header_timeout->words[1], timeout)) return false;
      out_.set("timeout-ms", number_text(timeout * 1000), header_timeout->line,
               std::string("transport http ") + directive_text(header_timeout->text()));
    } else {
      out_.set("timeout-ms", "0", line, "no response_header_timeout (Caddy waits for the response)");
      if (out_.find("health")->value != "none" && out_.find("unhealthy-latency-ms")) {
        out_.note(out_.find("health")->line, "fail_duration without a response_header_timeout: only responses slower "
                                             "than unhealthy_latency count as failures");
      } else if (out_.find("health")->value != "none") {
        out_.note(out_.find("health")->line, "fail_duration without a response_header_timeout: the lab's passive "
                                             "check sees failures as timeouts only, so none");
        out_.set("health", "none", line, "no response timeout: nothing for the check to see");
      }
    }
    std::uint64_t retries = 0;
    std::uint32_t retry_line = line;
    std::string retry_source = "no lb_retries or lb_try_duration (Caddy does not retry)";
    if (retries_d) {
      if (!whole_number(retries_d->words[1].text, 1'000'000, retries))
        return fail_at(retries_d->words[1], std::string("invalid lb_retries ") + quote(retries_d->words[1].text));
      retry_line = retries_d->line, retry_source = directive_text(retries_d->text());
    } else if (try_duration) {
      double d = 0, interval = 0.25;
      if (!duration(try_duration->words[1], d)) return false;
      if (try_interval && !duration(try_interval->words[1], interval)) return false;
      retry_line = try_duration->line, retry_source = directive_text(try_duration->text());
      if (timeout > 0) {
        retries = static_cast<std::uint64_t>(d / (timeout + interval));
        out_.note(retry_line, std::string("lb_try_duration: as many retries as fit in it after a timeout and lb_try_interval (") +
                                  std::to_string(retries) + ")");
      }
    }
    if (retries > 0 && timeout == 0) out_.note(retry_line, "without a response timeout nothing fails, so nothing is retried");
    const std::uint64_t lab = std::min<std::uint64_t>({retries, out_.servers.size() - 1, kMaxRetries});
    if (lab < retries) out_.note(retry_line, std::string("the lab retries each request at most ") + std::to_string(lab) + " times, on other upstreams");
    out_.set("retries", std::to_string(lab), retry_line, retry_source);
    return true;
  }

  ImportedConfig& out_;
  ConfigError& error_;
  std::vector<ConfigDirective> tree_;
  std::vector<Proxy> proxies_;
};

}  // namespace

bool read_caddy(std::string_view text, std::string_view pool, ImportedConfig& out, ConfigError& error) {
  return CaddyReader(out, error).read(text, pool);
}

}  // namespace slowstart::system
