#include "grading/engine_copy.hpp"

#include <algorithm>
#include <array>
#include <cstring>

#include "core/command.hpp"

namespace slowstart::grading {

namespace {

struct Mark {
  std::string_view what;
  std::vector<std::string_view> strings;
  std::size_t needed;  // how many of `strings` make a copy
};

// The marks, each a set of strings that only the engine's files hold
// together. tests/web/unit/grade-engine-copy.test.ts checks that every file
// of the package that can run the engine is found, so a renamed export or a
// reworded sentence fails a test instead of hiding copies.
const std::vector<Mark>& marks() {
  static const std::vector<Mark> all = [] {
    std::vector<Mark> m;
    Mark table{"the engine itself (its command table: a WebAssembly module, the native CLI or the element)", {}, 3};
    for (const Keyword& k : kKeywords) table.strings.push_back(k.summary);
    m.push_back(table);
    m.push_back({"the engine module's JavaScript (the package's dist/api or dist/wasm)",
                 {"ss_runner_feed", "ss_runner_take", "ss_balancer_pick_many", "ss_balancer_set_pool_numbers",
                  "ss_balancer_weights_line", "ss_keywords", "ss_release_run"},
                 3});
    m.push_back({"the lab module's JavaScript (the package's dist/api)",
                 {"mistakeCatalogue", "builtInSuite", "simulateCommand", "testsCommand", "diagnoseRun",
                  "nameMistakes", "weightProblem"},
                 3});
    return m;
  }();
  return all;
}

constexpr std::string_view kEncodings[] = {"as it is", "in base64", "in hex"};

// Dropped from the text (and from the encoded patterns) before encoded
// patterns are searched: line breaks and blanks of wrapped base64, the
// quotes, commas and '+' of a literal split across lines or concatenated.
bool squeezable(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f' || c == '"' || c == '\'' ||
         c == '`' || c == '+' || c == ',';
}

std::string squeeze(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s)
    if (!squeezable(c)) out += c;
  return out;
}

// The base64 characters that `s` alone decides when it starts `offset`
// bytes into a 3-byte group (the neighbouring bytes decide the others).
std::string base64_core(std::string_view s, std::size_t offset, const char* alphabet) {
  std::string bytes(offset, '\0');
  bytes.append(s);
  std::string text;
  for (std::size_t i = 0; i < bytes.size(); i += 3) {
    std::uint32_t v = static_cast<unsigned char>(bytes[i]) << 16;
    if (i + 1 < bytes.size()) v |= static_cast<unsigned char>(bytes[i + 1]) << 8;
    if (i + 2 < bytes.size()) v |= static_cast<unsigned char>(bytes[i + 2]);
    for (int k = 0; k < 4; ++k) text += alphabet[(v >> (18 - 6 * k)) & 63];
  }
  const std::size_t first = (offset * 8 + 5) / 6;  // the first character with none of the leading bytes' bits
  const std::size_t end = bytes.size() * 8 / 6;    // past the last character made of these bytes alone
  return end > first ? text.substr(first, end - first) : std::string();
}

std::string hex(std::string_view s, bool upper) {
  const char* digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
  std::string out;
  for (char c : s) {
    out += digits[static_cast<unsigned char>(c) >> 4];
    out += digits[static_cast<unsigned char>(c) & 15];
  }
  return out;
}

}  // namespace

EngineCopyFinder::EngineCopyFinder() {
  static const char* const kBase64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  static const char* const kBase64Url = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  const auto& all = marks();
  seen_.resize(all.size());
  for (std::size_t m = 0; m < all.size(); ++m) {
    seen_[m].assign(all[m].strings.size(), 0);
    for (std::size_t s = 0; s < all[m].strings.size(); ++s) {
      const std::string_view text = all[m].strings[s];
      const auto add = [&](std::string bytes, std::uint8_t encoding, bool squeezed) {
        if (squeezed) bytes = squeeze(bytes);
        if (bytes.size() < 4) return;
        longest_ = std::max(longest_, bytes.size());
        patterns_.push_back({std::move(bytes), static_cast<std::uint16_t>(m), static_cast<std::uint16_t>(s), encoding,
                             squeezed});
      };
      add(std::string(text), 0, false);
      for (std::size_t offset = 0; offset < 3; ++offset) {
        add(base64_core(text, offset, kBase64), 1, true);
        add(base64_core(text, offset, kBase64Url), 1, true);
      }
      add(hex(text, false), 2, true);
      add(hex(text, true), 2, true);
    }
  }
  by_start_.resize(1 << 16);
  starts_.assign((1 << 16) / 64, 0);
  for (std::size_t k = 0; k < patterns_.size(); ++k) {
    const std::string& b = patterns_[k].bytes;
    const std::size_t key = static_cast<unsigned char>(b[0]) << 8 | static_cast<unsigned char>(b[1]);
    by_start_[key].push_back(static_cast<std::uint16_t>(k));
    starts_[key >> 6] |= std::uint64_t{1} << (key & 63);
  }
}

void EngineCopyFinder::start_file() {
  carry_.clear();
  carry_squeezed_.clear();
  for (auto& m : seen_) std::fill(m.begin(), m.end(), 0);
}

void EngineCopyFinder::scan(std::string& carry, std::string_view chunk, bool squeezed) {
  carry.append(chunk);
  const std::string_view text = carry;
  // One pass: at each position, the patterns that start with its two bytes.
  for (std::size_t i = 0; i + 1 < text.size(); ++i) {
    const auto key = static_cast<std::size_t>(static_cast<unsigned char>(text[i]) << 8 |
                                              static_cast<unsigned char>(text[i + 1]));
    if (!(starts_[key >> 6] >> (key & 63) & 1)) continue;  // most positions: 8 KB of bits, in cache
    for (const std::uint16_t k : by_start_[key]) {
      const Pattern& p = patterns_[k];
      if (p.squeezed != squeezed || seen_[p.mark][p.string] || text.size() - i < p.bytes.size()) continue;
      if (std::memcmp(text.data() + i, p.bytes.data(), p.bytes.size()) == 0)
        seen_[p.mark][p.string] = static_cast<std::uint8_t>(p.encoding + 1);
    }
  }
  // What a pattern that starts in this chunk and ends in the next needs.
  const std::size_t keep = longest_ > 1 ? longest_ - 1 : 0;
  if (carry.size() > keep) carry.erase(0, carry.size() - keep);
}

void EngineCopyFinder::feed(std::string_view chunk) {
  // In pieces, so that the text searched at once stays small.
  constexpr std::size_t kPiece = 1 << 20;
  for (std::size_t at = 0; at < chunk.size(); at += kPiece) {
    const std::string_view piece = chunk.substr(at, kPiece);
    scan(carry_, piece, false);
    scan(carry_squeezed_, squeeze(piece), true);
  }
}

bool EngineCopyFinder::found(EngineCopy& copy) const {
  const auto& all = marks();
  for (std::size_t m = 0; m < all.size(); ++m) {
    std::size_t count = 0;
    std::uint8_t encoding = 0;
    for (std::uint8_t s : seen_[m])
      if (s) ++count, encoding = encoding ? encoding : s;
    if (count >= all[m].needed) {
      copy.what = std::string(all[m].what);
      copy.encoding = std::string(kEncodings[encoding - 1]);
      return true;
    }
  }
  return false;
}

}  // namespace slowstart::grading
