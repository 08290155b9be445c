#include "fast/decimal.hpp"
#include "core/validate.hpp"

#include "spec/limits.hpp"

#include <cstring>

namespace slowstart {

std::string_view quantity_name(Quantity q) {
  switch (q) {
    case Quantity::Weight: return "weight";
    case Quantity::Ramp: return "ramp";
    case Quantity::Time: return "time";
  }
  return "value";
}

std::int64_t quantity_limit(Quantity q) {
  return q == Quantity::Weight ? kMaxWeight : kMaxTime;
}

static bool not_an_integer(std::string_view shown, Quantity q, Message& why) {
  why.clear();
  why.append(quantity_name(q));
  why.append(" must be a non-negative integer, got ");
  why.append_quoted(shown);
  return false;
}

static bool over_limit(std::string_view shown, Quantity q, Message& why) {
  why.clear();
  why.append(quantity_name(q));
  why.append(" must be at most ");
  why.append_decimal(quantity_limit(q));
  why.append(", got ");
  why.append_quoted(shown);
  return false;
}

void QuantityScan::add(std::string_view piece) {
  if (!piece.empty()) empty_ = false;
  if (!digits_) return;
  for (char c : piece) {
    if (c < '0' || c > '9') {
      digits_ = false;  // "99x" is not an integer, however large its digits
      return;
    }
    // Saturate instead of overflowing: past the largest limit the value no
    // longer matters, only that it is over.
    if (value_ <= kMaxTime) value_ = value_ * 10 + (c - '0');
  }
}

bool QuantityScan::finish(Quantity q, std::string_view shown, std::int64_t& out, Message& why) const {
  if (empty_ || !digits_) return not_an_integer(shown, q, why);
  if (value_ > quantity_limit(q)) return over_limit(shown, q, why);
  out = value_;
  return true;
}

Problem parse_quantity(std::string_view token, Quantity q, std::int64_t& out) {
  QuantityScan scan;
  scan.add(token);
  Message why;
  return problem_of(scan.finish(q, token, out, why), why);
}

Problem check_quantity(std::int64_t value, Quantity q) {
  Message why;
  if (value < 0) return problem_of(not_an_integer(decimal(value), q, why), why);
  if (value > quantity_limit(q)) return problem_of(over_limit(decimal(value), q, why), why);
  return std::nullopt;
}

std::size_t utf8_sequence_length(std::string_view s, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = byte(i);
  if (c < 0x80) return 1;
  std::size_t n;
  unsigned char lo = 0x80, hi = 0xBF;  // allowed range of the second byte
  if (c >= 0xC2 && c <= 0xDF) n = 2;
  else if (c == 0xE0) n = 3, lo = 0xA0;
  else if (c >= 0xE1 && c <= 0xEC) n = 3;
  else if (c == 0xED) n = 3, hi = 0x9F;  // no UTF-16 surrogates
  else if (c >= 0xEE && c <= 0xEF) n = 3;
  else if (c == 0xF0) n = 4, lo = 0x90;
  else if (c >= 0xF1 && c <= 0xF3) n = 4;
  else if (c == 0xF4) n = 4, hi = 0x8F;
  else return 0;
  if (i + n > s.size()) return 0;
  if (byte(i + 1) < lo || byte(i + 1) > hi) return 0;
  for (std::size_t k = 2; k < n; ++k)
    if (byte(i + k) < 0x80 || byte(i + k) > 0xBF) return 0;
  return n;
}

static bool is_control(unsigned char c) { return c < 0x20 || c == 0x7F; }

// U+0080 ... U+009F (C1 controls, e.g. NEL and CSI) are encoded 0xC2 0x80-0x9F.
static bool is_c1_control(std::string_view s, std::size_t i, std::size_t n) {
  return n == 2 && static_cast<unsigned char>(s[i]) == 0xC2 &&
         static_cast<unsigned char>(s[i + 1]) <= 0x9F;
}

// Bidirectional controls reorder what is shown around them ("Trojan Source"):
// `\u202Exe.nimda` displays as `admin.exe`. Their UTF-8 encodings:
//   U+061C ALM               D8 9C
//   U+200E LRM, U+200F RLM   E2 80 8E-8F
//   U+202A-U+202E LRE..RLO   E2 80 AA-AE
//   U+2066-U+2069 LRI..PDI   E2 81 A6-A9
static bool is_bidi_control(std::string_view s, std::size_t i, std::size_t n) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[i + k]); };
  if (n == 2) return byte(0) == 0xD8 && byte(1) == 0x9C;
  if (n != 3 || byte(0) != 0xE2) return false;
  if (byte(1) == 0x80) return byte(2) == 0x8E || byte(2) == 0x8F || (byte(2) >= 0xAA && byte(2) <= 0xAE);
  return byte(1) == 0x81 && byte(2) >= 0xA6 && byte(2) <= 0xA9;
}

