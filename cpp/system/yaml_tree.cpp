#include "system/yaml_tree.hpp"

#include "core/validate.hpp"

#include <algorithm>
#include <utility>

namespace slowstart::system {

const YamlNode* YamlNode::get(std::string_view key) const {
  for (const YamlEntry& e : map)
    if (e.key == key) return &e.value;
  return nullptr;
}

namespace {

constexpr int kMaxDepth = 200;
constexpr std::size_t kMaxNodes = 1'000'000;
constexpr std::size_t kMaxAliasNodes = 100'000;  // nodes copied by aliases, all told (a "billion laughs")

bool is_blank(char c) { return c == ' ' || c == '\t'; }
bool is_break(char c) { return c == '\n' || c == '\r'; }
bool is_flow_indicator(char c) { return c == ',' || c == '[' || c == ']' || c == '{' || c == '}'; }

// Node properties written before a node: an anchor and a tag.
struct Props {
  std::string anchor;
  std::string tag;
  std::uint32_t line = 0, column = 0;
  bool any() const { return !anchor.empty() || !tag.empty(); }
};

class Reader {
 public:
  Reader(std::string_view text, YamlError& error) : s_(text), error_(error) {}

  bool document(YamlNode& out) {
    if (s_.size() >= 3 && s_.substr(0, 3) == "\xEF\xBB\xBF") pos_ = 3, line_start_ = 3;
    if (!check_bytes()) return false;
    // Directives (%YAML, %TAG) and the document start.
    for (;;) {
      if (!skip_to_content()) return false;
      if (at_end()) return true;  // an empty document: null
      if (column() == 1 && peek() == '%') {
        skip_line();
        continue;
      }
      break;
    }
    if (marker("---")) {
      pos_ += 3;
      skip_blanks();
      if (at_line_end()) {
        if (!skip_to_content()) return false;
      }
    } else if (marker("...")) {
      return fail("a document end (...) before any content");
    }
    if (!at_end() && !doc_marker()) {
      if (!node(-1, out, false)) return false;
    }
    // Only blank lines, comments and an end marker may follow.
    if (!skip_to_content()) return false;
    if (marker("...")) {
      pos_ += 3;
      skip_line();
      if (!skip_to_content()) return false;
      if (!at_end()) return fail("several YAML documents: give one (the reader takes one document)");
    }
    if (marker("---")) return fail("several YAML documents: give one (the reader takes one document)");
    if (!at_end()) return fail("unexpected text: bad indentation?");
    return true;
  }

 private:
  // ---- position -------------------------------------------------------
  bool at_end() const { return pos_ >= s_.size(); }
  char peek(std::size_t k = 0) const { return pos_ + k < s_.size() ? s_[pos_ + k] : '\0'; }
  std::uint32_t column() const { return static_cast<std::uint32_t>(pos_ - line_start_ + 1); }
  int indent() const { return static_cast<int>(pos_ - line_start_); }

  bool fail(std::string message) { return fail_at(line_, column(), std::move(message)); }
  bool fail_at(std::uint32_t line, std::uint32_t column, std::string message) {
    if (error_.message.empty()) error_ = YamlError{line, column, std::move(message)};
    return false;
  }

  // Control characters other than tab and line breaks are not YAML.
  bool check_bytes() {
    std::uint32_t line = 1;
    std::size_t start = 0;
    for (std::size_t i = 0; i < s_.size(); ++i) {
      const auto c = static_cast<unsigned char>(s_[i]);
      if (c == '\n') {
        ++line, start = i + 1;
      } else if ((c < 0x20 && c != '\t' && c != '\r') || c == 0x7f) {
        static const char kHex[] = "0123456789abcdef";
        return fail_at(line, static_cast<std::uint32_t>(i - start + 1),
                       std::string("control character 0x") + kHex[c >> 4] + kHex[c & 15] + " (not allowed in YAML)");
      }
    }
    return true;
  }

