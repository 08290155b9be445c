// Whole scripts through run_script: output, line numbers, diagnostics, and
// that a rejected line changes nothing.
#include <gtest/gtest.h>

#include <string>

#include "core/interpreter.hpp"
#include "support/script_text.hpp"

using namespace slowstart;
using namespace slowstart::testing;

TEST(Interpreter, SpecWorkedExample) {
  const auto r = run_script(
      "POOL a=5 b=1 c=1\nPICK\nPICK\nADD d=10 20\nWEIGHTS\nNOW 5\nWEIGHTS\nPICK\nDOWN a\nPICK\npick\n");
  EXPECT_EQ(out_text(r), "2:a\n3:a\n5:a=5 b=1 c=1 d=0\n7:a=5 b=1 c=1 d=2\n8:b\n10:c\n");
  EXPECT_EQ(diag_text(r), "line 11: unknown command 'pick' (use PICK)\n");
}

TEST(Interpreter, CrLfTabsCommentsAndBlankLines) {
  const auto r = run_script("# setup\r\n\r\n\tPOOL\t a=1  \t b=2\r\n   # note\nWEIGHTS\r\n");
  EXPECT_EQ(out_text(r), "5:a=1 b=2\n");
  EXPECT_TRUE(r.diagnostics.empty());
}

TEST(Interpreter, LastLineWithoutNewlineCounts) {
  EXPECT_EQ(out_text(run_script("POOL a=1\nPICK")), "2:a\n");
}

TEST(Interpreter, EmptyPoolWeightsIsAnEmptyLine) {
  EXPECT_EQ(out_text(run_script("WEIGHTS\nPOOL\nWEIGHTS\nPICK\n")), "1:\n3:\n4:NONE\n");
}

TEST(Interpreter, RejectedPoolLeavesTheOldPool) {
  const auto r = run_script("POOL a=1 b=1\nPICK\nPOOL x=1 x=2\nPOOL y=1 z=oops\nPICK\nWEIGHTS\n");
  // a won pick 1 (a -1, b 1); pick 2 continues the same scores: b.
  EXPECT_EQ(out_text(r), "2:a\n5:b\n6:a=1 b=1\n");
  EXPECT_EQ(diag_text(r),
            "line 3: duplicate backend name 'x' in POOL\n"
            "line 4: weight must be a non-negative integer, got 'oops'\n");
}

TEST(Interpreter, RejectedAddAndUpChangeNoScoreAndNoClock) {
  const auto r = run_script(
      "POOL a=1 b=1\nPICK\nADD a=x 5\nUP a -3\nUP nobody 3\nDOWN nobody\nNOW -1\nNOW 1.5\nPICK\nWEIGHTS\n");
  EXPECT_EQ(out_text(r), "2:a\n9:b\n10:a=1 b=1\n");
  EXPECT_EQ(diag_text(r),
            "line 3: weight must be a non-negative integer, got 'x'\n"
            "line 4: ramp must be a non-negative integer, got '-3'\n"
            "line 5: no backend named 'nobody'\n"
            "line 6: no backend named 'nobody'\n"
            "line 7: time must be a non-negative integer, got '-1'\n"
            "line 8: time must be a non-negative integer, got '1.5'\n");
}

TEST(Interpreter, ArgumentCounts) {
  const auto r = run_script("NOW\nNOW 1 2\nADD a=1\nADD a=1 2 3\nDOWN\nUP a\nPICK now\nWEIGHTS x\n");
  EXPECT_EQ(diag_text(r),
            "line 1: missing argument (usage: NOW <seconds>)\n"
            "line 2: unexpected argument '2' (usage: NOW <seconds>)\n"
            "line 3: missing argument (usage: ADD <name>=<weight> <ramp>)\n"
            "line 4: unexpected argument '3' (usage: ADD <name>=<weight> <ramp>)\n"
            "line 5: missing argument (usage: DOWN <name>)\n"
            "line 6: missing argument (usage: UP <name> <ramp>)\n"
            "line 7: unexpected argument 'now' (usage: PICK)\n"
            "line 8: unexpected argument 'x' (usage: WEIGHTS)\n");
}

TEST(Interpreter, KeywordHints) {
  const auto r = run_script("pick\nWeights\nPOOl a=1\nSHUFFLE\n");
  EXPECT_EQ(diag_text(r),
            "line 1: unknown command 'pick' (use PICK)\n"
            "line 2: unknown command 'Weights' (use WEIGHTS)\n"
            "line 3: unknown command 'POOl' (use POOL)\n"
            "line 4: unknown command 'SHUFFLE'\n");
}

TEST(Interpreter, RampingBackendAtJoinGetsNothing) {
  const auto r = run_script("POOL a=1\nNOW 50\nADD b=1000000 10\nPICK\nPICK\nNOW 60\nWEIGHTS\n");
  EXPECT_EQ(out_text(r), "4:a\n5:a\n7:a=1 b=1000000\n");
}