Problem check_name(std::string_view name) { return check_name(name, name); }

Problem check_name(std::string_view name, std::string_view shown) {
  Message why;
  return problem_of(check_name(name, shown, why), why);
}

bool check_name(std::string_view name, std::string_view shown, Message& why) {
  if (name.empty()) {
    why.assign("backend name is empty");
    return false;
  }
  for (std::size_t i = 0; i < name.size();) {
    const unsigned char c = static_cast<unsigned char>(name[i]);
    if (c == '=') return reject(why, "backend name must not contain '=', got ", shown);
    if (c == ' ' || c == '\t') return reject(why, "backend name must not contain blanks, got ", shown);
    if (is_control(c)) return reject(why, "backend name must not contain control characters, got ", shown);
    const std::size_t n = utf8_sequence_length(name, i);
    if (n == 0) return reject(why, "backend name must be valid UTF-8, got ", shown);
    if (is_c1_control(name, i, n))
      return reject(why, "backend name must not contain control characters, got ", shown);
    if (is_bidi_control(name, i, n))
      return reject(why, "backend name must not contain bidirectional controls, got ", shown);
    i += n;
  }
  return true;
}

std::string quote(std::string_view token) {
  char text[kMaxQuotedBytes];
  return std::string(text, write_quoted(text, token));
}

std::string quoted(std::string_view prefix, std::string_view token, std::string_view suffix) {
  std::string out;
  out.reserve(prefix.size() + token.size() + suffix.size() + 8);
  out.append(prefix);
  append_quoted(out, token);
  out.append(suffix);
  return out;
}

void append_quoted(std::string& out, std::string_view token) {
  char text[kMaxQuotedBytes];
  out.append(text, write_quoted(text, token));
}

bool reject(Message& why, std::string_view prefix, std::string_view token, std::string_view suffix) {
  why.assign(prefix);
  why.append_quoted(token);
  why.append(suffix);
  return false;
}

void Message::append_decimal(std::int64_t value) {
  char digits[21];
  const char* const d = format_decimal(digits, value);
  append(std::string_view(d, static_cast<std::size_t>(digits + 21 - d)));
}

void Message::append_quoted(std::string_view token) {
  if (kCapacity - size_ >= kMaxQuotedBytes) {
    size_ = static_cast<std::size_t>(write_quoted(bytes_ + size_, token) - bytes_);
    return;
  }
  char text[kMaxQuotedBytes];  // (no message comes this close to the capacity)
  append(std::string_view(text, static_cast<std::size_t>(write_quoted(text, token) - text)));
}

char* write_quoted(char* at, std::string_view token) {
  static constexpr char kHex[] = "0123456789abcdef";
  *at++ = '\'';
  std::size_t i = 0, shown = 0;  // token[shown, i) is waiting to be copied as it is
  while (i < token.size() && i < kMaxQuoted) {
    const unsigned char c = static_cast<unsigned char>(token[i]);
    if (c >= 0x20 && c < 0x7F) {  // printable ASCII: as it is
      ++i;
      continue;
    }
    std::size_t n = utf8_sequence_length(token, i);
    // A byte-order mark (EF BB BF) shows nothing either: a stray one in a
    // message would be invisible.
    const bool bom = n == 3 && token.substr(i, 3) == "\xEF\xBB\xBF";
    if (is_c1_control(token, i, n) || is_bidi_control(token, i, n) || bom) n = 0;  // escape every byte
    if (n == 0 || (n == 1 && is_control(c))) {
      copy_short(at, token.data() + shown, i - shown);
      at += i - shown;
      at[0] = '\\';
      at[1] = 'x';
      at[2] = kHex[c >> 4];
      at[3] = kHex[c & 15];
      at += 4;
      shown = ++i;
    } else {
      i += n;
    }
  }
  copy_short(at, token.data() + shown, i - shown);
  at += i - shown;
  if (i < token.size()) {
    std::memcpy(at, "...'", 4);
    return at + 4;
  }
  *at++ = '\'';
  return at;
}

}  // namespace slowstart
