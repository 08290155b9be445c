// The interpreter's fast path for whole lines (Interpreter::fast_line)
// against the full parser: the same script through a run that takes it
// (no timeline; the CLIs' text sink in chunks) and one that cannot (the
// timeline on), with the outputs hand-worked from the SPEC and lines that
// look like fast ones but are not rejected with the parser's own words.
#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "core/interpreter.hpp"
#include "support/script_text.hpp"

using namespace slowstart;
using namespace slowstart::testing;
using namespace std::literals;

namespace {

// The SPEC's worked example written with every variation the fast path
// reads (blanks around tokens, CR LF, leading zeros), then lines that a
// fast path could misread, each rejected (or, for the last ones, valid
// only by the parser's rules).
constexpr std::string_view kScript =
    "POOL a=5 b=1 c=1\n"       // 1
    "  PICK \t \n"              // 2  a
    "PICK\r\n"                  // 3  a        (scores a -4, b 2, c 2)
    "ADD\td=10   20\n"          // 4
    "# NOW 99\n"                // 5  a comment
    "NOW 0005\n"                // 6  now 5: d has 10 * 5 / 20 = 2
    "WEIGHTS\n"                 // 7  a=5 b=1 c=1 d=2
    "PICK\n"                    // 8  b        (a 1, b -6, c 3, d 2)
    "DOWN a\n"                  // 9
    "PICK\n"                    // 10 c        (b -5, c 0, d 4)
    "UP a 0\n"                  // 11 a back at 5, score 0
    "PICK\n"                    // 12 d: a 5, b -4, c 1, d 6; d drops to -3
    "PICK\0\n"                  // 13 rejected: PICK and a NUL is no PICK
    "PICK\r\r\n"                // 14 rejected: one CR is the line end, the other a byte
    "PICK PICK\n"               // 15 rejected: an argument too many
    "Pick\n"                    // 16 rejected, with the hint
    "WEIGHTS x\n"               // 17 rejected
    "NOW 1000000000001\n"       // 18 rejected: over the limit
    "NOW -1\n"                  // 19 rejected
    "NOW\n"                     // 20 rejected: missing
    "DOWN ghost\n"              // 21 rejected: no such backend
    "DOWN a b\n"                // 22 rejected
    "UP a 1.5\n"                // 23 rejected
    "UP ghost 1\n"              // 24 rejected
    "ADD x==1 2\n"              // 25 rejected: two '='
    "ADD =1 2\n"                // 26 rejected: no name
    "ADD y=1000001 0\n"         // 27 rejected: weight over the limit
    "ADD z\x01=1 0\n"           // 28 rejected: a control character in the name
    "NOW 0000000000000000000007\n"  // 29 now 7 (22 digits, leading zeros: valid)
    "ADD \xC3\xA9=3 0\n"        // 30 a UTF-8 name: valid, appended
    "WEIGHTS"sv;                // 31 (no '\n') a=5 b=1 c=1 d=3 é=3

constexpr std::string_view kOutput =
    "2:a\n3:a\n7:a=5 b=1 c=1 d=2\n8:b\n10:c\n12:d\n31:a=5 b=1 c=1 d=3 \xC3\xA9=3\n";
constexpr int kRejected[] = {13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28};

}  // namespace

TEST(FastLine, TheSameRunWithAndWithoutTheParser) {
  const RunResult parser = run_script(kScript, {.timeline = true});  // never takes the fast path
  const RunResult fast = run_script(kScript, {.timeline = false});
  EXPECT_EQ(out_text(parser), kOutput);
  EXPECT_EQ(out_text(fast), kOutput);
  ASSERT_EQ(parser.diagnostics.size(), std::size(kRejected));
  for (std::size_t i = 0; i < std::size(kRejected); ++i)
    EXPECT_EQ(parser.diagnostics[i].line, static_cast<std::uint64_t>(kRejected[i]));
  EXPECT_EQ(diag_text(fast), diag_text(parser));
  for (std::size_t i = 0; i < fast.diagnostics.size(); ++i)
    EXPECT_EQ(fast.diagnostics[i].columns, parser.diagnostics[i].columns) << fast.diagnostics[i].line;
  // A few of the parser's words, to show that they are its own.
  EXPECT_NE(diag_text(fast).find("line 16: unknown command 'Pick' (use PICK)\n"), std::string::npos);
  EXPECT_NE(diag_text(fast).find("line 21: no backend named 'ghost'\n"), std::string::npos);
}

