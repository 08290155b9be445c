// The Traffic lab's options between JavaScript and C++, all from the option
// table (cpp/traffic/option_table.hpp): a JS TrafficOptions object read into
// TrafficOptions (every key the table names, nothing else), the table itself
// for the page, and the defaults.
#pragma once
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <string>
#include <string_view>

#include "traffic/option_table.hpp"
#include "wasm/js_interop.hpp"

namespace slowstart::wasm {

// A problem with the JS type of a value, kept apart from the engine's range
// checks so that the API can say WRONG_TYPE (web/api/raise.ts).
struct JsProblem {
  std::string message;
  const char* code = "INVALID_ARGUMENT";
};
using JsCheck = std::optional<JsProblem>;

inline bool is_plain_object(const val& v) { return v.typeOf().as<std::string>() == "object" && !v.isNull() && !val::global("Array").call<bool>("isArray", v); }

// Every key of `object` must be one of the table's under `prefix` ("" or
// "service."): a misspelt option is an error, not a silent default.
inline JsCheck known_keys(const val& object, const std::string& prefix) {
  const val keys = val::global("Object").call<val>("keys", object);
  const int n = keys["length"].as<int>();
  for (int i = 0; i < n; ++i) {
    const std::string key = keys[i].as<std::string>();
    const std::string path = prefix + key;
    bool known = false;
    for (const TrafficOption& option : traffic_option_table()) {
      if (!option.key) continue;
      const std::string_view k = option.key;
      // "service" is both a switch and the object of its options.
      if (k == path || (k.size() > path.size() && k.substr(0, path.size()) == path && k[path.size()] == '.')) known = true;
    }
    if (!known) return JsProblem{"unknown traffic option " + quote(path)};
  }
  return std::nullopt;
}

// The value at an option's key path ("service.baseMs"): undefined when a
// parent is missing, null, or not an object (`service: true`).
inline val value_at(const val& options, std::string_view path) {
  val v = options;
  for (;;) {
    const std::size_t dot = path.find('.');
    v = v[std::string(path.substr(0, dot))];
    if (dot == std::string_view::npos) return v;
    if (!is_plain_object(v)) return val::undefined();
    path.remove_prefix(dot + 1);
  }
}

// Reads a JS TrafficOptions object (`{rps, curve: {kind}, service: {...} | true, health: {kind, ...}}`);
// undefined keys keep their defaults. Values are checked against the table;
// the rules between options are check_traffic_options's.
inline JsCheck traffic_from_js(const val& o, TrafficOptions& t) {
  t = TrafficOptions{};
  if (o.isUndefined() || o.isNull()) return std::nullopt;
  if (!is_plain_object(o)) return JsProblem{"options must be an object, got " + o.typeOf().as<std::string>(), "WRONG_TYPE"};
  if (JsCheck p = known_keys(o, "")) return p;
  for (const char* parent : {"curve", "service", "health"}) {
    const val v = o[parent];
    if (is_plain_object(v)) {
      if (JsCheck p = known_keys(v, std::string(parent) + ".")) return p;
    } else if (!v.isUndefined() && !v.isNull() && !(std::string_view(parent) == "service" && v.typeOf().as<std::string>() == "boolean")) {
      return JsProblem{std::string(parent) + " must be an object, got " + v.typeOf().as<std::string>(), "WRONG_TYPE"};
    }
  }
  if (is_plain_object(o["health"]) && o["health"]["kind"].isUndefined())
    return JsProblem{"health.kind must be a string, got undefined", "WRONG_TYPE"};
  for (const TrafficOption& option : traffic_option_table()) {
    if (!option.key) continue;
    const val v = value_at(o, option.key);
    if (v.isUndefined()) continue;
    const std::string type = v.typeOf().as<std::string>();
    const auto wrong = [&](const char* want) { return JsProblem{std::string(option.key) + " must be " + want + ", got " + type, "WRONG_TYPE"}; };
    Problem p;
    switch (option.kind) {
      case ValueKind::Number:
      case ValueKind::Whole:
      case ValueKind::Level:
      case ValueKind::Seed:
        if (type != "number") return wrong("a number");
        p = set_option_number(option, v.as<double>(), t);
        break;
      case ValueKind::Choice:
        if (type != "string") return wrong("a string");
        p = set_option_text(option, v.as<std::string>(), t);
        break;
      case ValueKind::Switch:
        if (is_plain_object(v)) p = set_option_number(option, 1, t);  // service: {...} turns it on
        else if (type != "boolean") return wrong("a boolean");
        else p = set_option_number(option, v.as<bool>() ? 1 : 0, t);
        break;
      case ValueKind::Fixed:
        break;
    }
    if (p) return JsProblem{*p};
  }
  return std::nullopt;
}

// A JS value of the option's in `o` (a number, a name or a boolean).
inline val option_value_js(const TrafficOption& option, const TrafficOptions& o) {
  switch (option.kind) {
    case ValueKind::Number:
    case ValueKind::Whole:
    case ValueKind::Level:
      return val(option.field.get(o));
    case ValueKind::Seed:
      return val(static_cast<double>(option.seed(const_cast<TrafficOptions&>(o))));
    case ValueKind::Choice:
    case ValueKind::Fixed:
      return val(option_text(option, o));
    case ValueKind::Switch:
      return val(option.field.get(o) != 0);
  }
  return val::undefined();
}

// The table for the page: each option's flag, key, JSON key, label, group,
// kind, range, choices, default, help, and when it applies.
inline val traffic_option_table_js() {
  const TrafficOptions defaults;
  val table = val::array();
  for (const TrafficOption& option : traffic_option_table()) {
    val e = val::object();
    e.set("flag", option.flag ? val(std::string(option.flag)) : val::null());
    e.set("metavar", std::string(option.metavar));
    e.set("key", option.key ? val(std::string(option.key)) : val::null());
    e.set("json", option.json ? val(std::string(option.json)) : val::null());
    e.set("label", std::string(option.label));
    e.set("group", std::string(name_of(option.group)));
    e.set("kind", std::string(name_of(option.kind)));
    if (option.kind == ValueKind::Number || option.kind == ValueKind::Whole) {
      e.set("min", option.min);
      e.set("max", option.max);
      e.set("aboveMin", option.above_min);
    }
    e.set("unit", std::string(option.unit));
    val choices = val::array();
    for (const char* c : option.choices) choices.call<void>("push", option.kind == ValueKind::Level ? val(std::strtod(c, nullptr)) : val(std::string(c)));
    e.set("choices", choices);
    e.set("takes", option_takes(option));
    e.set("default", option_value_js(option, defaults));
    e.set("defaultText", std::string(option.default_text));
    e.set("help", std::string(option.help));
    if (option.when_key) {
      val when = val::object();
      when.set("key", std::string(option.when_key));
      when.set("value", std::string(option.when_value));
      e.set("when", when);
    } else {
      e.set("when", val::null());
    }
    e.set("impliesService", option.implies_service);
    table.call<void>("push", e);
  }
  return table;
}

// The defaults by API key path, as nested objects: {rps: 1000, curve: {kind:
// 'linear', ...}, ...}; `health` holds every check's parameters (which check
// runs is the option's value, not a default of the parameters: none).
inline val traffic_option_defaults_js() {
  const TrafficOptions defaults;
  val out = val::object();
  for (const TrafficOption& option : traffic_option_table()) {
    if (!option.key || std::string_view(option.key) == "health.kind") continue;
    std::string_view path = option.key;
    val at = out;
    for (std::size_t dot; (dot = path.find('.')) != std::string_view::npos; path.remove_prefix(dot + 1)) {
      const std::string parent(path.substr(0, dot));
      if (!is_plain_object(at[parent])) at.set(parent, val::object());
      at = at[parent];
    }
    at.set(std::string(path), option_value_js(option, defaults));
  }
  return out;
}

}  // namespace slowstart::wasm
