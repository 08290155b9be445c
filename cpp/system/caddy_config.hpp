// Caddy: a Caddyfile's `reverse_proxy` (to, lb_policy, lb_retries,
// lb_try_duration, fail_duration, max_fails, unhealthy_latency, transport
// http's response_header_timeout) and the proposal's `lb_slow_start`, read
// as a proposal (no Caddy release has it). docs/YOUR-SYSTEM.md lists what
// maps to what.
#pragma once
#include <string_view>

#include "system/imported.hpp"

namespace slowstart::system {

// Reads the reverse_proxy of the site whose address is `pool` (or, empty,
// the file's first reverse_proxy). False with `error` when the file does
// not parse or has no reverse_proxy.
bool read_caddy(std::string_view text, std::string_view pool, ImportedConfig& out, ConfigError& error);

}  // namespace slowstart::system
