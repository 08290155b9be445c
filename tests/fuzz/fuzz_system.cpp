// libFuzzer target for cpp/system: proxies' configurations and canary logs,
// any bytes. The first byte chooses what reads the rest:
//   0-5   import_config: the format told from the text, or named (nginx,
//         haproxy, envoy, caddy, alb), with or without a pool name
//   6     the YAML subset on its own
//   7     the canary CSV, then the fit (two resamples: fast enough to fuzz)
//   8-10  an nginx, HAProxy or Envoy access log, then the fit
// Whatever the input, nothing may crash, leak or take long, and:
//   - a failed import leaves nothing behind and says where (a line within
//     the text, or 0) and why (a short printable message);
//   - an import's servers have names the script accepts, unique, and the
//     pool script it makes runs without a rejected line;
//   - every setting and note names a line within the text;
//   - the pool written back by --emit in each format (emit_config) is read
//     again by that format's reader, with as many servers;
//   - a fit's numbers are finite, its bands ordered; a refusal says why.
// Any violation calls __builtin_trap() after printing what was wrong.
//
// Build and run: tests/fuzz/run.sh --system [SECONDS]
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <set>
#include <string>
#include <string_view>

#include "core/interpreter.hpp"
#include "core/validate.hpp"
#include "system/access_log.hpp"
#include "system/canary_log.hpp"
#include "system/cold_fit.hpp"
#include "system/emit_config.hpp"
#include "system/import_config.hpp"
#include "system/yaml_tree.hpp"

namespace {

using namespace slowstart;
using namespace slowstart::system;

[[noreturn]] void fail(const char* what, const std::string& detail = "") {
  std::fprintf(stderr, "fuzz_system: %s %s\n", what, detail.c_str());
  __builtin_trap();
}

// Lines as the most generous reader counts them: YAML's (yaml_tree.cpp)
// ends a line at \n, \r\n or a lone \r, as YAML 1.2 and Envoy's reader do;
// the line-based formats (nginx, HAProxy, Caddy) end one at \n alone, so
// their lines are never more.
std::uint32_t lines_in(std::string_view text) {
  std::uint32_t n = 1;
  for (std::size_t i = 0; i < text.size(); ++i)
    if (text[i] == '\n' || (text[i] == '\r' && (i + 1 == text.size() || text[i + 1] != '\n'))) ++n;
  return n;
}

void check_message(const std::string& m) {
  if (m.empty() || m.size() > 2000) fail("message size", m);
  if (quote(m).find("\\x") != std::string::npos && m.find('\\') == std::string::npos) fail("message not printable", m);
}

// Counts the script's rejected lines.
class Count : public ScriptSink {
 public:
  void output(std::uint64_t, std::string_view) override {}
  void diagnostic(std::uint64_t, std::string_view message, Span) override { bad = std::string(message); }
  std::string bad;
};

// The imported pool, emitted in every format and read back by its reader.
void check_emit(const ImportedConfig& c) {
  EmitInput in;
  in.pool = c.pool;
  in.servers = c.servers;
  in.slow_start = 30;
  in.options.timeout_ms = 1000;
  static constexpr std::pair<EmitFormat, ConfigFormat> kFormats[] = {
      {EmitFormat::NginxPlus, ConfigFormat::Nginx}, {EmitFormat::HAProxy, ConfigFormat::HAProxy},
      {EmitFormat::Envoy, ConfigFormat::Envoy},     {EmitFormat::Caddy, ConfigFormat::Caddy},
      {EmitFormat::Alb, ConfigFormat::Alb}};
  for (const auto& [emit, read] : kFormats) {
    const std::string text = emit_config(emit, in);
    ImportedConfig back;
    ConfigError e;
    if (!import_config(text, read, {}, back, e))
      fail("emitted text not read back", std::to_string(e.line) + ":" + std::to_string(e.column) + ": " + e.message + "\n" + text);
    if (back.servers.size() != c.servers.size()) fail("emitted text read back with other servers", text);
  }
}

void check_import(std::string_view text, std::optional<ConfigFormat> format, std::string_view pool) {
  ImportedConfig c;
  ConfigError e;
  if (!import_config(text, format, pool, c, e)) {
    if (!c.servers.empty() || !c.settings.empty() || !c.ignored.empty()) fail("a failed import left something");
    if (e.line > lines_in(text)) fail("error line past the text", e.message);
    check_message(e.message);
    return;
  }
  std::set<std::string> names;
  for (const ImportedServer& s : c.servers) {
    if (check_name(s.name)) fail("a server name the script refuses", s.name);
    if (!names.insert(s.name).second) fail("a server name twice", s.name);
    if (s.line > lines_in(text)) fail("server line past the text");
  }
  for (const ImportedSetting& s : c.settings)
    if (s.line > lines_in(text) || s.option.empty()) fail("setting", s.option);
  for (const auto* list : {&c.ignored, &c.notes})
    for (const ImportedNote& n : *list) {
      if (n.line > lines_in(text)) fail("note line past the text", n.text);
      check_message(n.text);
    }
  if (!c.servers.empty()) {
    Count sink;
    Interpreter in(sink);
    in.feed_text(pool_script(c));
    in.finish();
    if (!sink.bad.empty()) fail("the pool script has a rejected line", sink.bad + " in " + pool_script(c));
    check_emit(c);
  }
}

void check_fit(const CanaryLog& log) {
  const ColdFit f = fit_cold_start(log, 1, 2);
  if (!f.refused.empty()) {
    check_message(f.refused);
    return;
  }
  for (const ModelFit* m : {&f.time, &f.requests}) {
    for (const double v : {m->service_ms, m->cold_factor, m->warmup, m->log_likelihood})
      if (!std::isfinite(v)) fail("a fitted number is not finite");
    for (const Band* b : {&m->service_band, &m->cold_band, &m->warmup_band})
      if (!(b->lo <= b->hi) || !std::isfinite(b->lo) || !std::isfinite(b->hi)) fail("a band out of order");
    if (m->cold_factor < 1 || m->service_ms <= 0) fail("a model slower when warm");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::uint8_t mode = data[0] % 11;
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  if (mode <= 5) {
    std::optional<ConfigFormat> format;
    if (mode > 0) format = static_cast<ConfigFormat>(mode - 1);
    check_import(text, format, "");
    check_import(text, format, "b");
  } else if (mode == 6) {
    YamlNode n;
    YamlError e;
    if (!read_yaml(text, n, e)) check_message(e.message);
  } else if (mode == 7) {
    CanaryLog log;
    std::string error;
    if (read_canary_csv(text, log, error)) check_fit(log);
    else check_message(error);
  } else {
    AccessLogOptions o;
    o.format = static_cast<LogFormat>(mode - 8);
    CanaryLog log;
    std::string error;
    if (read_access_log(text, o, log, error)) check_fit(log);
    else check_message(error);
  }
  return 0;
}
