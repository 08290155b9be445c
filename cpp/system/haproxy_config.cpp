#include "system/haproxy_config.hpp"

#include <algorithm>
#include <cmath>

#include "system/block_syntax.hpp"
#include "system/config_text.hpp"
#include "traffic/traffic.hpp"

namespace slowstart::system {

namespace {

// ---- the syntax: one statement a line ----------------------------------

struct Statement {
  std::vector<ConfigWord> words;
  std::uint32_t line = 0;
  std::string text() const {
    std::string s;
    for (const ConfigWord& w : words) s += (s.empty() ? "" : " ") + w.text;
    return directive_text(s);
  }
};

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// HAProxy's quoting (configuration manual, 2.2): a backslash escapes a
// blank, '#', a quote or itself (\xNN a byte; \r \n \t); "double quotes"
// keep blanks and '#' (their $VARIABLES are not expanded here); 'single
// quotes' keep everything; '#' outside quotes starts a comment anywhere.
// There is no continuation line.
bool split_line(std::string_view s, std::uint32_t line, Statement& out, ConfigError& error) {
  out = Statement{};
  out.line = line;
  std::size_t i = 0;
  const auto col = [&](std::size_t k) { return static_cast<std::uint32_t>(k + 1); };
  for (;;) {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r')) ++i;
    if (i >= s.size() || s[i] == '#') return true;
    ConfigWord w;
    w.line = line, w.column = col(i);
    while (i < s.size() && s[i] != ' ' && s[i] != '\t' && s[i] != '\r' && s[i] != '#') {
      const char c = s[i];
      if (c == '\'' || c == '"') {
        const std::size_t open = i++;
        w.quoted = true;
        for (;;) {
          if (i >= s.size()) {
            error = ConfigError{line, col(open), std::string("unclosed quote ") + c};
            return false;
          }
          if (s[i] == c) {
            ++i;
            break;
          }
          if (c == '"' && s[i] == '\\' && i + 1 < s.size()) {
            const char e = s[i + 1];
            if (e == '"' || e == '\\' || e == '$' || e == '\'' || e == '#' || e == ' ') {
              w.text += e;
              i += 2;
              continue;
            }
          }
          w.text += s[i++];
        }
        continue;
      }
      if (c == '\\' && i + 1 < s.size()) {
        const char e = s[i + 1];
        if (e == 'x' && i + 3 < s.size() && hex_value(s[i + 2]) >= 0 && hex_value(s[i + 3]) >= 0) {
          w.text += static_cast<char>(hex_value(s[i + 2]) * 16 + hex_value(s[i + 3]));
          i += 4;
          continue;
        }
        if (e == 'r' || e == 'n' || e == 't') {
          w.text += e == 'r' ? '\r' : e == 'n' ? '\n' : '\t';
          i += 2;
          continue;
        }
        w.text += e;
        i += 2;
        continue;
      }
      w.text += c;
      ++i;
    }
    out.words.push_back(std::move(w));
  }
}

constexpr std::string_view kSectionKeywords[] = {
    "global", "defaults", "frontend", "backend", "listen", "resolvers", "peers", "userlist", "program",
    "http-errors", "ring", "cache", "mailers", "log-forward", "crt-store", "traces", "acme", "fcgi-app"};

struct Section {
  std::string kind, name, from;
  std::uint32_t line = 0;
  std::vector<Statement> body;
};

// Server keywords that take no value (everything else takes one).
constexpr std::string_view kServerFlags[] = {
    "check", "backup", "disabled", "enabled", "ssl", "check-ssl", "check-send-proxy", "send-proxy",
    "send-proxy-v2", "send-proxy-v2-ssl", "send-proxy-v2-ssl-cn", "agent-check", "non-stick", "stick",
    "tfo", "allow-0rtt", "no-verifyhost", "tls-tickets", "force-sslv3", "force-tlsv10", "force-tlsv11",
    "force-tlsv12", "force-tlsv13", "no-sslv3", "no-tlsv10", "no-tlsv11", "no-tlsv12", "no-tlsv13",
    "check-via-socks4", "ignore-ssl-errors", "resolve-net-disable"};

bool is_flag(std::string_view k) {
  return std::find(std::begin(kServerFlags), std::end(kServerFlags), k) != std::end(kServerFlags) ||
         k.substr(0, 3) == "no-";
}

// One parameter of a server line: its keyword and value words.
struct Param {
  const ConfigWord* key;
  const ConfigWord* value;  // nullptr for a flag
};

// A server's settings as the lab reads them, HAProxy's defaults first.
struct ServerState {
  std::uint64_t weight = 1, rise = 2, fall = 3, error_limit = 10;
  double slowstart = 0, inter = 2, fastinter = -1, downinter = -1;
  bool check = false, backup = false, disabled = false;
  std::string observe, on_error = "fail-check";
  // Where each came from, for --explain: the server line or default-server.
  std::string origin[11];
};

enum Field { kWeight, kSlowstart, kCheck, kInter, kFastinter, kDowninter, kRise, kFall, kObserve, kErrorLimit, kOnError };

class HAProxyReader {
 public:
  HAProxyReader(ImportedConfig& out, ConfigError& error) : out_(out), error_(error) {}