  void skip_blanks() {
    while (!at_end() && is_blank(peek())) ++pos_;
  }
  // At the end of the line's content: its end, or a comment.
  bool at_line_end() const {
    if (at_end() || is_break(peek())) return true;
    return peek() == '#' && (pos_ == line_start_ || is_blank(s_[pos_ - 1]));
  }
  void newline() {
    if (peek() == '\r') ++pos_;
    if (peek() == '\n') ++pos_;
    ++line_;
    line_start_ = pos_;
  }
  void skip_line() {
    while (!at_end() && !is_break(peek())) ++pos_;
    if (!at_end()) newline();
  }
  // "---" or "..." at the start of a line, alone or followed by a blank.
  bool marker(std::string_view m) const {
    if (pos_ != line_start_ || s_.substr(pos_, 3) != m) return false;
    const char c = peek(3);
    return c == '\0' || is_blank(c) || is_break(c);
  }
  bool doc_marker() const { return marker("---") || marker("..."); }

  // From anywhere in a line: past its end, blank lines and comments, to the
  // next content (or the end). A tab in the indentation of content is refused.
  bool skip_to_content() {
    for (;;) {
      skip_blanks();
      if (!at_line_end()) break;
      skip_line();
      if (at_end()) return true;
      // Leading whitespace of the new line.
      std::size_t i = pos_;
      while (i < s_.size() && s_[i] == ' ') ++i;
      if (i < s_.size() && s_[i] == '\t') {
        std::size_t j = i;
        while (j < s_.size() && is_blank(s_[j])) ++j;
        const bool blank = j >= s_.size() || is_break(s_[j]) || s_[j] == '#';
        if (!blank) {
          pos_ = i;
          return fail("tab in indentation (YAML indents with spaces)");
        }
      }
      pos_ = i;
      if (!at_line_end()) break;
    }
    return true;
  }
  // After an inline value: only blanks and a comment may follow on its line.
  bool end_of_value_line() {
    skip_blanks();
    if (!at_line_end()) return fail("unexpected text after the value");
    return skip_to_content();
  }

  bool count_node() {
    if (++nodes_ > kMaxNodes) return fail("too many nodes (over 1,000,000)");
    return true;
  }

  // ---- properties, keys ------------------------------------------------
  bool read_props(Props& p) {
    while (peek() == '&' || peek() == '!') {
      if (p.line == 0) p.line = line_, p.column = column();
      const char kind = peek();
      const std::size_t start = ++pos_;
      while (!at_end() && !is_blank(peek()) && !is_break(peek()) && !(kind == '&' && is_flow_indicator(peek()))) ++pos_;
      const std::string name(s_.substr(start, pos_ - start));
      if (kind == '&') {
        if (name.empty()) return fail("an anchor (&) needs a name");
        p.anchor = name;
      } else {
        p.tag = name.empty() ? "!" : name;
      }
      skip_blanks();
    }
    return true;
  }

  // Whether a mapping key starts here: a plain or quoted scalar on this
  // line followed by ':' and a blank or the line's end.
  bool looks_like_key() const {
    std::size_t i = pos_;
    if (i >= s_.size()) return false;
    const char q = s_[i];
    if (q == '"' || q == '\'') {
      ++i;
      while (i < s_.size() && !is_break(s_[i])) {
        if (q == '\'' && s_[i] == '\'') {
          if (i + 1 < s_.size() && s_[i + 1] == '\'') {
            i += 2;
            continue;
          }
          break;
        }
        if (q == '"' && s_[i] == '\\') ++i;
        else if (q == '"' && s_[i] == '"') break;
        ++i;
      }
      if (i >= s_.size() || is_break(s_[i])) return false;
      ++i;
      while (i < s_.size() && is_blank(s_[i])) ++i;
      return i < s_.size() && s_[i] == ':' && (i + 1 >= s_.size() || is_blank(s_[i + 1]) || is_break(s_[i + 1]));
    }
    if (q == '[' || q == '{' || q == '#' || q == '|' || q == '>' || q == '*') return false;
    if (q == '-' && (i + 1 >= s_.size() || is_blank(s_[i + 1]) || is_break(s_[i + 1]))) return false;
    for (; i < s_.size() && !is_break(s_[i]); ++i) {
      if (s_[i] == '#' && i > pos_ && is_blank(s_[i - 1])) return false;
      if (s_[i] == ':' && (i + 1 >= s_.size() || is_blank(s_[i + 1]) || is_break(s_[i + 1]))) return true;
    }
    return false;
  }

  // ---- nodes ----------------------------------------------------------

