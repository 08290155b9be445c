// The mistake catalogue against the built-in suite: the reference passes
// every test, every mistake fails at least one (so a mistake cannot be added
// without a test that catches it), every rule of the SPEC has a test that a
// solution breaking only that rule fails, and the run diagnosis names each
// mistake alone for a program that makes it.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "grading/diagnosis.hpp"
#include "grading/mistakes.hpp"
#include "grading/suite.hpp"

using namespace slowstart;

namespace {

const SuiteTest* find_test(std::string_view id) {
  for (const SuiteTest& t : built_in_tests())
    if (t.id == id) return &t;
  return nullptr;
}

bool fails(const Mistake& m, const SuiteTest& t) { return mistake_stdout(m, t.script) != reference_stdout(t.script); }

// Every rule of the SPEC, the built-in test that checks it, and what a
// solution that breaks only that rule does: a mistake of the catalogue, or
// (for rules no classic mistake breaks in a way a variant can model) the
// stdout such a solution prints, worked out by hand.
struct RuleCheck {
  std::string_view rule;
  std::string_view test;
  std::string_view mistake;      // empty: see `breaking_output`
  std::string_view breaking_output = {};
};

const RuleCheck kRules[] = {
    {"effective = target if ramp == 0", "no-ramp", "pool-ramped"},
    {"target * min(elapsed, ramp) / ramp: capped at the target", "stops-at-target", "no-cap"},
    {"integer arithmetic, rounding down", "round-down", "round-up"},
    {"integer arithmetic, rounding down", "ramp-table", "round-nearest"},
    {"the division last", "ramp-table", "divide-first"},
    {"64-bit: target x ramp can reach 10^18", "big-numbers", "floating-point"},
    {"64-bit: target x ramp can reach 10^18", "big-numbers", "overflow-32-bit"},
    {"elapsed = max(0, now - joined)", "clock-before-join", "no-clamp"},
    {"elapsed counts from joined", "ramp-from-join", "from-clock-zero"},
    {"at the moment of joining a ramping backend has weight 0", "joined-gets-nothing", "at-least-one"},
    {"effective = 0 if the backend is DOWN", "down-keeps-place", "down-shows-weight"},
    {"participants are UP", "down-keeps-place", "down-takes-part"},
    {"participants have effective weight > 0", "weight-zero-never-wins", "weight-zero-takes-part"},
    {"score += its effective weight", "ramping-share", "pick-ignores-ramp"},
    {"the highest score wins", "smooth-5-1-1", "highest-weight-wins"},
    {"a tie goes to the earliest in the pool", "ties-go-first", "ties-to-last"},
    {"the winner's score -= the sum of the weights", "winner-gives-back-total", "no-subtract"},
    {"the winner's score -= the sum of the weights", "winner-gives-back-total", "winner-pays-own-weight"},
    {"no participants: NONE", "nobody-to-pick", "first-backend-default"},
    {"scores of non-participants do not change", "sitting-out-keeps-score", "others-reset"},
    {"scores of non-participants do not change", "sitting-out-keeps-score", "others-decay"},
    {"scores survive from pick to pick", "scores-carry-over", "highest-weight-wins"},
    {"a backend that rejoins through UP starts with score 0", "up-resets-score", "up-keeps-score"},
    {"a backend that rejoins through ADD starts with score 0", "add-resets-score", "no-reset-on-join"},
    {"POOL: all UP, ramp 0, score 0", "pool-starts-over", "pool-keeps-scores"},
    {"POOL alone empties the pool", "empty-pool", "bare-pool-rejected"},
    {"NOW sets the clock", "now-sets-clock", "now-adds"},
    {"ADD of an existing name replaces it in place", "add-in-place", "add-appends-duplicate"},
    // A program whose ADD of an existing name moves it to the end of the pool (the
    // worked-out picks: b then a, as b is first now).
    {"ADD of an existing name keeps its position", "add-in-place", "", "a=1 b=1\nb\na\n"},
    // A program whose DOWN toggles (a second DOWN brings the backend back).
    {"DOWN of a DOWN backend changes nothing", "down-keeps-place", "", "a=0 b=1\nb\nb\na=2 b=1\na\n"},
    {"UP restarts the ramp, also when the backend was UP", "up-restarts-ramp", "up-no-restart"},
    {"WEIGHTS sorted by name, byte order", "weights-sorted", "weights-pool-order"},
    {"WEIGHTS sorted by name, byte order", "weights-sorted", "weights-ignore-case"},
    {"an empty pool prints an empty line", "empty-pool", "empty-weights-silent"},
    {"a line may end in LF or CR LF", "crlf-line-ends", "keep-cr"},
    {"tokens are separated by runs of spaces or tabs", "spaces-and-tabs", "tabs-in-words"},
    {"tokens are separated by runs of spaces or tabs", "spaces-and-tabs", "split-each-space"},
    {"keywords are upper-case", "keywords-upper-case", "any-case-keywords"},
    {"a comment is a line whose first token starts with #", "comments", "trailing-comments"},
    {"a line with extra arguments is rejected", "extra-words", "extra-words-ignored"},
    // A program that takes ADD with no ramp as ramp 0: c=4 joins and wins (1, 1, 4).
    {"a line with missing arguments is rejected", "extra-words", "", "c\na=1 b=1 c=4\n"},
    // A program that keeps the byte-order mark: line 1 is an unknown command.
    {"a byte-order mark at the start is ignored", "byte-order-mark", "", "NONE\n\n"},
    {"only spaces and tabs separate tokens", "only-spaces-and-tabs", "any-blank-separates"},
    // The same, worked out by hand (Python's str.split(), JavaScript's /\s+/): "a" has no
    // weight, so the first POOL is rejected, and the second is taken.
    {"only spaces and tabs separate tokens", "only-spaces-and-tabs", "", "\nNONE\nx=1 y=2\n"},
    // A program that splits at ASCII blanks (Python's bytes.split()): only the second POOL differs.
    {"only spaces and tabs separate tokens", "only-spaces-and-tabs", "", "a\u00A0b=1 c=2\nc\nx=1 y=2\n"},
    // A program that takes only ramps below 10^12: the ADD is rejected.
    {"a ramp may be 10^12", "largest-numbers", "", "\n\n"},
    // A program that takes only times below 10^12: the clock stays at 0.
    {"a time may be 10^12", "largest-numbers", "", "a=0\na=500000\n"},
    {"a rejected line changes nothing", "rejected-changes-nothing", "bad-pool-applied"},
    // A program that takes "+2" for 2 (as int() and Number() do).
    {"a weight is a plain decimal integer", "numbers-checked", "", "a=1 d=2 f=1000000 h=0\n"},
    // A program that checks no limit on weights.
    {"a weight is at most 1000000", "numbers-checked", "", "a=1 e=1000001 f=1000000 h=0\n"},
    // A program that checks no limit on times: NOW 1000000000001 puts h past its ramp.
    {"a time is at most 10^12", "numbers-checked", "", "a=1 f=1000000 h=10\n"},
    // A program that accepts a duplicate name in a POOL (the pool becomes a=1 a=2).
    {"no duplicate name within one POOL", "names-checked", "", "a=1 a=2\na\n"},
    // A program that splits "a=b=1" at its last '=': a backend "a=b" of weight 1 joins.
    {"name=w with several '=' is rejected", "names-checked", "", "a=b=1 x=1\nx\n"},
    // A program that takes "=1" as a backend with an empty name.
    {"a name is not empty", "names-checked", "", "=1 x=1\nx\n"},
};

}  // namespace

