#include "system/nginx_config.hpp"

#include <algorithm>
#include <map>

#include "system/block_syntax.hpp"
#include "system/config_text.hpp"
#include "traffic/traffic.hpp"

namespace slowstart::system {

namespace {

// The modules whose *_pass sends requests to an upstream, with their own
// timeouts and next-upstream rules under the same prefix.
constexpr std::string_view kPassModules[] = {"proxy", "grpc", "fastcgi", "uwsgi", "scgi", "memcached"};

using Scope = std::vector<const std::vector<ConfigDirective>*>;  // outer to inner

struct Upstream {
  const ConfigDirective* d;
  bool stream;
};

struct Pass {
  const ConfigDirective* d;
  std::string prefix;  // "proxy", "grpc", ...
  std::string target;  // an upstream's name or an address
  Scope scope;         // the blocks around it, the one it is in last
  bool stream;
};

struct FileMap {
  std::vector<Upstream> upstreams;
  std::vector<Pass> passes;
  std::vector<const ConfigDirective*> includes;
};

// "http://name/x" -> "name"; "unix:" paths kept whole.
std::string pass_target(std::string_view arg) {
  for (const std::string_view scheme : {"http://", "https://", "grpc://", "grpcs://", "uwsgi://", "suwsgi://"})
    if (arg.substr(0, scheme.size()) == scheme) {
      arg.remove_prefix(scheme.size());
      break;
    }
  if (arg.substr(0, 5) == "unix:") {
    const std::size_t colon = arg.find(':', 5);
    return std::string(colon == std::string_view::npos ? arg : arg.substr(0, colon));
  }
  const std::size_t slash = arg.find('/');
  return std::string(slash == std::string_view::npos ? arg : arg.substr(0, slash));
}

void walk(const std::vector<ConfigDirective>& list, Scope& scope, bool stream, FileMap& map) {
  scope.push_back(&list);
  for (const ConfigDirective& d : list) {
    const std::string& name = d.name();
    if (name == "include") map.includes.push_back(&d);
    if (d.has_block) {
      if (name == "upstream") {
        map.upstreams.push_back(Upstream{&d, stream});
        continue;
      }
      walk(d.block, scope, stream || name == "stream", map);
      continue;
    }
    if (d.words.size() < 2 || name.size() < 6 || name.substr(name.size() - 5) != "_pass") continue;
    const std::string prefix = name.substr(0, name.size() - 5);
    if (std::find(std::begin(kPassModules), std::end(kPassModules), prefix) == std::end(kPassModules)) continue;
    map.passes.push_back(Pass{&d, prefix, pass_target(d.words[1].text), scope, stream});
  }
  scope.pop_back();
}

std::string upstream_name(const Upstream& u) { return u.d->words.size() > 1 ? u.d->words[1].text : ""; }

class NginxReader {
 public:
  NginxReader(ImportedConfig& out, ConfigError& error) : out_(out), error_(error) {}

  bool read(std::string_view text, std::string_view pool) {
    out_ = ImportedConfig{};
    out_.format = ConfigFormat::Nginx;
    if (!read_nginx_syntax(text, tree_, error_)) return false;
    Scope scope;
    walk(tree_, scope, false, map_);
    for (const ConfigDirective* inc : map_.includes)
      out_.ignore(inc->line, std::string("`") + directive_text(inc->text()) + "` (not followed: give the included file itself)");
    if (!choose(pool)) return false;
    if (upstream_) {
      if (!read_upstream()) return false;
    } else {
      // proxy_pass to an address: a pool of one.
      std::vector<std::string> taken;
      out_.servers.push_back(ImportedServer{script_name(pass_->target, "server", taken), 1, false, pass_->d->line});
      out_.pool = pass_->target;
      out_.note(pass_->d->line, std::string("no upstream block: a pool of one server, ") + pass_->target);
      settle_policy_and_health(nullptr);
    }
    if (pass_) return read_location();
    out_.note(upstream_ ? upstream_->d->line : 0,
              "no location passes requests to this upstream: nginx's defaults for the timeouts and retries");
    defaults_without_location();
    return true;
  }

 private:
  bool fail(std::uint32_t line, std::uint32_t column, std::string message) {
    error_ = ConfigError{line, column, std::move(message)};
    return false;
  }
  bool fail_at(const ConfigWord& w, std::string message) { return fail(w.line, w.column, std::move(message)); }

  const Upstream* find_upstream(std::string_view name) const {
    for (const Upstream& u : map_.upstreams)
      if (upstream_name(u) == name) return &u;
    return nullptr;
  }

  std::string upstream_list() const {
    std::string names;
    for (const Upstream& u : map_.upstreams) names += (names.empty() ? "" : ", ") + directive_text(upstream_name(u));
    return names.empty() ? "none" : names;
  }

