// The C++ tree's rooms and the one direction their includes may run
// (docs/ARCHITECTURE.md, CMakeLists.txt): read from the real source files,
// as tests/web/unit/import-rules.test.ts does for web/.
//
//   spec     <- fast <- core <- grading, traffic <- system <- wasm, cli
//
// Every project include names its room ("core/pool.hpp"), so that a reader
// and this test both see where it goes.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

// What each room may include besides itself.
const std::map<std::string, std::set<std::string>> kMayInclude = {
    {"spec", {}},
    {"fast", {"spec"}},
    {"core", {"spec", "fast"}},
    {"grading", {"spec", "fast", "core"}},
    {"traffic", {"spec", "fast", "core"}},
    {"system", {"spec", "fast", "core", "traffic"}},
    {"wasm", {"spec", "fast", "core", "grading", "traffic", "system"}},
    {"cli", {"spec", "fast", "core", "grading", "traffic", "system"}},
};

// Single files allowed across an otherwise closed edge, with the reason.
const std::set<std::pair<std::string, std::string>> kExceptions = {
    // The help text both CLIs print: the Node CLI's is the engine module's.
    {"wasm", "cli/usage.hpp"},
};

// Inside the traffic room, its units (docs/ARCHITECTURE.md, "The traffic
// engine"): each may include only the units listed; a unit of traffic/ that
// is not listed here fails the test. The balancers' health checks know the
// fleet but not each other; the policies, the service model and the ramps
// know neither the checks nor each other; only the event loop (traffic) and
// the command (simulate_command) see everything.
const std::map<std::string, std::set<std::string>> kTrafficUnits = {
    {"names", {}},
    {"curves", {"names"}},
    {"options", {"curves", "names"}},
    {"option_table", {"options", "curves", "names"}},
    {"result", {}},
    {"budget", {"options", "curves", "names"}},
    {"fleet", {}},
    {"policies", {}},
    {"least_conn", {}},
    {"health_nginx", {"fleet", "budget", "options", "curves", "names"}},
    {"health_haproxy", {"fleet", "budget", "options", "curves", "names"}},
    {"health_envoy", {"fleet", "budget", "options", "curves", "names"}},
    {"retries_envoy", {"options", "curves", "names"}},
    {"service_model", {"fleet", "budget", "options", "curves", "names"}},
    {"ramps", {"fleet", "budget", "options", "curves", "names"}},
    {"slow_start_rule", {"options", "curves", "names"}},
    {"lanes", {"result", "names"}},
    {"latency_histograms", {"result"}},
    {"client_view", {"latency_histograms", "result"}},
    {"event_queue", {}},
    {"traffic", {"names", "curves", "options", "option_table", "budget", "result", "fleet", "policies", "least_conn", "health_nginx",
                 "health_haproxy", "health_envoy", "retries_envoy", "service_model", "ramps", "slow_start_rule", "lanes", "client_view",
                 "latency_histograms", "event_queue"}},
    {"simulate_command", {"traffic", "option_table", "budget", "options", "result", "curves", "names"}},
};

struct Include {
  std::string file;  // relative to cpp/
  int line;
  std::string target;
};

