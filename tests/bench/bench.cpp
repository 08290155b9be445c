// Native benchmarks (Google Benchmark): picks per second at several pool
// sizes, and a generated 1,000,000-line mixed script through the interpreter.
//
//   build/slowstart_bench                          run everything
//   build/slowstart_bench --benchmark_filter=Pick  only the pick benchmarks
//   build/slowstart_bench --write-script=FILE      write the 1M-line script
//                                                  (the exact bytes the
//                                                  Script benchmarks run) and exit
//
// Every pick benchmark also reports `allocs_per_pick`, counted by a global
// operator new replacement that counts only inside the timed loop; it must
// be 0 (tests/cpp/robustness_test.cpp asserts the same).
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/balancer.hpp"
#include "core/interpreter.hpp"
#include "spec/pick.hpp"
#include "traffic/traffic.hpp"
#include "core/text_sink.hpp"
#include "gen_script.hpp"
#include "../support/allocation_counter.hpp"

namespace {

// Benchmark set-up must not fail silently.
void require_ok(const slowstart::Problem& p) {
  if (p) std::abort();
}

// ---------------------------------------------------------------------------
// Pools.

// Weights 1 + (i * 7919) % 97: the same pool tests/bench/bench.mjs gives the
// WASM module and the JS libraries, so PickMany/<n> is comparable with it.
std::vector<std::pair<std::string, std::int64_t>> static_entries(std::int64_t n) {
  std::vector<std::pair<std::string, std::int64_t>> e;
  e.reserve(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) e.emplace_back("b" + std::to_string(i), 1 + (i * 7919) % 97);
  return e;
}

// Weight sets for the fast pick's goals (docs/PERFORMANCE.md): 16 distinct
// weights (1, 7, 13, ... 91), and every backend a distinct weight (1 + i).
// tests/bench/bench.mjs gives the WASM module the same pools.
std::int64_t weight_16(std::int64_t i) { return 1 + ((i * 7919) % 16) * 6; }
std::int64_t weight_97(std::int64_t i) { return 1 + (i * 7919) % 97; }  // static_entries' weights
std::int64_t weight_distinct(std::int64_t i) { return 1 + i; }

std::vector<std::pair<std::string, std::int64_t>> entries_with(std::int64_t n,
                                                                std::int64_t (*weight)(std::int64_t)) {
  std::vector<std::pair<std::string, std::int64_t>> e;
  e.reserve(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) e.emplace_back("b" + std::to_string(i), weight(i));
  return e;
}

// The same pool, plus a slow start in progress: every 10th backend re-joined
// with UP and a 60 s ramp at t=0, the clock at t=30 (half way up), and every
// 50th one DOWN. (At the size of 3, backend 0 ramps.)
void make_ramping(slowstart::Balancer& b, std::int64_t n) {
  require_ok(b.set_pool(static_entries(n)));
  for (std::int64_t i = 0; i < n; i += 10) require_ok(b.up("b" + std::to_string(i), 60));
  for (std::int64_t i = 5; i < n; i += 50) require_ok(b.down("b" + std::to_string(i)));
  require_ok(b.set_now(30));
}

void report_picks(benchmark::State& state, std::uint64_t picks, std::uint64_t allocs) {
  state.SetItemsProcessed(static_cast<std::int64_t>(picks));
  state.counters["allocs_per_pick"] =
      benchmark::Counter(picks ? static_cast<double>(allocs) / static_cast<double>(picks) : 0);
  if (allocs != 0) state.SkipWithError("a pick allocated memory");
}

// One Balancer::pick() per iteration.
void BM_Pick(benchmark::State& state) {
  const std::int64_t n = state.range(0);
  slowstart::Balancer b;
  make_ramping(b, n);
  std::int64_t sum = 0;
  AllocationCounter count;
  for (auto _ : state) {
    sum += b.pick();
  }
  const std::uint64_t allocs = count.stop();
  benchmark::DoNotOptimize(sum);
  report_picks(state, state.iterations(), allocs);
}

// pick_many in batches of 1024 per iteration.
constexpr std::size_t kBatch = 1024;

void pick_many_loop(benchmark::State& state, slowstart::Balancer& b) {
  std::vector<std::int32_t> out(kBatch);
  AllocationCounter count;
  for (auto _ : state) {
    b.pick_many(kBatch, out.data());
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  const std::uint64_t allocs = count.stop();
  report_picks(state, state.iterations() * kBatch, allocs);
}

void BM_PickMany(benchmark::State& state) {
  slowstart::Balancer b;
  require_ok(b.set_pool(static_entries(state.range(0))));
  pick_many_loop(state, b);
}

void BM_PickMany_Ramping(benchmark::State& state) {
  slowstart::Balancer b;
  make_ramping(b, state.range(0));
  pick_many_loop(state, b);
}

void BM_PickMany_16Weights(benchmark::State& state) {
  slowstart::Balancer b;
  require_ok(b.set_pool(entries_with(state.range(0), weight_16)));
  pick_many_loop(state, b);
}

void BM_PickMany_DistinctWeights(benchmark::State& state) {
  slowstart::Balancer b;
  require_ok(b.set_pool(entries_with(state.range(0), weight_distinct)));
  pick_many_loop(state, b);
}

// Today's pick, kept as the oracle: smooth_pick's one pass over the pool,
// on the same weights, so the fast pick's gain is a ratio from one run.
void oracle_loop(benchmark::State& state, std::int64_t (*weight)(std::int64_t)) {
  const auto n = static_cast<std::size_t>(state.range(0));
  std::vector<std::int64_t> w(n), s(n, 0);
  for (std::size_t i = 0; i < n; ++i) w[i] = weight(static_cast<std::int64_t>(i));
  std::int64_t sum = 0;
  for (auto _ : state) {
    for (std::size_t k = 0; k < kBatch; ++k) sum += slowstart::smooth_pick(w.data(), s.data(), n);
  }
  benchmark::DoNotOptimize(sum);
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kBatch));
}
void BM_Oracle_16Weights(benchmark::State& state) { oracle_loop(state, weight_16); }
void BM_Oracle_DistinctWeights(benchmark::State& state) { oracle_loop(state, weight_distinct); }
void BM_Oracle_97Weights(benchmark::State& state) { oracle_loop(state, weight_97); }