TEST(Interpreter, DiagnosticsAreAlwaysPrintable) {
  const std::string garbage("\x01\x02\xff\xfe POOL \x80=1", 14);
  const auto r = run_script(garbage + "\nPOOL a\xff=1\n");
  ASSERT_EQ(r.diagnostics.size(), 2u);
  EXPECT_EQ(r.diagnostics[0].message, "unknown command '\\x01\\x02\\xff\\xfe'");
  EXPECT_EQ(r.diagnostics[1].message, "backend name must be valid UTF-8, got 'a\\xff'");
}

#include "core/text_sink.hpp"

TEST(Interpreter, ChunksOfAnySizeGiveTheSameBytes) {
  const std::string script =
      "POOL a=5 b=1 c=1\r\nPICK\nPICK\nADD d=10 20\nWEIGHTS\nNOW 5\nWEIGHTS\nPICK\nDOWN a\nPICK\npick";
  const std::string expected_out = "a\na\na=5 b=1 c=1 d=0\na=5 b=1 c=1 d=2\nb\nc\n";
  for (std::size_t size : {1u, 2u, 3u, 7u, 64u}) {
    TextSink sink;
    Interpreter in(sink);
    for (std::size_t i = 0; i < script.size(); i += size) in.feed_chunk(std::string_view(script).substr(i, size));
    in.finish();
    EXPECT_EQ(sink.out, expected_out) << size;
    EXPECT_EQ(sink.err, "line 11: unknown command 'pick' (use PICK)\n") << size;
    EXPECT_EQ(in.lines(), 11u);
  }
}

TEST(Interpreter, AFullSinkPausesTheChunkAndTheRestResumes) {
  TextSink sink;
  sink.limit = 10;  // pause as soon as 10 bytes wait
  Interpreter in(sink);
  const std::string chunk = "POOL alpha=1 beta=1\nWEIGHTS\nPICK\nPICK\n";
  // WEIGHTS prints 16 bytes: the interpreter stops right after its line.
  const std::size_t taken = in.feed_chunk(chunk);
  EXPECT_EQ(taken, chunk.find("PICK"));
  EXPECT_EQ(sink.out, "alpha=1 beta=1\n");
  sink.out.clear();
  EXPECT_EQ(in.feed_chunk(std::string_view(chunk).substr(taken)), chunk.size() - taken);
  EXPECT_EQ(sink.out, "alpha\nbeta\n");
}

TEST(Interpreter, CollectedTextIsCappedAndSaysSo) {
  RunOptions o;
  o.max_text_bytes = 10;  // "a\n" + "b\n" + "a\n" fit (6 bytes); "b\n" + "a\n" would pass 10
  const auto r = run_script("POOL a=1 b=1\nPICK\nPICK\nPICK\nPICK\nPICK\nPICK\nbad\n", o);
  EXPECT_TRUE(r.truncated);
  ASSERT_EQ(r.output.size(), 5u);  // 5 lines x 2 bytes = 10
  EXPECT_TRUE(r.diagnostics.empty());
  EXPECT_FALSE(run_script("POOL a=1\nPICK\n").truncated);
}

// SPEC: a UTF-8 byte-order mark at the very start of a script is ignored,
// however the script arrives; anywhere else it is part of its token.
TEST(Interpreter, ByteOrderMarkAtTheStartIsIgnoredEverywhere) {
  const std::string bom = "\xEF\xBB\xBF";
  const std::string script = bom + "POOL a=2 b=1\r\nPICK\n" + bom + "PICK\nPICK";
  // 2/1: a, then b (a 2-3+2 = 1, b 1+1 = 2); line 3 is no PICK.
  const std::string want_out = "a\nb\n";
  const std::string want_err = "line 3: unknown command '\\xef\\xbb\\xbfPICK'\n";
  // Whole text.
  const auto r = run_script(script);
  EXPECT_EQ(out_text(r), "2:a\n4:b\n");
  EXPECT_EQ(diag_text(r), want_err);
  // Streamed in chunks of every size, so the mark is split every way.
  for (std::size_t size = 1; size <= 6; ++size) {
    TextSink sink;
    Interpreter in(sink);
    for (std::size_t i = 0; i < script.size(); i += size) in.feed_chunk(std::string_view(script).substr(i, size));
    in.finish();
    EXPECT_EQ(sink.out, want_out) << size;
    EXPECT_EQ(sink.err, want_err) << size;
  }
  // Line by line.
  {
    TextSink sink;
    Interpreter in(sink);
    in.feed_line(bom + "POOL a=1");
    in.feed_line(bom + "PICK");
    EXPECT_EQ(sink.err, "line 2: unknown command '\\xef\\xbb\\xbfPICK'\n");
  }
}

TEST(Interpreter, PartOfAByteOrderMarkIsText) {
  // Two of its three bytes, then the script: those bytes are the first token's.
  for (const std::string script : {std::string("\xEF\xBB"), std::string("\xEF\xBBPICK\nPICK"), std::string("\xEF")}) {
    const auto whole = run_script(script);
    for (std::size_t size = 1; size <= 3; ++size) {
      TextSink sink;
      Interpreter in(sink);
      for (std::size_t i = 0; i < script.size(); i += size) in.feed_chunk(std::string_view(script).substr(i, size));
      in.finish();
      EXPECT_EQ(sink.err, diag_text(whole)) << size;
    }
    ASSERT_EQ(whole.diagnostics.size(), 1u);
    EXPECT_EQ(whole.diagnostics[0].message.substr(0, 21), "unknown command '\\xef");
  }
}