  // A node at the current content position, inside a parent indented
  // `parent`. `inline_value`: it follows "key:" or "- " on the same line,
  // where a block mapping may start only after "- " (compact form).
  bool node(int parent, YamlNode& out, bool after_key) {
    if (++depth_ > kMaxDepth) return fail("nested too deep (over 200 levels)");
    const bool ok = node_inner(parent, out, after_key);
    --depth_;
    return ok;
  }

  bool node_inner(int parent, YamlNode& out, bool after_key) {
    Props props;
    if (!read_props(props)) return false;
    if (props.any() && at_line_end()) {
      // The node itself is on the next lines (a key's sequence may sit at
      // the key's own indentation, as without properties).
      if (!skip_to_content()) return false;
      const bool item = peek() == '-' && (is_blank(peek(1)) || is_break(peek(1)) || peek(1) == '\0');
      if (at_end() || doc_marker() || indent() < parent || (indent() == parent && !(after_key && item)) ||
          (indent() == parent && parent < 0)) {
        out = YamlNode{};
        out.line = props.line, out.column = props.column;
        return finish(props, out);
      }
      if (!node_inner(parent, out, false)) return false;
      return finish(props, out);
    }
    if (props.any() && looks_like_key()) {
      // Properties on the same line as a key belong to that key.
      if (after_key) return fail("a mapping cannot start on its key's line");
      return block_map(static_cast<int>(props.column) - 1, out, &props) && count_node();
    }
    out.line = line_, out.column = column();
    const char c = peek();
    if (c == '-' && (is_blank(peek(1)) || is_break(peek(1)) || peek(1) == '\0')) {
      if (after_key) return fail("a sequence cannot start on its key's line");
      if (!block_seq(indent(), out)) return false;
    } else if (c == '[' || c == '{') {
      if (!flow(out, parent)) return false;
      if (!end_of_value_line()) return false;
    } else if (c == '|' || c == '>') {
      if (!block_scalar(parent, out)) return false;
    } else if (c == '*') {
      if (!alias(out)) return false;
      if (!end_of_value_line()) return false;
    } else if (c == '?' && (is_blank(peek(1)) || is_break(peek(1)))) {
      return fail("complex keys (? ) are not supported");
    } else if (looks_like_key()) {
      if (after_key) return fail("a mapping cannot start on its key's line (\"a: b: c\"?)");
      if (!block_map(indent(), out, nullptr)) return false;
    } else if (c == '"' || c == '\'') {
      if (!quoted(out, parent)) return false;
      if (!end_of_value_line()) return false;
    } else if (c == '@' || c == '`') {
      return fail(quote(std::string(1, c)) + " cannot start a plain value: quote it");
    } else {
      if (!plain_block(parent, out)) return false;
    }
    if (!count_node()) return false;
    return finish(props, out);
  }

  bool finish(const Props& props, const YamlNode& node) {
    if (!props.anchor.empty()) {
      auto it = std::find_if(anchors_.begin(), anchors_.end(), [&](const auto& a) { return a.first == props.anchor; });
      if (it != anchors_.end()) it->second = node;
      else anchors_.emplace_back(props.anchor, node);
    }
    return true;
  }

  static std::size_t count_within(const YamlNode& n, std::size_t cap) {
    std::size_t total = 1;
    for (const YamlNode& c : n.seq) {
      if (total > cap) return total;
      total += count_within(c, cap - total);
    }
    for (const YamlEntry& e : n.map) {
      if (total > cap) return total;
      total += count_within(e.value, cap - total);
    }
    return total;
  }

  bool alias(YamlNode& out) {
    const std::uint32_t l = line_, c = column();
    const std::size_t start = ++pos_;
    while (!at_end() && !is_blank(peek()) && !is_break(peek()) && !is_flow_indicator(peek())) ++pos_;
    const std::string_view name = s_.substr(start, pos_ - start);
    auto it = std::find_if(anchors_.begin(), anchors_.end(), [&](const auto& a) { return a.first == name; });
    if (it == anchors_.end()) return fail_at(l, c, "no anchor named " + quote(name) + " before this alias");
    alias_nodes_ += count_within(it->second, kMaxAliasNodes);
    if (alias_nodes_ > kMaxAliasNodes) return fail_at(l, c, "aliases copy too many nodes (over 100,000)");
    out = it->second;
    out.line = l, out.column = c;
    return true;
  }

