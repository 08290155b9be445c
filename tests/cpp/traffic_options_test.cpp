// The Traffic lab's option table (cpp/traffic/option_table.*): the CLI's
// parser, its help, --summary json and the way back to a command line are
// all made from it, so an option added there works everywhere, and one that
// is not there works nowhere.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "core/split_mix64.hpp"
#include "traffic/option_table.hpp"
#include "traffic/simulate_command.hpp"

namespace {

using namespace slowstart;
using simulate_command::parse_simulate_args;
using simulate_command::SimulateArgs;

TEST(TrafficOptionTable, EveryOptionHasOneFlagOneKeyAndOneJsonKey) {
  std::set<std::string> flags, keys, json;
  for (const TrafficOption& o : traffic_option_table()) {
    if (o.flag) EXPECT_TRUE(flags.insert(o.flag).second) << o.flag;
    if (o.key) EXPECT_TRUE(keys.insert(o.key).second) << o.key;
    if (o.json) EXPECT_TRUE(json.insert(o.json).second) << o.json;
    EXPECT_GT(std::string(o.help).size(), 10u) << o.label;
    if (o.when_key) EXPECT_NE(find_option_by_key(o.when_key), nullptr) << o.label << " depends on " << o.when_key;
    EXPECT_EQ(o.flag == nullptr, o.kind == ValueKind::Fixed) << o.label;
  }
  EXPECT_EQ(flags.size(), 62u);  // the lab's options (the report's --csv, --summary, --help are the command's)
}

TEST(TrafficOptionTable, TheHelpListsEveryFlagWithItsDefaultAndRange) {
  const std::string help = simulate_command::simulate_usage();
  for (const TrafficOption& o : traffic_option_table())
    if (o.flag) EXPECT_NE(help.find(std::string("  ") + o.flag + (*o.metavar ? " " : "")), std::string::npos) << o.flag;
  EXPECT_NE(help.find("--retries N           retry a failed request on another backend (envoy: on\n"
                      "                        any, after a back-off) (0 to 100; default 0)"),
            std::string::npos)
      << help;
  // The same words, however the lines wrap.
  std::string words;
  for (const char c : help)
    if (c != ' ' && c != '\n') words += c;
  for (const char* said : {"(wrr,least-request,random,p2c,least-conn,round-robin,caddy-least-conn,nginx-least-conn,haproxy-leastconnorstatic-rr;defaultwrr)", "(default0:none)",
                           "(default10spastthelastramp)", "(0to100;default10)"})
    EXPECT_NE(words.find(said), std::string::npos) << said;
  for (std::size_t at = 0, end; at < help.size(); at = end + 1) {
    end = help.find('\n', at);
    EXPECT_LE(end - at, 79u) << help.substr(at, end - at);
  }
}

TEST(TrafficOptionTable, EachFlagIsParsedIntoItsField) {
  // Every flag of the table, once, by the CLI's parser: each lands where the table says.
  for (const TrafficOption& o : traffic_option_table()) {
    if (!o.flag) continue;
    std::vector<std::string> args = {o.flag};
    std::string value;
    switch (o.kind) {
      case ValueKind::Number: value = o.max < 1e300 ? "3" : "7.5"; break;
      case ValueKind::Whole: value = "3"; break;
      case ValueKind::Level: value = "16"; break;
      case ValueKind::Choice: value = o.choices.back(); break;
      case ValueKind::Seed: value = "18446744073709551615"; break;
      case ValueKind::Switch: break;
      case ValueKind::Fixed: break;
    }
    if (!value.empty()) args.push_back(value);
    args.insert(args.end(), {"--timeout-ms", "5"});  // so that a health check is allowed
    SimulateArgs parsed;
    ASSERT_EQ(parse_simulate_args(args, parsed), std::nullopt) << o.flag << " " << value;
    if (o.kind == ValueKind::Seed) {
      EXPECT_EQ(parsed.options.seed, 18446744073709551615ull);
    } else if (o.kind == ValueKind::Switch) {
      EXPECT_FALSE(option_is_default(o, parsed.options)) << o.flag;
    } else if (o.key != std::string("timeoutMs")) {
      EXPECT_EQ(option_text(o, parsed.options), value) << o.flag;
    }
    if (o.implies_service) EXPECT_TRUE(parsed.options.service.enabled) << o.flag;
  }
}

TEST(TrafficOptionTable, ValuesOutOfRangeAreNamedWithWhatTheyTake) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> bad = {
      {{"--rps", "0"}, "rps must be a number above 0"},
      {{"--rps", "x"}, "--rps takes a number, got 'x'"},
      {{"--duration", "-1"}, "duration must be a number of seconds, 0 or more"},
      {{"--cold-factor", "0.5"}, "cold factor must be a number, 1 or more"},
      {{"--min-weight", "101"}, "min-weight must be a number of percent from 0 to 100"},
      {{"--workers", "2.5"}, "--workers takes a whole number from 1 to 10000, got '2.5'"},
      {{"--fail-timeout", "0"}, "--fail-timeout takes a whole number of seconds from 1 to 1000000, got '0'"},
      {{"--resolution", "1e1"}, "resolution must be 0, 1, 16, 100 or 1000, got '1e1'"},
      {{"--curve", "cubic"}, "curve must be linear, envoy or haproxy, got 'cubic'"},
      {{"--seed", "-1"}, "--seed takes a whole number, got '-1'"},
      {{"--no-slow-start=1"}, "--no-slow-start takes no value"},
      {{"--health", "nginx"}, "health checks need failures: set a timeout"},
  };
  for (const auto& [args, message] : bad) {
    SimulateArgs parsed;
    EXPECT_EQ(parse_simulate_args(args, parsed), message) << args[0];
  }
}