TEST(Interpreter, ALineLongerThanAnyChunkKeepsOnlyWhatItNeeds) {
  // A 3 MB garbage token, a 3 MB number and a 3 MB name that is no name
  // (it has a control byte near its end), all fed 4 KiB at a time: the same
  // diagnostics as whole, and a name that is not kept is cut to its head.
  const std::string garbage(3 << 20, 'x');
  const std::string name = std::string(3 << 20, 'n') + "\x01" + "n";
  const std::string script = garbage + "\nNOW " + std::string(3 << 20, '0') + "7\nPOOL " + name + "=1\nWEIGHTS\n";
  const auto whole = run_script(script);
  TextSink sink;
  Interpreter in(sink);
  for (std::size_t i = 0; i < script.size(); i += 4096) in.feed_chunk(std::string_view(script).substr(i, 4096));
  in.finish();
  EXPECT_EQ(sink.err, diag_text(whole));
  EXPECT_EQ(sink.out, "\n");
  ASSERT_EQ(whole.diagnostics.size(), 2u);
  EXPECT_EQ(whole.diagnostics[0].line, 1u);
  EXPECT_EQ(whole.diagnostics[1].message,
            "backend name must not contain control characters, got '" + std::string(60, 'n') + "...'");
  EXPECT_EQ(in.pool().now(), 7);
}

TEST(Interpreter, AKeywordIsItsBytesExactly) {
  // Keywords are compared as packed integers: a NUL byte after one must not
  // pass for nothing, and neither may a prefix or a longer word.
  const auto r = run_script(std::string("POOL a=1\nPICK\0\nPIC\nPICKS\nWEIGHTSX\nPICK\n", 39));
  EXPECT_EQ(out_text(r), "6:a\n");
  EXPECT_EQ(diag_text(r),
            "line 2: unknown command 'PICK\\x00'\nline 3: unknown command 'PIC'\n"
            "line 4: unknown command 'PICKS'\nline 5: unknown command 'WEIGHTSX'\n");
}

// run_columns (what the WebAssembly module's run() publishes) holds the very
// lines run_script collects, joined: checked on a script with every kind of
// line, an empty output line (WEIGHTS of an empty pool) and the text cap.
TEST(RunColumns, TheSameLinesAsRunScriptJoined) {
  const std::string script =
      "WEIGHTS\nPOOL a=1 b=2\nPICK\nbogus\nNOW 5\nADD c=4 10\nNOW 8\nWEIGHTS\n"
      "DOWN zz\nPICK\n# comment\n\nUP a 3\nPICK\nPICK x\nWEIGHTS\n";
  for (const std::size_t cap : {std::size_t{64} << 20, std::size_t{40}, std::size_t{0}}) {
    for (const bool timeline : {false, true}) {
      RunOptions options;
      options.timeline = timeline;
      options.max_text_bytes = cap;
      const RunResult r = run_script(script, options);
      const RunColumns c = run_columns(script, options);
      std::string out, err;
      std::vector<std::uint32_t> out_lines, err_lines, err_columns;
      for (const OutputLine& o : r.output) {
        if (!out_lines.empty()) out += '\n';
        out += o.text;
        out_lines.push_back(static_cast<std::uint32_t>(o.line));
      }
      for (const Diagnostic& d : r.diagnostics) {
        if (!err_lines.empty()) err += '\n';
        err += d.message;
        err_lines.push_back(static_cast<std::uint32_t>(d.line));
        err_columns.insert(err_columns.end(), {static_cast<std::uint32_t>(d.columns.from),
                                               static_cast<std::uint32_t>(d.columns.to)});
      }
      EXPECT_EQ(c.output_text.view(), out) << cap;
      EXPECT_EQ(c.output_lines, out_lines) << cap;
      EXPECT_EQ(c.diagnostic_text.view(), err) << cap;
      EXPECT_EQ(c.diagnostic_lines, err_lines) << cap;
      EXPECT_EQ(c.diagnostic_columns, err_columns) << cap;
      EXPECT_EQ(c.truncated, r.truncated) << cap;
      EXPECT_EQ(c.timeline.step_line, r.timeline.step_line);
      EXPECT_EQ(c.timeline.cell_weight, r.timeline.cell_weight);
    }
  }
  // And by hand: the first lines of the uncapped run.
  const RunColumns c = run_columns("WEIGHTS\nPOOL a=1 b=2\nPICK\nbogus\nPICK\n");
  EXPECT_EQ(c.output_text.view(), "\nb\na");
  EXPECT_EQ(c.output_lines, (std::vector<std::uint32_t>{1, 3, 5}));
  EXPECT_EQ(c.diagnostic_lines, std::vector<std::uint32_t>{4});
  EXPECT_EQ(c.diagnostic_text.view(), "unknown command 'bogus'");
  EXPECT_EQ(c.diagnostic_columns, (std::vector<std::uint32_t>{0, 5}));
}