  bool block_map(int ind, YamlNode& out, const Props* first_key_props) {
    out.kind = YamlNode::Kind::Map;
    out.line = line_, out.column = column();
    const Props* key_props = first_key_props;
    for (;;) {
      Props own;
      if (!key_props) {
        if (!read_props(own)) return false;
        key_props = &own;
      }
      const bool ignored = key_props->tag == "ignore" || key_props->tag == "!ignore";
      YamlEntry entry;
      entry.line = line_, entry.column = column();
      if (peek() == '"' || peek() == '\'') {
        YamlNode k;
        if (!quoted(k, ind)) return false;
        entry.key = std::move(k.text);
        skip_blanks();
      } else {
        const std::size_t start = pos_;
        while (!(peek() == ':' && (is_blank(peek(1)) || is_break(peek(1)) || peek(1) == '\0'))) {
          if (at_end() || is_break(peek())) return fail("expected a key followed by ':'");
          ++pos_;
        }
        std::string_view k = s_.substr(start, pos_ - start);
        while (!k.empty() && is_blank(k.back())) k.remove_suffix(1);
        entry.key = std::string(k);
      }
      if (peek() != ':') return fail("expected ':' after the key");
      ++pos_;
      skip_blanks();
      key_props = nullptr;
      if (at_line_end()) {
        if (!skip_to_content()) return false;
        const bool child = !at_end() && !doc_marker() &&
                           (indent() > ind || (indent() == ind && peek() == '-' &&
                                               (is_blank(peek(1)) || is_break(peek(1)) || peek(1) == '\0')));
        if (child) {
          if (!node(ind, entry.value, false)) return false;
        } else {
          entry.value.line = entry.line, entry.value.column = entry.column;
        }
      } else {
        if (!node(ind, entry.value, true)) return false;
      }
      if (!ignored) {
        for (const YamlEntry& e : out.map)
          if (e.key == entry.key)
            return fail_at(entry.line, entry.column,
                           "duplicate key " + quote(entry.key) + " (first at line " + std::to_string(e.line) + ")");
        out.map.push_back(std::move(entry));
      }
      // The position is at the next content (node() ended its lines).
      if (at_end() || doc_marker() || indent() < ind) return true;
      if (indent() > ind) return fail("bad indentation: deeper than the mapping's keys");
      if (peek() == '-' && (is_blank(peek(1)) || is_break(peek(1)) || peek(1) == '\0'))
        return fail("a sequence item where a key was expected");
      if (!looks_like_key() && peek() != '&' && peek() != '!') return fail("expected a key followed by ':'");
    }
  }

  bool block_seq(int ind, YamlNode& out) {
    out.kind = YamlNode::Kind::Seq;
    for (;;) {
      ++pos_;  // the '-'
      skip_blanks();
      YamlNode item;
      item.line = line_, item.column = column();
      if (at_line_end()) {
        if (!skip_to_content()) return false;
        if (!at_end() && !doc_marker() && indent() > ind) {
          if (!node(ind, item, false)) return false;
        }
      } else {
        if (!node(ind, item, false)) return false;
      }
      out.seq.push_back(std::move(item));
      if (at_end() || doc_marker() || indent() < ind) return true;
      if (indent() > ind) return fail("bad indentation: deeper than the sequence's items");
      if (!(peek() == '-' && (is_blank(peek(1)) || is_break(peek(1)) || peek(1) == '\0'))) return true;
    }
  }

  static bool null_word(std::string_view t) {
    return t.empty() || t == "~" || t == "null" || t == "Null" || t == "NULL";
  }
  static void set_plain(YamlNode& out, std::string text) {
    out.kind = null_word(text) ? YamlNode::Kind::Null : YamlNode::Kind::Scalar;
    out.text = std::move(text);
  }

  // A plain scalar in block context; it may go on over more indented lines.
  bool plain_block(int parent, YamlNode& out) {
    std::string text;
    for (;;) {
      const std::size_t start = pos_;
      while (!at_line_end()) {
        if (peek() == ':' && (is_blank(peek(1)) || is_break(peek(1)) || peek(1) == '\0'))
          return fail("': ' inside a plain value: quote the value");
        ++pos_;
      }
      std::string_view part = s_.substr(start, pos_ - start);
      while (!part.empty() && is_blank(part.back())) part.remove_suffix(1);
      if (!text.empty() && !part.empty()) text += ' ';
      text += part;
      if (!skip_to_content()) return false;
      if (at_end() || doc_marker() || indent() <= parent) break;
      // A more indented line: a continuation, unless it is a key or an item.
      if (looks_like_key() || peek() == '-' || peek() == '#') break;
      if (parent < 0) break;
    }
    set_plain(out, std::move(text));
    return true;
  }