// NOW on a large pool with a few backends ramping: 100,000 backends (16
// weights), 10 of them re-joined with 600 s ramps, the clock stepping
// through the ramps one second at a time (and back to the start after 598).
void BM_SetNow_FewRamping(benchmark::State& state) {
  const std::int64_t n = state.range(0), ramping = state.range(1);
  slowstart::Balancer b;
  require_ok(b.set_pool(entries_with(n, weight_16)));
  for (std::int64_t k = 0; k < ramping; ++k) require_ok(b.up("b" + std::to_string(k * (n / ramping)), 600));
  std::vector<std::int32_t> out(1000);
  b.pick_many(out.size(), out.data());  // scores away from 0
  std::int64_t t = 1;
  for (auto _ : state) {
    require_ok(b.set_now(t));
    t = t == 599 ? 1 : t + 1;
  }
  state.SetItemsProcessed(state.iterations());  // NOWs per second
}

// The cost of a clock tick during a slow start (NOW refreshes the cached
// effective weights of the backends that ramp).
void BM_SetNow_Ramping(benchmark::State& state) {
  const std::int64_t n = state.range(0);
  slowstart::Balancer b;
  make_ramping(b, n);
  std::int64_t t = 30;
  for (auto _ : state) {
    require_ok(b.set_now(t));
    t = t == 60 ? 0 : t + 1;
  }
  state.SetItemsProcessed(state.iterations() * n);  // backends refreshed per second
}

