// Where on its line each diagnostic's problem is (Diagnostic::columns, bytes
// of the line): the offending token, or the name or the weight of a
// name=weight, worked out by hand from the lines below; the same however the
// script arrives. And the keyword table the front ends read.
#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "core/command.hpp"
#include "core/interpreter.hpp"

using namespace slowstart;

namespace {

// The columns of a one-diagnostic script's diagnostic, and the text they cover.
struct Found {
  Span columns;
  std::string text;
};

Found found(std::string_view script) {
  const RunResult r = run_script(script);
  EXPECT_EQ(r.diagnostics.size(), 1u) << script;
  if (r.diagnostics.empty()) return {};
  const Diagnostic& d = r.diagnostics.back();
  std::string_view line = script;
  for (std::uint64_t n = 1; n < d.line; ++n) line.remove_prefix(line.find('\n') + 1);
  line = line.substr(0, line.find('\n'));
  EXPECT_LE(d.columns.to, line.size()) << script;
  return {d.columns, std::string(line.substr(d.columns.from, d.columns.to - d.columns.from))};
}

// A sink that keeps only the columns.
class ColumnsSink : public ScriptSink {
 public:
  void output(std::uint64_t, std::string_view) override {}
  void diagnostic(std::uint64_t, std::string_view, Span columns) override { spans.push_back(columns); }
  std::vector<Span> spans;
};

}  // namespace

TEST(Columns, TheOffendingToken) {
  EXPECT_EQ(found("  FOO bar").text, "FOO");            // unknown command
  EXPECT_EQ(found("  FOO bar").columns, (Span{2, 5}));
  EXPECT_EQ(found("PICK now").columns, (Span{5, 8}));    // unexpected argument
  EXPECT_EQ(found("NOW 1x").columns, (Span{4, 6}));      // a bad number
  EXPECT_EQ(found("POOL a=1\nUP a\t1x").columns, (Span{5, 7}));
  EXPECT_EQ(found("POOL x").columns, (Span{5, 6}));      // expected <name>=<weight>
  EXPECT_EQ(found("ADD =1 5").columns, (Span{4, 6}));    // empty name: the whole token
  EXPECT_EQ(found("POOL a=").columns, (Span{5, 7}));     // no weight: the whole token
  EXPECT_EQ(found("POOL a=1=2").columns, (Span{5, 10}));  // two '='
}

TEST(Columns, TheNameOrTheWeightOfANameWeight) {
  EXPECT_EQ(found("POOL a=1 b=x").columns, (Span{11, 12}));   // the weight
  EXPECT_EQ(found("POOL a=1 bb=-1").text, "-1");
  EXPECT_EQ(found("ADD a\x01=1 5").columns, (Span{4, 6}));    // the name
  EXPECT_EQ(found("POOL a=1 a=2").columns, (Span{9, 10}));    // the duplicate, not the first
  EXPECT_EQ(found("ADD b=2000000 5").text, "2000000");
}

TEST(Columns, TheWholeCommandOrTheName) {
  EXPECT_EQ(found("NOW").columns, (Span{0, 3}));            // missing argument
  EXPECT_EQ(found("  ADD a=1  ").columns, (Span{2, 9}));    // blanks around it are not part of it
  EXPECT_EQ(found("POOL a=1\nDOWN zz").columns, (Span{5, 7}));  // no backend named
  EXPECT_EQ(found("POOL a=1\nUP zz 5").text, "zz");
}

TEST(Columns, LineEndsAndAByteOrderMark) {
  EXPECT_EQ(found("NOW x\r\n").columns, (Span{4, 5}));  // the CR is no part of the token
  // Line 1's columns count the byte-order mark (3 bytes) the engine skips.
  EXPECT_EQ(found("\xEF\xBB\xBF" "bad").columns, (Span{3, 6}));
  EXPECT_EQ(found("\xEF\xBB\xBF" "POOL a=1\nbad").columns, (Span{0, 3}));
}

TEST(Columns, TheSameInChunksOfAnySize) {
  const std::string script =
      "\xEF\xBB\xBF" "FOO 1\r\nPOOL a=1 a=2\nPOOL a=1 b=x\r\nNOW\nDOWN zz\nPICK  now\r\nNOW x\r";
  const std::vector<Span> want = {{3, 6}, {9, 10}, {11, 12}, {0, 3}, {5, 7}, {6, 9}, {4, 5}};
  std::vector<Span> whole;
  for (const Diagnostic& d : run_script(script).diagnostics) whole.push_back(d.columns);
  EXPECT_EQ(whole, want);
  for (std::size_t size : {1u, 2u, 3u, 5u, 64u}) {
    ColumnsSink sink;
    Interpreter in(sink);
    for (std::size_t i = 0; i < script.size(); i += size) in.feed_chunk(std::string_view(script).substr(i, size));
    in.finish();
    EXPECT_EQ(sink.spans, want) << size;
  }
}

TEST(Keywords, TheSpecsCommandsAndHowEachIsWritten) {
  std::vector<std::string> words, usages;
  for (const Keyword& k : keywords()) {
    words.emplace_back(k.word);
    usages.emplace_back(k.usage);
    EXPECT_FALSE(k.summary.empty()) << k.word;
    // The bindings send the table as tab-separated lines.
    EXPECT_EQ(k.summary.find_first_of("\t\n"), std::string_view::npos) << k.word;
  }
  EXPECT_EQ(words, (std::vector<std::string>{"POOL", "NOW", "ADD", "DOWN", "UP", "WEIGHTS", "PICK"}));
  EXPECT_EQ(usages, (std::vector<std::string>{"POOL <name>=<weight> ...", "NOW <seconds>", "ADD <name>=<weight> <ramp>",
                                              "DOWN <name>", "UP <name> <ramp>", "WEIGHTS", "PICK"}));
  // The messages quote the same usage.
  EXPECT_EQ(run_script("UP a").diagnostics.at(0).message, "missing argument (usage: UP <name> <ramp>)");
}