  // ---- quoted scalars --------------------------------------------------

  static void put_utf8(std::string& out, std::uint32_t cp) {
    if (cp < 0x80) {
      out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      out += static_cast<char>(0xC0 | (cp >> 6));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out += static_cast<char>(0xE0 | (cp >> 12));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (cp >> 18));
      out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    }
  }

  bool hex_escape(std::size_t digits, std::string& out) {
    std::uint32_t cp = 0;
    for (std::size_t k = 0; k < digits; ++k) {
      const char h = peek();
      int v = -1;
      if (h >= '0' && h <= '9') v = h - '0';
      else if (h >= 'a' && h <= 'f') v = h - 'a' + 10;
      else if (h >= 'A' && h <= 'F') v = h - 'A' + 10;
      if (v < 0) return fail("bad escape: \\x, \\u or \\U needs hexadecimal digits");
      cp = cp * 16 + static_cast<std::uint32_t>(v);
      ++pos_;
    }
    if (cp > 0x10FFFF) return fail("bad escape: no such character");
    put_utf8(out, cp);
    return true;
  }

  // A quoted scalar, which may span lines (each line break folds to a space,
  // an empty line to a newline).
  bool quoted(YamlNode& out, int parent) {
    const char q = peek();
    const std::uint32_t l = line_, c = column();
    ++pos_;
    std::string text;
    for (;;) {
      if (at_end()) return fail_at(l, c, std::string("unclosed quote ") + q);
      const char ch = peek();
      if (ch == q) {
        if (q == '\'' && peek(1) == '\'') {
          text += '\'';
          pos_ += 2;
          continue;
        }
        ++pos_;
        break;
      }
      if (is_break(ch)) {
        while (!text.empty() && is_blank(text.back())) text.pop_back();
        newline();
        int empty = 0;
        for (;;) {
          skip_blanks();
          if (at_end() || !is_break(peek())) break;
          newline();
          ++empty;
        }
        if (!at_end() && indent() <= parent && parent >= 0 && peek() != q)
          return fail_at(l, c, std::string("unclosed quote ") + q + " (the next line is not indented)");
        text += empty ? std::string(static_cast<std::size_t>(empty), '\n') : std::string(" ");
        continue;
      }
      if (q == '"' && ch == '\\') {
        ++pos_;
        const char e = peek();
        ++pos_;
        switch (e) {
          case '0': text += '\0'; break;
          case 'a': text += '\a'; break;
          case 'b': text += '\b'; break;
          case 't': case '\t': text += '\t'; break;
          case 'n': text += '\n'; break;
          case 'v': text += '\v'; break;
          case 'f': text += '\f'; break;
          case 'r': text += '\r'; break;
          case 'e': text += '\x1b'; break;
          case ' ': text += ' '; break;
          case '"': text += '"'; break;
          case '/': text += '/'; break;
          case '\\': text += '\\'; break;
          case 'N': put_utf8(text, 0x85); break;
          case '_': put_utf8(text, 0xA0); break;
          case 'L': put_utf8(text, 0x2028); break;
          case 'P': put_utf8(text, 0x2029); break;
          case 'x': if (!hex_escape(2, text)) return false; break;
          case 'u': if (!hex_escape(4, text)) return false; break;
          case 'U': if (!hex_escape(8, text)) return false; break;
          case '\r': case '\n':  // an escaped line break: joined without a space
            --pos_;
            newline();
            skip_blanks();
            break;
          default:
            --pos_;
            return fail(std::string("unknown escape \\") + (e ? std::string(1, e) : std::string("")));
        }
        continue;
      }
      text += ch;
      ++pos_;
    }
    out.kind = YamlNode::Kind::Scalar;
    out.quoted = true;
    out.text = std::move(text);
    return true;
  }

  // ---- block scalars ---------------------------------------------------