std::vector<Include> project_includes(const fs::path& root) {
  std::vector<Include> out;
  const std::regex quoted(R"re(^\s*#\s*include\s*"([^"]+)")re");
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    const auto ext = entry.path().extension();
    if (!entry.is_regular_file() || (ext != ".hpp" && ext != ".cpp")) continue;
    std::ifstream in(entry.path());
    std::string text;
    int number = 0;
    for (std::string line; std::getline(in, line);) {
      ++number;
      std::smatch m;
      if (std::regex_search(line, m, quoted))
        out.push_back({fs::relative(entry.path(), root).generic_string(), number, m[1]});
    }
  }
  return out;
}

std::string room_of(const std::string& path) { return path.substr(0, path.find('/')); }

const fs::path kCpp = fs::path(SLOWSTART_SOURCE_DIR) / "cpp";

TEST(IncludeRules, EveryRoomOnDiskIsKnown) {
  std::set<std::string> on_disk;
  for (const auto& entry : fs::directory_iterator(kCpp))
    if (entry.is_directory()) on_disk.insert(entry.path().filename().string());
  std::set<std::string> known;
  for (const auto& [room, _] : kMayInclude) known.insert(room);
  EXPECT_EQ(on_disk, known) << "a new folder in cpp/ needs its rules here and in docs/ARCHITECTURE.md";
}

TEST(IncludeRules, EveryIncludeNamesAnExistingFileByItsRoom) {
  const auto includes = project_includes(kCpp);
  ASSERT_GT(includes.size(), 100u);  // the tree was read
  for (const auto& inc : includes) {
    EXPECT_TRUE(kMayInclude.count(room_of(inc.target)) && inc.target.find('/') != std::string::npos)
        << inc.file << ":" << inc.line << " includes \"" << inc.target << "\": write it as \"room/file\"";
    EXPECT_TRUE(fs::exists(kCpp / inc.target)) << inc.file << ":" << inc.line << " includes a missing \"" << inc.target << "\"";
  }
}

// The includes that cross an edge the rules do not allow, one a line.
std::string wrong_edges(const std::vector<Include>& includes) {
  std::ostringstream wrong;
  for (const auto& inc : includes) {
    const std::string from = room_of(inc.file), to = room_of(inc.target);
    if (from == to || !kMayInclude.count(from)) continue;
    if (kMayInclude.at(from).count(to) || kExceptions.count({from, inc.target})) continue;
    wrong << "  " << inc.file << ":" << inc.line << " (" << from << ") includes " << inc.target << " (" << to << ")\n";
  }
  return wrong.str();
}

// "traffic/health_envoy.cpp" -> "health_envoy".
std::string unit_of(const std::string& path) {
  const std::string file = path.substr(path.find('/') + 1);
  return file.substr(0, file.find('.'));
}

// The includes between traffic units that kTrafficUnits does not allow, one a line.
std::string wrong_traffic_edges(const std::vector<Include>& includes) {
  std::ostringstream wrong;
  for (const auto& inc : includes) {
    if (room_of(inc.file) != "traffic" || room_of(inc.target) != "traffic") continue;
    const std::string from = unit_of(inc.file), to = unit_of(inc.target);
    if (from == to) continue;
    const auto rules = kTrafficUnits.find(from);
    if (rules != kTrafficUnits.end() && rules->second.count(to)) continue;
    wrong << "  " << inc.file << ":" << inc.line << " (" << from << ") includes " << inc.target << "\n";
  }
  return wrong.str();
}

TEST(IncludeRules, EveryTrafficUnitIsKnownAndIncludesOnlyWhatItMay) {
  for (const auto& entry : fs::directory_iterator(kCpp / "traffic"))
    EXPECT_TRUE(kTrafficUnits.count(entry.path().stem().string()))
        << entry.path().filename() << ": a new unit of cpp/traffic/ needs its rules here and in docs/ARCHITECTURE.md";
  const std::string wrong = wrong_traffic_edges(project_includes(kCpp));
  EXPECT_EQ(wrong, "") << "includes against the traffic room's units (docs/ARCHITECTURE.md):\n" << wrong;
  // The check can fail: one check knowing another, a policy knowing a check, the table knowing the engine.
  const std::vector<Include> made_up = {{"traffic/health_nginx.cpp", 1, "traffic/health_envoy.hpp"},
                                        {"traffic/policies.hpp", 2, "traffic/health_haproxy.hpp"},
                                        {"traffic/option_table.cpp", 3, "traffic/traffic.hpp"},
                                        {"traffic/service_model.cpp", 4, "traffic/ramps.hpp"}};
  const std::string caught = wrong_traffic_edges(made_up);
  for (const auto& inc : made_up) EXPECT_NE(caught.find(inc.file + ":" + std::to_string(inc.line)), std::string::npos) << inc.file;
}

TEST(IncludeRules, NoIncludeRunsTheWrongWay) {
  const std::string wrong = wrong_edges(project_includes(kCpp));
  EXPECT_EQ(wrong, "") << "includes against the rooms' rules (docs/ARCHITECTURE.md):\n" << wrong;
}

// The check itself can fail: edges the other way, across the two clients,
// from the core up, and the exception taken by another file.
TEST(IncludeRules, TheCheckCatchesWrongEdges) {
  const std::vector<Include> made_up = {
      {"core/pool.hpp", 1, "grading/mistakes.hpp"},   {"spec/pick.hpp", 2, "fast/cold.hpp"},
      {"traffic/traffic.cpp", 3, "grading/suite.hpp"}, {"grading/suite.cpp", 4, "traffic/curves.hpp"},
      {"wasm/bindings.cpp", 5, "cli/stdio.hpp"},       {"core/pool.cpp", 6, "wasm/run_view.hpp"},
      {"traffic/traffic.cpp", 7, "system/imported.hpp"}, {"system/fit.cpp", 8, "grading/suite.hpp"},
  };
  const std::string wrong = wrong_edges(made_up);
  for (const auto& inc : made_up) EXPECT_NE(wrong.find(inc.file + ":" + std::to_string(inc.line)), std::string::npos) << inc.file;
  EXPECT_EQ(wrong_edges({{"wasm/bindings.cpp", 1, "cli/usage.hpp"}, {"cli/main.cpp", 2, "core/pool.hpp"}}), "");
}

}  // namespace
