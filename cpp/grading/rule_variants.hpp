// Rules that are the SPEC's except where a setting says otherwise: the
// building block of the mistake catalogue (mistakes.hpp). Each setting is one
// way a learner's program departs from the SPEC; its default is the SPEC.
//
// A variant has three parts:
//  - Rules (effective weight, pick, join score, and the whole-program hooks of
//    rules.hpp) that the pool calls on its custom-Rules path;
//  - a Reading: how the program reads a script, as a rewrite of the script's
//    text that keeps every line on its line (so line numbers stay true) and
//    makes the engine see what that program would see;
//  - an output filter for the one mistake that prints differently (WEIGHTS of
//    an empty pool printing nothing).
// A variant with every setting at its default prints what the engine prints.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "core/interpreter.hpp"
#include "core/pool.hpp"
#include "spec/rules.hpp"

namespace slowstart {

// What WEIGHTS sorts by. The SPEC: the names' bytes.
enum class WeightsOrder : std::uint8_t { Bytes, Pool, IgnoreCase };

struct Variant {
  // The effective weight of an UP backend.
  enum class Ramp : std::uint8_t {
    Spec,            // target * min(max(0, now - joined), ramp) / ramp, rounded down
    RoundUp,         // ... rounded up
    RoundNearest,    // ... rounded to the nearest (halves up)
    NoCap,           // target * elapsed / ramp: no min(elapsed, ramp)
    ZeroRampIsRamp,  // a ramp of 0 divides 0 by 0: weight 0 (NaN)
    NoClamp,         // elapsed = now - joined, negative before the join (floored)
    FromClockZero,   // elapsed = now: the ramp counted from clock 0
    DivideFirst,     // target * (min(elapsed, ramp) / ramp): 0 until the end
    FloatingPoint,   // in 64-bit floating point, then floored (JavaScript numbers)
    Overflow32,      // target * min(elapsed, ramp) wraps at 32 bits
    AtLeastOne,      // a ramping backend gets at least 1 (when its target is > 0)
  };
  // Who takes part in a pick, and with what weight.
  enum class Takes : std::uint8_t {
    UpWithWeight,   // UP and effective weight > 0 (the SPEC)
    UpAnyWeight,    // UP, whatever the weight (weight 0 takes part)
    AnyWithWeight,  // weight > 0, UP or DOWN
    UpWithTarget,   // UP with target > 0, adding the target: the ramp ignored
  };
  enum class Winner : std::uint8_t {
    HighestScore,   // the SPEC: ties to the earliest
    LastOnTie,      // ties to the latest
    HighestWeight,  // the heaviest participant (ties to the earliest); no score changes
    FirstDefault,   // the best starts as backend 0, taking part or not (never NONE)
  };
  enum class Pays : std::uint8_t { Total, Nothing, OwnWeight };
  // Scores of backends that do not take part in a pick.
  enum class Others : std::uint8_t { Kept, Reset, Halved };
  // The score of a backend that (re)joins with ADD or UP.
  enum class Join : std::uint8_t { Zero, Keep, KeepOnUp };
  // How the program reads a script (see rewrite_script).
  enum class Reading : std::uint8_t {
    Spec,
    KeepCr,             // the '\r' of a CR LF line end stays on the line
    TabsInWords,        // only spaces separate words
    SplitEachSpace,     // split on every single space: "a  b" has an empty word
    AnyBlankSeparates,  // any blank separates words (/\s+/, str.split()): U+00A0, form feed...
    AnyCaseKeywords,    // "pick" is PICK
    TrailingComments,   // everything from a '#' on is a comment
    ExtraWordsIgnored,  // "PICK now" is PICK
    BadPoolApplied,     // a bad POOL line keeps the entries before the bad one
    BarePoolRejected,   // "POOL" alone is an error, not an empty pool
    NowAdds,            // NOW adds to the clock
  };

  Ramp ramp = Ramp::Spec;
  Takes takes = Takes::UpWithWeight;
  Winner winner = Winner::HighestScore;
  Pays pays = Pays::Total;
  Others others = Others::Kept;
  Join join = Join::Zero;
  bool down_shows_weight = false;  // a DOWN backend keeps its ramp weight
  AddExisting add = AddExisting::ReplaceInPlace;
  bool up_restarts = true;
  bool pool_keeps_scores = false;
  WeightsOrder order = WeightsOrder::Bytes;
  bool empty_weights_silent = false;  // WEIGHTS of an empty pool prints no line
  Reading reading = Reading::Spec;
};

// The effective weight of an UP backend under a ramp setting.
std::int64_t variant_weight(Variant::Ramp ramp, std::int64_t target, std::int64_t ramp_seconds,
                            std::int64_t joined, std::int64_t now);

class VariantRules : public Rules {
 public:
  explicit VariantRules(const Variant& v) : v_(v) {}
  std::int64_t effective_weight(const Backend& b, std::int64_t now) override;
  std::int32_t pick(const Backend* backends, const std::int64_t* weights, std::int64_t* scores,
                    std::size_t n) override;
  std::int64_t score_on_join(const Backend& b, std::int64_t old_score) override;
  std::int64_t weight_when_down(const Backend& b, std::int64_t now) override;
  AddExisting add_existing() const override { return v_.add; }
  bool up_restarts_up_backend() const override { return v_.up_restarts; }
  bool pool_keeps_scores() const override { return v_.pool_keeps_scores; }
  bool weights_order(const Backend* backends, std::size_t n, std::vector<std::uint32_t>& order) override;

 private:
  Variant v_;
};

// The script as a program with this Reading sees it: the same number of
// lines, each rewritten so that the engine accepts, rejects or runs it as
// that program would. A line the program would reject becomes "\x01" (an
// unknown command: rejected, prints nothing).
std::string rewrite_script(Variant::Reading reading, std::string_view script);

// Collects what a script prints on stdout, as the CLI prints it: each output
// line and a '\n'. Diagnostics (stderr) are not kept.
class StdoutSink : public ScriptSink {
 public:
  explicit StdoutSink(bool drop_empty = false) : drop_empty_(drop_empty) {}
  void output(std::uint64_t, std::string_view text) override {
    if (drop_empty_ && text.empty()) return;
    out.append(text);
    out += '\n';
  }
  void diagnostic(std::uint64_t, std::string_view, Span) override {}
  std::string out;

 private:
  bool drop_empty_;
};

// What a program with this variant prints on stdout for the script.
std::string variant_stdout(const Variant& v, std::string_view script);

}  // namespace slowstart