  bool read(std::string_view text, std::string_view pool) {
    out_ = ImportedConfig{};
    out_.format = ConfigFormat::HAProxy;
    if (!sections_of(text)) return false;
    const Section* proxy = choose(pool);
    if (!proxy) return false;
    const Section* defaults = defaults_of(*proxy);
    if (!defaults && !proxy->from.empty())
      return fail(proxy->line, 0, "no defaults section named " + quote(proxy->from) + " before " + directive_text(proxy->name));
    out_.pool = proxy->name;
    // Every other section is said, global too (its maxconn, nbthread and the like are the
    // process's, which the lab does not model): nothing in the file is dropped silently.
    for (const Section& s : sections_)
      if (&s != proxy && &s != defaults)
        out_.note(s.line, std::string("not read: ") + s.kind + (s.name.empty() ? "" : std::string(" ") + s.name) +
                              (s.kind == "backend" || s.kind == "listen" ? std::string(" (choose it with --from-pool ") + s.name + ")"
                                                                         : ""));
    if (!servers(defaults, *proxy)) return false;
    return settings(defaults, *proxy);
  }

 private:
  bool fail(std::uint32_t line, std::uint32_t column, std::string message) {
    error_ = ConfigError{line, column, std::move(message)};
    return false;
  }
  bool fail_at(const ConfigWord& w, std::string message) { return fail(w.line, w.column, std::move(message)); }

  bool sections_of(std::string_view text) {
    if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
    std::uint32_t line = 0;
    bool conditional = false;
    for (std::size_t start = 0; start <= text.size();) {
      std::size_t end = text.find('\n', start);
      if (end == std::string_view::npos) end = text.size();
      ++line;
      Statement st;
      if (!split_line(text.substr(start, end - start), line, st, error_)) return false;
      start = end + 1;
      if (st.words.empty()) {
        if (end == text.size()) break;
        continue;
      }
      const std::string& key = st.words[0].text;
      if (!key.empty() && key[0] == '.' && !st.words[0].quoted) {
        // .if/.elif/.else/.endif and .diag/.notice/.warning/.alert
        if (!conditional && key == ".if")
          out_.note(line, "conditional blocks (.if) are not evaluated: every branch is read");
        conditional |= key == ".if";
        continue;
      }
      if (std::find(std::begin(kSectionKeywords), std::end(kSectionKeywords), key) != std::end(kSectionKeywords) &&
          !st.words[0].quoted) {
        Section s;
        s.kind = key;
        s.line = line;
        if (st.words.size() > 1 && st.words[1].text != "from") s.name = st.words[1].text;
        for (std::size_t k = 1; k + 1 < st.words.size(); ++k)
          if (st.words[k].text == "from") s.from = st.words[k + 1].text;
        sections_.push_back(std::move(s));
      } else if (sections_.empty()) {
        return fail_at(st.words[0], quote(key) + " outside any section (global, defaults, backend, ...)");
      } else {
        sections_.back().body.push_back(std::move(st));
      }
      if (end == text.size()) break;
    }
    return true;
  }

