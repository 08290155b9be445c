// The YAML subset Envoy's files are read with (cpp/system/yaml_tree.*):
// what it reads, worked out by hand from the YAML 1.2 rules, and what it
// refuses, with the line and column.
#include <gtest/gtest.h>

#include <string>

#include "system/yaml_tree.hpp"

namespace slowstart::system {
namespace {

// The tree in one line: {k: v, ...}, [a, ...], 'quoted', ~ for null.
std::string show(const YamlNode& n) {
  switch (n.kind) {
    case YamlNode::Kind::Null: return "~";
    case YamlNode::Kind::Scalar: return n.quoted ? "'" + n.text + "'" : n.text;
    case YamlNode::Kind::Map: {
      std::string s = "{";
      for (const YamlEntry& e : n.map) s += (s.size() > 1 ? ", " : "") + e.key + ": " + show(e.value);
      return s + "}";
    }
    case YamlNode::Kind::Seq: {
      std::string s = "[";
      for (const YamlNode& c : n.seq) s += (s.size() > 1 ? ", " : "") + show(c);
      return s + "]";
    }
  }
  return "?";
}

std::string tree(std::string_view text) {
  YamlNode n;
  YamlError e;
  if (!read_yaml(text, n, e)) return "error " + std::to_string(e.line) + ":" + std::to_string(e.column) + " " + e.message;
  return show(n);
}

TEST(SystemYaml, BlockAndFlowCollections) {
  EXPECT_EQ(tree("a: 1\nb:\n  c: x\n  d: [1, 2]\n"), "{a: 1, b: {c: x, d: [1, 2]}}");
  // A key's sequence may sit at the key's own indentation.
  EXPECT_EQ(tree("a:\n- 1\n- 2\nb: 3\n"), "{a: [1, 2], b: 3}");
  // Compact mappings in sequence items, nested sequences, empty items.
  EXPECT_EQ(tree("- name: x\n  lb: 2\n- - n1\n  - n2\n-\n"), "[{name: x, lb: 2}, [n1, n2], ~]");
  // Flow style over lines, with comments and a trailing comma.
  EXPECT_EQ(tree("a: {b: 1, # one\n    c: [x,\n        y,],\n    d: }\n"), "{a: {b: 1, c: [x, y], d: ~}}");
  // JSON, ':' right after a quoted key.
  EXPECT_EQ(tree("{\"a\":[1,{\"b\":null,\"c\":true}],\"d\":\"x\\ny\"}"), "{a: [1, {b: ~, c: true}], d: 'x\ny'}");
}

TEST(SystemYaml, Scalars) {
  EXPECT_EQ(tree("a: 'it''s'\nb: \"\\u00e9\\t\\\"\"\nc: plain # comment\nd: \"#no comment\"\ne: x#y\n"),
            "{a: 'it's', b: '\xC3\xA9\t\"', c: plain, d: '#no comment', e: x#y}");
  EXPECT_EQ(tree("a: http://h:80/p\nb: ~\nc: null\nd:\n"), "{a: http://h:80/p, b: ~, c: ~, d: ~}");
  // A plain value that goes on over a more indented line is folded.
  EXPECT_EQ(tree("a: one\n  two\nb: 3\n"), "{a: one two, b: 3}");
  // A quoted value over lines: a break is a space, an empty line a newline.
  EXPECT_EQ(tree("a: \"x\n  y\n\n  z\"\n"), "{a: 'x y\nz'}");
}

TEST(SystemYaml, BlockScalars) {
  EXPECT_EQ(tree("a: |\n  line one\n   two\n\nb: 1\n"), "{a: 'line one\n two\n', b: 1}");
  EXPECT_EQ(tree("a: |-\n  x\n  y\n"), "{a: 'x\ny'}");
  EXPECT_EQ(tree("a: |+\n  x\n\n\nb: 2\n"), "{a: 'x\n\n\n', b: 2}");
  EXPECT_EQ(tree("a: >\n  one\n  two\n\n  three\n"), "{a: 'one two\nthree\n'}");
}

TEST(SystemYaml, DocumentMarkersAnchorsTagsAndEnvoysIgnore) {
  EXPECT_EQ(tree("%YAML 1.2\n---\na: 1\n...\n"), "{a: 1}");
  EXPECT_EQ(tree("--- {a: 1}\n"), "{a: 1}");
  EXPECT_EQ(tree("base: &b {x: 1}\nuse: *b\n"), "{base: {x: 1}, use: {x: 1}}");
  EXPECT_EQ(tree("a: !!str 5\nb: &s\n  - 1\n"), "{a: 5, b: [1]}");
  // Envoy drops an entry tagged !ignore (its anchors stay usable).
  EXPECT_EQ(tree("!ignore defs: &d {t: 2}\nc: *d\n"), "{c: {t: 2}}");
  EXPECT_EQ(tree("\xEF\xBB\xBF" "a: 1\r\nb: 2\r\n"), "{a: 1, b: 2}");
  EXPECT_EQ(tree(""), "~");
  EXPECT_EQ(tree("# nothing\n"), "~");
}

TEST(SystemYaml, RefusesWhatItDoesNotRead) {
  EXPECT_EQ(tree("a: b: c\n"), "error 1:4 a mapping cannot start on its key's line (\"a: b: c\"?)");
  EXPECT_EQ(tree("a:\n\t- x\n"), "error 2:1 tab in indentation (YAML indents with spaces)");
  EXPECT_EQ(tree("a: 1\na: 2\n"), "error 2:1 duplicate key 'a' (first at line 1)");
  EXPECT_EQ(tree("a: 1\n---\nb: 2\n"), "error 2:1 several YAML documents: give one (the reader takes one document)");
  EXPECT_EQ(tree("a: [1, 2\n"), "error 1:4 unclosed [");
  EXPECT_EQ(tree("a: \"x\n"), "error 1:4 unclosed quote \"");
  EXPECT_EQ(tree("a: *nope\n"), "error 1:4 no anchor named 'nope' before this alias");
  EXPECT_EQ(tree("? a\n: b\n"), "error 1:1 complex keys (? ) are not supported");
  EXPECT_EQ(tree("x: 1\n  y: 2\n"), "error 2:3 bad indentation: deeper than the mapping's keys");
  EXPECT_EQ(tree("a: 1\n- b\n"), "error 2:1 a sequence item where a key was expected");
  EXPECT_EQ(tree("a: @x\n"), "error 1:4 '@' cannot start a plain value: quote it");
  EXPECT_EQ(tree("a: [x: 1]\n"), "error 1:6 a key: value pair inside [ ]: write it as { key: value }");
  EXPECT_EQ(tree("a: \"\\q\"\n"), "error 1:6 unknown escape \\q");
  EXPECT_EQ(tree("a: x\x01y\n"), "error 1:5 control character 0x01 (not allowed in YAML)");
}

TEST(SystemYaml, BoundedOnHostileInput) {
  // Deep nesting stops at 200 levels, not at the stack's end.
  EXPECT_EQ(tree(std::string(5000, '[')), "error 1:200 nested too deep (over 200 levels)");
  // A billion laughs stops when aliases have copied 100,000 nodes.
  std::string laughs = "a: &a [x, x, x, x, x, x, x, x, x, x]\n";
  for (char c = 'b'; c <= 'k'; ++c)
    laughs += std::string(1, c) + ": &" + c + " [*" + static_cast<char>(c - 1) + ", *" + static_cast<char>(c - 1) +
              ", *" + static_cast<char>(c - 1) + ", *" + static_cast<char>(c - 1) + ", *" + static_cast<char>(c - 1) +
              ", *" + static_cast<char>(c - 1) + ", *" + static_cast<char>(c - 1) + ", *" + static_cast<char>(c - 1) +
              ", *" + static_cast<char>(c - 1) + ", *" + static_cast<char>(c - 1) + "]\n";
  const std::string r = tree(laughs);
  EXPECT_NE(r.find("aliases copy too many nodes (over 100,000)"), std::string::npos) << r;
}

}  // namespace
}  // namespace slowstart::system
