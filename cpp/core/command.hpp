// One line of the command language: its tokens parsed into a Command
// (syntax and limits), and a Command applied to a Pool (the checks that
// need the pool: names that must exist).
//
// The parser takes a line token by token, and a token in as many pieces as
// it arrives in, so a line of any length (a 1 GB comment, a 1 GB number, a
// million arguments) is parsed in memory bounded by what it keeps: the
// names of a POOL or ADD line (the pool will hold them), a short head of
// each token for messages, and numbers. Blank lines and lines whose first
// token starts with '#' are ignored.
#pragma once
#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "spec/limits.hpp"
#include "fast/name_table.hpp"
#include "core/pool.hpp"
#include "core/validate.hpp"

namespace slowstart {

enum class Op { Pool, Now, Add, Down, Up, Weights, Pick };

// What an argument is: a `name=weight` entry, a backend's name, or a whole
// number (seconds).
enum class ArgKind : std::uint8_t { Entry, Name, Number };

// A command word of the language: how a line with it is written (the usage
// messages quote it), what it does in one sentence, how many arguments it
// takes and what each is. The one table of the language's words: the
// parser, the fast path's keys (interpreter.cpp) and the front ends
// (completion, help, the page's summary, through the bindings) read it.
struct Keyword {
  std::string_view word;
  Op op;
  std::string_view usage;    // e.g. "ADD <name>=<weight> <ramp>"
  std::string_view summary;  // what the command does
  std::size_t min_args, max_args;  // max_args == SIZE_MAX: any number
  // Each argument's kind in order; with max_args SIZE_MAX the last repeats.
  std::array<ArgKind, 2> kinds;
  std::size_t kind_count;
};

inline constexpr Keyword kKeywords[] = {
    {"POOL", Op::Pool, "POOL <name>=<weight> ...",
     "Replaces the pool: these backends, in this order, all UP at full weight at once (no ramp), scores 0.", 0,
     SIZE_MAX, {ArgKind::Entry}, 1},
    {"NOW", Op::Now, "NOW <seconds>", "Sets the clock, in whole seconds. Nothing else moves it.", 1, 1,
     {ArgKind::Number}, 1},
    {"ADD", Op::Add, "ADD <name>=<weight> <ramp>",
     "A backend joins now: weight 0 at first, its target once the ramp (seconds) is over, score 0. "
     "A name already in the pool is replaced in place.",
     2, 2, {ArgKind::Entry, ArgKind::Number}, 2},
    {"DOWN", Op::Down, "DOWN <name>", "Takes a backend out: weight 0; it keeps its place and its score.", 1, 1,
     {ArgKind::Name}, 1},
    {"UP", Op::Up, "UP <name> <ramp>", "Brings a backend back with a new ramp from now, and score 0.", 2, 2,
     {ArgKind::Name, ArgKind::Number}, 2},
    {"WEIGHTS", Op::Weights, "WEIGHTS", "Prints every backend's effective weight, sorted by name.", 0, 0, {}, 0},
    {"PICK", Op::Pick, "PICK",
     "Picks one backend by smooth weighted round-robin and prints its name (NONE when none has weight).", 0, 0,
     {}, 0},
};

// Every keyword, in the order the SPEC lists them.
inline std::span<const Keyword> keywords() { return kKeywords; }

// The table's entry for op (at compile time where op is a constant).
constexpr const Keyword& keyword_of(Op op) {
  for (const Keyword& k : kKeywords)
    if (k.op == op) return k;
  return kKeywords[0];  // (unreachable: every Op has its word, checked below)
}

// The shortest and the longest keyword, in bytes.
inline constexpr std::size_t kShortestKeyword = [] {
  std::size_t n = SIZE_MAX;
  for (const Keyword& k : kKeywords) n = k.word.size() < n ? k.word.size() : n;
  return n;
}();
inline constexpr std::size_t kLongestKeyword = [] {
  std::size_t n = 0;
  for (const Keyword& k : kKeywords) n = k.word.size() > n ? k.word.size() : n;
  return n;
}();

static_assert([] {
  for (const Keyword& k : kKeywords) {
    if (keyword_of(k.op).word != k.word) return false;  // one word per Op
    if (k.kind_count == 0 ? k.max_args != 0 : k.max_args != SIZE_MAX && k.max_args != k.kind_count) return false;
  }
  return true;
}(), "every Op has one keyword, and every argument a kind");

// Where a problem is on its line: bytes [from, to) of the line as it was
// given (a byte-order mark on line 1 counts; the line end does not).
struct Span {
  std::uint64_t from = 0, to = 0;
  bool operator==(const Span&) const = default;
};

struct Command {
  Op op = Op::Pick;
  std::vector<PoolEntry> entries;  // POOL
  // POOL: each entry's name -> its position, as the parser found them while
  // checking for duplicates; the pool adopts it instead of hashing every
  // name again (Pool::replace).
  NameTable names;
  // POOL: the entries as views, for Pool::replace (its memory kept).
  std::vector<PoolEntryView> views;
  std::string name;                // ADD, DOWN, UP
  std::int64_t weight = 0;         // ADD
  std::int64_t seconds = 0;        // NOW: the clock; ADD, UP: the ramp
  // DOWN, UP: the name was longer than any in the pool, so it cannot match;
  // `name` holds only its first bytes (enough to quote it).
  bool name_cut = false;
};

// The first bytes of a token (all that quote() shows of it) and its length.
class TokenHead {
 public:
  static constexpr std::size_t kBytes = kMaxQuoted + 4;  // quote() reads up to 3 bytes past the cut
  void clear() { size_ = 0; }
  void add(std::string_view piece);
  std::string_view view() const { return {bytes_, size_}; }
  // The first 8 bytes as one little-endian integer, zero past the end (how
  // keywords are found: one load instead of a loop over the bytes).
  std::uint64_t first8() const {
    std::uint64_t key;
    std::memcpy(&key, bytes_, sizeof key);
    return size_ >= 8 ? key : key & ((std::uint64_t{1} << (8 * size_)) - 1);
  }