  bool block_scalar(int parent, YamlNode& out) {
    const bool literal = peek() == '|';
    ++pos_;
    char chomp = 'c';
    int explicit_indent = 0;
    for (int k = 0; k < 2; ++k) {
      if (peek() == '-' || peek() == '+') chomp = peek(), ++pos_;
      else if (peek() >= '1' && peek() <= '9') explicit_indent = peek() - '0', ++pos_;
    }
    skip_blanks();
    if (!at_line_end()) return fail("unexpected text after a block scalar's indicator");
    skip_line();
    // Content lines: indented deeper than the parent (by the first line that
    // has text, or as the indicator says).
    int content = explicit_indent ? std::max(parent, 0) + explicit_indent : -1;
    std::vector<std::string_view> lines;
    for (;;) {
      if (at_end()) break;
      std::size_t i = pos_;
      while (i < s_.size() && s_[i] == ' ') ++i;
      const int ind = static_cast<int>(i - pos_);
      std::size_t e = i;
      while (e < s_.size() && !is_break(s_[e])) ++e;
      const bool empty = i == e || std::all_of(s_.begin() + static_cast<std::ptrdiff_t>(i),
                                               s_.begin() + static_cast<std::ptrdiff_t>(e), is_blank);
      if (!empty) {
        if (content < 0) {
          if (ind <= parent) break;
          content = ind;
        }
        if (ind < content) break;
        lines.push_back(s_.substr(pos_ + static_cast<std::size_t>(content), e - pos_ - static_cast<std::size_t>(content)));
      } else {
        const std::size_t skip = content > 0 ? std::min<std::size_t>(static_cast<std::size_t>(content), e - pos_) : e - pos_;
        lines.push_back(s_.substr(pos_ + skip, e - pos_ - skip));
      }
      pos_ = e;
      if (!at_end()) newline();
    }
    // Trailing empty lines belong to the chomping, not the text.
    std::size_t trailing = 0;
    while (!lines.empty() && std::all_of(lines.back().begin(), lines.back().end(), is_blank)) lines.pop_back(), ++trailing;
    std::string text;
    for (std::size_t k = 0; k < lines.size(); ++k) {
      if (k > 0) {
        // Folded: a break between two plain lines is a space; the break
        // before empty lines goes, each empty line being a newline.
        const auto plain = [](std::string_view l) { return !l.empty() && !is_blank(l[0]); };
        if (literal) text += '\n';
        else if (plain(lines[k - 1]) && plain(lines[k])) text += ' ';
        else if (!(plain(lines[k - 1]) && lines[k].empty())) text += '\n';
      }
      text += lines[k];
    }
    if (chomp != '-' && !lines.empty()) text += '\n';
    if (chomp == '+') text += std::string(trailing, '\n');
    out.kind = YamlNode::Kind::Scalar;
    out.quoted = true;
    out.text = std::move(text);
    // The line that ended it is the next content.
    pos_ = line_start_;
    std::size_t i = pos_;
    while (i < s_.size() && s_[i] == ' ') ++i;
    pos_ = i;
    if (at_line_end() && !at_end()) return skip_to_content();
    return true;
  }

  // ---- flow collections ------------------------------------------------

  // Blanks, line breaks and comments inside [ ] or { }.
  bool flow_space(int parent) {
    for (;;) {
      skip_blanks();
      if (at_end()) return true;
      if (peek() == '#' && (pos_ == line_start_ || is_blank(s_[pos_ - 1]))) {
        while (!at_end() && !is_break(peek())) ++pos_;
      }
      if (is_break(peek())) {
        newline();
        std::size_t i = pos_;
        while (i < s_.size() && is_blank(s_[i])) ++i;
        pos_ = i;
        if (parent >= 0 && i < s_.size() && !is_break(s_[i]) && indent() <= parent && s_[i] != ']' && s_[i] != '}' &&
            s_[i] != '#')
          return fail("bad indentation inside [ ] or { }");
        continue;
      }
      return true;
    }
  }

