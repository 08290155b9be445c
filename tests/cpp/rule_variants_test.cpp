// The settings mistakes are made of (cpp/grading/rule_variants.*): each ramp
// setting on hand-worked values, each reading on the lines it rewrites, and
// the pool's whole-program hooks (rules.hpp) on short scripts.
#include <gtest/gtest.h>

#include <string>

#include "grading/rule_variants.hpp"

using namespace slowstart;
using Ramp = Variant::Ramp;
using Reading = Variant::Reading;

TEST(VariantWeight, RampSettingsOnHandWorkedValues) {
  // target 10, ramp 20, joined 100.
  auto w = [](Ramp r, std::int64_t now) { return variant_weight(r, 10, 20, 100, now); };
  EXPECT_EQ(w(Ramp::Spec, 105), 2);           // 2.5 down
  EXPECT_EQ(w(Ramp::RoundUp, 105), 3);        // 2.5 up
  EXPECT_EQ(w(Ramp::RoundNearest, 105), 3);   // 2.5 half up
  EXPECT_EQ(w(Ramp::RoundNearest, 104), 2);   // 2.0
  EXPECT_EQ(w(Ramp::NoCap, 200), 50);         // 10 x 100 / 20
  EXPECT_EQ(w(Ramp::NoClamp, 90), -5);        // 10 x -10 / 20
  EXPECT_EQ(w(Ramp::NoClamp, 97), -2);        // -1.5 floored, as Python's // and Math.floor do
  EXPECT_EQ(w(Ramp::Spec, 90), 0);
  EXPECT_EQ(w(Ramp::FromClockZero, 105), 10); // elapsed taken as 105, capped at 20
  EXPECT_EQ(w(Ramp::DivideFirst, 119), 0);    // 19 / 20 is 0
  EXPECT_EQ(w(Ramp::DivideFirst, 120), 10);
  EXPECT_EQ(w(Ramp::AtLeastOne, 100), 1);
  EXPECT_EQ(w(Ramp::AtLeastOne, 105), 2);
  EXPECT_EQ(variant_weight(Ramp::AtLeastOne, 0, 20, 0, 1), 0);  // target 0 stays 0
  EXPECT_EQ(variant_weight(Ramp::ZeroRampIsRamp, 7, 0, 0, 50), 0);
  EXPECT_EQ(variant_weight(Ramp::Spec, 7, 0, 0, 50), 7);
  // 1000000 x 5000 = 5,000,000,000 wraps at 32 bits to 705,032,704; / 10000 = 70503.
  EXPECT_EQ(variant_weight(Ramp::Overflow32, 1'000'000, 10'000, 0, 5'000), 70'503);
  EXPECT_EQ(variant_weight(Ramp::Spec, 1'000'000, 10'000, 0, 5'000), 500'000);
  // 999998.999999999999 exactly; a double rounds it to 999999.
  EXPECT_EQ(variant_weight(Ramp::Spec, 1'000'000, 999'999'999'999, 0, 999'998'999'999), 999'998);
  EXPECT_EQ(variant_weight(Ramp::FloatingPoint, 1'000'000, 999'999'999'999, 0, 999'998'999'999), 999'999);
}

TEST(RewriteScript, EachReadingOnTheLinesItChanges) {
  // Lines keep their places: line numbers stay true.
  EXPECT_EQ(rewrite_script(Reading::KeepCr, "PICK\r\nPICK\n"), "PICK\x01\nPICK\n");
  EXPECT_EQ(rewrite_script(Reading::TabsInWords, "POOL\ta=1\n# x\ty\n"), "POOL\x01" "a=1\n# x\x01y\n");
  EXPECT_EQ(rewrite_script(Reading::SplitEachSpace, "ADD c=3  0\nPICK \nPOOL a=1\tb=2\n   \n"),
            "\x01\n\x01\nPOOL a=1\x01" "b=2\n   \n");
  EXPECT_EQ(rewrite_script(Reading::AnyCaseKeywords, "  pick\nPick x\nfoo\nPICK\n"), "  PICK\nPICK x\nfoo\nPICK\n");
  // A no-break space, a form feed, U+2003, U+3000 become spaces; é, a tab and CR LF stay.
  EXPECT_EQ(rewrite_script(Reading::AnyBlankSeparates, "POOL a\xc2\xa0" "b=1\fc=2\nPOOL \xc3\xa9=1\t\xe2\x80\x83" "d=1\xe3\x80\x80\r\n"),
            "POOL a b=1 c=2\nPOOL \xc3\xa9=1\t d=1 \r\n");
  EXPECT_EQ(rewrite_script(Reading::TrailingComments, "PICK # why\r\n# all\nPOOL a#1=1\n"),
            "PICK \r\n# all\nPOOL a\n");
  EXPECT_EQ(rewrite_script(Reading::ExtraWordsIgnored, "PICK now\nNOW 5 s\nDOWN a b\nPOOL a=1 b=2\nPICK\n"),
            "PICK\nNOW 5\nDOWN a\nPOOL a=1 b=2\nPICK\n");
  EXPECT_EQ(rewrite_script(Reading::BadPoolApplied, "POOL a=1 b=x c=2\nPOOL a=1 a=2\nPOOL x=1.5\nPOOL q=1\n"),
            "POOL a=1\nPOOL a=1\nPOOL\nPOOL q=1\n");
  EXPECT_EQ(rewrite_script(Reading::BarePoolRejected, "POOL\nPOOL a=1\n  POOL  \n"), "\x01\nPOOL a=1\n\x01\n");
  // NOW adds: 5, then 5 + 10; a rejected NOW adds nothing.
  EXPECT_EQ(rewrite_script(Reading::NowAdds, "NOW 5\nNOW x\nNOW 10\n"), "NOW 5\nNOW x\nNOW 15\n");
  // The last line without '\n' stays without it.
  EXPECT_EQ(rewrite_script(Reading::AnyCaseKeywords, "pick"), "PICK");
}

namespace {

std::string run(const Variant& v, std::string_view script) { return variant_stdout(v, script); }

}  // namespace

TEST(PoolHooks, DownShowsWeightAndDownTakesPart) {
  Variant shows;
  shows.down_shows_weight = true;
  EXPECT_EQ(run(shows, "POOL a=2 b=1\nDOWN a\nWEIGHTS\nPICK\n"), "a=2 b=1\nb\n");
  Variant takes_part = shows;
  takes_part.takes = Variant::Takes::AnyWithWeight;
  EXPECT_EQ(run(takes_part, "POOL a=2 b=1\nDOWN a\nWEIGHTS\nPICK\n"), "a=2 b=1\na\n");
}

TEST(PoolHooks, AddExistingAppendsADuplicate) {
  Variant append;
  append.add = AddExisting::AppendDuplicate;
  // Two a's; DOWN finds the first one.
  EXPECT_EQ(run(append, "POOL a=1 b=1\nADD a=2 0\nWEIGHTS\nDOWN a\nWEIGHTS\n"), "a=1 a=2 b=1\na=0 a=2 b=1\n");
}

TEST(PoolHooks, UpNoRestartAndPoolKeepsScores) {
  Variant no_restart;
  no_restart.up_restarts = false;
  EXPECT_EQ(run(no_restart, "POOL a=4\nNOW 10\nUP a 20\nWEIGHTS\nDOWN a\nUP a 20\nWEIGHTS\n"), "a=4\na=0\n");
  Variant keeps;
  keeps.pool_keeps_scores = true;
  // a=-1 b=1 after the first pick; the new POOL keeps them (and c is new, at 0).
  EXPECT_EQ(run(keeps, "POOL a=1 b=1\nPICK\nPOOL c=1 a=1 b=1\nPICK\nPICK\n"), "a\nb\nc\n");
}

TEST(PoolHooks, WeightsOrders) {
  Variant pool_order;
  pool_order.order = WeightsOrder::Pool;
  EXPECT_EQ(run(pool_order, "POOL b=1 a=2 C=3\nWEIGHTS\n"), "b=1 a=2 C=3\n");
  Variant ignore_case;
  ignore_case.order = WeightsOrder::IgnoreCase;
  EXPECT_EQ(run(ignore_case, "POOL b=1 B=2 a=3 C=4 A=5\nWEIGHTS\n"), "a=3 A=5 b=1 B=2 C=4\n");
  Variant silent;
  silent.empty_weights_silent = true;
  EXPECT_EQ(run(silent, "WEIGHTS\nPOOL a=1\nWEIGHTS\n"), "a=1\n");
}

TEST(PickSettings, WinnersPaymentsAndSittingOut) {
  Variant first;
  first.winner = Variant::Winner::FirstDefault;
  // a is DOWN with score 0: b's 1 beats it. With nobody taking part, the first
  // backend (c, weight 0) is named instead of NONE; an empty pool still says NONE.
  EXPECT_EQ(run(first, "POOL a=1 b=1\nDOWN a\nPICK\nPOOL\nPICK\nPOOL c=0\nPICK\n"), "b\nNONE\nc\n");
  Variant heaviest;
  heaviest.winner = Variant::Winner::HighestWeight;
  EXPECT_EQ(run(heaviest, "POOL a=1 b=2 c=2\nPICK\nPICK\n"), "b\nb\n");
  Variant own;
  own.pays = Variant::Pays::OwnWeight;
  // 2/1: (2,1)→a (0,1); (2,2)→a (0,2); (2,3)→b (2,2).
  EXPECT_EQ(run(own, "POOL a=2 b=1\nPICK\nPICK\nPICK\n"), "a\na\nb\n");
  Variant target;
  target.takes = Variant::Takes::UpWithTarget;
  // b ramps (weight 0 at 0 s) but takes part with its target 5.
  EXPECT_EQ(run(target, "POOL a=1\nADD b=5 10\nWEIGHTS\nPICK\n"), "a=1 b=0\nb\n");
}
