// The exactness proof of the fast pick, as a driver shared by the libFuzzer
// target (tests/fuzz/fuzz_pick.cpp, coverage-guided, long runs) and the
// unit tests (tests/cpp/smooth_wrr_test.cpp, seeded runs on every ctest).
//
// Bytes are decoded into a stream of operations that is applied both to the
// engine (SmoothWrr directly, or a Pool with ramps and a clock) and to the
// oracle: plain arrays of weights and scores picked by smooth_pick, the O(n)
// pass over the pool that the SPEC describes. After every operation every
// weight and every score must be equal, and so must every winner. The first
// difference is returned as text ("" when none).
//
// What the streams cover: pools from 0 to ~300 backends (both sides of the
// small-pool threshold, and of the class-tournament threshold), weights
// drawn from palettes with many ties, few classes, all distinct, 10^6,
// up to 2^40, all 1 and powers of two; weight 0; scores set to large values; DOWN/UP, ADD in place
// and appended, POOL replacing everything; the clock moving forward,
// backward and jumping; and K rebased every 1 to 64 picks when asked.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "../bench/gen_script.hpp"
#include "spec/pick.hpp"
#include "core/pool.hpp"
#include "spec/ramp.hpp"
#include "fast/smooth_wrr.hpp"

namespace slowstart_test {

class ByteSource {
 public:
  ByteSource(const std::uint8_t* data, std::size_t size) : p_(data), n_(size) {}
  bool empty() const { return n_ == 0; }
  std::uint8_t byte() {
    if (n_ == 0) return 0;
    --n_;
    return *p_++;
  }
  std::uint64_t u64() {
    std::uint64_t v = 0;
    for (int k = 0; k < 8; ++k) v = (v << 8) | byte();
    return v;
  }