  // Server lines (a server-template counts as two: it stands for several).
  static std::size_t servers_in(const Section& s) {
    std::size_t n = 0;
    for (const Statement& st : s.body) n += st.words[0].text == "server" ? 1 : st.words[0].text == "server-template" ? 2 : 0;
    return n;
  }

  const Section* find_proxy(std::string_view name) const {
    for (const Section& s : sections_)
      if ((s.kind == "backend" || s.kind == "listen") && s.name == name) return &s;
    return nullptr;
  }

  const Section* choose(std::string_view pool) {
    if (!pool.empty()) {
      if (const Section* s = find_proxy(pool)) return s;
      std::string names;
      for (const Section& s : sections_)
        if (s.kind == "backend" || s.kind == "listen") names += (names.empty() ? "" : ", ") + s.name;
      fail(0, 0, "no backend or listen section named " + quote(pool) + " (the file has: " +
                     (names.empty() ? "none" : names) + ")");
      return nullptr;
    }
    // The backends frontends send to (default_backend first), then the
    // others: the first with two servers or more, else the first with one.
    std::vector<const Section*> candidates;
    for (const std::string_view key : {"default_backend", "use_backend"})
      for (const Section& s : sections_) {
        if (s.kind != "frontend" && s.kind != "listen") continue;
        for (const Statement& st : s.body)
          if (st.words[0].text == key && st.words.size() > 1)
            if (const Section* p = find_proxy(st.words[1].text)) candidates.push_back(p);
      }
    for (const Section& s : sections_)
      if (s.kind == "backend" || s.kind == "listen") candidates.push_back(&s);
    for (const Section* s : candidates)
      if (servers_in(*s) >= 2) return s;
    for (const Section* s : candidates)
      if (servers_in(*s) >= 1) return s;
    fail(0, 0, "no backend or listen section with servers: nothing to read");
    return nullptr;
  }

  const Section* defaults_of(const Section& proxy) const {
    const Section* found = nullptr;
    for (const Section& s : sections_) {
      if (&s == &proxy) break;
      if (s.kind != "defaults") continue;
      if (proxy.from.empty() || s.name == proxy.from) found = &s;
    }
    return found;
  }

  // The last statement of `key` (one or two words: "timeout server",
  // "option redispatch"), the proxy's before its defaults'. `negated` is
  // set for "no option x".
  const Statement* last(const Section* defaults, const Section& proxy, std::initializer_list<std::string_view> key,
                        bool* negated = nullptr) const {
    const auto matches = [&](const Statement& st, std::size_t skip) {
      if (st.words.size() < key.size() + skip) return false;
      std::size_t k = skip;
      for (const std::string_view w : key)
        if (st.words[k++].text != w) return false;
      return true;
    };
    for (const Section* s : {&proxy, defaults}) {
      if (!s) continue;
      for (auto it = s->body.rbegin(); it != s->body.rend(); ++it) {
        if (matches(*it, 0)) {
          if (negated) *negated = false;
          return &*it;
        }
        if (it->words[0].text == "no" && matches(*it, 1)) {
          if (negated) *negated = true;
          return &*it;
        }
      }
    }
    return nullptr;
  }

  bool time_of(const ConfigWord& w, double& seconds) {
    if (!haproxy_seconds(w.text, seconds)) return fail_at(w, std::string("invalid time ") + quote(w.text) + " (HAProxy's: 500ms, 2s, 1m)");
    return true;
  }
  bool count_of(const ConfigWord& w, std::uint64_t max, std::uint64_t& n) {
    if (!whole_number(w.text, max, n)) return fail_at(w, std::string("invalid number ") + quote(w.text));
    return true;
  }

