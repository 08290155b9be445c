// A deterministic generator of long mixed scripts, shared by the benchmark
// (which also writes the script to a file with --write-script=FILE, so other
// front ends can run the very same bytes) and by the robustness tests.
//
// The generator uses SplitMix64 (cli/split_mix64.hpp, which the CLI's
// --random also uses) and no <random> distributions, so
// the output is identical on every platform and standard library.
//
// Every generated line belongs to a class whose fate does not depend on the
// engine's state, so the expected counts are known without running it:
//   - DOWN/UP only name the base backends s00..s15, which every POOL line
//     re-creates and nothing ever removes, so they are always accepted;
//   - ADD names r0..r7 (appended the first time, replaced in place later);
//   - bad lines are bad on their own (syntax, limits, a name never added).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/split_mix64.hpp"

namespace slowstart_bench {

struct ScriptStats {
  std::uint64_t lines = 0;        // lines in the script (each ends in '\n')
  std::uint64_t outputs = 0;      // PICK + WEIGHTS lines
  std::uint64_t picks = 0;
  std::uint64_t weights = 0;
  std::uint64_t diagnostics = 0;  // rejected lines
  std::uint64_t ignored = 0;      // blank and comment lines
  std::uint64_t executed = 0;     // accepted lines (outputs included)
  std::uint64_t crlf = 0;         // lines ending in CR LF
};

struct GeneratedScript {
  std::string text;
  ScriptStats stats;
  std::vector<std::uint64_t> bad_lines;  // 1-based, ascending (if requested)
};

using slowstart::SplitMix64;

inline const char* const kBadLines[] = {
    "pick",                    // lower-case keyword (hint)
    "PICK extra",              // extra argument
    "NOW -1",                  // not a non-negative integer
    "NOW 1000000000001",       // over the clock limit
    "NOW",                     // missing argument
    "ADD x 5",                 // no '='
    "ADD =5 1",                // empty name
    "ADD a==1 2",              // two '='
    "ADD big=1000001 0",       // weight over the limit
    "DOWN ghost",              // never in the pool
    "UP ghost 5",              // never in the pool
    "UP s00 1.5",              // not an integer
    "WEIGHTS x",               // extra argument
    "POOL a=1 a=2",            // duplicate
    "FROB s00",                // unknown keyword
    "\x01\xff\xfe garbage",    // binary: control byte + invalid UTF-8
};
inline constexpr int kBadLineKinds = sizeof(kBadLines) / sizeof(kBadLines[0]);

inline std::string base_pool_line() {
  std::string s = "POOL";
  for (int i = 0; i < 16; ++i) {
    s += " s";
    s += static_cast<char>('0' + i / 10);
    s += static_cast<char>('0' + i % 10);
    s += '=';
    s += std::to_string(1 + (i * 7) % 10);
  }
  return s;
}

// `lines` lines, the first a POOL of s00..s15. Roughly: 55% PICK, 4% WEIGHTS,
// 7% NOW (the clock only moves forward, 1-3 s at a time), 5% ADD with a ramp,
// 5% DOWN, 6% UP with a ramp, 1% POOL, 4% blank, 3% comment, 10% bad lines.
// About 10% of lines end in CR LF.
inline GeneratedScript generate_mixed_script(std::uint64_t lines, std::uint64_t seed = 1,
                                             bool record_bad_lines = false) {
  GeneratedScript g;
  ScriptStats& st = g.stats;
  g.text.reserve(lines * 9);
  SplitMix64 rng(seed);
  const std::string pool = base_pool_line();
  std::uint64_t now = 0;
  auto base_name = [&](std::string& s) {
    const unsigned k = static_cast<unsigned>(rng.below(16));
    s += 's';
    s += static_cast<char>('0' + k / 10);
    s += static_cast<char>('0' + k % 10);
  };
  std::string l;
  for (std::uint64_t n = 1; n <= lines; ++n) {
    l.clear();
    enum { Exec, Out, Bad, Ignored } kind = Exec;
    const std::uint64_t r = n == 1 ? 1000 : rng.below(100);
    if (r == 1000 || r == 99) {
      l = pool;
    } else if (r < 55) {
      l = "PICK";
      kind = Out;
      ++st.picks;
    } else if (r < 59) {
      l = "WEIGHTS";
      kind = Out;
      ++st.weights;
    } else if (r < 66) {
      now += 1 + rng.below(3);
      l = "NOW " + std::to_string(now);
    } else if (r < 71) {
      l = "ADD r";
      l += static_cast<char>('0' + rng.below(8));
      l += '=' + std::to_string(rng.below(21)) + ' ' + std::to_string(rng.below(61));
    } else if (r < 76) {
      l = "DOWN ";
      base_name(l);
    } else if (r < 82) {
      l = "UP ";
      base_name(l);
      l += ' ' + std::to_string(rng.below(31));
    } else if (r < 86) {
      l = rng.below(2) ? "" : " \t ";
      kind = Ignored;
    } else if (r < 89) {
      l = "# comment " + std::to_string(n);
      kind = Ignored;
    } else {  // 89..98
      l = kBadLines[rng.below(kBadLineKinds)];
      kind = Bad;
    }
    g.text += l;
    if (rng.below(10) == 0) {
      g.text += '\r';
      ++st.crlf;
    }
    g.text += '\n';
    ++st.lines;
    switch (kind) {
      case Out: ++st.outputs; ++st.executed; break;
      case Exec: ++st.executed; break;
      case Ignored: ++st.ignored; break;
      case Bad:
        ++st.diagnostics;
        if (record_bad_lines) g.bad_lines.push_back(n);
        break;
    }
  }
  return g;
}

}  // namespace slowstart_bench
