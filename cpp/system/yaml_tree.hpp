// A strict subset of YAML 1.2, enough for Envoy's configurations, read into
// a tree. JSON is read by the same code (it is YAML's flow style).
//
// What it reads: block mappings and sequences (also "- key: value" items),
// flow mappings and sequences ({a: 1, b: [x, y]}, JSON), plain, 'single' and
// "double" quoted scalars (JSON's and YAML's escapes), literal | and folded >
// block scalars, comments, one document (an optional --- and ... around it,
// %YAML directives), anchors (&a) and aliases (*a), and tags (!!str, !ignore),
// which are read and dropped except Envoy's own `!ignore` on a key, which
// drops that entry as Envoy does.
//
// What it refuses, with the line and column: tabs in indentation, several
// documents, complex keys ("? "), duplicate keys, a ": " inside a plain
// value, bad indentation, unclosed quotes and brackets, control characters,
// nesting deeper than 200, more than 1,000,000 nodes, aliases that copy more
// than 100,000 nodes in all (a "billion laughs" stops there). docs/YOUR-SYSTEM.md says why a subset and
// not a library.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace slowstart::system {

struct YamlEntry;

struct YamlNode {
  enum class Kind : std::uint8_t { Null, Scalar, Map, Seq };
  Kind kind = Kind::Null;
  bool quoted = false;       // a quoted or block scalar: never null, a number only by its text
  std::string text;          // Scalar: its value
  std::vector<YamlEntry> map;  // Map: entries in order
  std::vector<YamlNode> seq;   // Seq: items in order
  std::uint32_t line = 0, column = 0;  // where it starts, 1-based

  bool is_map() const { return kind == Kind::Map; }
  bool is_seq() const { return kind == Kind::Seq; }
  bool is_scalar() const { return kind == Kind::Scalar; }
  // The entry's value under `key`, or nullptr.
  const YamlNode* get(std::string_view key) const;
};

struct YamlEntry {
  std::string key;
  std::uint32_t line = 0, column = 0;  // the key's
  YamlNode value;
};

struct YamlError {
  std::uint32_t line = 0, column = 0;
  std::string message;
};

// Reads `text`; false with `error` set when it is not in the subset.
bool read_yaml(std::string_view text, YamlNode& out, YamlError& error);

}  // namespace slowstart::system
