#include "system/block_syntax.hpp"

#include <cctype>

namespace slowstart::system {

std::string ConfigDirective::text() const {
  std::string s;
  for (const ConfigWord& w : words) {
    if (!s.empty()) s += ' ';
    s += w.text;
  }
  if (has_block) s += " { ... }";
  return s;
}

namespace {

constexpr int kMaxBlockDepth = 100;

enum class Mark : std::uint8_t { Word, End, Open, Close, Eof };

struct Token {
  Mark mark = Mark::Eof;
  ConfigWord word;
};

// The lexer of both syntaxes; `caddy` switches the rules that differ.
class Lexer {
 public:
  Lexer(std::string_view s, bool caddy, ConfigError& error) : s_(s), caddy_(caddy), error_(error) {
    if (s_.substr(0, 3) == "\xEF\xBB\xBF") pos_ = 3, line_start_ = 3;
  }

  bool next(Token& t) {
    for (;;) {
      if (at_end()) {
        t = Token{Mark::Eof, ConfigWord{"", line_, column(), false}};
        return true;
      }
      const char c = s_[pos_];
      if (c == '\n') {
        const std::uint32_t l = line_, col = column();
        newline();
        if (caddy_) {
          t = Token{Mark::End, ConfigWord{"\n", l, col, false}};
          return true;
        }
        continue;
      }
      if (c == ' ' || c == '\t' || c == '\r' || (c == '\f' && !caddy_)) {
        ++pos_;
        continue;
      }
      if (caddy_ && c == '\\' && (peek(1) == '\n' || (peek(1) == '\r' && peek(2) == '\n'))) {
        pos_ += peek(1) == '\r' ? 2 : 1;
        newline();  // a line that goes on
        continue;
      }
      if (c == '#') {
        while (!at_end() && s_[pos_] != '\n') ++pos_;
        continue;
      }
      t = Token{};
      t.word.line = line_, t.word.column = column();
      if (!caddy_ && (c == ';' || c == '{' || c == '}')) {
        t.mark = c == ';' ? Mark::End : c == '{' ? Mark::Open : Mark::Close;
        t.word.text = std::string(1, c);
        ++pos_;
        return true;
      }
      t.mark = Mark::Word;
      if (c == '"' || (!caddy_ && c == '\'') || (caddy_ && c == '`')) return quoted(t);
      if (caddy_ && c == '<' && peek(1) == '<' && heredoc(t)) return !failed_;
      if (failed_) return false;
      return bare(t);
    }
  }

  bool failed() const { return failed_; }

 private:
  bool at_end() const { return pos_ >= s_.size(); }
  char peek(std::size_t k) const { return pos_ + k < s_.size() ? s_[pos_ + k] : '\0'; }
  std::uint32_t column() const { return static_cast<std::uint32_t>(pos_ - line_start_ + 1); }
  void newline() {
    ++pos_;
    ++line_;
    line_start_ = pos_;
  }
  bool fail(std::uint32_t line, std::uint32_t column, std::string message) {
    error_ = ConfigError{line, column, std::move(message)};
    failed_ = true;
    return false;
  }

  bool quoted(Token& t) {
    const char q = s_[pos_++];
    t.word.quoted = true;
    for (;;) {
      if (at_end()) return fail(t.word.line, t.word.column, std::string("unclosed quote ") + q);
      const char c = s_[pos_];
      if (c == q) {
        ++pos_;
        break;
      }
      if (c == '\n') {
        newline();
        t.word.text += '\n';
        continue;
      }
      if (c == '\\' && q != '`' && pos_ + 1 < s_.size()) {
        const char e = s_[pos_ + 1];
        if (e == q || e == '\\' || (!caddy_ && (e == '"' || e == '\''))) {
          t.word.text += e;
          pos_ += 2;
          continue;
        }
        if (!caddy_ && (e == 't' || e == 'r' || e == 'n')) {
          t.word.text += e == 't' ? '\t' : e == 'r' ? '\r' : '\n';
          pos_ += 2;
          continue;
        }
      }
      t.word.text += c;
      ++pos_;
    }
    // nginx wants a separator after the closing quote.
    if (!caddy_ && !at_end()) {
      const char c = s_[pos_];
      if (c != ' ' && c != '\t' && c != '\r' && c != '\n' && c != ';' && c != '{' && c != '}')
        return fail(line_, column(), "unexpected " + quote(std::string(1, c)) + " after a quoted word");
    }
    return true;
  }

