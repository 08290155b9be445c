#include "system/imported.hpp"

#include "system/config_text.hpp"

namespace slowstart::system {

Problem parse_config_format(std::string_view text, ConfigFormat& out) {
  for (std::size_t i = 0; i < std::size(kConfigFormatNames); ++i)
    if (text == kConfigFormatNames[i]) {
      out = static_cast<ConfigFormat>(i);
      return std::nullopt;
    }
  return std::string("format must be nginx, haproxy, envoy, caddy or alb, got ") + quote(text);
}

const char* config_format_name(ConfigFormat format) { return kConfigFormatNames[static_cast<int>(format)]; }

void ImportedConfig::ignore(std::uint32_t line, std::string_view text) { ignored.push_back({line, printable(text)}); }
void ImportedConfig::note(std::uint32_t line, std::string_view text) { notes.push_back({line, printable(text)}); }

void ImportedConfig::set(std::string option, std::string value, std::uint32_t line, std::string source) {
  for (ImportedSetting& s : settings)
    if (s.option == option) {
      s = ImportedSetting{std::move(option), std::move(value), line, std::move(source)};
      return;
    }
  settings.push_back(ImportedSetting{std::move(option), std::move(value), line, std::move(source)});
}

void ImportedConfig::set_common(std::string option, const std::vector<PerServer>& values, std::string_view what) {
  if (values.empty()) return;
  const PerServer& first = values.front();
  std::string differ;
  for (const PerServer& v : values)
    if (v.value != first.value) differ += (differ.empty() ? "" : ", ") + v.server + " " + v.value;
  if (!differ.empty())
    note(first.line, std::string("servers differ in ") + std::string(what) + " (" + first.server + " " + first.value + ", " +
                         differ + "): the lab has one value for the pool and takes the first, " + first.value +
                         std::string(" (override it with --") + option + ")");
  set(std::move(option), first.value, first.line, first.source);
}

const ImportedSetting* ImportedConfig::find(std::string_view option) const {
  for (const ImportedSetting& s : settings)
    if (s.option == option) return &s;
  return nullptr;
}

std::string pool_script(const ImportedConfig& config) {
  std::string script = "POOL";
  for (const ImportedServer& s : config.servers) script += ' ' + s.name + '=' + std::to_string(s.weight);
  script += '\n';
  for (const ImportedServer& s : config.servers)
    if (s.down) script += std::string("DOWN ") + s.name + '\n';
  return script;
}

}  // namespace slowstart::system