  bool flow_scalar(YamlNode& out, int parent) {
    out.line = line_, out.column = column();
    if (peek() == '"' || peek() == '\'') return quoted(out, parent);
    if (peek() == '*') return alias(out);
    std::string text;
    for (;;) {
      const std::size_t start = pos_;
      while (!at_end() && !is_break(peek()) && !is_flow_indicator(peek())) {
        if (peek() == ':' && (is_blank(peek(1)) || is_break(peek(1)) || is_flow_indicator(peek(1)) || peek(1) == '\0'))
          break;
        if (peek() == '#' && pos_ > 0 && is_blank(s_[pos_ - 1])) break;
        ++pos_;
      }
      std::string_view part = s_.substr(start, pos_ - start);
      while (!part.empty() && is_blank(part.back())) part.remove_suffix(1);
      if (!text.empty() && !part.empty()) text += ' ';
      text += part;
      if (at_end() || !(is_break(peek()) || peek() == '#')) break;
      if (!flow_space(parent)) return false;
      if (at_end() || is_flow_indicator(peek()) || peek() == ':') break;
    }
    set_plain(out, std::move(text));
    return true;
  }

  bool flow_value(YamlNode& out, int parent) {
    Props props;
    if (!read_props(props)) return false;
    if (!flow_space(parent)) return false;
    bool ok;
    if (peek() == '[' || peek() == '{') ok = flow(out, parent);
    else if (peek() == ',' || peek() == ']' || peek() == '}') ok = true, out.line = line_, out.column = column();
    else ok = flow_scalar(out, parent);
    if (!ok || !count_node()) return false;
    return finish(props, out);
  }

  bool flow(YamlNode& out, int parent) {
    if (++depth_ > kMaxDepth) return fail("nested too deep (over 200 levels)");
    const bool map = peek() == '{';
    const char close = map ? '}' : ']';
    const std::uint32_t l = line_, c = column();
    out.kind = map ? YamlNode::Kind::Map : YamlNode::Kind::Seq;
    out.line = l, out.column = c;
    ++pos_;
    for (;;) {
      if (!flow_space(parent)) return false;
      if (at_end()) return fail_at(l, c, std::string("unclosed ") + (map ? "{" : "["));
      if (peek() == close) {
        ++pos_;
        break;
      }
      if (peek() == ']' || peek() == '}') return fail(std::string("'") + peek() + "' where '" + close + "' was expected");
      if (peek() == ',') return fail("a value is missing before ','");
      if (map) {
        YamlEntry entry;
        entry.line = line_, entry.column = column();
        Props key_props;
        if (!read_props(key_props)) return false;
        YamlNode key;
        if (peek() == '[' || peek() == '{') return fail("complex keys are not supported");
        if (!flow_scalar(key, parent)) return false;
        entry.key = key.text;
        if (!flow_space(parent)) return false;
        if (peek() == ':') {
          ++pos_;
          if (!flow_value(entry.value, parent)) return false;
        } else {
          entry.value.line = entry.line, entry.value.column = entry.column;
        }
        for (const YamlEntry& e : out.map)
          if (e.key == entry.key)
            return fail_at(entry.line, entry.column,
                           "duplicate key " + quote(entry.key) + " (first at line " + std::to_string(e.line) + ")");
        if (key_props.tag != "ignore" && key_props.tag != "!ignore") out.map.push_back(std::move(entry));
      } else {
        YamlNode item;
        if (!flow_value(item, parent)) return false;
        if (!flow_space(parent)) return false;
        if (peek() == ':') return fail("a key: value pair inside [ ]: write it as { key: value }");
        out.seq.push_back(std::move(item));
      }
      if (!flow_space(parent)) return false;
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      if (peek() != close) {
        if (at_end()) return fail_at(l, c, std::string("unclosed ") + (map ? "{" : "["));
        return fail(std::string("expected ',' or '") + close + "'");
      }
    }
    --depth_;
    return true;
  }

  std::string_view s_;
  YamlError& error_;
  std::size_t pos_ = 0, line_start_ = 0;
  std::uint32_t line_ = 1;
  int depth_ = 0;
  std::size_t nodes_ = 0, alias_nodes_ = 0;
  std::vector<std::pair<std::string, YamlNode>> anchors_;
};

}  // namespace

bool read_yaml(std::string_view text, YamlNode& out, YamlError& error) {
  out = YamlNode{};
  error = YamlError{};
  Reader reader(text, error);
  if (!reader.document(out)) {
    out = YamlNode{};
    if (error.message.empty()) error.message = "not YAML";
    return false;
  }
  return true;
}

}  // namespace slowstart::system