 private:
  static_assert(std::endian::native == std::endian::little, "first8() reads a little-endian integer");
  char bytes_[kBytes] = {};  // (so that first8() reads no indeterminate bytes)
  std::size_t size_ = 0;
};

class LineParser {
 public:
  // A new line. DOWN/UP names longer than `longest_name` bytes cannot be in
  // the pool, so no more of them is kept than a head.
  void begin(std::size_t longest_name);
  // Bytes of the current token (starting one if none is open); never blank.
  // `column`: where the piece starts on the line (only a token's first
  // piece's counts).
  void add(std::string_view piece, std::uint64_t column);
  // The current token is complete.
  void end_token();
  // The same three, called rather than inlined: for the rare paths (a line
  // that spans chunks, the imperative API), so that the engine module keeps
  // one inlined copy of the parser, in the script's line loop.
  void begin_cold(std::size_t longest_name);
  void add_cold(std::string_view piece, std::uint64_t column);
  void end_token_cold();
  // The rest of the line cannot change its outcome (a comment, an unknown
  // keyword, one argument too many): its bytes may be skipped.
  bool done() const { return done_; }

  enum class Outcome { Ignored, Rejected, Parsed };
  // The line has ended. Parsed: command() holds it; Rejected: problem()
  // (valid until the next line begins).
  Outcome end();
  Outcome end_cold();  // (as begin_cold)
  Command& command() { return cmd_; }
  std::string_view problem() const { return problem_.view(); }
  // Where the problem is: the offending token, or the part of a
  // name=weight that is wrong; `to` is kLineEnd when it runs to the end of
  // the line (the line was not read that far).
  Span problem_span() const { return problem_span_; }
  static constexpr std::uint64_t kLineEnd = UINT64_MAX;
  // The first argument's token: where a command's own problem is (no such
  // backend, a full pool).
  Span first_argument() const { return first_argument_; }

 private:
  void start_token(std::uint64_t column);
  Span token() const { return {token_from_, token_from_ + length_}; }
  void keyword();
  void argument_piece(std::string_view piece);
  void end_argument();
  void entry_piece(std::string_view piece, std::string& name);
  bool end_entry(std::string& name, std::int64_t& weight, Span& where);
  void name_piece(std::string_view piece);
  void check_long_name(std::string& name, bool final);
  Message* fail(bool settled, Span where);
  void record(bool settled, Span where);

  Command cmd_;
  const Keyword* keyword_ = nullptr;
  std::size_t tokens_ = 0;     // tokens begun on this line
  bool open_ = false;          // a token is open
  bool done_ = false;          // the outcome is settled
  bool ignored_ = false;
  bool settled_ = false;       // problem_ can no longer be replaced
  bool has_problem_ = false;
  Message problem_;            // the first problem found (built in place: no allocation)
  Span problem_span_;
  std::uint64_t token_from_ = 0;  // column of the open (or last) token
  std::uint64_t line_from_ = 0, last_to_ = 0;  // the line's first token's start, its last one's end
  Span first_argument_;
  std::size_t longest_name_ = 0;
  TokenHead head_;             // of the open token
  std::uint64_t length_ = 0;   // of the open token
  // An open argument that is a number, or the weight of a name=weight.
  QuantityScan number_;
  TokenHead number_head_;
  // An open name=weight: where its '=' was, and whether a second one came.
  bool seen_eq_ = false, second_eq_ = false;
  std::uint64_t eq_at_ = 0;  // the '=' from the token's start
  std::size_t name_checked_ = 0;  // bytes of a long name already checked
  bool name_bad_ = false;
  Message name_problem_;
};

// Tokens are separated by runs of spaces or tabs (only those two).
void tokenize(std::string_view line, std::vector<std::string_view>& tokens);

// True for a blank line or one whose first token starts with '#'.
bool is_ignored(const std::vector<std::string_view>& tokens);

// Parses a non-ignored line given as tokens (the imperative API builds its
// lines this way). On a problem, `out` is unspecified.
Problem parse_command(const std::vector<std::string_view>& tokens, Command& out);

// "<name>=<weight>" as in POOL and ADD.
Problem parse_entry(std::string_view token, PoolEntry& out);

// Applies a parsed command. Either it succeeds, or it returns the problem and
// the pool is exactly as before. WEIGHTS and PICK are not handled here.
Problem apply(Pool& pool, Command& cmd);
// The same, true on success, else false with the problem in `why` (the
// interpreter's form: no allocation).
bool apply(Pool& pool, Command& cmd, Message& why);

}  // namespace slowstart