 private:
  const std::uint8_t* p_;
  std::size_t n_;
};

// splitmix64 (the benchmark's generator) expands a few bytes of input into
// as many numbers as a pool needs.
using Mix = slowstart_bench::SplitMix64;

// A weight from one of the palettes.
// The last three are the pools users have most (every backend at weight 1)
// and powers of two, equal or mixed: with a power of two as the largest
// weight the rebase point 2^61 / max has no low bits, which a 32-bit size_t
// (WebAssembly) once cut to 0 (run.sh --m32 fuzzes that target).
inline constexpr int kPalettes = 9;
inline std::int64_t palette_weight(int palette, Mix& mix) {
  switch (palette % kPalettes) {
    case 6: return 1;
    case 7: return std::int64_t{1} << mix.below(21);                         // 1 ... 2^20, mixed
    case 8: return 65'536;
    case 0: return static_cast<std::int64_t>(mix.below(4));                  // 0..3: ties everywhere
    case 1: return static_cast<std::int64_t>(1 + mix.below(16) * 6);         // 16 classes
    case 2: return static_cast<std::int64_t>(mix.below(1'000'001));          // nearly all distinct
    case 3: return static_cast<std::int64_t>(1'000'000 - mix.below(3));      // the SPEC's largest
    case 4: return (std::int64_t{1} << 40) - static_cast<std::int64_t>(mix.below(200));  // the largest allowed
    default: return static_cast<std::int64_t>(mix.below(100) < 20 ? 0 : 1 + mix.below(300));
  }
}

// How big the streams get: unit tests afford long streams of large pools;
// the sanitized fuzzer runs many more, smaller inputs per second.
struct Scale {
  std::size_t pool = 320;   // largest POOL/reset (about)
  std::size_t picks = 2048; // most picks in one operation
};

inline std::size_t pool_size(std::uint8_t code, std::uint8_t arg, const Scale& scale) {
  const std::size_t n = arg + (code & 0x80 ? 0 : arg / 4);
  return n * scale.pool / 320;
}

inline std::size_t pick_count(std::uint8_t code, std::uint8_t arg, const Scale& scale) {
  const std::size_t n = 1 + arg * (code & 0x10 ? 8 : 1);
  return n < scale.picks ? n : scale.picks;
}

inline std::string where(const char* what, std::size_t op, std::size_t i, std::int64_t got,
                         std::int64_t want) {
  return std::string(what) + " differs after op " + std::to_string(op) + " at backend " +
         std::to_string(i) + ": got " + std::to_string(got) + ", oracle " + std::to_string(want);
}

// SmoothWrr against plain arrays + smooth_pick.
inline std::string run_wrr_ops(ByteSource& in, const Scale& scale = {}) {
  const std::uint8_t config = in.byte();
  Mix mix(in.u64());
  const int palette = config % kPalettes;
  slowstart::SmoothWrr wrr;
  if (config & 0x40) wrr.set_rebase_interval(1 + (config >> 2) % 64);
  std::vector<std::int64_t> w, s;  // the oracle
  auto check = [&](std::size_t op) -> std::string {
    if (wrr.size() != w.size()) return "size differs after op " + std::to_string(op);
    for (std::size_t i = 0; i < w.size(); ++i) {
      if (wrr.weight(i) != w[i]) return where("weight", op, i, wrr.weight(i), w[i]);
      if (wrr.score(i) != s[i]) return where("score", op, i, wrr.score(i), s[i]);
    }
    return "";
  };
  for (std::size_t op = 0; !in.empty(); ++op) {
    const std::uint8_t code = in.byte();
    const std::uint8_t arg = in.byte();
    switch (code % 8) {
      case 0: {  // reset to n backends with palette weights
        const std::size_t n = pool_size(code, arg, scale);
        wrr.reset(n);
        w.assign(n, 0);
        s.assign(n, 0);
        for (std::size_t i = 0; i < n; ++i) {
          w[i] = palette_weight(palette, mix);
          wrr.set_weight(i, w[i]);
        }
        break;
      }
      case 1:
        wrr.push_back();
        w.push_back(0);
        s.push_back(0);
        if (arg & 1) {
          w.back() = palette_weight(palette, mix);
          wrr.set_weight(w.size() - 1, w.back());
        }
        break;
      case 2:
      case 3: {  // weight changes, several at once
        for (int k = 0; k <= arg % 8 && !w.empty(); ++k) {
          const std::size_t i = mix.below(w.size());
          w[i] = (arg & 0x80) ? 0 : palette_weight(palette + (arg >> 6 & 1), mix);
          wrr.set_weight(i, w[i]);
        }
        break;
      }
      case 4: {  // a score set outright (as ADD/UP do with 0), sometimes large
        if (w.empty()) break;
        const std::size_t i = mix.below(w.size());
        const std::int64_t v = arg & 1 ? 0
                                       : static_cast<std::int64_t>(mix.next() >> (arg & 2 ? 20 : 4)) -
                                             (std::int64_t{1} << (arg & 2 ? 43 : 59));
        s[i] = v;
        wrr.set_score(i, v);
        break;
      }
      default: {  // picks: one by one, in a batch, or counted
        const std::size_t picks = pick_count(code, arg, scale);
        if ((code & 0x60) == 0x40) {
          // count_many through a shuffled id map (as the Traffic lab's
          // positions to backend ids), against the oracle's picks counted.
          std::vector<std::uint32_t> ids(w.size());
          for (std::size_t i = 0; i < ids.size(); ++i) ids[i] = static_cast<std::uint32_t>(i);
          for (std::size_t i = ids.size(); i > 1; --i) std::swap(ids[i - 1], ids[mix.below(i)]);
          std::vector<std::uint32_t> got(w.size() + 1, 7), want(w.size() + 1, 7);  // (7: counts add to what is there)
          const std::uint64_t none = wrr.count_many(picks, ids.data(), got.data());
          std::uint64_t want_none = 0;
          for (std::size_t k = 0; k < picks; ++k) {
            const std::int32_t p = slowstart::smooth_pick(w.data(), s.data(), w.size());
            if (p == slowstart::kNone) ++want_none;
            else ++want[ids[static_cast<std::size_t>(p)]];
          }
          if (none != want_none) return where("picks with no winner", op, 0, static_cast<std::int64_t>(none), static_cast<std::int64_t>(want_none));
          for (std::size_t i = 0; i < got.size(); ++i)
            if (got[i] != want[i]) return where("count", op, i, got[i], want[i]);
          break;
        }
        std::vector<std::int32_t> batch(picks);
        if (code & 0x20) wrr.pick_many(picks, batch.data());
        for (std::size_t k = 0; k < picks; ++k) {
          const std::int32_t got = (code & 0x20) ? batch[k] : wrr.pick();
          const std::int32_t want = slowstart::smooth_pick(w.data(), s.data(), w.size());
          if (got != want) return where("winner", op, k, got, want);
        }
        break;
      }
    }
    if (std::string e = check(op); !e.empty()) return e;
  }
  return "";
}

// Pool (SPEC rules: ramps, the clock, the ramp schedule) against a model of
// the pool whose pick is smooth_pick over plain arrays.
inline std::string run_pool_ops(ByteSource& in, const Scale& scale = {}) {
  struct B {
    std::int64_t target = 0, ramp = 0, joined = 0;
    bool up = true;
  };
  const std::uint8_t config = in.byte();
  Mix mix(in.u64());
  const int palette = config % kPalettes;
  slowstart::Pool pool;
  std::vector<B> model;
  std::vector<std::int64_t> score;
  std::int64_t now = 0;
  std::size_t named = 0;  // names b0 .. b<named-1> have been used
  auto eff = [&](const B& b) { return b.up ? slowstart::ramp_weight(b.target, b.ramp, b.joined, now) : 0; };
  auto ramp_of = [&](std::uint8_t a) -> std::int64_t {
    if (a % 4 == 0) return 0;
    if (a % 16 == 1) return 1'000'000'000'000;
    return static_cast<std::int64_t>(mix.below(a % 2 ? 40 : 400));
  };
  auto name_of = [](std::size_t k) { return "b" + std::to_string(k); };
  auto find = [&](const std::string& n) -> std::int64_t { return pool.find(n); };
  std::vector<std::int64_t> w;
  for (std::size_t op = 0; !in.empty(); ++op) {
    const std::uint8_t code = in.byte();
    const std::uint8_t arg = in.byte();
    switch (code % 9) {
      case 0: {  // POOL
        const std::size_t n = pool_size(code, arg, scale);
        std::vector<slowstart::PoolEntry> entries;
        model.assign(n, B{});
        score.assign(n, 0);
        for (std::size_t i = 0; i < n; ++i) {
          model[i] = B{palette_weight(palette, mix) % 1'000'001, 0, now, true};
          entries.push_back({name_of(named + i), model[i].target});
        }
        named += n;
        std::vector<slowstart::PoolEntryView> views;
        for (const auto& e : entries) views.push_back({e.name, e.weight});
        pool.replace(views);
        break;
      }
      case 1: now = std::min<std::int64_t>(now + 1 + arg % 10, 1'000'000'000'000); pool.set_now(now); break;
      case 2: now = std::max<std::int64_t>(0, now - 1 - arg % 30); pool.set_now(now); break;
      case 3: now = static_cast<std::int64_t>(mix.below(arg % 2 ? 500 : 2'000'000'000'000)) / 2; pool.set_now(now); break;
      case 4: {  // ADD: in place (existing name) or appended
        const bool fresh = model.empty() || (arg & 1);
        const std::string n = fresh ? name_of(named++) : pool.backend(mix.below(model.size())).name;
        const B b{palette_weight(palette + (arg >> 7), mix) % 1'000'001, ramp_of(arg >> 1), now, true};
        pool.add(n, b.target, b.ramp);
        if (fresh) {
          model.push_back(b);
          score.push_back(0);
        } else {
          const auto i = static_cast<std::size_t>(find(n));
          model[i] = b;
          score[i] = 0;
        }
        break;
      }
      case 5: {  // DOWN, several
        for (int k = 0; k <= arg % 4 && !model.empty(); ++k) {
          const std::size_t i = mix.below(model.size());
          pool.down(pool.backend(i).name);
          model[i].up = false;
        }
        break;
      }
      case 6: {  // UP (also of an UP backend: the ramp restarts)
        if (model.empty()) break;
        const std::size_t i = mix.below(model.size());
        const std::int64_t ramp = ramp_of(arg);
        pool.up(pool.backend(i).name, ramp);
        model[i].up = true;
        model[i].ramp = ramp;
        model[i].joined = now;
        score[i] = 0;
        break;
      }
      default: {  // picks
        const std::size_t picks = pick_count(code, arg, scale);
        std::vector<std::int32_t> batch(picks);
        if (code & 0x20) pool.pick_many(picks, batch.data());
        w.resize(model.size());  // weights do not change between picks
        for (std::size_t i = 0; i < model.size(); ++i) w[i] = eff(model[i]);
        for (std::size_t k = 0; k < picks; ++k) {
          const std::int32_t got = (code & 0x20) ? batch[k] : pool.pick();
          const std::int32_t want = slowstart::smooth_pick(w.data(), score.data(), w.size());
          if (got != want) return where("winner", op, k, got, want);
        }
        break;
      }
    }
    if (pool.size() != model.size()) return "pool size differs after op " + std::to_string(op);
    if (pool.now() != now) return "clock differs after op " + std::to_string(op);
    for (std::size_t i = 0; i < model.size(); ++i) {
      if (pool.weight(i) != eff(model[i])) return where("weight", op, i, pool.weight(i), eff(model[i]));
      if (pool.score(i) != score[i]) return where("score", op, i, pool.score(i), score[i]);
    }
  }
  return "";
}

}  // namespace slowstart_test
