#include "decimal.hpp"
#include "validate.hpp"

#include "limits.hpp"

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

static std::string not_an_integer(std::string_view shown, Quantity q) {
  std::string m(quantity_name(q));
  m += " must be a non-negative integer, got ";
  append_quoted(m, shown);
  return m;
}

static std::string over_limit(std::string_view shown, Quantity q) {
  std::string m(quantity_name(q));
  m += " must be at most ";
  append_decimal(m, quantity_limit(q));
  m += ", got ";
  append_quoted(m, shown);
  return m;
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

Problem QuantityScan::finish(Quantity q, std::string_view shown, std::int64_t& out) const {
  if (empty_ || !digits_) return not_an_integer(shown, q);
  if (value_ > quantity_limit(q)) return over_limit(shown, q);
  out = value_;
  return std::nullopt;
}

Problem parse_quantity(std::string_view token, Quantity q, std::int64_t& out) {
  QuantityScan scan;
  scan.add(token);
  return scan.finish(q, token, out);
}

Problem check_quantity(std::int64_t value, Quantity q) {
  if (value < 0) return not_an_integer(decimal(value), q);
  if (value > quantity_limit(q)) return over_limit(decimal(value), q);
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
  if (name.empty()) return std::string("backend name is empty");
  for (std::size_t i = 0; i < name.size();) {
    const unsigned char c = static_cast<unsigned char>(name[i]);
    if (c == '=') return quoted("backend name must not contain '=', got ", shown);
    if (c == ' ' || c == '\t') return quoted("backend name must not contain blanks, got ", shown);
    if (is_control(c)) return quoted("backend name must not contain control characters, got ", shown);
    const std::size_t n = utf8_sequence_length(name, i);
    if (n == 0) return quoted("backend name must be valid UTF-8, got ", shown);
    if (is_c1_control(name, i, n))
      return quoted("backend name must not contain control characters, got ", shown);
    if (is_bidi_control(name, i, n))
      return quoted("backend name must not contain bidirectional controls, got ", shown);
    i += n;
  }
  return std::nullopt;
}

std::string quote(std::string_view token) { return quoted({}, token); }

std::string quoted(std::string_view prefix, std::string_view token, std::string_view suffix) {
  std::string out;
  out.reserve(prefix.size() + token.size() + suffix.size() + 8);
  out.append(prefix);
  append_quoted(out, token);
  out.append(suffix);
  return out;
}

void append_quoted(std::string& out, std::string_view token) {
  static constexpr char kHex[] = "0123456789abcdef";
  out += '\'';
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
      out.append(token.substr(shown, i - shown));
      const char escaped[4] = {'\\', 'x', kHex[c >> 4], kHex[c & 15]};
      out.append(escaped, 4);
      shown = ++i;
    } else {
      i += n;
    }
  }
  out.append(token.substr(shown, i - shown));
  out.append(i < token.size() ? "...'" : "'");
}

}  // namespace slowstart
