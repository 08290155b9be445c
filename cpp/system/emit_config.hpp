// The lab's options written back as a proxy's configuration (`--emit`):
// what `simulate` ran with, or what `recommend` found, as lines to paste.
// Reading the emitted text with --from gives back the same options (the
// round-trip tests, tests/cpp/system_emit_test.cpp); what a format cannot
// say is said in its comments (NGINX's open-source build has no slow_start,
// an ALB's window is 30 to 900 s, no check but nginx's in a Caddyfile...).
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "core/validate.hpp"
#include "system/imported.hpp"
#include "traffic/traffic.hpp"

namespace slowstart::system {

enum class EmitFormat { Nginx, NginxPlus, HAProxy, Envoy, Caddy, Alb };
Problem parse_emit_format(std::string_view text, EmitFormat& out);

struct EmitInput {
  std::string pool = "backend";           // the upstream's, backend's or cluster's name
  std::vector<ImportedServer> servers;    // the pool at the start
  TrafficOptions options;
  double slow_start = 0;                  // seconds: every join and recovery ramps (0: none)
  double panic_threshold = -1;            // Envoy's, when the lab has it (-1: not written)
};

// The configuration text; its first lines are comments that say what it is
// and what it could not say.
std::string emit_config(EmitFormat format, const EmitInput& in);

// The pool at the start of a script: its first POOL line's backends (and
// those its next lines, before any NOW, take DOWN), as the emitters need.
std::vector<ImportedServer> script_pool(std::string_view script);

}  // namespace slowstart::system