  // Which pool: the one asked for, the one a location uses, or the first.
  bool choose(std::string_view pool) {
    if (!pool.empty()) {
      upstream_ = find_upstream(pool);
      if (!upstream_) return fail(0, 0, "no upstream named " + quote(pool) + " (the file has: " + upstream_list() + ")");
    } else {
      // The upstreams locations pass to, then the others: the first with
      // two servers or more (a pool where slow start can matter), else the first.
      std::vector<const Upstream*> candidates;
      for (const Pass& p : map_.passes)
        if (const Upstream* u = find_upstream(p.target)) candidates.push_back(u);
      for (const Upstream& u : map_.upstreams) candidates.push_back(&u);
      for (const Upstream* u : candidates)
        if (!upstream_ && std::count_if(u->d->block.begin(), u->d->block.end(),
                                        [](const ConfigDirective& d) { return d.name() == "server"; }) >= 2)
          upstream_ = u;
      if (!upstream_ && !candidates.empty()) upstream_ = candidates.front();
      if (!upstream_) {
        for (const Pass& p : map_.passes)
          if (!p.target.empty() && p.target[0] != '$') {
            pass_ = &p;
            break;
          }
        if (!pass_) return fail(0, 0, "no upstream block and no proxy_pass to an address: nothing to read");
        return true;
      }
    }
    for (const Pass& p : map_.passes)
      if (p.target == upstream_name(*upstream_)) {
        if (!pass_) pass_ = &p;
        else if (p.d != pass_->d)
          out_.note(p.d->line, std::string("another location also passes to ") + p.target + ": the lab reads the first's (line " +
                                   std::to_string(pass_->d->line) + ") timeouts and retries");
      }
    for (const Upstream& u : map_.upstreams)
      if (&u != upstream_)
        out_.note(u.d->line, std::string("not read: upstream ") + upstream_name(u) + " (choose it with --from-pool " + upstream_name(u) + ")");
    for (const Pass& p : map_.passes)
      if (!p.target.empty() && p.target[0] == '$')
        out_.note(p.d->line, std::string("`") + directive_text(p.d->text()) + "`: a variable, not followed");
    return true;
  }

  bool seconds_of(const ConfigWord& w, std::string_view value, std::string_view what, double& out) {
    if (!nginx_seconds(value, out)) return fail_at(w, std::string("invalid ") + std::string(what) + " " + quote(value));
    return true;
  }

