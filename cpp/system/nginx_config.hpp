// nginx: an `upstream {}` block (open source, NGINX Plus's and nginx-mod's
// `slow_start`) and the proxy_* (grpc_*, fastcgi_*, uwsgi_*, scgi_*) timeouts
// and next-upstream rules in force where a location passes requests to it,
// inherited from http and server as nginx inherits them; stream {} upstreams
// and their proxy_timeout too. docs/YOUR-SYSTEM.md lists what maps to what.
#pragma once
#include <string_view>

#include "system/imported.hpp"

namespace slowstart::system {

// Reads the upstream named `pool`, or (empty) the one a location passes
// requests to (the first, when several), or the first upstream of the
// file. False with `error` when the file does not parse or has no pool.
bool read_nginx(std::string_view text, std::string_view pool, ImportedConfig& out, ConfigError& error);

}  // namespace slowstart::system
