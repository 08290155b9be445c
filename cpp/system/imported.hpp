// What a proxy's configuration file becomes: the pool (servers, weights, who
// starts down) and the options of `slowstart simulate` it sets, each with
// the line that set it, plus everything the lab does not model, listed with
// its line so that nothing is dropped silently. Written by the readers
// (nginx_config, haproxy_config, envoy_config, caddy_config, alb_config),
// read by apply_import (the options) and by --explain.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/validate.hpp"

namespace slowstart::system {

enum class ConfigFormat { Nginx, HAProxy, Envoy, Caddy, Alb };
inline constexpr const char* kConfigFormatNames[] = {"nginx", "haproxy", "envoy", "caddy", "alb"};
Problem parse_config_format(std::string_view text, ConfigFormat& out);
const char* config_format_name(ConfigFormat format);

struct ImportedServer {
  std::string name;          // as the script names it (valid, unique)
  std::uint32_t weight = 1;
  bool down = false;         // starts DOWN (nginx `down`, HAProxy `disabled`)
  std::uint32_t line = 0;
};

// One option of `slowstart simulate` as the file sets it.
struct ImportedSetting {
  std::string option;  // the flag without its dashes: "timeout-ms"
  std::string value;   // as the command line takes it; empty for a flag
  std::uint32_t line = 0;
  std::string source;  // the directive as the file says it: "timeout server 1s"
};

// A line of the file and what about it: a directive the lab does not model
// (`ignored`), or how something was read (`notes`: an approximation, a
// proposal, a choice between servers that disagree).
struct ImportedNote {
  std::uint32_t line = 0;
  std::string text;
};

struct ImportedConfig {
  ConfigFormat format = ConfigFormat::Nginx;
  std::string pool;  // the upstream, backend, cluster or site it read
  std::vector<ImportedServer> servers;
  std::vector<ImportedSetting> settings;
  std::vector<ImportedNote> ignored;
  std::vector<ImportedNote> notes;

  // Sets (or replaces) an option.
  void set(std::string option, std::string value, std::uint32_t line, std::string source);
  // Sets an option the file gives per server, where the lab has one value
  // for the pool: the first server's, with a note when they differ.
  struct PerServer {
    std::string server, value;
    std::uint32_t line = 0;
    std::string source;
  };
  void set_common(std::string option, const std::vector<PerServer>& values, std::string_view what);
  const ImportedSetting* find(std::string_view option) const;
  // Both keep what the file says printable (config_text.hpp's printable()).
  void ignore(std::uint32_t line, std::string_view text);
  void note(std::uint32_t line, std::string_view text);
};

// A file the readers cannot read: where and why (line and column 1-based;
// column 0 when the problem is the whole line or file).
struct ConfigError {
  std::uint32_t line = 0, column = 0;
  std::string message;
};

// The script lines that build the file's pool at time 0: `POOL a=1 b=2`, then
// `DOWN x` for each server that starts down.
std::string pool_script(const ImportedConfig& config);

}  // namespace slowstart::system