  bool read_upstream() {
    const ConfigDirective& u = *upstream_->d;
    out_.pool = upstream_name(*upstream_);
    std::vector<std::string> taken;
    std::vector<ImportedConfig::PerServer> max_fails, fail_timeout, slow_start;
    const ConfigDirective* policy = nullptr;
    for (const ConfigDirective& d : u.block) {
      const std::string& name = d.name();
      const std::string text = directive_text(d.text());
      if (name == "server") {
        if (d.words.size() < 2) return fail_at(d.words[0], "server needs an address");
        std::uint64_t weight = 1, fails = 1;
        double timeout = 10, slow = 0;
        bool backup = false, down = false;
        for (std::size_t k = 2; k < d.words.size(); ++k) {
          const ConfigWord& w = d.words[k];
          const std::string_view p = w.text;
          const std::size_t eq = p.find('=');
          const std::string_view key = p.substr(0, eq), value = eq == std::string_view::npos ? "" : p.substr(eq + 1);
          if (key == "weight") {
            if (!whole_number(value, 1'000'000, weight) || weight == 0) return fail_at(w, std::string("invalid weight ") + quote(value));
          } else if (key == "max_fails") {
            if (!whole_number(value, 1'000'000, fails)) return fail_at(w, std::string("invalid max_fails ") + quote(value));
          } else if (key == "fail_timeout") {
            if (!seconds_of(w, value, "fail_timeout", timeout)) return false;
          } else if (key == "slow_start") {
            if (!seconds_of(w, value, "slow_start", slow)) return false;
          } else if (p == "backup") {
            backup = true;
          } else if (p == "down") {
            down = true;
          } else if (p == "server") {
            // nginx refuses any parameter it does not know; this one is the
            // next server line swallowed by a missing ';'.
            return fail_at(w, "invalid parameter 'server' of the server on line " + std::to_string(d.line) + " (a ';' missing at its end?)");
          } else {
            out_.ignore(w.line, std::string("`") + directive_text(p) + "` of `server " + directive_text(d.words[1].text) +
                                    "` (not modelled)");
          }
        }
        if (backup) {
          out_.ignore(d.line, std::string("`") + text + "` (a backup server: the lab has no backup tier; left out of the pool)");
          continue;
        }
        ImportedServer s{script_name(d.words[1].text, "server", taken), static_cast<std::uint32_t>(weight), down, d.line};
        // Each setting's source: the server and its parameter, or nginx's default.
        const auto source = [&](std::string_view key, std::string_view fallback) {
          for (std::size_t k = 2; k < d.words.size(); ++k)
            if (d.words[k].text.compare(0, key.size() + 1, std::string(key) + "=") == 0)
              return std::string("server ") + directive_text(d.words[1].text) + " " + directive_text(d.words[k].text);
          return std::string("server ") + directive_text(d.words[1].text) + " (" + std::string(fallback) + ")";
        };
        max_fails.push_back({s.name, std::to_string(fails), d.line, source("max_fails", "max_fails=1, nginx's default")});
        fail_timeout.push_back(
            {s.name, number_text(timeout), d.line, source("fail_timeout", "fail_timeout=10s, nginx's default")});
        slow_start.push_back({s.name, number_text(slow), d.line, source("slow_start", "no slow_start")});
        out_.servers.push_back(std::move(s));
      } else if (name == "least_conn" || name == "random") {
        policy = &d;
      } else {
        const char* why = "not modelled";
        if (name == "hash" || name == "ip_hash" || name == "sticky" || name == "least_time" || name == "ntlm")
          why = "not modelled: the lab balances by smooth weighted round robin instead";
        out_.ignore(d.line, std::string("`") + text + "` (" + why + ")");
      }
    }
    if (out_.servers.empty()) return fail(u.line, 0, std::string("upstream ") + out_.pool + " has no server the lab can use");
    settle_policy_and_health(policy);
    bool fails_off = std::all_of(max_fails.begin(), max_fails.end(), [](const auto& v) { return v.value == "0"; });
    if (fails_off) {
      out_.set("health", "none", u.line, "max_fails=0 on every server");
    } else {
      out_.set_common("max-fails", max_fails, "max_fails");
      out_.set_common("fail-timeout", fail_timeout, "fail_timeout (seconds)");
    }
    if (std::any_of(slow_start.begin(), slow_start.end(), [](const auto& v) { return v.value != "0"; })) {
      out_.set_common("slow-start", slow_start, "slow_start (seconds)");
      out_.note(out_.find("slow-start")->line,
                "slow_start is NGINX Plus's and nginx-mod's (open-source nginx rejects it)");
      if (policy && policy->name() == "random")
        out_.note(policy->line, "NGINX Plus does not allow slow_start with random");
    }
    if (out_.servers.size() == 1)
      out_.note(u.line, "a single server: nginx never marks it unavailable, and slow_start does nothing");
    return true;
  }

  void settle_policy_and_health(const ConfigDirective* policy) {
    const std::uint32_t line = upstream_ ? upstream_->d->line : pass_->d->line;
    out_.set("curve", "linear", line, "slow_start ramps linearly (NGINX Plus, nginx-mod)");
    if (!policy) {
      out_.set("policy", "wrr", line, "round robin (nginx's default)");
    } else if (policy->name() == "least_conn") {
      // nginx's own least_conn (docs/proxy-rules.md N3), whatever the health check.
      out_.set("policy", "nginx-least-conn", policy->line, directive_text(policy->text()));
    } else if (policy->words.size() >= 2 && policy->words[1].text == "two") {
      out_.set("policy", "p2c", policy->line, directive_text(policy->text()));
      if (policy->words.size() > 2 && policy->words[2].text != "least_conn")
        out_.note(policy->line, std::string("`") + directive_text(policy->words[2].text) +
                                    "`: the lab's two choices compare active requests (least_conn)");
    } else {
      out_.set("policy", "random", policy->line, directive_text(policy->text()));
    }
    out_.set("health", "nginx", line, "nginx's passive check (max_fails, fail_timeout)");
  }

  // The directive `name` in force at the pass (nginx's inheritance: the
  // innermost block that has it), or nullptr.
  const ConfigDirective* in_force(std::string_view name) const {
    const ConfigDirective* found = nullptr;
    for (const std::vector<ConfigDirective>* list : pass_->scope)
      for (const ConfigDirective& d : *list)
        if (!d.has_block && d.name() == name) found = &d;
    return found;
  }

