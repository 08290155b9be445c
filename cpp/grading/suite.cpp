// The built-in tests (see suite.hpp). Each script is short enough to work
// out by hand; tests/cpp/suite_test.cpp has the outputs, worked out from the
// SPEC, with the reasoning.
#include "grading/suite.hpp"

namespace slowstart {

namespace {

constexpr SuiteTest kTests[] = {
    // --- The effective weight -------------------------------------------
    {"worked-example", "A backend joins a busy pool, then another goes DOWN", Scope::Rules,
     "POOL a=5 b=1 c=1\nPICK\nPICK\nADD d=10 20\nWEIGHTS\nNOW 5\nWEIGHTS\nPICK\nDOWN a\nPICK\npick\n"},
    {"ramp-table", "A ramp from 0 to 10 over 20 s: the weight at 0, 5, 10, 15, 19, 20 and 100 s", Scope::Rules,
     "ADD web=10 20\nNOW 0\nWEIGHTS\nNOW 5\nWEIGHTS\nNOW 10\nWEIGHTS\nNOW 15\nWEIGHTS\n"
     "NOW 19\nWEIGHTS\nNOW 20\nWEIGHTS\nNOW 100\nWEIGHTS\n"},
    {"round-down", "Weights are whole numbers, rounded down: 10 over 30 s", Scope::Rules,
     "ADD web=10 30\nNOW 1\nWEIGHTS\nNOW 5\nWEIGHTS\nNOW 14\nWEIGHTS\nNOW 29\nWEIGHTS\n"},
    {"stops-at-target", "The weight stops at its target once the ramp is over", Scope::Rules,
     "POOL a=10\nADD b=10 20\nNOW 40\nWEIGHTS\nPICK\nPICK\n"},
    {"no-ramp", "A ramp of 0 means the full weight at once", Scope::Rules,
     "POOL a=2 b=1\nADD c=3 0\nWEIGHTS\nPICK\nPICK\nPICK\nDOWN a\nUP a 0\nWEIGHTS\n"},
    {"joined-gets-nothing", "A backend that has just joined gets no picks at all", Scope::Rules,
     "POOL a=1\nADD b=100 10\nPICK\nPICK\nWEIGHTS\nNOW 1\nPICK\nPICK\n"},
    {"ramp-from-join", "The ramp starts when the backend joins, not at clock 0", Scope::Rules,
     "NOW 1000\nADD b=10 20\nWEIGHTS\nNOW 1010\nWEIGHTS\nNOW 1020\nWEIGHTS\n"},
    {"clock-before-join", "The clock can go back to before a backend joined: its weight is then 0, never negative",
     Scope::Rules, "POOL a=1\nNOW 100\nADD b=10 20\nNOW 90\nWEIGHTS\nPICK\nNOW 110\nWEIGHTS\n"},
    {"big-numbers", "Big weights and long ramps need exact 64-bit whole numbers", Scope::Rules,
     "ADD big=1000000 999999999999\nNOW 999998999999\nWEIGHTS\nADD mid=1000000 10000\n"
     "NOW 999999004999\nWEIGHTS\n"},

    // --- The pick ---------------------------------------------------------
    {"smooth-5-1-1", "Weights 5, 1 and 1 share seven picks as a a b a c a a", Scope::Rules,
     "POOL a=5 b=1 c=1\nPICK\nPICK\nPICK\nPICK\nPICK\nPICK\nPICK\n"},
    {"scores-carry-over", "Scores carry over from one pick to the next", Scope::Rules,
     "POOL a=1 b=1\nPICK\nPICK\nPICK\nPICK\n"},
    {"ties-go-first", "On equal scores the backend earliest in the pool wins", Scope::Rules,
     "POOL z=1 y=1 x=1\nPICK\nPICK\nPICK\n"},
    {"winner-gives-back-total", "The winner gives back the total of all the weights", Scope::Rules,
     "POOL a=2 b=1\nPICK\nPICK\nPICK\nPICK\nPICK\nPICK\n"},
    {"weight-zero-never-wins", "A backend at weight 0 never wins, whatever its score", Scope::Rules,
     "# b ramps to full weight and builds up a score...\nPOOL a=1\nADD b=3 10\nNOW 10\nPICK\nPICK\nPICK\n"
     "# ...then the clock goes back: b is at weight 0 again, with score 1.\nNOW 0\nWEIGHTS\nPICK\nPICK\n"},
    {"sitting-out-keeps-score", "A backend that sits picks out keeps its score for when it is back", Scope::Rules,
     "POOL a=6\nADD b=1 10\nNOW 10\nPICK\nPICK\nPICK\nNOW 0\nPICK\nNOW 10\nPICK\nPICK\n"},
    {"nobody-to-pick", "With nobody to pick from, PICK prints NONE", Scope::Rules,
     "POOL a=0 b=0\nPICK\nPOOL\nPICK\nPOOL c=1\nDOWN c\nPICK\n"},
    {"ramping-share", "While a backend ramps, its share of the picks follows its ramped weight", Scope::Program,
     "POOL a=2\nADD b=2 20\nPICK\nPICK\nNOW 10\nPICK\nPICK\n"},

    // --- Joining ----------------------------------------------------------
    {"up-resets-score", "A backend coming back UP starts with score 0", Scope::Rules,
     "POOL a=3 b=1\nPICK\nPICK\nDOWN a\nUP a 0\nPICK\nPICK\n"},
    {"add-resets-score", "ADD of a backend already in the pool starts it again with score 0", Scope::Rules,
     "POOL a=3 b=1\nPICK\nPICK\nADD a=3 0\nPICK\nPICK\n"},
    {"recovery", "A backend recovers: DOWN, then UP with a ramp", Scope::Rules,
     "POOL a=4 b=4\nPICK\nDOWN b\nPICK\nNOW 30\nUP b 20\nPICK\nNOW 40\nWEIGHTS\nPICK\nPICK\nPICK\n"},

    // --- The commands -----------------------------------------------------
    {"pool-starts-over", "POOL starts over: every backend UP, at full weight, with score 0", Scope::Program,
     "POOL a=1 b=1\nPICK\nPOOL a=1 b=1\nPICK\nDOWN b\nADD c=4 10\nPOOL a=1 b=1 c=4\nWEIGHTS\n"},
    {"empty-pool", "POOL alone empties the pool: WEIGHTS prints an empty line and PICK prints NONE", Scope::Program,
     "POOL a=1\nPOOL\nWEIGHTS\nPICK\nADD b=1 0\nWEIGHTS\n"},
    {"now-sets-clock", "NOW sets the clock, forwards or back; it does not add to it", Scope::Program,
     "ADD b=10 20\nNOW 5\nNOW 10\nWEIGHTS\nNOW 4\nWEIGHTS\n"},
    {"add-in-place", "ADD of a name already in the pool replaces it where it stands", Scope::Program,
     "POOL a=1 b=1\nADD a=1 0\nWEIGHTS\nPICK\nPICK\n"},
    {"down-keeps-place", "DOWN takes a backend out of the picks; WEIGHTS still lists it, at 0", Scope::Program,
     "POOL a=2 b=1\nDOWN a\nWEIGHTS\nPICK\nPICK\nDOWN a\nWEIGHTS\nUP a 0\nPICK\n"},
    {"up-restarts-ramp", "UP on a backend that is already UP restarts its ramp", Scope::Program,
     "POOL a=4 b=4\nNOW 10\nUP b 20\nWEIGHTS\nNOW 20\nWEIGHTS\n"},
    {"weights-sorted", "WEIGHTS sorts names byte by byte: capitals first, and web10 before web9", Scope::Program,
     "POOL web9=1 b=2 web10=3 B=4 a=5\nWEIGHTS\n"},

    // --- Reading the script -----------------------------------------------
    {"crlf-line-ends", "Lines may end in CR LF (a script saved on Windows)", Scope::Program,
     "POOL a=1 b=2\r\nPICK\r\nWEIGHTS\r\n"},
    {"byte-order-mark", "A byte-order mark (BOM) at the very start of a script is skipped", Scope::Program,
     "\xEF\xBB\xBFPOOL a=1 b=2\nPICK\nWEIGHTS\n"},
    {"spaces-and-tabs", "Words can be separated by several spaces, or by tabs", Scope::Program,
     "POOL a=1\tb=2\nWEIGHTS\nADD c=3  0\nWEIGHTS\nPICK\n"},
    // A no-break space (U+00A0) is allowed in a name; a form feed is not, so
    // "x=1<FF>y=2" is one word with two '=' in it.
    {"only-spaces-and-tabs", "Only spaces and tabs separate words: a no-break space is part of a name", Scope::Program,
     "POOL a\u00A0b=1 c=2\nWEIGHTS\nPICK\nPOOL x=1\fy=2\nWEIGHTS\n"},
    {"comments", "Blank lines and # comments are skipped, but a # after a command is not a comment", Scope::Program,
     "# a comment\n\nPOOL a=1 b=1\n   \n  # an indented comment\nPICK # this line has extra words\nPICK\n"},
    {"keywords-upper-case", "Keywords are upper-case: pick is not PICK", Scope::Program,
     "POOL a=1\npick\nPick\nPICK\n"},
    {"extra-words", "A command with a word too many or too few is rejected and changes nothing", Scope::Program,
     "POOL a=1 b=1\nPICK now\nNOW 5 s\nWEIGHTS please\nDOWN a b\nADD c=4\nPICK\nWEIGHTS\n"},
    {"rejected-changes-nothing", "A rejected line changes nothing: a bad POOL keeps the old pool", Scope::Program,
     "POOL c=1\nPOOL a=1 b=x\nWEIGHTS\nADD d=5 -1\nWEIGHTS\n"},
    {"largest-numbers", "The largest numbers are taken: a weight of 1000000, a ramp and a clock of 10^12 s",
     Scope::Program, "ADD a=1000000 1000000000000\nNOW 1000000000000\nWEIGHTS\nNOW 500000000000\nWEIGHTS\n"},
    {"numbers-checked", "Weights and times are plain whole numbers within their limits", Scope::Program,
     "POOL a=1\nADD h=10 20\nADD b=-1 0\nADD c=1.5 0\nADD d=+2 0\nADD e=1000001 0\nADD f=1000000 0\n"
     "ADD g=1 1000000000001\nNOW 1e3\nNOW -5\nNOW 1000000000001\nWEIGHTS\n"},
    {"names-checked", "Names are unique in a POOL, and DOWN and UP need a name in the pool", Scope::Program,
     "POOL x=1\nPOOL a=1 a=2\nADD a=b=1 0\nADD =1 0\nDOWN nobody\nUP nobody 0\nWEIGHTS\nPICK\n"},
};

}  // namespace

std::span<const SuiteTest> built_in_tests() { return kTests; }

}  // namespace slowstart
