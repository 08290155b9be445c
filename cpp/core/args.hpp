// One reader for the subcommands' arguments (`slowstart grade`, `simulate`,
// `tests`), so that all three accept the same syntax and word their problems
// the same way:
//
//   --name VALUE, --name=VALUE   a long option with its value
//   -x VALUE, -xVALUE            a short one (only those a subcommand names)
//   --                           ends the options: what follows is positional
//
// Problems are sentences without the "slowstart CMD: " prefix, which the
// subcommand adds: "unknown option '--x'", "--x needs a value",
// "--x takes WHAT, got 'v'", "--x takes no value",
// "unexpected argument 'v'". Arguments are quoted as diagnostics quote
// tokens (validate.hpp: odd bytes shown as \xNN, cut at 60 bytes).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/validate.hpp"

namespace slowstart {

class ArgReader {
 public:
  explicit ArgReader(const std::vector<std::string>& args) : args_(args) {}

  // Moves to the next argument; false when none is left. "--" is consumed
  // here: every argument after it is positional.
  bool next();
  // The current argument is an option: it starts with '-', is not "-" alone,
  // and comes before "--".
  bool option() const;
  // The current option is `name` ("--jobs") or `short_name` ("-j", whose
  // value may follow it: "-j4"). Problems name it by `name`.
  bool is(std::string_view name, std::string_view short_name = {});
  // The long name of the option is() last matched ("--jobs" for "-j4"),
  // still right after value() has moved on to the value.
  const std::string& matched() const { return matched_; }
  // The current argument as written.
  const std::string& arg() const { return args_[at_]; }
  // The current option's value, attached or the next argument.
  Problem value(std::string& out);
  // A flag carries no value ("--csv=1" is a problem).
  Problem flag() const;
  // The current argument and every one after it (a command to run).
  std::vector<std::string> rest() const;

  Problem unknown() const;
  Problem invalid(std::string_view takes, std::string_view got) const;
  Problem unexpected() const;

 private:
  std::string_view name() const;  // the option without "=value" (or a short one's value)

  const std::vector<std::string>& args_;
  std::size_t at_ = 0;
  bool started_ = false;
  bool positional_ = false;  // past "--"
  std::string matched_;           // the option is() last matched, by its long name ("--jobs")
  std::size_t short_ = 0;         // written as its short name ("-j"): that name's length
};

// A plain whole number (digits only, no sign) at most `max`.
bool parse_whole(std::string_view text, std::uint64_t max, std::uint64_t& out);
// A finite decimal number as strtod reads it ("1e3", "0.5", "-2").
bool parse_real(const std::string& text, double& out);

}  // namespace slowstart
