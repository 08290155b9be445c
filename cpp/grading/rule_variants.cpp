#include "grading/rule_variants.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <vector>

#include "core/command.hpp"
#include "fast/decimal.hpp"
#include "core/interpreter.hpp"
#include "spec/limits.hpp"
#include "spec/ramp.hpp"

namespace slowstart {

namespace {

// Rounds towards minus infinity (C++ '/' truncates towards zero).
std::int64_t floor_div(std::int64_t a, std::int64_t b) {
  const std::int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

// Scores of a wrong program can grow without bound (no subtraction, no cap):
// saturate rather than overflow.
std::int64_t add_saturated(std::int64_t a, std::int64_t b) {
  std::int64_t r;
  if (__builtin_add_overflow(a, b, &r)) return b > 0 ? INT64_MAX : INT64_MIN;
  return r;
}

}  // namespace

std::int64_t variant_weight(Variant::Ramp ramp, std::int64_t target, std::int64_t r,
                            std::int64_t joined, std::int64_t now) {
  using Ramp = Variant::Ramp;
  const std::int64_t elapsed = now > joined ? now - joined : 0;
  const std::int64_t capped = elapsed < r ? elapsed : r;
  switch (ramp) {
    case Ramp::Spec:
      return ramp_weight(target, r, joined, now);
    case Ramp::ZeroRampIsRamp:
      return r == 0 ? 0 : ramp_weight(target, r, joined, now);
    case Ramp::DivideFirst:
      return r == 0 ? target : target * (capped / r);
    case Ramp::FromClockZero:
      return r == 0 ? target : target * (now < r ? now : r) / r;
    default:
      break;
  }
  if (r == 0) return target;
  switch (ramp) {
    case Ramp::RoundUp:
      return (target * capped + r - 1) / r;
    case Ramp::RoundNearest:
      return (2 * target * capped + r) / (2 * r);
    case Ramp::NoCap:
      return target * elapsed / r;  // up to 10^6 * 10^12: fits in 64 bits
    case Ramp::NoClamp: {
      const std::int64_t e = now - joined;
      return floor_div(target * (e < r ? e : r), r);
    }
    case Ramp::FloatingPoint:
      return static_cast<std::int64_t>(
          std::floor(static_cast<double>(target) * static_cast<double>(capped) / static_cast<double>(r)));
    case Ramp::Overflow32: {
      const auto product = static_cast<std::int32_t>(static_cast<std::uint32_t>(target * capped));
      return product / r;  // truncates, as C and Java do
    }
    case Ramp::AtLeastOne: {
      const std::int64_t w = target * capped / r;
      return w == 0 && target > 0 ? 1 : w;
    }
    default:
      return ramp_weight(target, r, joined, now);
  }
}

std::int64_t VariantRules::effective_weight(const Backend& b, std::int64_t now) {
  return variant_weight(v_.ramp, b.target, b.ramp, b.joined, now);
}

std::int64_t VariantRules::weight_when_down(const Backend& b, std::int64_t now) {
  return v_.down_shows_weight ? effective_weight(b, now) : 0;
}

std::int64_t VariantRules::score_on_join(const Backend& b, std::int64_t old_score) {
  switch (v_.join) {
    case Variant::Join::Zero:
      return 0;
    case Variant::Join::Keep:
      return old_score;
    case Variant::Join::KeepOnUp:
      return b.how == Joined::Up ? old_score : 0;
  }
  return 0;
}

std::int32_t VariantRules::pick(const Backend* backends, const std::int64_t* weights,
                                std::int64_t* scores, std::size_t n) {
  // The weight backend i takes part with, or -1 when it sits this pick out.
  const auto fed = [&](std::size_t i) -> std::int64_t {
    const Backend& b = backends[i];
    switch (v_.takes) {
      case Variant::Takes::UpWithWeight:
        return b.up && weights[i] > 0 ? weights[i] : -1;
      case Variant::Takes::UpAnyWeight:
        return b.up ? (weights[i] > 0 ? weights[i] : 0) : -1;
      case Variant::Takes::AnyWithWeight:
        return weights[i] > 0 ? weights[i] : -1;
      case Variant::Takes::UpWithTarget:
        return b.up && b.target > 0 ? b.target : -1;
    }
    return -1;
  };

  if (v_.winner == Variant::Winner::HighestWeight) {
    std::int32_t best = kNone;
    std::int64_t heaviest = -1;
    for (std::size_t i = 0; i < n; ++i) {
      const std::int64_t w = fed(i);
      if (w >= 0 && w > heaviest) best = static_cast<std::int32_t>(i), heaviest = w;
    }
    return best;
  }

  std::int32_t best = v_.winner == Variant::Winner::FirstDefault && n > 0 ? 0 : kNone;
  std::int64_t total = 0, best_weight = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const std::int64_t w = fed(i);
    if (w < 0) {
      if (v_.others == Variant::Others::Reset) scores[i] = 0;
      if (v_.others == Variant::Others::Halved) scores[i] /= 2;
      continue;
    }
    scores[i] = add_saturated(scores[i], w);
    total = add_saturated(total, w);
    const bool better = best == kNone || scores[i] > scores[best] ||
                        (v_.winner == Variant::Winner::LastOnTie && scores[i] == scores[best]);
    if (better) best = static_cast<std::int32_t>(i), best_weight = w;
  }
  if (best != kNone) {
    if (v_.pays == Variant::Pays::Total) scores[best] = add_saturated(scores[best], -total);
    if (v_.pays == Variant::Pays::OwnWeight) scores[best] = add_saturated(scores[best], -best_weight);
  }
  return best;
}

bool VariantRules::weights_order(const Backend* backends, std::size_t n, std::vector<std::uint32_t>& order) {
  if (v_.order == WeightsOrder::Bytes) return false;
  order.resize(n);
  for (std::size_t i = 0; i < n; ++i) order[i] = static_cast<std::uint32_t>(i);
  if (v_.order == WeightsOrder::IgnoreCase) {
    const auto lower = [](unsigned char c) { return c >= 'A' && c <= 'Z' ? c + 32 : c; };
    std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
      const std::string &x = backends[a].name, &y = backends[b].name;
      return std::lexicographical_compare(x.begin(), x.end(), y.begin(), y.end(),
                                          [&](char p, char q) { return lower(p) < lower(q); });
    });
  }
  return true;
}

