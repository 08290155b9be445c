// The Traffic lab's options, one table: each option's CLI flag, API key,
// JSON key, default, range, help text and group. Everything that reads,
// writes, checks or shows an option is derived from it:
//   the CLI's parser and `simulate --help` (traffic/simulate_command.*),
//   `--summary json`'s "options" object (write_options_json),
//   the API's reader of a JavaScript TrafficOptions (cpp/wasm/lab_bindings.cpp),
//     its defaults (`trafficDefaults`) and the table itself for the page
//     (`trafficOptionTable`: its controls and its "Copy as command"),
//   the TypeScript types (tests/web/unit/traffic-options.test.ts fails when
//     web/api/lab.ts or cpp/wasm/lab.d.mts drift from it),
//   the checks (check_traffic_options) and the way back to a command line
//     (to_arguments: the argument list that gives these options).
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "traffic/options.hpp"

namespace slowstart {

// How the table groups the options (the help text's sections, the tab's).
enum class OptionGroup : std::uint8_t { Load, Policy, ServiceModel, Retries, HealthCheck, Output };
template <>
struct Names<OptionGroup> {
  static constexpr const char* label = "group";
  static constexpr std::array<const char*, 6> list = {"load", "policy", "service model", "retries", "health check", "output"};
};
static_assert(Names<OptionGroup>::list.size() == static_cast<std::size_t>(OptionGroup::Output) + 1);

// What an option's value is.
enum class ValueKind : std::uint8_t {
  Number,  // a finite number in [min, max] (or (min, max] when above_min)
  Whole,   // a whole number in [min, max]
  Level,   // one of a few numbers (`choices`, written as numbers): the resolution
  Choice,  // one of `choices` (an enum's names)
  Switch,  // on or off (a flag without a value; in the API a boolean)
  Seed,    // a whole number, 0 to 2^64 - 1 (the API: to 2^53 - 1)
  Fixed,   // not an option: a rule the model always applies, shown in JSON (`fixed`)
};
template <>
struct Names<ValueKind> {
  static constexpr const char* label = "kind";
  static constexpr std::array<const char*, 7> list = {"number", "whole", "level", "choice", "switch", "seed", "fixed"};
};
static_assert(Names<ValueKind>::list.size() == static_cast<std::size_t>(ValueKind::Fixed) + 1);

// Where an option's value lives in TrafficOptions, as a number (an enum as
// its index, a switch as 0 or 1); the seed, which a double cannot hold, has
// its own pair.
struct OptionField {
  double (*get)(const TrafficOptions&) = nullptr;
  void (*set)(TrafficOptions&, double) = nullptr;
};

struct TrafficOption {
  const char* flag = nullptr;   // "--rps"; nullptr for a Fixed rule
  const char* metavar = "";     // "N" in "--rps N"; "" for a switch
  const char* key = nullptr;    // the API's key, a path: "rps", "curve.kind", "service.baseMs"; nullptr: not in the API
  const char* json = nullptr;   // --summary json's key, a path: "service.service_ms"; nullptr: not shown
  const char* label = "";       // what messages call it: "service time must be ..."
  OptionGroup group = OptionGroup::Load;
  ValueKind kind = ValueKind::Number;
  double min = 0, max = 0;      // Number, Whole: the range
  bool above_min = false;       // Number: min itself is not allowed
  const char* unit = "";        // "seconds", "milliseconds", "percent" or ""
  const char* zero = "";        // what 0 means, for messages ("none"), or ""
  std::span<const char* const> choices = {};  // Level, Choice
  const char* help = "";        // one short sentence for --help and the page
  const char* default_text = "";  // how --help shows a default that is no plain value ("10 s past the last ramp")
  // When the option takes effect (and --summary json shows it): while the
  // option `when_key` (itself in effect) has the value `when_value`
  // ("curve.kind" "envoy"; a switch's values are "true" and "false"); always
  // when when_key is null.
  const char* when_key = nullptr;
  const char* when_value = nullptr;
  OptionField field = {};
  std::uint64_t& (*seed)(TrafficOptions&) = nullptr;  // ValueKind::Seed
  const char* fixed = nullptr;  // ValueKind::Fixed: the value shown
  bool implies_service = false;  // the CLI turns the service model on when it is set
  // --summary json shows it only when it is not at its default (an option
  // whose default changes nothing: the summaries of runs without it stay the same bytes).
  bool json_when_set = false;
  // The value in force, when the field may hold "the default's own" (a
  // resolution of 0 is the curve's): what option_text and --summary json show.
  double (*shown)(const TrafficOptions&) = nullptr;
};

// The table, in --summary json's order (the help text's too).
std::span<const TrafficOption> traffic_option_table();
// The entry with this flag ("--rps") or API key ("curve.kind"), or nullptr.
const TrafficOption* find_option_by_flag(std::string_view flag);
const TrafficOption* find_option_by_key(std::string_view key);

// Whether `option` takes effect under `o` (its `applies`).
bool option_applies(const TrafficOption& option, const TrafficOptions& o);

// What a value of `option` has to be, for messages: "a number of seconds above 0",
// "between 0 and 5", "wrr, least-request, ... or round-robin".
std::string option_takes(const TrafficOption& option);

// Sets `option` from text as the CLI reads it ("2.5", "envoy"); for a switch,
// `text` is ignored. A problem in the CLI's wording: "--x takes a number,
// got 'v'" for a value of the wrong kind, the option's own check for a value
// out of range, "policy must be ..., got 'x'" for a name it does not know.
Problem set_option_text(const TrafficOption& option, std::string_view text, TrafficOptions& o);
// Sets a Number, Whole, Level or Switch option from a number (the API's),
// checked as check_option does.
Problem set_option_number(const TrafficOption& option, double value, TrafficOptions& o);

// The option's value as text: as the CLI takes it and as JSON shows it
// (numbers exactly enough to read back the same double, names as names).
std::string option_text(const TrafficOption& option, const TrafficOptions& o);
// Whether `o` holds the option's default.
bool option_is_default(const TrafficOption& option, const TrafficOptions& o);

// Checks one option's value against its range.
Problem check_option(const TrafficOption& option, const TrafficOptions& o);

// Checks every option, then the rules between them (a timeout needs the
// service model; a health check needs a timeout).
Problem check_traffic_options(const TrafficOptions& options);

// The options as --summary json writes them: `{"rps": 1000, ...}` (every
// option that applies, in the table's order, the service model and the
// health check as objects).
std::string options_json(const TrafficOptions& o);

// A number as JSON and as the CLI takes it: a whole number below 10^15 without
// a fraction, anything else in the fewest digits that read back the same double.
std::string exact_number(double v);

// The arguments of `slowstart simulate` that give `o` (the options not at
// their defaults, in the table's order): what the page's "Copy as command" copies.
std::vector<std::string> to_arguments(const TrafficOptions& o);

// The options part of `simulate --help`: the table by group, with ranges and defaults.
std::string options_usage();

// The service model and the health checks' parameters: the CLI's ways of
// setting them, kept for the callers that set one field (tests, the lab).
Problem set_workers(double workers, ServiceModel& service);
Problem parse_policy(std::string_view text, Policy& out);
Problem parse_ramp_by(std::string_view text, RampBy& out);
Problem parse_health(std::string_view text, HealthKind& out);
Problem parse_warm_by(std::string_view text, WarmBy& out);
const char* policy_name(Policy policy);
const char* health_name(HealthKind kind);
const char* warm_by_name(WarmBy warm);

}  // namespace slowstart
