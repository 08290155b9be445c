// The mistake catalogue (see mistakes.hpp). One entry per mistake: its id,
// title and why in the words a learner reads, and the Variant that makes it.
#include "grading/mistakes.hpp"

#include "core/interpreter.hpp"

namespace slowstart {

namespace {

using V = Variant;

constexpr Mistake kMistakes[] = {
    // --- The effective weight -------------------------------------------
    {"round-up", "The ramp rounds up instead of down.",
     "10 × 5 / 20 is 2.5 and the weight is 2. Rounding up hands a cold backend more traffic than the "
     "ramp allows, and at the very start gives it traffic it should not get at all.",
     Scope::Rules, {.ramp = V::Ramp::RoundUp}},
    {"round-nearest", "The ramp rounds to the nearest whole number instead of down.",
     "Weights are whole numbers taken by integer division: 10 × 15 / 20 is 7.5 and the weight is 7, "
     "not 8. Every balancer in the course truncates, so your weights drift half a step ahead of theirs.",
     Scope::Rules, {.ramp = V::Ramp::RoundNearest}},
    {"no-cap", "The weight keeps growing after the ramp window.",
     "Once the window is over the weight is the target and stays there. Without the cap "
     "(min(elapsed, ramp)) a backend that joined long ago ends up with many times its configured share.",
     Scope::Rules, {.ramp = V::Ramp::NoCap}},
    {"pool-ramped", "A ramp of 0 is treated as a ramp: a backend with no ramp never gets its weight.",
     "POOL members (and ADD or UP with ramp 0) have no ramp: their weight is the target at once. "
     "Dividing by a ramp of 0 gives nothing (NaN, or a crash), and the whole pool goes quiet.",
     Scope::Rules, {.ramp = V::Ramp::ZeroRampIsRamp}},
    {"no-clamp", "Before a backend's join, its weight goes negative: elapsed is not clamped at 0.",
     "elapsed = max(0, now − joined). The clock can be set back to before a backend joined; without "
     "the max, elapsed is negative and so is the weight (WEIGHTS shows b=-5). A weight is never below 0.",
     Scope::Rules, {.ramp = V::Ramp::NoClamp}},
    {"from-clock-zero", "The ramp is measured from clock 0, not from when the backend joined.",
     "elapsed is now − joined. A backend that joins at 1000 s with a 20 s ramp starts at weight 0, "
     "not at full weight because the clock is already past 20.",
     Scope::Rules, {.ramp = V::Ramp::FromClockZero}},
    {"divide-first", "The ramp divides before it multiplies: the weight stays 0 until the window ends.",
     "min(elapsed, ramp) / ramp is below 1 until the end, and whole-number division makes it 0. "
     "Multiply first and divide last: target × min(elapsed, ramp) / ramp.",
     Scope::Rules, {.ramp = V::Ramp::DivideFirst}},
    {"floating-point", "The ramp is computed with floating-point numbers, which are not exact for big values.",
     "target × elapsed can reach 10^18, far beyond the 2^53 a double (a JavaScript number) holds "
     "exactly, so the quotient can round up across a whole number: 999999 instead of 999998. Use "
     "64-bit integers (BigInt in JavaScript, // in Python, long in Java).",
     Scope::Rules, {.ramp = V::Ramp::FloatingPoint}},
    {"overflow-32-bit", "The ramp multiplies in 32 bits, so target × elapsed overflows.",
     "A 32-bit int holds about 2.1 billion; 1000000 × 5000 is 5 billion. The product wraps around "
     "and the weight comes out wrong, even negative. Use 64-bit integers (long, int64_t).",
     Scope::Rules, {.ramp = V::Ramp::Overflow32}},
    {"at-least-one", "A backend that has just joined gets a little weight at once instead of none.",
     "At the moment of joining a ramping backend has weight 0: it gets no traffic at all, not "
     "\"a little\". Rounding its weight up to 1 sends a cold backend requests too early.",
     Scope::Rules, {.ramp = V::Ramp::AtLeastOne}},

    // --- The pick ---------------------------------------------------------
    {"weight-zero-takes-part", "A backend with weight 0 takes part in the pick.",
     "Only backends that are UP and have a weight above 0 take part. A weight-0 backend is not "
     "\"very unlikely\": it is absent. Let it in and a backend at the start of its ramp (or set back "
     "by the clock) can still win a pick.",
     Scope::Rules, {.takes = V::Takes::UpAnyWeight}},
    {"highest-weight-wins", "The highest weight wins every pick: the scores are ignored (or reset before each pick).",
     "Smooth weighted round-robin is about the scores: they live from pick to pick, and the highest "
     "score wins, not the highest weight. Weights 5, 1, 1 give a a b a c a a; picking by weight alone "
     "gives a every time.",
     Scope::Rules, {.winner = V::Winner::HighestWeight}},
    {"ties-to-last", "Ties go to the last backend instead of the first.",
     "On equal scores the backend earliest in the pool wins. Graders compare byte for byte, and the "
     "order of equal backends is part of the contract (nginx breaks ties the same way).",
     Scope::Rules, {.winner = V::Winner::LastOnTie}},
    {"no-subtract", "The winner does not give back the total weight.",
     "Step 4 of the pick subtracts the sum of the participants' weights from the winner. Without it "
     "the winner's score only grows, and it wins forever.",
     Scope::Rules, {.pays = V::Pays::Nothing}},
    {"winner-pays-own-weight", "The winner gives back only its own weight, not the total.",
     "Step 4 subtracts the sum of all the participants' weights from the winner. Subtracting only "
     "its own weight lets every score grow, and the picks drift away from the weights (5, 1, 1 no "
     "longer gives a five picks in seven).",
     Scope::Rules, {.pays = V::Pays::OwnWeight}},
    {"others-reset", "A backend that sits a pick out loses its score (reset to 0).",
     "Only the participants' scores change: a backend that sits a pick out keeps its score. "
     "On a DOWN backend the reset cannot show (UP and ADD bring it back at score 0 anyway); it "
     "shows on one whose weight falls back to 0 after it took part (the clock set back to before "
     "it joined), which must keep its score until its weight returns.",
     Scope::Rules, {.others = V::Others::Reset}},
    {"others-decay", "A backend that sits a pick out sees its score shrink (halved at each pick).",
     "Only the participants' scores change: a backend that sits a pick out keeps its score. "
     "On a DOWN backend the shrinking cannot show (UP and ADD bring it back at score 0 anyway); "
     "it shows on one whose weight falls back to 0 after it took part (the clock set back to "
     "before it joined), which must keep its score until its weight returns.",
     Scope::Rules, {.others = V::Others::Halved}},
    {"first-backend-default", "The pick starts from the first backend, which can then win without taking part.",
     "Start with no winner and let only the participants compete. Starting from backend 0 lets a DOWN "
     "or weight-0 first backend win on an old score, and names it when nobody takes part, where the "
     "answer is NONE.",
     Scope::Rules, {.winner = V::Winner::FirstDefault}},
    {"pick-ignores-ramp", "The pick uses each backend's target weight: the ramp shows in WEIGHTS but not in the picks.",
     "The ramp exists to keep traffic off a cold backend. The pick adds the effective (ramped) "
     "weight to the score, and a backend at weight 0 does not take part at all.",
     Scope::Program, {.takes = V::Takes::UpWithTarget}},

    // --- Joining ----------------------------------------------------------
    {"no-reset-on-join", "A backend that (re)joins with ADD or UP keeps its old score.",
     "A backend that rejoins starts a fresh life with score 0. An old score, high or low, makes it "
     "win or lose picks it has no claim to, right when it is coldest.",
     Scope::Rules, {.join = V::Join::Keep}},
    {"up-keeps-score", "A backend coming back with UP keeps its old score.",
     "UP starts a fresh life, as ADD does: score 0. An old score, high or low, makes the backend win "
     "or lose picks it has no claim to, right when it is coldest.",
     Scope::Program, {.join = V::Join::KeepOnUp}},

    // --- The commands -----------------------------------------------------
    {"down-shows-weight", "WEIGHTS shows a DOWN backend's weight instead of 0.",
     "A DOWN backend's effective weight is 0. WEIGHTS still lists it (it keeps its place in the "
     "pool), with =0.",
     Scope::Program, {.down_shows_weight = true}},
    {"down-takes-part", "A DOWN backend still takes part in the picks.",
     "DOWN means the backend failed: weight 0 and no traffic at all until UP brings it back.",
     Scope::Program, {.takes = V::Takes::AnyWithWeight, .down_shows_weight = true}},
    {"add-appends-duplicate", "ADD of a name already in the pool adds a second backend instead of replacing it.",
     "Names are unique. ADD of an existing name replaces that backend in place (same position, new "
     "weight and ramp, score 0), and WEIGHTS lists the name once.",
     Scope::Program, {.add = AddExisting::AppendDuplicate}},
    {"up-no-restart", "UP on a backend that is already UP does nothing.",
     "UP always restarts the backend: joined = now, the new ramp, score 0, also when it was UP (an "
     "operator restarting a server that never went DOWN).",
     Scope::Program, {.up_restarts = false}},
    {"pool-keeps-scores", "POOL keeps the old scores of backends with the same names.",
     "POOL replaces the whole pool: every backend starts again UP, with no ramp and score 0.",
     Scope::Program, {.pool_keeps_scores = true}},
    {"weights-pool-order", "WEIGHTS lists the backends in pool order instead of sorted by name.",
     "WEIGHTS sorts by name, byte by byte, so that the line does not depend on the order the "
     "backends joined in.",
     Scope::Program, {.order = WeightsOrder::Pool}},
    {"weights-ignore-case", "WEIGHTS sorts names ignoring case, like a dictionary, instead of byte by byte.",
     "Byte order puts capitals before small letters (B before a) and compares digit by digit (web10 "
     "before web9). Compare the names as plain strings (Python's sorted(), C's strcmp), not with a "
     "locale or a case-insensitive comparison.",
     Scope::Program, {.order = WeightsOrder::IgnoreCase}},
    {"empty-weights-silent", "WEIGHTS of an empty pool prints nothing instead of an empty line.",
     "Every WEIGHTS prints exactly one line; for an empty pool it is an empty line. Graders compare "
     "line by line, so a missing line shifts everything after it.",
     Scope::Program, {.empty_weights_silent = true}},
    {"now-adds", "NOW adds to the clock instead of setting it.",
     "NOW 30 sets the clock to 30 s, and the clock can even go back. Adding moves every later event "
     "to the wrong time.",
     Scope::Program, {.reading = V::Reading::NowAdds}},
    {"bare-pool-rejected", "POOL with no backends is rejected instead of emptying the pool.",
     "POOL alone empties the pool: WEIGHTS then prints an empty line and PICK prints NONE.",
     Scope::Program, {.reading = V::Reading::BarePoolRejected}},

    // --- Reading the script -----------------------------------------------
    {"keep-cr", "Windows line ends (CR LF) are not handled: the CR stays on the line.",
     "A line may end in CR LF. Strip the \\r before splitting, or PICK\\r is an unknown command "
     "and 5\\r is not a number.",
     Scope::Program, {.reading = V::Reading::KeepCr}},
    {"tabs-in-words", "Tabs are not taken as separators between words.",
     "Words are separated by runs of spaces or tabs: POOL<tab>a=1 is a POOL with one backend.",
     Scope::Program, {.reading = V::Reading::TabsInWords}},
    {"split-each-space", "Words are split at every single space, so two spaces in a row make an empty word.",
     "Separators are runs of spaces or tabs: \"ADD c=3  0\" has two arguments. Split on runs "
     "and drop the empty words: re.split(r\"[ \\t]+\", line) in Python, /[ \\t]+/ in JavaScript.",
     Scope::Program, {.reading = V::Reading::SplitEachSpace}},
    {"any-blank-separates", "Words are split at any blank (a no-break space, a form feed), not only at spaces and tabs.",
     "Only spaces and tabs separate words; any other character is part of a word: a name may hold a "
     "no-break space, and a form feed makes a word bad. Split with /[ \\t]+/ in JavaScript or "
     "re.split(r\"[ \\t]+\", line) in Python, not with /\\s+/ or str.split().",
     Scope::Program, {.reading = V::Reading::AnyBlankSeparates}},
    {"any-case-keywords", "Lower-case keywords are accepted.",
     "Keywords are upper-case: \"pick\" is rejected (with a hint: use PICK) and prints nothing.",
     Scope::Program, {.reading = V::Reading::AnyCaseKeywords}},
    {"trailing-comments", "A # after a command is taken as the start of a comment.",
     "Only a line whose first word starts with # is a comment. \"PICK # note\" has extra words, "
     "so it is rejected and prints nothing.",
     Scope::Program, {.reading = V::Reading::TrailingComments}},
    {"extra-words-ignored", "Extra words after a command are ignored instead of rejecting the line.",
     "A line with more arguments than its command takes is rejected and changes nothing: "
     "\"PICK now\" prints nothing.",
     Scope::Program, {.reading = V::Reading::ExtraWordsIgnored}},
    {"bad-pool-applied", "A bad POOL line still changes the pool: the entries before the bad one are kept.",
     "A rejected line changes nothing: after POOL a=1 b=x the pool is what it was before. Check "
     "every entry before replacing the pool.",
     Scope::Program, {.reading = V::Reading::BadPoolApplied}},
};

}  // namespace

std::span<const Mistake> mistakes() { return kMistakes; }

const Mistake* find_mistake(std::string_view id) {
  for (const Mistake& m : kMistakes)
    if (m.id == id) return &m;
  return nullptr;
}

std::string mistake_stdout(const Mistake& m, std::string_view script) {
  return variant_stdout(m.variant, script);
}

std::string reference_stdout(std::string_view script) {
  StdoutSink sink;
  Interpreter interpreter(sink);
  interpreter.feed_text(script);
  return std::move(sink.out);
}

}  // namespace slowstart