#define POOL_SIZES Arg(3)->Arg(100)->Arg(1000)->Arg(10000)
BENCHMARK(BM_Pick)->POOL_SIZES;
BENCHMARK(BM_PickMany)->POOL_SIZES;
BENCHMARK(BM_PickMany_Ramping)->POOL_SIZES;
BENCHMARK(BM_PickMany_16Weights)->POOL_SIZES->Arg(100000);
BENCHMARK(BM_PickMany_DistinctWeights)->Arg(100)->Arg(1000)->Arg(10000)->Arg(100000);
BENCHMARK(BM_Oracle_16Weights)->Arg(3)->Arg(100)->Arg(10000);
BENCHMARK(BM_Oracle_DistinctWeights)->Arg(100)->Arg(10000);
BENCHMARK(BM_Oracle_97Weights)->Arg(100)->Arg(1000);
BENCHMARK(BM_SetNow_Ramping)->POOL_SIZES;
BENCHMARK(BM_SetNow_FewRamping)->Args({100000, 10})->Args({100000, 1000});

// The lab restarting n backends of n different ramps at once (n UP lines at
// one NOW, targets 1..n): each restart finds its group of ramps alike in a
// table (traffic/ramps.hpp, open_), so the burst is linear in n; a scan of the
// open groups made it quadratic (40,000 lines: 3.8 s natively). Complexity
// reports the fitted order.
static void BM_Traffic_RestartDistinctRamps(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  std::string script = "POOL";
  for (std::size_t i = 0; i < n; ++i) script += " b" + std::to_string(i) + "=" + std::to_string(i + 1);
  script += "\nNOW 1\n";
  for (std::size_t i = 0; i < n; ++i) script += "UP b" + std::to_string(i) + " 30\n";
  script += "NOW 40\n";
  slowstart::TrafficOptions o;
  o.rps = 10;
  o.duration = 2;
  for (auto _ : state) benchmark::DoNotOptimize(slowstart::simulate_traffic(script, o));
  state.SetComplexityN(static_cast<std::int64_t>(n));
}
BENCHMARK(BM_Traffic_RestartDistinctRamps)->Arg(5000)->Arg(20000)->Arg(80000)->Complexity()->Unit(benchmark::kMillisecond);

// ---------------------------------------------------------------------------
// The 1,000,000-line mixed script.

constexpr std::uint64_t kScriptLines = 1'000'000;
constexpr std::uint64_t kScriptSeed = 1;

const slowstart_bench::GeneratedScript& script() {
  static const auto g = slowstart_bench::generate_mixed_script(kScriptLines, kScriptSeed);
  return g;
}

class NullSink : public slowstart::ScriptSink {
 public:
  void output(std::uint64_t, std::string_view text) override { bytes += text.size(); }
  void diagnostic(std::uint64_t, std::string_view, slowstart::Span) override { ++diagnostics; }
  std::uint64_t bytes = 0, diagnostics = 0;
};

void report_script(benchmark::State& state) {
  const auto& g = script();
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(g.stats.lines));
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(g.text.size()));
  state.counters["lines"] = static_cast<double>(g.stats.lines);
}

// The engine alone: parse + apply + pick, nothing kept.
void BM_Script_Interpreter_NullSink(benchmark::State& state) {
  const auto& g = script();
  for (auto _ : state) {
    NullSink sink;
    slowstart::Interpreter in(sink);
    in.feed_text(g.text);
    if (in.rejected() != g.stats.diagnostics || in.lines() != g.stats.lines)
      state.SkipWithError("unexpected line or diagnostic count");
    benchmark::DoNotOptimize(sink.bytes);
  }
  report_script(state);
}