TEST(Catalogue, TheReferenceVariantPassesEveryTest) {
  // A variant with every setting at its default runs on the pool's custom-Rules
  // path: it must print what the SPEC's own path prints.
  const Variant spec;
  for (const SuiteTest& t : built_in_tests())
    EXPECT_EQ(variant_stdout(spec, t.script), reference_stdout(t.script)) << t.id;
}

TEST(Catalogue, EveryMistakeFailsABuiltInTest) {
  for (const Mistake& m : mistakes()) {
    std::vector<std::string_view> failed;
    for (const SuiteTest& t : built_in_tests())
      if (fails(m, t)) failed.push_back(t.id);
    EXPECT_FALSE(failed.empty()) << "no built-in test catches the mistake '" << m.id
                                 << "': add a test to cpp/grading/suite.cpp";
  }
}

TEST(Catalogue, EveryRulesMistakeFailsATestTheImplementModeRuns) {
  for (const Mistake& m : mistakes()) {
    if (m.scope != Scope::Rules) continue;
    bool caught = false;
    for (const SuiteTest& t : built_in_tests()) caught = caught || (t.scope == Scope::Rules && fails(m, t));
    EXPECT_TRUE(caught) << m.id;
  }
}

TEST(Catalogue, EveryRuleOfTheSpecHasATestThatCatchesABreakingSolution) {
  std::set<std::string_view> named_mistakes;
  for (const RuleCheck& r : kRules) {
    const SuiteTest* t = find_test(r.test);
    ASSERT_NE(t, nullptr) << r.test;
    if (r.mistake.empty()) {
      EXPECT_NE(r.breaking_output, reference_stdout(t->script)) << r.rule;
      continue;
    }
    const Mistake* m = find_mistake(r.mistake);
    ASSERT_NE(m, nullptr) << r.mistake;
    EXPECT_TRUE(fails(*m, *t)) << r.rule << ": " << r.mistake << " passes " << r.test;
    named_mistakes.insert(r.mistake);
  }
  // ...and every mistake breaks some rule in the list above.
  for (const Mistake& m : mistakes()) EXPECT_TRUE(named_mistakes.count(m.id)) << m.id;
}

