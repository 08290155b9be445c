// The SPEC's rules for names and numbers, and the wording of their
// diagnostics. The script parser and the imperative API both go through
// these, so a bad value gets the same message from every front end.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "spec/limits.hpp"
#include "fast/short_bytes.hpp"

namespace slowstart {

// A problem with a line or an argument; empty means "fine".
using Problem = std::optional<std::string>;

// The most bytes quote() writes: the quotes, "...", and every byte it shows
// (up to kMaxQuoted, plus the rest of a UTF-8 sequence that starts before
// the cut) escaped as \xNN.
inline constexpr std::size_t kMaxQuotedBytes = 1 + 4 * (kMaxQuoted + 3) + 4;

// A diagnostic's text, written in place: the script interpreter builds every
// message of a rejected line in one of these, kept from line to line, so
// that a script of bad lines allocates nothing (performance log PL-2). It
// holds any message of the language (one quoted token, a fixed prefix and
// suffix); past its capacity, bytes would be cut, never written outside.
class Message {
 public:
  static constexpr std::size_t kCapacity = kMaxQuotedBytes + 256;
  void clear() { size_ = 0; }
  std::string_view view() const { return {bytes_, size_}; }
  void append(std::string_view s) {
    const std::size_t n = s.size() < kCapacity - size_ ? s.size() : kCapacity - size_;
    copy_short(bytes_ + size_, s.data(), n);
    size_ += n;
  }
  void append_decimal(std::int64_t value);
  // quote(token).
  void append_quoted(std::string_view token);
  void assign(std::string_view s) { clear(), append(s); }

 private:
  char bytes_[kCapacity];  // (not initialised: only [0, size_) is read)
  std::size_t size_ = 0;
};

// Sets `why` to "<prefix>'token'<suffix>" (quote(token)) and returns false:
// how a check reports what failed.
bool reject(Message& why, std::string_view prefix, std::string_view token, std::string_view suffix = {});

// The API's form of a check written into a Message.
inline Problem problem_of(bool ok, const Message& why) {
  if (ok) return std::nullopt;
  return std::string(why.view());
}

enum class Quantity { Weight, Ramp, Time };

// "weight", "ramp" or "time", as used in messages.
std::string_view quantity_name(Quantity q);
std::int64_t quantity_limit(Quantity q);

// A plain decimal integer (digits only, no sign) within the quantity's limit.
Problem parse_quantity(std::string_view token, Quantity q, std::int64_t& out);

// parse_quantity for a token that arrives in pieces (a line may be longer
// than any buffer): add() each piece, then finish() with the token's first
// bytes (what quote() shows of it). Holds no more than a number.
class QuantityScan {
 public:
  void add(std::string_view piece);
  // True with the value in `out`, or false with the problem in `why`.
  bool finish(Quantity q, std::string_view shown, std::int64_t& out, Message& why) const;

 private:
  std::int64_t value_ = 0;  // saturates just above every limit
  bool empty_ = true, digits_ = true;
};
// The same limits for a value that is already a number.
Problem check_quantity(std::int64_t value, Quantity q);

// A backend name: a non-empty run of non-blank bytes, no '=', valid UTF-8,
// no control characters (they would corrupt the output lines) and no
// bidirectional controls (a name must show what it is).
Problem check_name(std::string_view name);
// The same check of `name` (or of a part of a longer name, cut before a
// byte that starts a UTF-8 sequence), with `shown` (the name's first bytes)
// quoted in the message.
Problem check_name(std::string_view name, std::string_view shown);
// The same, true when the name is fine, else false with the problem in `why`.
bool check_name(std::string_view name, std::string_view shown, Message& why);

// 'token' for a message: control characters, bidirectional controls, the
// byte-order mark and bytes that are not valid UTF-8 are written as \xNN (each byte), and
// anything past kMaxQuoted bytes becomes "...". Diagnostics are therefore
// always printable UTF-8 that displays in the order it is written.
std::string quote(std::string_view token);
// The same written at `at` (room for kMaxQuotedBytes); returns its end.
char* write_quoted(char* at, std::string_view token);
// The same appended to `out`, and a message "<prefix>'token'<suffix>" built
// in one string (messages are built often: a script may be all bad lines).
void append_quoted(std::string& out, std::string_view token);
std::string quoted(std::string_view prefix, std::string_view token, std::string_view suffix = {});

// Length of the valid UTF-8 sequence starting at s[i], or 0 if invalid.
std::size_t utf8_sequence_length(std::string_view s, std::size_t i);

}  // namespace slowstart