TEST(TrafficOptionTable, NumbersAreWrittenExactlyEnoughToReadBack) {
  EXPECT_EQ(exact_number(1000), "1000");
  EXPECT_EQ(exact_number(0.25), "0.25");
  EXPECT_EQ(exact_number(0.1), "0.1");
  EXPECT_EQ(exact_number(1e-300), "1e-300");
  EXPECT_EQ(exact_number(1.0 / 3), "0.3333333333333333");  // 16 digits read back; 15 do not
  EXPECT_EQ(exact_number(1e15), "1e+15");
  EXPECT_EQ(exact_number(999999999999999), "999999999999999");
  EXPECT_EQ(exact_number(-2.5), "-2.5");
}

TEST(TrafficOptionTable, SummaryJsonShowsTheOptionsThatApply) {
  TrafficOptions o;
  EXPECT_EQ(options_json(o),
            "{\"rps\": 1000, \"duration\": 0, \"bucket\": 1, \"curve\": \"linear\", \"resolution\": 100, \"policy\": "
            "\"wrr\", \"ramp_by\": \"scale\", \"slow_start\": true, \"seed\": 1, \"service\": null, \"timeout_ms\": 0, "
            "\"retries\": 0, \"health\": {\"kind\": \"none\"}, \"stable_margin\": 50}");
  o.rps = 1e-300;
  o.curve.kind = CurveKind::Envoy;
  o.policy = Policy::LeastRequest;
  o.service.enabled = true;
  o.service.warm_by = WarmBy::Requests;
  o.timeout_ms = 12.5;
  o.health.kind = HealthKind::HAProxy;
  EXPECT_EQ(options_json(o),
            "{\"rps\": 1e-300, \"duration\": 0, \"bucket\": 1, \"curve\": \"envoy\", \"resolution\": 1000, "
            "\"aggression\": 1, \"min_weight\": 10, \"policy\": \"least-request\", \"ramp_by\": \"scale\", "
            "\"slow_start\": true, \"seed\": 1, \"bias\": 1, \"choice_count\": 2, \"service\": {\"service_ms\": 200, \"cold_factor\": 5, "
            "\"warmup\": 30, \"workers\": 128, \"warm_by\": \"requests\", \"warmup_requests\": 10000}, "
            "\"timeout_ms\": 12.5, \"retries\": 0, \"health\": {\"kind\": \"haproxy\", \"observe\": \"layer7\", "
            "\"error_limit\": 10, \"on_error\": \"fail-check\", \"inter\": 2, \"fastinter\": 0, \"downinter\": 0, "
            "\"rise\": 2, \"fall\": 3, \"check_ms\": 3, \"legacy_fastinter\": false}, \"stable_margin\": 50}");
}

// Options to arguments and back: any options, written by to_arguments, read
// by the CLI's parser, are the same options (as --summary json shows them).
TEST(TrafficOptionTable, ArgumentsReadBackAsTheSameOptions) {
  SplitMix64 rng(31);
  const auto pick = [&](std::size_t n) { return static_cast<std::size_t>(rng.below(n)); };
  for (int round = 0; round < 500; ++round) {
    TrafficOptions o;
    for (const TrafficOption& option : traffic_option_table()) {
      if (pick(3) != 0) continue;  // about a third of the options set
      switch (option.kind) {
        case ValueKind::Number: {
          const double lo = option.above_min ? option.min + 0.001 : option.min;
          const double hi = option.max < 1e12 ? option.max : option.min + 5000;
          const double v = lo + (hi - lo) * static_cast<double>(pick(1'000'001)) / 1e6;
          double whole = std::floor(v);
          if (option.above_min && whole <= option.min) whole = option.min + 1;
          ASSERT_EQ(set_option_number(option, pick(2) ? v : whole, o), std::nullopt) << option.label;
          break;
        }
        case ValueKind::Whole:
          ASSERT_EQ(set_option_number(option, option.min + static_cast<double>(pick(static_cast<std::size_t>(std::min(option.max - option.min, 100.0)) + 1)), o), std::nullopt);
          break;
        case ValueKind::Level:
        case ValueKind::Choice:
          ASSERT_EQ(set_option_text(option, option.choices[pick(option.choices.size())], o), std::nullopt);
          break;
        case ValueKind::Switch:
          ASSERT_EQ(set_option_number(option, static_cast<double>(pick(2)), o), std::nullopt);
          break;
        case ValueKind::Seed:
          o.seed = rng.next();
          break;
        case ValueKind::Fixed:
          break;
      }
    }
    if (o.health.kind != HealthKind::None && o.timeout_ms == 0) o.timeout_ms = 250;
    if (o.timeout_ms > 0) o.service.enabled = true;
    ASSERT_EQ(check_traffic_options(o), std::nullopt) << options_json(o);
    SimulateArgs back;
    const std::vector<std::string> args = to_arguments(o);
    ASSERT_EQ(parse_simulate_args(args, back), std::nullopt) << options_json(o);
    EXPECT_EQ(options_json(back.options), options_json(o));
    EXPECT_EQ(to_arguments(back.options), args);
  }
}

}  // namespace