TEST(FastLine, TheCliTextIsTheSameInAnyChunks) {
  std::string want_out;
  for (const auto& o : run_script(kScript, {.timeline = true}).output) want_out += o.text + "\n";
  const std::string want_err = diag_text(run_script(kScript, {.timeline = true}));
  for (std::size_t chunk : {1, 2, 3, 7, 16, 64, 4096}) {
    const auto [out, err] = cli_text(kScript, chunk);
    EXPECT_EQ(out, want_out) << chunk;
    EXPECT_EQ(err, want_err) << chunk;
  }
}

// DOWN and UP by name read the pool's index; ADD in place keeps the
// position; the fast path's clock and ramps are the pool's own.
TEST(FastLine, RampsAndReplacementsAsTheSpecSays) {
  constexpr std::string_view script =
      "POOL a=10 b=10\n"
      "ADD a=10 20\n"   // 2 a replaced in place: weight 0 at now 0
      "WEIGHTS\n"       // 3 a=0 b=10
      "NOW 5\n"
      "WEIGHTS\n"       // 5 a=2 b=10 (10 * 5 / 20 = 2.5, rounded down)
      "DOWN b\n"
      "WEIGHTS\n"       // 7 a=2 b=0
      "NOW 15\n"
      "UP b 10\n"       // 9 b ramps again from 15
      "NOW 19\n"
      "WEIGHTS\n"       // 11 a=9 b=4 (10 * 19 / 20 = 9.5; 10 * 4 / 10 = 4)
      "NOW 3\n"
      "WEIGHTS\n";      // 13 the clock went back: a=1 (10 * 3 / 20), b=0 (elapsed clamps at 0)
  constexpr std::string_view want = "3:a=0 b=10\n5:a=2 b=10\n7:a=2 b=0\n11:a=9 b=4\n13:a=1 b=0\n";
  EXPECT_EQ(out_text(run_script(script, {.timeline = false})), want);
  EXPECT_EQ(out_text(run_script(script, {.timeline = true})), want);
}

// POOL read in place (Interpreter::fast_pool): blanks, tabs and CR LF, a
// weight of 0, names the parser alone reads (UTF-8), an empty POOL; every
// bad POOL rejected with the pool and its scores as they were (the pick
// after them continues the sequence: 3:1 smooth WRR picks x x y x).
TEST(FastLine, PoolAsTheSpecSays) {
  constexpr std::string_view script =
      "POOL a=1 b=1\n"                    // 1
      "POOL   x=3\ty=1  z=0 \r\n"         // 2
      "PICK\n"                            // 3  x  (x -1, y 1, z 0)
      "PICK\n"                            // 4  x  (x 2, y 2: the first of a tie; x -2)
      "WEIGHTS\n"                         // 5  x=3 y=1 z=0
      "POOL a=1 a=2\n"                    // 6  rejected: a name twice
      "POOL a=1 b=1 a=3\n"                // 7  rejected: a name twice, later
      "POOL p=1 q=x\n"                    // 8  rejected: not a number
      "POOL p=1000001\n"                  // 9  rejected: over the limit
      "POOL p=1 =2\n"                     // 10 rejected: no name
      "POOL p==1\n"                       // 11 rejected: two '='
      "POOL p=1 q\x01=2\n"                // 12 rejected: a control character
      "PICK\n"                            // 13 y  (x 1, y 3; reset scores would give x)
      "PICK\n"                            // 14 x
      "POOL \xC3\xA9=2 e=1\n"             // 15 a UTF-8 name (the parser's)
      "WEIGHTS\n"                         // 16 e=1 é=2 (byte order)
      "POOL\n"                            // 17 empties the pool
      "WEIGHTS\n"                         // 18 an empty line
      "PICK\n"                            // 19 NONE
      "POOL p=1 #q=2\n"                   // 20 '#' inside a line is a name's
      "PICK\n"                            // 21 #q
      "WEIGHTS\n";                        // 22 #q=2 p=1
  constexpr std::string_view want =
      "3:x\n4:x\n5:x=3 y=1 z=0\n13:y\n14:x\n16:e=1 \xC3\xA9=2\n18:\n19:NONE\n21:#q\n22:#q=2 p=1\n";
  const RunResult parser = run_script(script, {.timeline = true});
  const RunResult fast = run_script(script, {.timeline = false});
  EXPECT_EQ(out_text(parser), want);
  EXPECT_EQ(out_text(fast), want);
  ASSERT_EQ(fast.diagnostics.size(), 7u);
  for (std::size_t i = 0; i < 7; ++i) EXPECT_EQ(fast.diagnostics[i].line, 6u + i);
  EXPECT_EQ(diag_text(fast), diag_text(parser));
  EXPECT_NE(diag_text(fast).find("line 6: duplicate backend name 'a' in POOL\n"), std::string::npos);
  for (std::size_t chunk : {1, 5, 4096}) EXPECT_EQ(cli_text(script, chunk).second, diag_text(parser)) << chunk;
}
