// The built-in suite (cpp/grading/suite.cpp): the engine's output for every
// test equals the output worked out by hand from the SPEC below, and the
// tests are titled for learners.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>

#include "grading/mistakes.hpp"
#include "grading/suite.hpp"

using namespace slowstart;

namespace {

// Worked out by hand from the SPEC. Scores are written (a, b, ...) after
// each pick; "→ x" is the winner.
const std::map<std::string, std::string> kExpected = {
    // The SPEC's own worked example, line 11 ("pick") rejected.
    {"worked-example", "a\na\na=5 b=1 c=1 d=0\na=5 b=1 c=1 d=2\nb\nc\n"},
    // 10 × e / 20 for e = 0, 5, 10, 15, 19, 20, 100: 0, 2.5, 5, 7.5, 9.5, 10, capped 10.
    {"ramp-table", "web=0\nweb=2\nweb=5\nweb=7\nweb=9\nweb=10\nweb=10\n"},
    // 10 × e / 30 for e = 1, 5, 14, 29: 0.33, 1.67, 4.67, 9.67, all rounded down.
    {"round-down", "web=0\nweb=1\nweb=4\nweb=9\n"},
    // At 40 s b is past its 20 s ramp: 10. Picks over 10/10: (10, 10) → a (-10, 10);
    // (0, 20) → b.
    {"stops-at-target", "a=10 b=10\na\nb\n"},
    // Ramp 0: full weight at once. Picks over 2/1/3 (total 6): (2, 1, 3) → c (2, 1, -3);
    // (4, 2, 0) → a (-2, 2, 0); (0, 3, 3) → b by pool order. UP a 0: full weight again.
    {"no-ramp", "a=2 b=1 c=3\nc\na\nb\na=2 b=1 c=3\n"},
    // b joins at 0 with weight 0: a wins twice. At 1 s b = 100 × 1 / 10 = 10 (total 11):
    // (a 0+1, b 0+10) → b (1, -1); (2, 9) → b (2, -2).
    {"joined-gets-nothing", "a\na\na=1 b=0\nb\nb\n"},
    // b joins at 1000: elapsed 0, 10, 20 → 0, 5, 10.
    {"ramp-from-join", "b=0\nb=5\nb=10\n"},
    // b joins at 100; at 90 elapsed = max(0, -10) = 0 → b=0 and only a takes part;
    // at 110 elapsed 10 → 5.
    {"clock-before-join", "a=1 b=0\na\na=1 b=5\n"},
    // 1000000 × 999998999999 / 999999999999 = 999998 + 999999999998 / 999999999999,
    // i.e. 999998.999999999999 → 999998 (a double rounds it up to 999999). Then at 999999004999: big has elapsed
    // 999999004999 → 999999.004999... → 999999; mid has elapsed 5000 of 10000 → 500000.
    {"big-numbers", "big=999998\nbig=999999 mid=500000\n"},
    // nginx's sequence for 5/1/1 (total 7): (5,1,1)→a (-2,1,1); (3,2,2)→a (-4,2,2);
    // (1,3,3)→b (1,-4,3); (6,-3,4)→a (-1,-3,4); (4,-2,5)→c (4,-2,-2); (9,-1,-1)→a
    // (2,-1,-1); (7,0,0)→a (0,0,0).
    {"smooth-5-1-1", "a\na\nb\na\nc\na\na\n"},
    // 1/1: (1,1)→a (-1,1); (0,2)→b (0,0); and again.
    {"scores-carry-over", "a\nb\na\nb\n"},
    // 1/1/1: (1,1,1)→z (-2,1,1); (-1,2,2)→y (-1,-1,2); (0,0,3)→x.
    {"ties-go-first", "z\ny\nx\n"},
    // 2/1 (total 3): (2,1)→a (-1,1); (1,2)→b (1,-1); (3,0)→a (0,0); (2,1)→a (-1,1);
    // (1,2)→b; (3,0)→a.
    {"winner-gives-back-total", "a\nb\na\na\nb\na\n"},
    // At 10 s, 1/3 (total 4): (1,3)→b (1,-1); (2,2)→a (-2,2); (-1,5)→b (-1,1).
    // At 0 s b is at weight 0 with score 1: only a takes part, twice.
    {"weight-zero-never-wins", "b\na\nb\na=1 b=0\na\na\n"},
    // At 10 s, 6/1 (total 7): (6,1)→a (-1,1); (5,2)→a (-2,2); (4,3)→a (-3,3).
    // At 0 s b sits out keeping 3: a alone (3)→a (-3). At 10 s: (3,4)→b (3,-3);
    // (9,-2)→a.
    {"sitting-out-keeps-score", "a\na\na\na\nb\na\n"},
    // Weights 0: nobody takes part. An empty pool. c is DOWN.
    {"nobody-to-pick", "NONE\nNONE\nNONE\n"},
    // b ramps 2 over 20 s: 0 at 0 s (a alone twice, a stays at 0); at 10 s b = 1
    // (total 3): (2,1)→a (-1,1); (1,2)→b.
    {"ramping-share", "a\na\na\nb\n"},
    // 3/1 (total 4): (3,1)→a (-1,1); (2,2)→a (-2,2). DOWN, UP a 0: a's score 0.
    // (3,3)→a (-1,3); (2,4)→b.
    {"up-resets-score", "a\na\na\nb\n"},
    // The same with ADD a=3 0 in place of DOWN and UP.
    {"add-resets-score", "a\na\na\nb\n"},
    // 4/4: (4,4)→a (-4,4). b DOWN: a alone →a (-4). At 30 UP b 20: b at 0 with score
    // 0, a alone →a. At 40 b = 4 × 10 / 20 = 2 (total 6): (0,2)→b (0,-4);
    // (4,-2)→a (-2,-2); (2,0)→a.
    {"recovery", "a\na\na\na=4 b=2\nb\na\na\n"},
    // (1,1)→a (-1,1); POOL again: scores 0, so (1,1)→a. The last POOL brings b back
    // UP and c with no ramp.
    {"pool-starts-over", "a\na\na=1 b=1 c=4\n"},
    // An empty pool: an empty WEIGHTS line, NONE; then b alone.
    {"empty-pool", "\nNONE\nb=1\n"},
    // At 10 s: 10 × 10 / 20 = 5; at 4 s: 2.
    {"now-sets-clock", "b=5\nb=2\n"},
    // a stays first: (1,1)→a (-1,1); (0,2)→b.
    {"add-in-place", "a=1 b=1\na\nb\n"},
    // a DOWN: weight 0, b alone twice; DOWN again changes nothing; UP a 0: a=2 with
    // score 0, b at 0: (2,1)→a.
    {"down-keeps-place", "a=0 b=1\nb\nb\na=0 b=1\na\n"},
    // UP b 20 at 10 s restarts b's ramp: 0, then 4 × 10 / 20 = 2 at 20 s.
    {"up-restarts-ramp", "a=4 b=0\na=4 b=2\n"},
    // Byte order: 'B' (0x42) < 'a' (0x61) < 'b'; "web1" then '0' (0x30) < '9'.
    {"weights-sorted", "B=4 a=5 b=2 web10=3 web9=1\n"},
    // CR LF line ends are line ends: 1/2 → b.
    {"crlf-line-ends", "b\na=1 b=2\n"},
    // The byte-order mark is not part of POOL: 1/2 → b.
    {"byte-order-mark", "b\na=1 b=2\n"},
    // A tab, then two spaces, separate words. 1/2/3: (1,2,3)→c.
    {"spaces-and-tabs", "a=1 b=2\na=1 b=2 c=3\nc\n"},
    // "a<NBSP>b" is one name (UTF-8 C2 A0, sorted before "c"): 1/2 → c. "x=1<FF>y=2" is one
    // word with two '=': rejected, the pool stays.
    {"only-spaces-and-tabs", "a\u00A0b=1 c=2\nc\na\u00A0b=1 c=2\n"},
    // Only the last PICK runs: "PICK # ..." has extra words and is rejected.
    {"comments", "a\n"},
    // "pick" and "Pick" are rejected.
    {"keywords-upper-case", "a\n"},
    // Every line with a word too many, and ADD with no ramp, is rejected; the PICK:
    // (1,1)→a; c never joined.
    {"extra-words", "a\na=1 b=1\n"},
    // POOL a=1 b=x and ADD d=5 -1 are rejected: the pool stays c=1.
    {"rejected-changes-nothing", "c=1\nc=1\n"},
    // 1000000 × min(10^12, 10^12) / 10^12 = 1000000 (the product, 10^18, fits in 64 bits);
    // at 5 × 10^11: 500000.
    {"largest-numbers", "a=1000000\na=500000\n"},
    // Only f=1000000 is accepted (-1, 1.5, +2, 1000001, a ramp of 10^12 + 1 are not);
    // every NOW is rejected, so the clock stays 0 and h is at 0.
    {"numbers-checked", "a=1 f=1000000 h=0\n"},
    // Every line but the first is rejected.
    {"names-checked", "x=1\nx\n"},
};

}  // namespace

