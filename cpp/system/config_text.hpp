// What the configuration readers share: each software's way of writing a
// duration, names made fit for the script, numbers written back as the
// command line reads them, and a directive quoted for a message.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace slowstart::system {

// Durations, in seconds. False when the text is not one.
//   nginx    ngx_parse_time: 30s, 500ms, 1m30s, 2h, 1d, 1w, 1M, 1y; a bare number is seconds
//   haproxy  30s, 500ms, 100us, 1m, 2h, 1d; a bare number is milliseconds
//   go       Caddy (Go's time.ParseDuration and Caddy's d): 1.5s, 300ms, 2h45m, 1d; "0" alone
//   envoy    a protobuf Duration as JSON writes it: "30s", "0.25s" (seconds, with the s)
bool nginx_seconds(std::string_view text, double& seconds);
bool haproxy_seconds(std::string_view text, double& seconds);
bool go_seconds(std::string_view text, double& seconds);
bool envoy_seconds(std::string_view text, double& seconds);

// A plain whole number (digits only) at most `max`.
bool whole_number(std::string_view text, std::uint64_t max, std::uint64_t& out);
// A plain decimal number: digits, an optional fraction, no sign or exponent.
bool decimal_number(std::string_view text, double& out);

// A number as the command line reads it back exactly: 1000, 0.5, 1.25
// (up to 6 decimals, no trailing zeros).
std::string number_text(double value);

// A server's name for the script: non-blank bytes without '=' (the SPEC's
// names), control and bidirectional characters replaced by '_', unique among
// `taken` (a second "x" becomes "x#2"); empty becomes `fallback`.
std::string script_name(std::string_view raw, std::string_view fallback, std::vector<std::string>& taken);

// Text as a message may show it whole: every byte of a control character,
// a bidirectional control, a byte-order mark or invalid UTF-8 written as \xNN (what quote()
// does, without its quotes and its 60-byte cut).
std::string printable(std::string_view text);

// A JSON string literal of the text: quotes, backslashes and control bytes
// escaped (the text's other bytes as they are).
std::string json_string(std::string_view text);

// A directive as a message shows it: whitespace runs as one space, at most
// 60 bytes ("..." after), control bytes as \xNN (core's quote()).
std::string directive_text(std::string_view text);

}  // namespace slowstart::system