  // Applies server parameters to `s`; `origin` names where they are written.
  bool apply(const std::vector<Param>& params, ServerState& s, const std::string& origin, const Statement& st) {
    for (const Param& p : params) {
      const std::string& k = p.key->text;
      const auto mark = [&](Field f) { s.origin[f] = origin + " " + k + (p.value ? std::string(" ") + p.value->text : ""); };
      if (k == "weight") {
        if (!count_of(*p.value, 256, s.weight)) return false;
        mark(kWeight);
      } else if (k == "slowstart") {
        if (!time_of(*p.value, s.slowstart)) return false;
        mark(kSlowstart);
      } else if (k == "inter") {
        if (!time_of(*p.value, s.inter)) return false;
        mark(kInter);
      } else if (k == "fastinter") {
        if (!time_of(*p.value, s.fastinter)) return false;
        mark(kFastinter);
      } else if (k == "downinter") {
        if (!time_of(*p.value, s.downinter)) return false;
        mark(kDowninter);
      } else if (k == "rise") {
        if (!count_of(*p.value, 1'000'000, s.rise)) return false;
        mark(kRise);
      } else if (k == "fall") {
        if (!count_of(*p.value, 1'000'000, s.fall)) return false;
        mark(kFall);
      } else if (k == "error-limit") {
        if (!count_of(*p.value, 1'000'000, s.error_limit)) return false;
        mark(kErrorLimit);
      } else if (k == "observe") {
        if (p.value->text != "layer4" && p.value->text != "layer7" && p.value->text != "none")
          return fail_at(*p.value, std::string("observe takes layer4 or layer7, got ") + quote(p.value->text));
        s.observe = p.value->text;
        mark(kObserve);
      } else if (k == "on-error") {
        const std::string& v = p.value->text;
        if (v != "fastinter" && v != "fail-check" && v != "sudden-death" && v != "mark-down")
          return fail_at(*p.value, std::string("on-error takes fastinter, fail-check, sudden-death or mark-down, got ") + quote(v));
        s.on_error = v;
        mark(kOnError);
      } else if (k == "check") {
        s.check = true;
        mark(kCheck);
      } else if (k == "no-check") {
        s.check = false;
      } else if (k == "backup") {
        s.backup = true;
      } else if (k == "no-backup") {
        s.backup = false;
      } else if (k == "disabled") {
        s.disabled = true;
      } else if (k == "enabled") {
        s.disabled = false;
      } else if (origin.rfind("server ", 0) == 0) {
        out_.ignore(p.key->line, std::string("`") + directive_text(k + (p.value ? std::string(" ") + p.value->text : "")) + "` of `" +
                                     directive_text(st.words[0].text + " " + st.words[1].text) + "` (not modelled)");
      } else {
        out_.ignore(p.key->line, std::string("`") + directive_text(k + (p.value ? std::string(" ") + p.value->text : "")) +
                                     "` of default-server (not modelled)");
      }
    }
    return true;
  }

  bool params_of(const Statement& st, std::size_t from, std::vector<Param>& out) {
    out.clear();
    for (std::size_t k = from; k < st.words.size(); ++k) {
      const ConfigWord& key = st.words[k];
      if (is_flag(key.text)) {
        out.push_back(Param{&key, nullptr});
        continue;
      }
      if (k + 1 >= st.words.size()) return fail_at(key, quote(key.text) + " needs a value");
      out.push_back(Param{&key, &st.words[++k]});
    }
    return true;
  }

