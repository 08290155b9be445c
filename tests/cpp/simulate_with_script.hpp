// `slowstart simulate` run in the test's process on a script given as text
// (the reader hands it over whatever path the arguments name): the CLI's
// exit status, stdout and stderr, as both CLIs would print them.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "traffic/simulate_command.hpp"

namespace slowstart::test_support {

inline int simulate_with_script(const std::vector<std::string>& args, const std::string& script, std::string& out,
                                std::string& err) {
  return simulate_command::run_simulate(
      args,
      [&](const std::string&, std::size_t, std::string& text) -> Problem {
        text = script;
        return std::nullopt;
      },
      out, err);
}

}  // namespace slowstart::test_support