// ---------------------------------------------------------------------------
// Reading

namespace {

constexpr char kRejected[] = "\x01";  // an unknown command: rejected, prints nothing

std::string upper_ascii(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  return out;
}

std::string join(const std::vector<std::string_view>& tokens, std::size_t count) {
  std::string out;
  for (std::size_t i = 0; i < count && i < tokens.size(); ++i) {
    if (i) out += ' ';
    out.append(tokens[i]);
  }
  return out;
}

bool starts_with(const Problem& p, std::string_view prefix) {
  return p && std::string_view(*p).substr(0, prefix.size()) == prefix;
}

// One line (without its line end) as the program reads it. `cr` says the
// line ended in CR LF; a reading may keep the CR as part of the line.
class LineReader {
 public:
  explicit LineReader(Variant::Reading reading) : reading_(reading) {}

  std::string read(std::string_view line, bool& cr) {
    using R = Variant::Reading;
    if (reading_ == R::KeepCr) {
      std::string out(line);
      if (cr) out += kRejected[0];  // the CR stays glued to the last word
      cr = false;
      return out;
    }
    if (reading_ == R::TabsInWords) return replace_tabs(line);
    if (reading_ == R::AnyBlankSeparates) return blanks_to_spaces(line);
    if (reading_ == R::TrailingComments) {
      tokenize(line, tokens_);
      if (is_ignored(tokens_)) return std::string(line);
      return std::string(line.substr(0, line.find('#')));
    }
    tokenize(line, tokens_);
    if (is_ignored(tokens_)) return std::string(line);
    switch (reading_) {
      case R::SplitEachSpace:
        if (line.front() == ' ' || line.back() == ' ' || line.find("  ") != std::string_view::npos)
          return kRejected;  // an empty word
        return replace_tabs(line);
      case R::AnyCaseKeywords: {
        const std::string word = upper_ascii(tokens_[0]);
        if (word == tokens_[0] || starts_with(parse_command({word}, cmd_), "unknown command"))
          return std::string(line);
        std::string out(line);
        out.replace(static_cast<std::size_t>(tokens_[0].data() - line.data()), word.size(), word);
        return out;
      }
      case R::ExtraWordsIgnored: {
        std::size_t count = tokens_.size();
        std::vector<std::string_view> fewer = tokens_;
        while (starts_with(parse_command(fewer, cmd_), "unexpected argument")) fewer.resize(--count);
        return count == tokens_.size() ? std::string(line) : join(tokens_, count);
      }
      case R::BadPoolApplied:
        return bad_pool_applied(line);
      case R::BarePoolRejected:
        return tokens_.size() == 1 && tokens_[0] == "POOL" ? kRejected : std::string(line);
      case R::NowAdds:
        if (tokens_[0] != "NOW" || parse_command(tokens_, cmd_)) return std::string(line);
        clock_ += cmd_.seconds;
        if (clock_ > kMaxTime) clock_ = kMaxTime;  // the engine's clock stops at its limit
        return "NOW " + decimal(clock_);
      default:
        return std::string(line);
    }
  }

