#include "system/simulate_from.hpp"

#include <algorithm>
#include <cmath>

#include "system/config_text.hpp"
#include "traffic/option_table.hpp"
#include "system/emit_config.hpp"
#include "system/import_config.hpp"
#include "system/recommend.hpp"

namespace slowstart::system {

namespace {

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

// Whether the lab has this option: its option table (traffic/option_table.hpp),
// the one list simulate's parser, its help and the API are made from.
bool lab_has(const std::string& option) { return find_option_by_flag("--" + option) != nullptr; }

std::string file_name(const std::string& path) { return path.empty() || path == "-" ? "<stdin>" : path; }

// "--x v" as one word list.
std::string joined(const std::vector<std::string>& words) {
  std::string s;
  for (const std::string& w : words) s += (s.empty() ? "" : " ") + w;
  return s;
}

}  // namespace

Problem take_system_args(std::vector<std::string>& args, SystemArgs& out) {
  std::vector<std::string> rest;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--") {  // what follows is positional: the script
      rest.insert(rest.end(), args.begin() + static_cast<std::ptrdiff_t>(i), args.end());
      break;
    }
    std::string name = a, value;
    bool attached = false;
    if (const std::size_t eq = a.find('='); starts_with(a, "--") && eq != std::string::npos)
      name = a.substr(0, eq), value = a.substr(eq + 1), attached = true;
    const auto take = [&](std::string& into) -> Problem {
      if (attached) return into = value, std::nullopt;
      if (i + 1 >= args.size()) return name + " needs a value";
      into = args[++i];
      return std::nullopt;
    };
    if (name == "--from") {
      if (Problem p = take(out.from)) return p;
      if (out.from.empty()) return std::string("--from needs a file");
    } else if (name == "--from-format") {
      if (Problem p = take(out.from_format)) return p;
      ConfigFormat f{};
      if (Problem p = parse_config_format(out.from_format, f)) return "--from-format: " + *p;
    } else if (name == "--from-pool") {
      if (Problem p = take(out.from_pool)) return p;
    } else if (name == "--emit") {
      if (Problem p = take(out.emit)) return p;
      EmitFormat f{};
      if (Problem p = parse_emit_format(out.emit, f)) return "--emit: " + *p;
    } else if (name == "--explain") {
      if (attached) return std::string("--explain takes no value");
      out.explain = true;
    } else {
      rest.push_back(a);
    }
  }
  if (out.from.empty() && (!out.from_format.empty() || !out.from_pool.empty() || out.explain))
    return std::string("--from-format, --from-pool and --explain read a --from file");
  args = std::move(rest);
  return std::nullopt;
}

bool read_from(const SystemArgs& a, const FileReader& read, FromFile& out, std::string& problem) {
  out = FromFile{};
  out.path = a.from;
  out.pool = a.from_pool;
  if (!a.from_format.empty()) {
    ConfigFormat f{};
    parse_config_format(a.from_format, f);
    out.format = f;
  }
  std::string text;
  if (Problem p = read_file(read, a.from, text)) {
    problem = "slowstart: " + *p;
    return false;
  }
  ConfigError e;
  if (!import_config(text, out.format, out.pool, out.config, e)) {
    problem = "slowstart simulate: " + file_name(a.from);
    if (e.line > 0) problem += ":" + std::to_string(e.line);
    if (e.column > 0) problem += ":" + std::to_string(e.column);
    problem += ": " + e.message;
    return false;
  }
  for (const ImportedSetting& s : out.config.settings) {
    if (!lab_has(s.option)) {
      out.unknown.push_back({s.line, "`--" + s.option + (s.value.empty() ? "" : " " + s.value) + "` from `" + s.source +
                                         "` (this lab has no --" + s.option + ")"});
      continue;
    }
    std::string value = s.value;
    double v = 0;
    if (s.option == "slow-start" && decimal_number(value, v) && v != std::ceil(v)) {
      // The lab's window is whole seconds, as HAProxy keeps it: rounded up.
      value = number_text(std::ceil(v));
      out.config.notes.push_back({s.line, "slow start " + s.value + " s: the lab's window is whole seconds, " + value + " s"});
    }
    out.args.push_back("--" + s.option);
    if (!value.empty()) out.args.push_back(value);
  }
  return true;
}

