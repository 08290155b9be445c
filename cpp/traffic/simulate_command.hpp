// `slowstart simulate`: argument parsing and output formatting, shared by the
// native CLI and the Node CLI (through the WASM module) so both print the
// same bytes. Only file reading differs between the two.
#pragma once
#include <string>
#include <vector>

#include "traffic/traffic.hpp"
#include "core/validate.hpp"

namespace slowstart::simulate_command {

// `slowstart simulate --help`: the option table's usage and the report's options.
std::string simulate_usage();

struct SimulateArgs {
  TrafficOptions options;
  std::string path;  // empty or "-": standard input
  bool csv = false;
  bool summary = false;  // --summary json: one JSON object instead of the table
  bool help = false;
};

// Parses the arguments after "simulate".
Problem parse_simulate_args(const std::vector<std::string>& args, SimulateArgs& out);

// The report: a table of shares (and, with the service model, outstanding
// requests and latency) per bucket, or CSV with one row per bucket and
// backend.
std::string format_simulation(const TrafficResult& result, const SimulateArgs& args);

// --summary json: the options in force, unrouted requests, stable_at and
// per backend requests, failed, retried, ejections and seconds ejected.
std::string format_summary(const TrafficResult& result, const SimulateArgs& args);

// The script's diagnostics in the CLI's "line N: ..." form, then the
// problem that stopped the simulation, if any.
std::string format_diagnostics(const TrafficResult& result);
// The note that --slow-start leaves the ramps on these script lines unused ("" for none).
std::string ignored_ramps_note(const std::vector<std::uint64_t>& lines);

}  // namespace slowstart::simulate_command

#include <functional>

namespace slowstart::simulate_command {

// Reads a script: path "" or "-" means standard input; no more than
// `max_bytes` of it (a longer script is refused, and a file such as
// /dev/zero is never read to its end). Returns a problem text such as
// "cannot open 'x': No such file or directory".
using ScriptReader = std::function<Problem(const std::string& path, std::size_t max_bytes, std::string& text)>;

// The most bytes the report (the table or the CSV) can take for this result:
// the budget's check before it is written (kMaxReportBytes).
std::size_t report_bytes_bound(const ScenarioSize& size, const SimulateArgs& args);

// The whole subcommand. Returns the exit status: 0 fine, 1 some script line
// was rejected, 2 bad options, an unreadable script, or a script, a
// simulation or a report over the work budget (traffic/budget.hpp).
int run_simulate(const std::vector<std::string>& args, const ScriptReader& read, std::string& out,
                 std::string& err);

}  // namespace slowstart::simulate_command