// What the CLIs do minus the I/O: 64 KiB chunks into the shared TextSink,
// drained after each chunk.
void BM_Script_Chunked_TextSink(benchmark::State& state) {
  const auto& g = script();
  const std::string_view text = g.text;
  for (auto _ : state) {
    slowstart::TextSink sink;
    slowstart::Interpreter in(sink);
    std::size_t bytes = 0;
    for (std::size_t at = 0; at < text.size(); at += 65536) {
      // feed_chunk stops early once 64 KiB of text waits (the sink is
      // full()): drain it and feed the rest, as both CLIs do.
      std::string_view chunk = text.substr(at, 65536);
      while (!chunk.empty()) {
        chunk.remove_prefix(in.feed_chunk(chunk));
        bytes += sink.out.size() + sink.err.size();
        sink.out.clear();
        sink.err.clear();
      }
    }
    in.finish();
    if (in.rejected() != g.stats.diagnostics || in.lines() != g.stats.lines)
      state.SkipWithError("unexpected line or diagnostic count");
    benchmark::DoNotOptimize(bytes);
  }
  report_script(state);
}

// A whole run with everything collected, its counts checked: run_script (a
// string per line, a RunResult) or run_columns (the text as columns, as the
// WASM module's run() does; bench.mjs compares that one).
std::size_t outputs(const slowstart::RunResult& r) { return r.output.size(); }
std::size_t outputs(const slowstart::RunColumns& r) { return r.output_lines.size(); }
std::size_t diagnostics(const slowstart::RunResult& r) { return r.diagnostics.size(); }
std::size_t diagnostics(const slowstart::RunColumns& r) { return r.diagnostic_lines.size(); }

template <class Run>
void whole_run(benchmark::State& state, Run run) {
  const auto& g = script();
  const bool timeline = state.range(0) != 0;
  for (auto _ : state) {
    const auto r = run(g.text, slowstart::RunOptions{.timeline = timeline});
    if (outputs(r) != g.stats.outputs || diagnostics(r) != g.stats.diagnostics)
      state.SkipWithError("unexpected output or diagnostic count");
    state.counters["timeline_steps"] = static_cast<double>(r.timeline.step_line.size());
    state.counters["timeline_cells"] = static_cast<double>(r.timeline.cell_backend.size());
    benchmark::DoNotOptimize(r);
  }
  report_script(state);
}
void BM_Script_RunScript(benchmark::State& state) { whole_run(state, slowstart::run_script); }
void BM_Script_RunColumns(benchmark::State& state) { whole_run(state, slowstart::run_columns); }

BENCHMARK(BM_Script_Interpreter_NullSink)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Script_Chunked_TextSink)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Script_RunScript)->ArgName("timeline")->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Script_RunColumns)->ArgName("timeline")->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

int write_script(const char* path) {
  const auto& g = script();
  std::FILE* f = std::fopen(path, "wb");
  if (!f || std::fwrite(g.text.data(), 1, g.text.size(), f) != g.text.size() || std::fclose(f) != 0) {
    std::fprintf(stderr, "slowstart_bench: cannot write '%s'\n", path);
    return 2;
  }
  const auto& s = g.stats;
  std::printf(
      "wrote %s: %llu lines, %zu bytes, seed %llu; expect %llu output lines (%llu PICK, "
      "%llu WEIGHTS), %llu diagnostics, %llu ignored lines\n",
      path, static_cast<unsigned long long>(s.lines), g.text.size(),
      static_cast<unsigned long long>(kScriptSeed), static_cast<unsigned long long>(s.outputs),
      static_cast<unsigned long long>(s.picks), static_cast<unsigned long long>(s.weights),
      static_cast<unsigned long long>(s.diagnostics), static_cast<unsigned long long>(s.ignored));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    constexpr std::string_view kOpt = "--write-script=";
    const std::string_view arg = argv[i];
    if (arg.substr(0, kOpt.size()) == kOpt) return write_script(argv[i] + kOpt.size());
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::AddCustomContext("script", std::to_string(kScriptLines) + " lines, seed " +
                                            std::to_string(kScriptSeed) +
                                            " (tests/bench/gen_script.hpp)");
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
