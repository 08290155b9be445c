// The run diagnosis (cpp/grading/diagnosis.*) on hand-made evidence: what a
// test names, what rules a mistake out, what outranks, and that a test with
// a problem (a crash, an exception) names nothing.
#include <gtest/gtest.h>

#include <string>

#include "grading/diagnosis.hpp"

using namespace slowstart;

namespace {

MistakeIndex index_of(std::string_view id) {
  const Mistake* m = find_mistake(id);
  return static_cast<MistakeIndex>(m - mistakes().data());
}

std::string ids(const std::vector<MistakeIndex>& list) {
  std::string s;
  for (MistakeIndex m : list) s += std::string(mistakes()[m].id) + " ";
  return s;
}

}  // namespace

TEST(Evidence, NamesTheMistakesThatPrintExactlyTheLearnersOutput) {
  // Ties to the last on three equal backends: x y z instead of z y x.
  const std::string script = "POOL z=1 y=1 x=1\nPICK\nPICK\nPICK\n";
  const TestEvidence e = gather_evidence(script, "z\ny\nx\n", "x\ny\nz\n", Scope::Program, false);
  EXPECT_FALSE(e.pass);
  EXPECT_EQ(ids(e.named), "ties-to-last ");
}

TEST(Evidence, ALineRightInTheLearnersOutputRulesOutAMistakeWrongThere) {
  // Picks of 1/1: a b a b. "highest-weight-wins" prints a a a a. A learner
  // printing a b a a is right on line 2, where that mistake is wrong.
  const std::string script = "POOL a=1 b=1\nPICK\nPICK\nPICK\nPICK\n";
  const TestEvidence e = gather_evidence(script, "a\nb\na\nb\n", "a\nb\na\na\n", Scope::Program, false);
  EXPECT_TRUE(e.named.empty());
  bool ruled_out = false;
  for (MistakeIndex m : e.ruled_out) ruled_out = ruled_out || m == index_of("highest-weight-wins");
  EXPECT_TRUE(ruled_out);
}

TEST(Evidence, AProblemOrAPassingTestNamesNothing) {
  const std::string script = "POOL z=1 y=1 x=1\nPICK\nPICK\nPICK\n";
  const TestEvidence crashed = gather_evidence(script, "z\ny\nx\n", "x\ny\nz\n", Scope::Program, true);
  EXPECT_TRUE(crashed.problem);
  EXPECT_TRUE(crashed.named.empty());
  EXPECT_TRUE(crashed.ruled_out.empty());
  const TestEvidence passed = gather_evidence(script, "z\ny\nx\n", "z\ny\nx\n", Scope::Program, false);
  EXPECT_TRUE(passed.pass);
  EXPECT_TRUE(passed.named.empty());
  EXPECT_FALSE(passed.ruled_out.empty());  // ties-to-last, for one
}

TEST(Evidence, ScopeRulesLeavesOutWholeProgramMistakes) {
  // A program sorting WEIGHTS in pool order: named in Program scope only.
  const std::string script = "POOL b=1 a=1\nWEIGHTS\n";
  EXPECT_EQ(ids(gather_evidence(script, "a=1 b=1\n", "b=1 a=1\n", Scope::Program, false).named),
            "weights-pool-order ");
  EXPECT_EQ(ids(gather_evidence(script, "a=1 b=1\n", "b=1 a=1\n", Scope::Rules, false).named), "");
}

TEST(RunDiagnosis, RuledOutByAnotherTestAndOutranked) {
  const MistakeIndex a = index_of("round-up"), b = index_of("round-nearest"), c = index_of("no-cap");
  TestEvidence t1{false, false, {a, b}, {}};
  TestEvidence t2{false, false, {a, b, c}, {}};
  TestEvidence t3{false, false, {a}, {c}};
  TestEvidence ok{true, false, {}, {}};
  const RunDiagnosis d = diagnose_run({&t1, &t2, &t3, &ok, nullptr});
  // c is ruled out by t3; b (t1, t2) is outranked by a (t1, t2, t3).
  ASSERT_EQ(d.per_test.size(), 5u);
  EXPECT_EQ(ids(d.per_test[0]), "round-up ");
  EXPECT_EQ(ids(d.per_test[1]), "round-up ");
  EXPECT_EQ(ids(d.per_test[2]), "round-up ");
  EXPECT_EQ(ids(d.per_test[3]), "");
  EXPECT_EQ(ids(d.per_test[4]), "");
  ASSERT_EQ(d.run.size(), 1u);
  EXPECT_EQ(d.run[0].mistake, a);
  EXPECT_EQ(d.run[0].tests, (std::vector<std::size_t>{0, 1, 2}));
}

TEST(RunDiagnosis, EqualEvidenceKeepsBothMostTestsFirst) {
  const MistakeIndex a = index_of("round-up"), b = index_of("round-nearest"), c = index_of("no-cap");
  TestEvidence t1{false, false, {a, b}, {}};
  TestEvidence t2{false, false, {c}, {}};
  TestEvidence t3{false, false, {c}, {}};
  const RunDiagnosis d = diagnose_run({&t1, &t2, &t3});
  EXPECT_EQ(ids(d.per_test[0]), "round-up round-nearest ");  // "one of these"
  ASSERT_EQ(d.run.size(), 3u);
  EXPECT_EQ(d.run[0].mistake, c);  // two tests
  EXPECT_EQ(d.run[1].mistake, a);
  EXPECT_EQ(d.run[2].mistake, b);
}

TEST(RunDiagnosis, TestsWithProblemsNameNothing) {
  const MistakeIndex a = index_of("round-up");
  TestEvidence threw{false, true, {a}, {}};
  EXPECT_TRUE(diagnose_run({&threw}).run.empty());
}