  bool bare(Token& t) {
    const std::size_t start = pos_;
    while (!at_end()) {
      const char c = s_[pos_];
      if (c == ' ' || c == '\t' || c == '\r' || c == '\n') break;
      if (!caddy_ && (c == ';' || c == '}')) break;
      if (!caddy_ && c == '{') {
        // ${name}: a variable, part of the word; any other '{' opens a block.
        if (pos_ > start && s_[pos_ - 1] == '$') {
          while (!at_end() && s_[pos_] != '}' && s_[pos_] != '\n') t.word.text += s_[pos_++];
          if (!at_end() && s_[pos_] == '}') t.word.text += s_[pos_++];
          continue;
        }
        break;
      }
      if (c == '\\' && pos_ + 1 < s_.size() && s_[pos_ + 1] != '\n') {
        const char e = s_[pos_ + 1];
        if (e == '"' || e == '\'' || e == '\\' || e == ' ' || e == ';' || e == '{' || e == '}') {
          t.word.text += e;
        } else if (!caddy_ && (e == 't' || e == 'r' || e == 'n')) {
          t.word.text += e == 't' ? '\t' : e == 'r' ? '\r' : '\n';
        } else {
          t.word.text += c;
          t.word.text += e;
        }
        pos_ += 2;
        continue;
      }
      t.word.text += c;
      ++pos_;
    }
    return true;
  }

  // Caddy's heredoc: <<MARK, the lines up to one that is MARK alone.
  bool heredoc(Token& t) {
    std::size_t i = pos_ + 2;
    const std::size_t start = i;
    while (i < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[i])) || s_[i] == '_')) ++i;
    if (i == start || i >= s_.size() || (s_[i] != '\n' && s_[i] != '\r')) return false;
    const std::string mark(s_.substr(start, i - start));
    pos_ = i;
    while (!at_end() && s_[pos_] != '\n') ++pos_;
    if (at_end()) return fail(t.word.line, t.word.column, std::string("unclosed heredoc <<") + mark);
    newline();
    for (;;) {
      if (at_end()) return fail(t.word.line, t.word.column, std::string("unclosed heredoc <<") + mark);
      std::size_t e = pos_;
      while (e < s_.size() && s_[e] != '\n') ++e;
      std::string_view line = s_.substr(pos_, e - pos_);
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      std::string_view trimmed = line;
      while (!trimmed.empty() && (trimmed.front() == ' ' || trimmed.front() == '\t')) trimmed.remove_prefix(1);
      pos_ = e;
      if (trimmed == mark) break;
      t.word.text += line;
      t.word.text += '\n';
      if (!at_end()) newline();
    }
    t.word.quoted = true;
    return true;
  }

  std::string_view s_;
  bool caddy_;
  ConfigError& error_;
  std::size_t pos_ = 0, line_start_ = 0;
  std::uint32_t line_ = 1;
  bool failed_ = false;
};

// What both builders share: where they stop, and how.
class Builder {
 protected:
  Builder(Lexer& lexer, ConfigError& error) : lexer_(lexer), error_(error) {}
  bool fail(std::uint32_t line, std::uint32_t column, std::string message) {
    error_ = ConfigError{line, column, std::move(message)};
    return false;
  }
  bool unclosed(const ConfigWord& opener) {
    return fail(opener.line, opener.column,
                "unexpected end of file: the block of " + quote(opener.text) + " is not closed with '}'");
  }
  Lexer& lexer_;
  ConfigError& error_;
  std::uint32_t closed_at_ = 0;  // the line of the '}' that closed the last block
};

// nginx: directives end at ';' or a block; '}' closes the block.
class NginxBuilder : public Builder {
 public:
  NginxBuilder(Lexer& lexer, ConfigError& error) : Builder(lexer, error) {}