  bool read_location() {
    const Pass& p = *pass_;
    const std::string& prefix = p.prefix;
    // Timeout: the time to wait for the response (between two reads).
    const std::string read_name = p.stream ? "proxy_timeout" : prefix + "_read_timeout";
    double timeout = p.stream ? 600 : 60;
    std::uint32_t timeout_line = p.d->line;
    std::string timeout_source = read_name + " " + (p.stream ? "10m" : "60s") + " (nginx's default)";
    if (const ConfigDirective* d = in_force(read_name)) {
      if (d->words.size() != 2) return fail_at(d->words[0], read_name + " takes one value");
      if (!seconds_of(d->words[1], d->words[1].text, read_name, timeout)) return false;
      timeout_line = d->line;
      timeout_source = directive_text(d->text());
    }
    out_.set("timeout-ms", number_text(timeout * 1000), timeout_line, timeout_source);
    // Retries: a timed-out request goes to the next server when
    // *_next_upstream lists `timeout`, at most *_next_upstream_tries in all
    // (0: every server).
    const std::string next_name = prefix + "_next_upstream";
    bool on_timeout = !p.stream;
    std::uint32_t next_line = p.d->line;
    std::string next_source = next_name + " error timeout (nginx's default)";
    if (const ConfigDirective* d = in_force(next_name)) {
      next_line = d->line;
      next_source = directive_text(d->text());
      on_timeout = false;
      for (std::size_t k = 1; k < d->words.size(); ++k) on_timeout |= d->words[k].text == "timeout";
      if (p.stream) on_timeout = false;
    }
    std::uint64_t tries = 0;
    if (const ConfigDirective* d = in_force(prefix + "_next_upstream_tries")) {
      if (d->words.size() != 2 || !whole_number(d->words[1].text, 1'000'000, tries))
        return fail_at(d->words.back(), prefix + "_next_upstream_tries takes a whole number");
      next_line = std::max(next_line, d->line);
      next_source += std::string("; ") + directive_text(d->text());
    }
    std::uint64_t retries = 0;
    if (on_timeout) {
      const std::uint64_t others = out_.servers.size() - 1;
      retries = tries == 0 ? others : std::min<std::uint64_t>(tries - 1, others);
      if (retries > kMaxRetries) {
        out_.note(next_line, std::string("nginx would try ") + std::to_string(retries) + " more servers; the lab retries at most " +
                                 std::to_string(kMaxRetries) + " times");
        retries = kMaxRetries;
      }
    } else {
      out_.note(next_line, p.stream ? "stream: a timed-out connection is not passed to the next server"
                                    : next_name + " without `timeout`: a timed-out request is not retried");
    }
    out_.set("retries", std::to_string(retries), next_line, next_source);
    // *_next_upstream_timeout: no further server once that long has passed
    // since the first attempt (docs/proxy-rules.md N7; 0, the default: no limit).
    if (const ConfigDirective* d = in_force(prefix + "_next_upstream_timeout")) {
      double limit = 0;
      if (d->words.size() != 2) return fail_at(d->words.back(), prefix + "_next_upstream_timeout takes a time");
      if (!seconds_of(d->words[1], d->words[1].text, prefix + "_next_upstream_timeout", limit)) return false;
      if (limit > 0) out_.set("next-upstream-timeout-ms", number_text(limit * 1000), d->line, directive_text(d->text()));
    }
    // Everything else of the module in force there: listed, not modelled.
    // A block that has a directive replaces all of an outer block's of that
    // name (proxy_set_header x 3 in a location hides http's).
    std::map<std::string, std::vector<const ConfigDirective*>> others;
    for (const std::vector<ConfigDirective>* list : p.scope) {
      std::map<std::string, std::vector<const ConfigDirective*>> here;
      for (const ConfigDirective& d : *list)
        if (!d.has_block && d.name().compare(0, prefix.size() + 1, prefix + "_") == 0 && &d != p.d)
          here[d.name()].push_back(&d);
      for (auto& [name, list_here] : here) others[name] = std::move(list_here);
    }
    for (const auto& [name, list] : others) {
      if (name == read_name || name == next_name || name == prefix + "_next_upstream_tries" ||
          name == prefix + "_next_upstream_timeout" ||
          name == prefix + "_pass")
        continue;
      for (const ConfigDirective* d : list)
        out_.ignore(d->line, std::string("`") + directive_text(d->text()) + "` (not modelled)");
    }
    std::stable_sort(out_.ignored.begin(), out_.ignored.end(),
                     [](const ImportedNote& a, const ImportedNote& b) { return a.line < b.line; });
    return true;
  }

  void defaults_without_location() {
    const std::uint32_t line = upstream_->d->line;
    out_.set("timeout-ms", "60000", line, "proxy_read_timeout 60s (nginx's default)");
    const std::uint64_t retries = std::min<std::uint64_t>(out_.servers.size() - 1, kMaxRetries);
    out_.set("retries", std::to_string(retries), line, "proxy_next_upstream error timeout (nginx's default)");
  }

  ImportedConfig& out_;
  ConfigError& error_;
  std::vector<ConfigDirective> tree_;
  FileMap map_;
  const Upstream* upstream_ = nullptr;
  const Pass* pass_ = nullptr;
};

}  // namespace

bool read_nginx(std::string_view text, std::string_view pool, ImportedConfig& out, ConfigError& error) {
  return NginxReader(out, error).read(text, pool);
}

}  // namespace slowstart::system
