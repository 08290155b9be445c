// HAProxy: a `backend` (or `listen`) with the `defaults` section it inherits
// (the last one before it, or the one named by `from`): balance, server and
// server-template lines with default-server's parameters, slowstart, the
// checks (check, inter, fastinter, downinter, rise, fall, observe,
// error-limit, on-error), timeout server, retries, retry-on and option
// redispatch. docs/YOUR-SYSTEM.md lists what maps to what.
#pragma once
#include <string_view>

#include "system/imported.hpp"

namespace slowstart::system {

// Reads the backend or listen section named `pool`, or (empty) the one the
// first frontend sends to (default_backend, else the first use_backend), or
// the first that has servers. False with `error` when the file does not
// parse or has no such section.
bool read_haproxy(std::string_view text, std::string_view pool, ImportedConfig& out, ConfigError& error);

}  // namespace slowstart::system