  bool servers(const Section* defaults, const Section& proxy) {
    ServerState base;
    std::vector<Param> params;
    if (defaults)
      for (const Statement& st : defaults->body)
        if (st.words[0].text == "default-server") {
          if (!params_of(st, 1, params) || !apply(params, base, "default-server", st)) return false;
        }
    std::vector<std::string> taken;
    for (const Statement& st : proxy.body) {
      const std::string& key = st.words[0].text;
      if (key == "default-server") {
        if (!params_of(st, 1, params) || !apply(params, base, "default-server", st)) return false;
        continue;
      }
      if (key != "server" && key != "server-template") continue;
      const bool tmpl = key == "server-template";
      const std::size_t first_param = tmpl ? 4 : 3;
      if (st.words.size() < first_param)
        return fail_at(st.words[0], tmpl ? "server-template needs a prefix, a count and an address"
                                         : "server needs a name and an address");
      ServerState s = base;
      if (!params_of(st, first_param, params) || !apply(params, s, std::string("server ") + st.words[1].text, st)) return false;
      std::vector<std::string> names;
      if (tmpl) {
        // PREFIX NUM or PREFIX LOW-HIGH: PREFIX1 ... PREFIXNUM.
        const std::string& range = st.words[2].text;
        const std::size_t dash = range.find('-');
        std::uint64_t low = 1, high = 0;
        const bool ok = dash == std::string::npos
                            ? whole_number(range, 10'000, high)
                            : whole_number(range.substr(0, dash), 10'000, low) &&
                                  whole_number(range.substr(dash + 1), 10'000, high);
        if (!ok || high < low || high == 0) return fail_at(st.words[2], std::string("invalid server-template count ") + quote(range));
        for (std::uint64_t n = low; n <= high; ++n) names.push_back(st.words[1].text + std::to_string(n));
        out_.note(st.line, std::string("server-template: ") + names.front() + " to " + names.back() +
                               ", as if every slot resolved (DNS is not modelled)");
      } else {
        names.push_back(st.words[1].text);
      }
      for (const std::string& raw : names) {
        if (s.backup) {
          out_.ignore(st.line, std::string("`") + st.text() + "` (a backup server: the lab has no backup tier; left out of the pool)");
          break;
        }
        ImportedServer server{script_name(raw, "server", taken), static_cast<std::uint32_t>(s.weight), s.disabled, st.line};
        states_.push_back(s);
        out_.servers.push_back(std::move(server));
      }
    }
    if (out_.servers.empty()) return fail(proxy.line, 0, proxy.kind + " " + proxy.name + " has no server the lab can use");
    return true;
  }

  // The per-server value of one field, for set_common.
  template <typename Get>
  std::vector<ImportedConfig::PerServer> per_server(Field field, const std::string& fallback, Get get,
                                                    bool only_checked = false) const {
    std::vector<ImportedConfig::PerServer> v;
    for (std::size_t i = 0; i < states_.size(); ++i) {
      const ServerState& s = states_[i];
      if (only_checked && !(s.check && s.observe == "layer7")) continue;
      const std::string& origin = s.origin[field];
      v.push_back({out_.servers[i].name, get(s), out_.servers[i].line,
                   origin.empty() ? std::string("server ") + out_.servers[i].name + " (" + fallback + ")" : directive_text(origin)});
    }
    return v;
  }

  bool settings(const Section* defaults, const Section& proxy) {
    const std::uint32_t line = proxy.line;
    // balance
    out_.set("curve", "haproxy", line, "slowstart: HAProxy's sixteenths, on recovery only");
    bool dynamic = true, stand_in = false;
    if (const Statement* b = last(defaults, proxy, {"balance"}); b && b->words.size() > 1) {
      const std::string& algo = b->words[1].text;
      if (algo == "roundrobin") {
        out_.set("policy", "wrr", b->line, b->text());
      } else if (algo == "static-rr") {
        out_.set("policy", "static-rr", b->line, b->text());  // weighted turns, no ramp (docs/proxy-rules.md H8)
        dynamic = false;
      } else if (algo == "leastconn") {
        out_.set("policy", "haproxy-leastconn", b->line, b->text());  // its own key (H11)
      } else if (algo.rfind("random", 0) == 0) {
        // random(<draws>), 2 draws by default: the power of two choices.
        std::uint64_t draws = 2;
        if (algo.size() > 8 && algo[6] == '(' && algo.back() == ')' &&
            !whole_number(algo.substr(7, algo.size() - 8), 100, draws))
          return fail_at(b->words[1], std::string("invalid random draws ") + quote(algo));
        out_.set("policy", draws == 1 ? "random" : "p2c", b->line, b->text());
        if (draws > 2) out_.note(b->line, std::string("random(") + std::to_string(draws) + "): the lab draws two");
      } else {
        out_.set("policy", "wrr", b->line, std::string("roundrobin in place of ") + algo);
        out_.ignore(b->line, std::string("`") + b->text() + "` (not modelled: the lab balances by weighted round robin instead)");
        // The manual's `balance`: source, uri, url_param, hdr(), rdp-cookie
        // and hash are "static by default ... this can be changed using
        // hash-type" (consistent: lb_chash.c, dynamic); first is dynamic
        // (lb_fas.c). docs/proxy-rules.md H8.
        const Statement* h = last(defaults, proxy, {"hash-type"});
        dynamic = algo == "first" || (h && h->words.size() > 1 && h->words[1].text == "consistent");
        stand_in = true;
      }
    } else {
      out_.set("policy", "wrr", line, "balance roundrobin (HAProxy's default)");
    }
    // slowstart
    const auto slow = per_server(kSlowstart, "no slowstart", [](const ServerState& s) { return number_text(s.slowstart); });
    if (std::any_of(slow.begin(), slow.end(), [](const auto& v) { return v.value != "0"; })) {
      // A static algorithm's stand-in (weighted round robin, which ramps)
      // gets no slow start: HAProxy gives such servers their full weight at once.
      if (!(stand_in && !dynamic)) out_.set_common("slow-start", slow, "slowstart (seconds)");
      if (!dynamic)
        out_.note(slow.front().line, std::string("HAProxy's slowstart ramps only dynamic algorithms (not this balance)") +
                                         (stand_in ? ": no slow start is set on the lab's stand-in" : ""));
    }
    // checks
    const bool passive = std::any_of(states_.begin(), states_.end(),
                                     [](const ServerState& s) { return s.check && s.observe == "layer7"; });
    if (passive) {
      out_.set("health", "haproxy", line, "check observe layer7");
      const auto number = [](double v) { return number_text(v); };
      out_.set_common("error-limit", per_server(kErrorLimit, "error-limit 10, HAProxy's default", [](const ServerState& s) { return std::to_string(s.error_limit); }, true), "error-limit");
      out_.set_common("on-error", per_server(kOnError, "on-error fail-check, HAProxy's default", [](const ServerState& s) { return s.on_error; }, true), "on-error");
      out_.set_common("inter", per_server(kInter, "inter 2s, HAProxy's default", [&](const ServerState& s) { return number(s.inter); }, true), "inter (seconds)");
      out_.set_common("fastinter", per_server(kFastinter, "no fastinter: inter's value, and no check brought forward (the lab's 0)", [&](const ServerState& s) { return number(s.fastinter < 0 ? 0 : s.fastinter); }, true), "fastinter (seconds)");
      out_.set_common("downinter", per_server(kDowninter, "no downinter: inter's value (the lab's 0)", [&](const ServerState& s) { return number(s.downinter < 0 ? 0 : s.downinter); }, true), "downinter (seconds)");
      out_.set_common("rise", per_server(kRise, "rise 2, HAProxy's default", [](const ServerState& s) { return std::to_string(s.rise); }, true), "rise");
      out_.set_common("fall", per_server(kFall, "fall 3, HAProxy's default", [](const ServerState& s) { return std::to_string(s.fall); }, true), "fall");
      if (!std::all_of(states_.begin(), states_.end(), [](const ServerState& s) { return s.check && s.observe == "layer7"; }))
        out_.note(line, "only some servers observe layer7: the lab checks them all");
    } else {
      out_.set("health", "none", line, "no server has `check observe layer7`");
      if (std::any_of(states_.begin(), states_.end(), [](const ServerState& s) { return s.check; }))
        out_.note(line, "active checks only (check without observe layer7): the lab's backends always pass them");
      if (std::any_of(states_.begin(), states_.end(), [](const ServerState& s) { return s.observe == "layer4"; }))
        out_.note(line, "observe layer4 sees connection errors, which the lab has none of");
    }
    // timeout server
    if (const Statement* t = last(defaults, proxy, {"timeout", "server"})) {
      if (t->words.size() != 3) return fail_at(t->words[0], "timeout server takes one value");
      double seconds = 0;
      if (!time_of(t->words[2], seconds)) return false;
      out_.set("timeout-ms", number_text(seconds * 1000), t->line, t->text());
    } else if (const Statement* t2 = last(defaults, proxy, {"srvtimeout"})) {
      double seconds = 0;
      if (t2->words.size() != 2) return fail_at(t2->words[0], "srvtimeout takes one value");
      if (!time_of(t2->words[1], seconds)) return false;
      out_.set("timeout-ms", number_text(seconds * 1000), t2->line, t2->text());
    } else {
      out_.set("timeout-ms", "0", line, "no timeout server (HAProxy waits forever)");
      if (out_.find("health")->value != "none") {
        out_.note(out_.find("health")->line, "observe layer7 without a timeout server: the lab's passive check "
                                             "sees failures as timeouts only, so none (give --timeout-ms and "
                                             "--health haproxy to try one)");
        out_.set("health", "none", line, "no timeout server: nothing for the check to see");
      }
    }
    // retries
    std::uint64_t retries = 3;
    std::uint32_t retry_line = line;
    std::string retry_source = "retries 3 (HAProxy's default)";
    if (const Statement* r = last(defaults, proxy, {"retries"})) {
      if (r->words.size() != 2) return fail_at(r->words[0], "retries takes one value");
      if (!count_of(r->words[1], 1'000'000, retries)) return false;
      retry_line = r->line, retry_source = r->text();
    }
    bool on_timeout = false;
    if (const Statement* r = last(defaults, proxy, {"retry-on"})) {
      for (std::size_t k = 1; k < r->words.size(); ++k)
        on_timeout |= r->words[k].text == "response-timeout" || r->words[k].text == "all-retryable-errors";
      retry_line = std::max(retry_line, r->line);
      retry_source += std::string("; ") + r->text();
    }
    bool no_redispatch = true;
    const Statement* redispatch = last(defaults, proxy, {"option", "redispatch"}, &no_redispatch);
    if (!redispatch) no_redispatch = true;
    std::uint64_t lab = 0;
    if (on_timeout) {
      lab = std::min<std::uint64_t>({retries, out_.servers.size() - 1, kMaxRetries});
      if (lab < retries)
        out_.note(retry_line, std::string("retries ") + std::to_string(retries) + ": the lab retries each request at most " +
                                  std::to_string(lab) + " times, on other servers");
      if (no_redispatch && lab > 0)
        out_.note(retry_line, "without option redispatch HAProxy retries the same server; the lab retries another");
    } else if (retries > 0) {
      out_.note(retry_line, "retry-on without response-timeout: HAProxy retries connection failures only, so a "
                            "timed-out request is not retried");
    }
    out_.set("retries", std::to_string(lab), retry_line, retry_source);
    // Everything else of the backend and its defaults: listed.
    for (const Section* s : {defaults, &proxy}) {
      if (!s) continue;
      for (const Statement& st : s->body) {
        const std::string& k = st.words[0].text;
        const std::string two = st.words.size() > 1 ? k + " " + st.words[1].text : k;
        const std::string three = st.words.size() > 2 ? two + " " + st.words[2].text : two;
        if (k == "server" || k == "server-template" || k == "default-server" || k == "balance" || k == "retries" ||
            k == "retry-on" || k == "srvtimeout" || two == "timeout server" || two == "option redispatch" ||
            three == "no option redispatch")
          continue;
        const bool active = two == "option httpchk" || k == "http-check" || two == "option tcp-check" || k == "tcp-check";
        out_.ignore(st.line, std::string("`") + st.text() +
                                 (active ? "` (active checks: the lab's backends always pass them)" : "` (not modelled)"));
      }
    }
    return true;
  }

  ImportedConfig& out_;
  ConfigError& error_;
  std::vector<Section> sections_;
  std::vector<ServerState> states_;  // by server, as out_.servers
};

}  // namespace

bool read_haproxy(std::string_view text, std::string_view pool, ImportedConfig& out, ConfigError& error) {
  return HAProxyReader(out, error).read(text, pool);
}

}  // namespace slowstart::system