 private:
  static std::string replace_tabs(std::string_view line) {
    std::string out(line);
    for (char& c : out)
      if (c == '\t') c = kRejected[0];
    return out;
  }

  // Every blank that JavaScript's /\s/ or Python's str.split() splits at
  // becomes a space: the ASCII ones (VT, FF, CR, and FS to US), NEL, and the
  // Unicode spaces U+00A0, U+1680, U+2000-U+200A, U+2028, U+2029, U+202F,
  // U+205F, U+3000 and U+FEFF, in UTF-8.
  static std::string blanks_to_spaces(std::string_view line) {
    std::string out;
    out.reserve(line.size());
    const auto byte = [&](std::size_t i) { return i < line.size() ? static_cast<unsigned char>(line[i]) : 0u; };
    for (std::size_t i = 0; i < line.size();) {
      const unsigned c = byte(i);
      std::size_t blank = 0;  // bytes of a blank at i
      if (c == 0x0B || c == 0x0C || c == 0x0D || (c >= 0x1C && c <= 0x1F)) blank = 1;
      else if (c == 0xC2 && (byte(i + 1) == 0x85 || byte(i + 1) == 0xA0)) blank = 2;
      else if (c == 0xE1 && byte(i + 1) == 0x9A && byte(i + 2) == 0x80) blank = 3;  // U+1680
      else if (c == 0xE2 && byte(i + 1) == 0x80 && (byte(i + 2) <= 0x8A || byte(i + 2) == 0xA8 || byte(i + 2) == 0xA9 || byte(i + 2) == 0xAF) && byte(i + 2) >= 0x80)
        blank = 3;  // U+2000-U+200A, U+2028, U+2029, U+202F
      else if (c == 0xE2 && byte(i + 1) == 0x81 && byte(i + 2) == 0x9F) blank = 3;  // U+205F
      else if (c == 0xE3 && byte(i + 1) == 0x80 && byte(i + 2) == 0x80) blank = 3;  // U+3000
      else if (c == 0xEF && byte(i + 1) == 0xBB && byte(i + 2) == 0xBF) blank = 3;  // U+FEFF
      if (blank) {
        out += ' ';
        i += blank;
      } else {
        out += static_cast<char>(c);
        ++i;
      }
    }
    return out;
  }

  // POOL applied entry by entry: the entries before the first bad one stay.
  std::string bad_pool_applied(std::string_view line) {
    if (tokens_[0] != "POOL" || tokens_.size() - 1 > kMaxBackends) return std::string(line);
    if (!parse_command(tokens_, cmd_)) return std::string(line);
    std::vector<std::string> seen;
    std::size_t good = 1;
    for (; good < tokens_.size(); ++good) {
      PoolEntry e;
      if (parse_entry(tokens_[good], e)) break;
      bool duplicate = false;
      for (const auto& name : seen) duplicate = duplicate || name == e.name;
      if (duplicate) break;
      seen.push_back(e.name);
    }
    return join(tokens_, good);
  }

  Variant::Reading reading_;
  std::vector<std::string_view> tokens_;
  Command cmd_;
  std::int64_t clock_ = 0;
};

}  // namespace

std::string rewrite_script(Variant::Reading reading, std::string_view script) {
  if (reading == Variant::Reading::Spec) return std::string(script);
  std::string out;
  out.reserve(script.size() + 16);
  LineReader reader(reading);
  std::size_t start = 0;
  while (start < script.size()) {
    std::size_t end = script.find('\n', start);
    const bool newline = end != std::string_view::npos;
    if (!newline) end = script.size();
    std::string_view line = script.substr(start, end - start);
    bool cr = !line.empty() && line.back() == '\r';
    if (cr) line.remove_suffix(1);
    out += reader.read(line, cr);
    if (cr) out += '\r';
    if (newline) out += '\n';
    start = end + 1;
  }
  return out;
}

std::string variant_stdout(const Variant& v, std::string_view script) {
  const std::string rewritten = rewrite_script(v.reading, script);
  VariantRules rules(v);
  StdoutSink sink(v.empty_weights_silent);
  Interpreter interpreter(sink);
  interpreter.set_rules(&rules);
  interpreter.feed_text(rewritten);
  return std::move(sink.out);
}

}  // namespace slowstart
