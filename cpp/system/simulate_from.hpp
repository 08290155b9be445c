// `slowstart simulate` with your own system (docs/YOUR-SYSTEM.md):
//
//   --from FILE         a proxy's configuration sets the pool and the options
//                       (the command line's own options override the file's)
//   --from-format F     nginx, haproxy, envoy, caddy or alb (default: told from the text)
//   --from-pool NAME    the upstream, backend, cluster or site to read
//   --explain           print what the file became instead of running
//   --emit FORMAT       print the options in force as nginx, nginx-plus, haproxy,
//                       envoy, caddy or alb configuration instead of running
//
// The file's per-server slow start (HAProxy `slowstart`, NGINX Plus
// `slow_start`, Envoy `slow_start_config`, ...) becomes the lab's own
// `--slow-start S`: the balancer's rule decides which joins and recoveries
// ramp, and the ramps written on the script's ADD and UP lines are not used.
// Without any of them, simulate runs as it always has (the same bytes).
// The file's pool is the script's first lines (POOL, then DOWN for the
// servers that start down), so the script may name its servers; the
// script's diagnostics keep the script's own line numbers.
#pragma once
#include <string>
#include <vector>

#include "system/fit_command.hpp"
#include "system/imported.hpp"
#include "traffic/simulate_command.hpp"

namespace slowstart::system {

// What the file gives a simulation (or the problem that stops it).
struct FromFile {
  std::string path;
  std::optional<ConfigFormat> format;
  std::string pool;
  ImportedConfig config;
  std::vector<std::string> args;        // the file's settings the lab knows, as arguments
  std::vector<ImportedNote> unknown;    // settings this lab has no option for (listed with the ignored)
};

// The options of your own system taken out of `args` (the rest is simulate's).
struct SystemArgs {
  std::string from, from_format, from_pool;
  bool explain = false;
  std::string emit;        // --emit FORMAT: the configuration instead of a run
  bool any() const { return !from.empty() || explain || !emit.empty(); }
};
Problem take_system_args(std::vector<std::string>& args, SystemArgs& out);

// Reads and imports the file; false with the message to print.
bool read_from(const SystemArgs& a, const FileReader& read, FromFile& out, std::string& problem);

// The simulation: the file's settings, then the command line's, parsed as
// simulate parses them; the script with the file's pool before it and the
// window in the options (--slow-start). False with the message to print.
struct Prepared {
  simulate_command::SimulateArgs sim;
  std::vector<std::string> args;  // the file's and the command line's, as parsed
  std::string script;             // what runs: the prelude, then the body
  std::string prelude, body;      // the file's pool, the script as read
  std::uint64_t prelude_lines = 0;
};
bool prepare(const FromFile* from, const std::vector<std::string>& args, const FileReader& read,
             Prepared& out, std::string& problem);

// --emit's text: the options in force as `format`'s configuration, the pool
// the file's (or the script's first POOL); `window`: the slow start to write (0: none).
std::string emit_text(const std::string& format, const FromFile* from, const Prepared& p, double window);

// --explain's text: the file, its pool, each option with its line, what
// is not modelled, the notes, and the command line's overrides.
std::string explain(const FromFile& from, const std::vector<std::string>& user_args);

// The whole subcommand, in place of simulate_command::run_simulate.
int run_simulate_system(const std::vector<std::string>& args, const FileReader& read, std::string& out,
                        std::string& err);

}  // namespace slowstart::system
