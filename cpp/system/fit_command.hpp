// `slowstart fit`: a canary restart's log in, the cold start the simulator
// should use out. Shared by the native CLI and the Node CLI (through the
// lab module), so both print the same bytes; only file reading differs.
//
//   stdout   the `simulate` options to pass (one line), or with --json one
//            JSON object; with --convert the log as CSV (t,latency_ms,in_flight)
//   stderr   what was fitted, in words: each number with its band, which of
//            time and requests explains the data better and by how much
//   status   0 fitted, 1 the data cannot decide (stderr says why; --json
//            prints {"refused": ...}), 2 bad arguments or an unreadable file
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "core/validate.hpp"
#include "system/access_log.hpp"
#include "system/cold_fit.hpp"
#include "traffic/simulate_command.hpp"

namespace slowstart::system {

extern const char* const kFitUsage;

// Reads at most `max_bytes` of a file (path "" or "-": standard input):
// simulate's reader (traffic/simulate_command.hpp), one for every command.
using FileReader = simulate_command::ScriptReader;

// A file of the command's (a configuration, a log, fit's JSON, the script):
// at most kMaxScriptBytes (traffic/budget.hpp), so that /dev/zero or a huge
// file is refused rather than read whole; the problem names the file.
Problem read_file(const FileReader& read, const std::string& path, std::string& text);

int run_fit(const std::vector<std::string>& args, const FileReader& read, std::string& out, std::string& err);

// The fitted numbers as the command prints them (rounded once, so that
// the options, the JSON and the words all say the same numbers).
struct FitNumbers {
  double service_ms, cold_factor, warmup, warmup_requests;
  bool by_requests;
};
FitNumbers fit_numbers(const ColdFit& fit);
// "--service-ms 100.3 --cold-factor 6.02 --warm-by time --warmup 29.9"
std::string fit_options(const ColdFit& fit);
std::string fit_json(const ColdFit& fit);
// What was fitted, in words (the command's standard error).
std::string fit_summary(const ColdFit& fit, const CanaryLog& log);

// Reads a canary's log: an access log when `access` is set, else the CSV.
// False with the problem (naming the line) when it cannot.
bool read_canary(std::string_view text, const AccessLogOptions* access, CanaryLog& out, std::string& problem);

}  // namespace slowstart::system
