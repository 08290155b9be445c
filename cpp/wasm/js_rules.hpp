// Rules written in JavaScript, for the implement-it-yourself mode: the
// learner's effective weight and pick, called from the engine's pool.
#pragma once
#include <emscripten/val.h>

#include <cmath>
#include <string>
#include <vector>

#include "core/pool.hpp"
#include "spec/rules.hpp"
#include "wasm/js_interop.hpp"

namespace slowstart::wasm {

// The JS side validates what the learner returns and never throws
// into C++: it records problems itself and returns a safe value.
class JsRules : public Rules {
 public:
  JsRules(val effective, val pick, val on_join)
      : effective_(std::move(effective)), pick_(std::move(pick)), on_join_(std::move(on_join)) {}
  void begin_line(std::uint64_t line) override { line_ = static_cast<double>(line); }
  std::int64_t effective_weight(const Backend& b, std::int64_t now) override {
    const double w = effective_(static_cast<double>(b.target), static_cast<double>(b.ramp),
                                static_cast<double>(b.joined), static_cast<double>(now), b.name, line_)
                         .as<double>();
    return clamp(w);
  }
  std::int64_t score_on_join(const Backend& b, std::int64_t old_score) override {
    if (on_join_.isUndefined()) return 0;
    return clamp(on_join_(b.name, static_cast<double>(old_score), line_).as<double>());
  }
  std::int32_t pick(const Backend* backends, const std::int64_t* weights, std::int64_t* scores,
                    std::size_t n) override {
    val names = val::array();
    std::vector<double> w(n), sc(n);
    std::vector<std::uint8_t> up(n);
    for (std::size_t i = 0; i < n; ++i) {
      names.call<void>("push", backends[i].name);
      w[i] = static_cast<double>(weights[i]);
      sc[i] = static_cast<double>(scores[i]);
      up[i] = backends[i].up ? 1 : 0;
    }
    val js_scores = typed_copy("Float64Array", sc);
    const double winner = pick_(names, typed_copy("Float64Array", w), js_scores,
                                typed_copy("Uint8Array", up), line_)
                              .as<double>();
    for (std::size_t i = 0; i < n; ++i) scores[i] = clamp(js_scores[i].as<double>());
    if (!(winner >= 0 && winner < static_cast<double>(n))) return kNone;
    return static_cast<std::int32_t>(winner);
  }

 private:
  // Whatever the learner returned, as a 64-bit integer the engine can hold.
  static std::int64_t clamp(double v) {
    if (!(v == v)) return 0;  // NaN
    v = std::floor(v);
    if (v > 9e15) return static_cast<std::int64_t>(9e15);
    if (v < -9e15) return static_cast<std::int64_t>(-9e15);
    return static_cast<std::int64_t>(v);
  }
  val effective_, pick_, on_join_;
  double line_ = 0;
};

}  // namespace slowstart::wasm