  bool block(std::vector<ConfigDirective>& out, int depth, const ConfigWord* opener) {
    if (depth > kMaxBlockDepth) return fail(opener->line, opener->column, "blocks nested too deep (over 100)");
    ConfigDirective d;
    for (;;) {
      Token t;
      if (!lexer_.next(t)) return false;
      switch (t.mark) {
        case Mark::Word:
          if (d.words.empty()) d.line = t.word.line;
          d.words.push_back(std::move(t.word));
          break;
        case Mark::End:
          if (d.words.empty()) return fail(t.word.line, t.word.column, "unexpected ';'");
          d.end_line = t.word.line;
          out.push_back(std::move(d));
          d = ConfigDirective{};
          break;
        case Mark::Open:
          if (d.words.empty()) return fail(t.word.line, t.word.column, "unexpected '{'");
          d.has_block = true;
          if (!block(d.block, depth + 1, &d.words.front())) return false;
          d.end_line = closed_at_;
          out.push_back(std::move(d));
          d = ConfigDirective{};
          break;
        case Mark::Close:
          if (!d.words.empty())
            return fail(t.word.line, t.word.column, "unexpected '}': " + quote(d.name()) + " has no ';'");
          if (!opener) return fail(t.word.line, t.word.column, "unexpected '}'");
          closed_at_ = t.word.line;
          return true;
        case Mark::Eof:
          if (!d.words.empty())
            return fail(t.word.line, t.word.column, "unexpected end of file: " + quote(d.name()) + " has no ';'");
          if (opener) return unclosed(*opener);
          return true;
      }
    }
  }

};

// Caddyfile: a directive is a line's words; a line ending in a lone '{'
// opens a block, a line that is a lone '}' closes it.
class CaddyBuilder : public Builder {
 public:
  CaddyBuilder(Lexer& lexer, ConfigError& error) : Builder(lexer, error) {}

  bool block(std::vector<ConfigDirective>& out, int depth, const ConfigWord* opener) {
    if (depth > kMaxBlockDepth) return fail(opener->line, opener->column, "blocks nested too deep (over 100)");
    for (;;) {
      ConfigDirective d;
      Token t;
      bool eof = false;
      for (;;) {
        if (!lexer_.next(t)) return false;
        if (t.mark == Mark::Eof) {
          eof = true;
          break;
        }
        if (t.mark == Mark::End) break;
        if (d.words.empty()) d.line = t.word.line;
        d.words.push_back(std::move(t.word));
      }
      if (d.words.empty()) {
        if (!eof) continue;
        if (opener) return unclosed(*opener);
        return true;
      }
      d.end_line = d.words.back().line;
      const ConfigWord& last = d.words.back();
      if (d.words.size() == 1 && !last.quoted && last.text == "}") {
        if (!opener) return fail(last.line, last.column, "unexpected '}'");
        closed_at_ = last.line;
        return true;
      }
      if (!last.quoted && last.text == "{") {
        d.words.pop_back();
        d.has_block = true;
        // A global options block or a site's opening brace has no words before it.
        if (d.words.empty()) d.words.push_back(ConfigWord{"", last.line, last.column, false});
        if (!block(d.block, depth + 1, &d.words.front())) return false;
        d.end_line = closed_at_;
      } else if (!last.quoted && last.text == "}") {
        return fail(last.line, last.column, "'}' must be alone on its line");
      }
      out.push_back(std::move(d));
      if (eof) {
        if (opener) return unclosed(*opener);
        return true;
      }
    }
  }

};

}  // namespace

bool read_nginx_syntax(std::string_view text, std::vector<ConfigDirective>& out, ConfigError& error) {
  out.clear();
  Lexer lexer(text, false, error);
  NginxBuilder builder(lexer, error);
  if (!builder.block(out, 0, nullptr)) {
    out.clear();
    return false;
  }
  return true;
}

bool read_caddy_syntax(std::string_view text, std::vector<ConfigDirective>& out, ConfigError& error) {
  out.clear();
  Lexer lexer(text, true, error);
  CaddyBuilder builder(lexer, error);
  if (!builder.block(out, 0, nullptr)) {
    out.clear();
    return false;
  }
  return true;
}

}  // namespace slowstart::system