bool prepare(const FromFile* from, const std::vector<std::string>& args, const FileReader& read,
             Prepared& out, std::string& problem) {
  out = Prepared{};
  std::vector<std::string> all = from ? from->args : std::vector<std::string>{};
  all.insert(all.end(), args.begin(), args.end());
  if (Problem p = simulate_command::parse_simulate_args(all, out.sim)) {
    // The file's own settings, alone: if they fail, say which line.
    simulate_command::SimulateArgs file_only;
    if (from && simulate_command::parse_simulate_args(from->args, file_only)) {
      for (const ImportedSetting& s : from->config.settings) {
        simulate_command::SimulateArgs one;
        std::vector<std::string> w{"--" + s.option};
        if (!s.value.empty()) w.push_back(s.value);
        if (Problem q = simulate_command::parse_simulate_args(w, one); q && !starts_with(*q, "unknown option")) {
          problem = "slowstart simulate: " + file_name(from->path) + ":" + std::to_string(s.line) + ": " + *q +
                    " (from `" + s.source + "`)";
          return false;
        }
      }
    }
    problem = "slowstart simulate: " + *p;
    return false;
  }
  if (out.sim.help) return true;
  std::string text;
  if (Problem p = read_file(read, out.sim.path, text)) {
    problem = "slowstart: " + *p;
    return false;
  }
  out.args = std::move(all);
  if (from && !from->config.servers.empty()) {
    out.prelude = pool_script(from->config);
    out.prelude_lines = static_cast<std::uint64_t>(std::count(out.prelude.begin(), out.prelude.end(), '\n'));
  }
  out.body = std::move(text);
  out.script = out.prelude + out.body;
  return true;
}

std::string explain(const FromFile& f, const std::vector<std::string>& user_args) {
  const ImportedConfig& c = f.config;
  std::string s = file_name(f.path) + ": " + config_format_name(c.format) + ", " + printable(c.pool) + ": " +
                  std::to_string(c.servers.size()) + (c.servers.size() == 1 ? " server\n" : " servers\n");
  // The pool's script lines on one line: "POOL a=1 b=1; DOWN b".
  std::string pool = pool_script(c);
  if (!pool.empty()) pool.pop_back();
  std::string one_line;
  for (const char ch : pool) one_line += ch == '\n' ? std::string("; ") : std::string(1, ch);
  s += "  ";
  s += printable(one_line);
  s += "\noptions (each with the line that set it):\n";
  std::size_t width = 0;
  for (const ImportedSetting& x : c.settings)
    width = std::max(width, x.option.size() + (x.value.empty() ? 0 : x.value.size() + 1) + 2);
  for (const ImportedSetting& x : c.settings) {
    std::string opt = "--" + x.option + (x.value.empty() ? "" : " " + x.value);
    opt.resize(std::max(width, opt.size()), ' ');
    std::string line = "  " + opt + "  line " + std::to_string(x.line) + ": " + printable(x.source);
    if (x.option == "slow-start")
      line += " (every server's window: the balancer's rule decides which joins ramp; the script's ramps are not used)";
    s += line + '\n';
  }
  // The command line's own options win over the file's.
  std::vector<std::string> overridden;
  for (const ImportedSetting& x : c.settings)
    if (std::find(user_args.begin(), user_args.end(), "--" + x.option) != user_args.end())
      overridden.push_back("--" + x.option);
  if (!overridden.empty()) s += "overridden on the command line: " + joined(overridden) + '\n';
  if (!c.ignored.empty() || !f.unknown.empty()) {
    s += "not modelled:\n";
    std::vector<ImportedNote> all = c.ignored;
    all.insert(all.end(), f.unknown.begin(), f.unknown.end());
    std::stable_sort(all.begin(), all.end(), [](const ImportedNote& a, const ImportedNote& b) { return a.line < b.line; });
    for (const ImportedNote& n : all) s += "  ignored: line " + std::to_string(n.line) + " " + n.text + '\n';
  }
  if (!c.notes.empty()) {
    s += "notes:\n";
    for (const ImportedNote& n : c.notes) s += "  line " + std::to_string(n.line) + ": " + n.text + '\n';
  }
  s += "as options: " + joined(f.args) + '\n';
  return s;
}

