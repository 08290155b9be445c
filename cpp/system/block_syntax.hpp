// The two block syntaxes the readers meet, read into directives with their
// words' lines and columns.
//
// nginx (ngx_conf_file.c's rules, read anew): words separated by blanks, a
// directive ends at ';' or opens a block '{ ... }', '#' starts a comment at
// the start of a word, "double" and 'single' quotes with \" \' \\ \t \r \n
// escapes, a backslash escaping the next byte, ${name} kept whole.
//
// Caddyfile (caddyconfig/caddyfile/lexer.go's rules, read anew): the same
// words, but a directive ends at its line's end (read_caddy_syntax, below).
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "system/imported.hpp"

namespace slowstart::system {

struct ConfigWord {
  std::string text;
  std::uint32_t line = 0, column = 0;
  bool quoted = false;
};

struct ConfigDirective {
  std::vector<ConfigWord> words;  // the name first, then its arguments
  std::vector<ConfigDirective> block;
  bool has_block = false;
  std::uint32_t line = 0;
  std::uint32_t end_line = 0;  // the line of its ';' or '}'

  const std::string& name() const { return words.front().text; }
  // The directive as written: its words joined by a space (and " { ... }").
  std::string text() const;
};

// Reads nginx's syntax; false with `error` (line, column, message) when the
// file does not parse.
bool read_nginx_syntax(std::string_view text, std::vector<ConfigDirective>& out, ConfigError& error);

// A Caddyfile's syntax (caddyconfig/caddyfile/lexer.go's rules, read anew):
// one directive a line, blocks in { }, "double quotes" with \" escapes,
// `backticks` raw, '#' comments at the start of a word, a line ending in a
// backslash going on. A `{` opens a block only at a line's end; `}` closes
// it alone on its line.
bool read_caddy_syntax(std::string_view text, std::vector<ConfigDirective>& out, ConfigError& error);

}  // namespace slowstart::system
