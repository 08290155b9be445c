// One line of the command language: splitting it into tokens, parsing the
// tokens into a Command (syntax and limits), and applying a Command to a
// Pool (the checks that need the pool: names that must exist).
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "pool.hpp"
#include "validate.hpp"

namespace slowstart {

enum class Op { Pool, Now, Add, Down, Up, Weights, Pick };

struct Command {
  Op op = Op::Pick;
  std::vector<PoolEntry> entries;  // POOL
  std::string name;                // ADD, DOWN, UP
  std::int64_t weight = 0;         // ADD
  std::int64_t seconds = 0;        // NOW: the clock; ADD, UP: the ramp
};

// Tokens are separated by runs of spaces or tabs (only those two).
void tokenize(std::string_view line, std::vector<std::string_view>& tokens);

// True for a blank line or one whose first token starts with '#'.
bool is_ignored(const std::vector<std::string_view>& tokens);

// Parses a non-ignored line's tokens. On a problem, `out` is unspecified.
Problem parse_command(const std::vector<std::string_view>& tokens, Command& out);

// "<name>=<weight>" as in POOL and ADD.
Problem parse_entry(std::string_view token, PoolEntry& out);

// Applies a parsed command. Either it succeeds, or it returns the problem and
// the pool is exactly as before. WEIGHTS and PICK are not handled here.
Problem apply(Pool& pool, Command& cmd);

// The usage line of a keyword, e.g. "ADD <name>=<weight> <ramp>".
std::string_view usage(Op op);

}  // namespace slowstart