std::string emit_text(const std::string& format, const FromFile* from, const Prepared& p, double window) {
  EmitFormat f{};
  parse_emit_format(format, f);
  EmitInput in;
  if (from) in.pool = from->config.pool;
  in.servers = from && !from->config.servers.empty() ? from->config.servers : script_pool(p.body);
  in.options = p.sim.options;
  in.slow_start = std::max(0.0, window);
  if (from)
    if (const ImportedSetting* s = from->config.find("panic-threshold")) {
      decimal_number(s->value, in.panic_threshold);
      // The command line's --panic-threshold over the file's (with --health envoy, where the lab has it).
      if (p.sim.options.health.kind == HealthKind::Envoy) in.panic_threshold = p.sim.options.health.panic_threshold;
    }
  return emit_config(f, in);
}

// simulate --help's last section: the options this room adds.
const char* const kSystemHelp =
    "\nyour own system (docs/YOUR-SYSTEM.md):\n"
    "  --from FILE           the proxy's configuration: its pool first, its options\n"
    "                        before the command line's (which win)\n"
    "  --from-format F       nginx, haproxy, envoy, caddy or alb (default: told\n"
    "                        from the text)\n"
    "  --from-pool NAME      the upstream, backend, cluster or site to read\n"
    "  --explain             print what the file became, line by line, instead of\n"
    "                        running\n"
    "  --emit FORMAT         print the options in force as nginx, nginx-plus,\n"
    "                        haproxy, envoy, caddy or alb configuration instead of\n"
    "                        running\n";

int run_simulate_system(const std::vector<std::string>& given, const FileReader& read, std::string& out,
                        std::string& err) {
  if (std::find(given.begin(), given.end(), "--help") != given.end() ||
      std::find(given.begin(), given.end(), "-h") != given.end()) {
    const int status = simulate_command::run_simulate({"--help"}, read, out, err);
    out += kSystemHelp;
    return status;
  }
  std::vector<std::string> args = given;
  SystemArgs a;
  if (Problem p = take_system_args(args, a)) {
    err += "slowstart simulate: " + *p + '\n';
    return 2;
  }
  if (!a.any()) return simulate_command::run_simulate(given, read, out, err);
  FromFile from;
  std::string problem;
  if (!a.from.empty() && !read_from(a, read, from, problem)) {
    err += problem + '\n';
    return 2;
  }
  const FromFile* f = a.from.empty() ? nullptr : &from;
  if (a.explain) {
    out += explain(from, args);
    return 0;
  }
  Prepared p;
  if (!prepare(f, args, read, p, problem)) {
    err += problem + '\n';
    return 2;
  }
  if (p.sim.help) return simulate_command::run_simulate({"--help"}, read, out, err);
  if (!a.emit.empty()) {
    out += emit_text(a.emit, f, p, p.sim.options.slow_start ? p.sim.options.slow_start_window : 0);
    return 0;
  }
  if (f) {
    const std::size_t not_modelled = from.config.ignored.size() + from.unknown.size();
    err += "slowstart simulate: " + file_name(from.path) + ": " + config_format_name(from.config.format) + " " +
           printable(from.config.pool) + ", " + std::to_string(from.config.servers.size()) + " servers; " +
           std::to_string(not_modelled) + " not modelled, " + std::to_string(from.config.notes.size()) +
           " notes (--explain lists them)\n";
  }
  TrafficResult r = simulate_traffic(p.script, p.sim.options);
  for (Diagnostic& d : r.diagnostics) d.line -= std::min<std::uint64_t>(d.line, p.prelude_lines);
  for (std::uint64_t& line : r.ignored_ramps) line -= std::min<std::uint64_t>(line, p.prelude_lines);
  err += simulate_command::format_diagnostics(r);
  if (r.problem) return 2;
  out += p.sim.summary ? simulate_command::format_summary(r, p.sim) : simulate_command::format_simulation(r, p.sim);
  return r.diagnostics.empty() ? 0 : 1;
}

}  // namespace slowstart::system
