// The lab module's embind file for your own system (cpp/system/): a proxy's
// configuration read into the lab's pool and options, a canary's log
// fitted, and `slowstart fit` for the Node CLI. Typed in lab.d.mts, wrapped
// by web/api/your-system.ts.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <string>
#include <vector>

#include "system/fit_command.hpp"
#include "system/import_config.hpp"
#include "system/recommend_command.hpp"
#include "wasm/command_text.hpp"
#include "wasm/js_interop.hpp"

using emscripten::val;
using namespace slowstart;
using namespace slowstart::system;
using namespace slowstart::wasm;

namespace {

// `slowstart fit ARGS` and `slowstart recommend ARGS` for the Node CLI (command_text.hpp).
val fit_command_text(val args, val read) { return command_text(args, read, run_fit); }
val recommend_command_text(val args, val read) { return command_text(args, read, run_recommend); }

val notes_of(const std::vector<ImportedNote>& notes) {
  val list = val::array();
  for (const ImportedNote& n : notes) {
    val o = val::object();
    o.set("line", n.line);
    o.set("text", n.text);
    list.call<void>("push", o);
  }
  return list;
}

// importConfig(length, format, pool): the configuration in the input
// buffer read; {format, pool, servers, settings, ignored, notes, script},
// or an Error with line and column.
val import_config_js(double length, std::string format_name, std::string pool) {
  std::optional<ConfigFormat> format;
  if (!format_name.empty()) {
    ConfigFormat f{};
    if (Problem p = parse_config_format(format_name, f)) return js_error(*p);
    format = f;
  }
  ImportedConfig c;
  ConfigError e;
  if (!import_config(input(static_cast<std::size_t>(length)), format, pool, c, e)) {
    val error = js_error(e.message);
    error.set("line", e.line);
    error.set("column", e.column);
    return error;
  }
  val servers = val::array();
  for (const ImportedServer& s : c.servers) {
    val o = val::object();
    o.set("name", s.name);
    o.set("weight", s.weight);
    o.set("down", s.down);
    o.set("line", s.line);
    servers.call<void>("push", o);
  }
  val settings = val::array();
  for (const ImportedSetting& s : c.settings) {
    val o = val::object();
    o.set("option", s.option);
    o.set("value", s.value);
    o.set("line", s.line);
    o.set("source", s.source);
    settings.call<void>("push", o);
  }
  val out = val::object();
  out.set("format", std::string(config_format_name(c.format)));
  out.set("pool", c.pool);
  out.set("servers", servers);
  out.set("settings", settings);
  out.set("ignored", notes_of(c.ignored));
  out.set("notes", notes_of(c.notes));
  out.set("script", pool_script(c));
  return out;
}

// fitCanary(length, {logFormat, backend, started, seed}): the log in the
// input buffer fitted; {json, summary, t, latencyMs}, or an Error (a log that
// cannot be read, with its line in the message). A refusal is a result:
// its json is {"refused": ...}.
val fit_canary_js(double length, val options) {
  AccessLogOptions access;
  const bool log = !options["logFormat"].isUndefined() && !options["logFormat"].isNull();
  if (log) {
    if (Problem p = parse_log_format(options["logFormat"].as<std::string>(), access.format)) return js_error(*p);
    if (val b = options["backend"]; !b.isUndefined()) access.backend = b.as<std::string>();
    if (val s = options["started"]; !s.isUndefined()) access.started = s.as<double>();
  }
  std::uint64_t seed = 1;
  if (val s = options["seed"]; !s.isUndefined()) seed = static_cast<std::uint64_t>(s.as<double>());
  CanaryLog canary;
  std::string problem;
  if (!read_canary(input(static_cast<std::size_t>(length)), log ? &access : nullptr, canary, problem))
    return js_error(problem);
  const ColdFit f = fit_cold_start(canary, seed);
  std::vector<double> t, ms;
  for (const CanaryRow& r : canary.rows) t.push_back(r.t), ms.push_back(r.latency_ms);
  val out = val::object();
  out.set("json", fit_json(f));
  out.set("summary", f.refused.empty() ? fit_summary(f, canary) : "slowstart fit: cannot decide: " + f.refused + "\n");
  out.set("t", typed_copy("Float64Array", t));
  out.set("latencyMs", typed_copy("Float64Array", ms));
  return out;
}

}  // namespace

EMSCRIPTEN_BINDINGS(slowstart_system) {
  emscripten::function("fitCommand", &fit_command_text);
  emscripten::function("recommendCommand", &recommend_command_text);
  emscripten::function("importConfig", &import_config_js);
  emscripten::function("fitCanary", &fit_canary_js);
}