TEST(Suite, EngineOutputIsTheHandWorkedOutput) {
  std::set<std::string> seen;
  for (const SuiteTest& t : built_in_tests()) {
    const std::string id(t.id);
    const auto it = kExpected.find(id);
    ASSERT_NE(it, kExpected.end()) << "no hand-worked output for built-in test " << id;
    EXPECT_EQ(reference_stdout(t.script), it->second) << id;
    seen.insert(id);
  }
  EXPECT_EQ(seen.size(), kExpected.size()) << "a hand-worked output for a test that is not in the suite";
}

TEST(Suite, IdsAreUniqueFileNamesAndTitlesAreLearnerWords) {
  std::set<std::string_view> ids, titles;
  for (const SuiteTest& t : built_in_tests()) {
    EXPECT_TRUE(ids.insert(t.id).second) << t.id;
    EXPECT_TRUE(titles.insert(t.title).second) << t.title;
    for (char c : t.id) EXPECT_TRUE((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-') << t.id;
    // Titles say what is checked, not where it is written down.
    EXPECT_EQ(t.title.find("SPEC"), std::string_view::npos) << t.title;
    EXPECT_FALSE(t.script.empty());
    EXPECT_EQ(t.script.back(), '\n') << t.id;
  }
}

TEST(Suite, TestsAreShort) {
  for (const SuiteTest& t : built_in_tests()) {
    std::size_t lines = 0;
    for (char c : t.script) lines += c == '\n';
    EXPECT_LE(lines, 16u) << t.id;
  }
}