TEST(Catalogue, IdsAreUniqueAndEntriesComplete) {
  std::set<std::string_view> ids, titles;
  for (const Mistake& m : mistakes()) {
    EXPECT_TRUE(ids.insert(m.id).second) << m.id;
    EXPECT_TRUE(titles.insert(m.title).second) << m.title;
    EXPECT_EQ(m.title.back(), '.') << m.id;
    EXPECT_GT(m.why.size(), 40u) << m.id;
    EXPECT_EQ(find_mistake(m.id), &m);
  }
  EXPECT_EQ(find_mistake("no-such-mistake"), nullptr);
}

// A learner's program that makes one mistake, graded on the built-in suite:
// the run diagnosis names that mistake and no other. In the implement mode
// (Rules scope) only the tests and mistakes of that scope take part.
void expect_named_alone(Scope scope) {
  for (const Mistake& m : mistakes()) {
    if (scope == Scope::Rules && m.scope != Scope::Rules) continue;
    std::vector<TestEvidence> evidence;
    for (const SuiteTest& t : built_in_tests()) {
      if (scope == Scope::Rules && t.scope != Scope::Rules) continue;
      evidence.push_back(gather_evidence(t.script, reference_stdout(t.script), mistake_stdout(m, t.script), scope, false));
    }
    std::vector<const TestEvidence*> tests;
    for (const auto& e : evidence) tests.push_back(&e);
    const RunDiagnosis d = diagnose_run(tests);
    std::string named;
    for (const auto& e : d.run) named += std::string(mistakes()[e.mistake].id) + " ";
    EXPECT_EQ(named, std::string(m.id) + " ");
  }
}

TEST(Catalogue, AProgramMakingOneMistakeIsNamedAlone) { expect_named_alone(Scope::Program); }

TEST(Catalogue, ImplementModeCodeMakingOneMistakeIsNamedAlone) { expect_named_alone(Scope::Rules); }

TEST(Catalogue, TheReferenceIsNamedNothing) {
  std::vector<TestEvidence> evidence;
  for (const SuiteTest& t : built_in_tests())
    evidence.push_back(gather_evidence(t.script, reference_stdout(t.script), reference_stdout(t.script), Scope::Program, false));
  std::vector<const TestEvidence*> tests;
  for (const auto& e : evidence) {
    EXPECT_TRUE(e.pass);
    EXPECT_TRUE(e.named.empty());
    tests.push_back(&e);
  }
  EXPECT_TRUE(diagnose_run(tests).run.empty());
}
