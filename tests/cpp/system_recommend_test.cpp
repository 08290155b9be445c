// The chain from a real canary to a window checked by a real run
// (tests/cpp/system_recommend/, its README works the numbers): HAProxy 2.6
// in front of three servers, b restarted cold (40 ms x 6 at first, warm
// after 300 requests, 4 requests at once) under 75 requests a second.
//   1. the canary's log, fitted, finds what b was programmed to do;
//   2. recommend on the recorded config and fit gives the window the second
//      run used (haproxy-slowstart.cfg), so the chain is real;
//   3. without it, HAProxy marked b down again after it came back and
//      clients saw errors; with it, neither;
//   4. the lab's own simulate of both runs agrees, in direction and in counts.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "system/access_log.hpp"
#include "system/cold_fit.hpp"
#include "system/recommend_command.hpp"
#include "system/simulate_from.hpp"

namespace slowstart::system {
namespace {

const std::filesystem::path kDir = std::filesystem::path(SLOWSTART_SOURCE_DIR) / "tests/cpp/system_recommend";

std::string recorded_file(const std::string& name) {
  std::ifstream in(kDir / name, std::ios::binary);
  EXPECT_TRUE(in) << name;
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

FileReader folder_reader() {
  return [](const std::string& path, std::size_t, std::string& text) -> Problem {
    if (!std::filesystem::exists(kDir / path)) return "cannot open " + path;
    text = recorded_file(path);
    return std::nullopt;
  };
}

// The load and the app's slot limit, as record.sh ran them; the scenario's script.
const std::vector<std::string> kLoad = {"--rps", "75", "--workers", "4"};
constexpr double kRestartedAt = 9;  // b's cold process started (record.sh)

// What a recorded run shows after b's return (HAProxy's log and the client's).
struct RealRun {
  double returned = -1;                  // the first "Server pool/b is UP" after the restart
  std::vector<double> ups, downs;        // b's UP / DOWN messages after the return (the return included in ups)
  int client_errors = 0;                 // requests sent after the return that did not get a 200
  int client_errors_before = 0;          // ... sent before it (b's kill at 5 s)
  int client_requests = 0;
};

RealRun real_run(const std::string& prefix) {
  RealRun r;
  std::istringstream access(recorded_file(prefix + "-access.txt"));
  for (std::string line; std::getline(access, line);) {
    std::istringstream in(line);
    double t = 0;
    std::string word, who, is, state;
    in >> t >> word >> who >> is >> state;
    if (word != "Server" || who != "pool/b" || is != "is" || t < kRestartedAt) continue;
    if (state == "UP.") {
      if (r.returned < 0) r.returned = t;
      r.ups.push_back(t);
    } else if (state == "DOWN." && r.returned >= 0) {
      r.downs.push_back(t);
    }
  }
  std::istringstream client(recorded_file(prefix + "-client.txt"));
  for (std::string line; std::getline(client, line);) {
    std::istringstream in(line);
    double sent = 0;
    int status = 0;
    in >> sent >> status;
    ++r.client_requests;
    if (status != 200) ++(sent >= r.returned ? r.client_errors : r.client_errors_before);
  }
  return r;
}

// The fit's options (fit.json's "options": --service-ms ... --warmup-requests N).
std::vector<std::string> fit_options() {
  std::smatch m;
  const std::string json = recorded_file("fit.json");
  EXPECT_TRUE(std::regex_search(json, m, std::regex("\"options\": \"([^\"]*)\"")));
  std::istringstream in(m[1].str());
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

// b's failed requests and ejections in the lab's run of the recorded restart.
struct LabRun {
  long failed = -1, ejections = -1;
};

LabRun lab_run(const std::string& config) {
  std::vector<std::string> args = {"--from", config, "--duration", "40", "--summary", "json"};
  args.insert(args.end(), kLoad.begin(), kLoad.end());
  const std::vector<std::string> fit = fit_options();
  args.insert(args.end(), fit.begin(), fit.end());
  args.push_back("restart.txt");
  std::string out, err;
  EXPECT_EQ(run_simulate_system(args, folder_reader(), out, err), 0) << err;
  std::smatch m;
  LabRun r;
  if (std::regex_search(out, m, std::regex("\"name\": \"b\", \"requests\": \\d+, \"failed\": (\\d+), \"retried\": \\d+, \"ejections\": (\\d+)"))) {
    r.failed = std::stol(m[1].str());
    r.ejections = std::stol(m[2].str());
  }
  EXPECT_GE(r.failed, 0) << out;
  return r;
}

TEST(SystemRecommend, TheCanaryFitFindsWhatBWasProgrammedToDo) {
  CanaryLog log;
  std::string error;
  AccessLogOptions o;
  o.format = LogFormat::HAProxy;
  ASSERT_TRUE(read_access_log(recorded_file("canary-haproxy.log"), o, log, error)) << error;
  EXPECT_EQ(log.rows.size(), 525u);  // 5 to 30 requests a second over 30 s
  const ColdFit f = fit_cold_start(log);
  ASSERT_EQ(f.refused, "");
  EXPECT_TRUE(f.decided);
  EXPECT_TRUE(f.by_requests);
  EXPECT_NEAR(f.requests.warmup, 300, 30);
  // HAProxy's own time is in the warm time it logs (43.3 ms here, on 40): the
  // cold request it saw, less that time, is the programmed 6 x 40 = 240 ms.
  const double overhead = f.requests.service_ms - 40;
  EXPECT_GT(overhead, 0);
  EXPECT_LT(overhead, 0.15 * 40);
  EXPECT_NEAR((f.requests.cold_factor * f.requests.service_ms - overhead) / 40, 6, 0.6);
  // fit.json is that fit (the recommendation below reads it).
  EXPECT_NE(recorded_file("fit.json").find("\"warmup_requests\": 299,"), std::string::npos);
}

TEST(SystemRecommend, RecommendOnTheRecordedConfigAndFitGivesTheWindowTheRunUsed) {
  std::vector<std::string> args = {"--from", "haproxy.cfg", "--fit", "fit.json"};
  args.insert(args.end(), kLoad.begin(), kLoad.end());
  args.push_back("restart.txt");
  std::string out, err;
  ASSERT_EQ(run_recommend(args, folder_reader(), out, err), 0) << err;
  EXPECT_EQ(out, "--slow-start 18\n");
  // The table's headings, warm-up in requests (the band 297 to 309, its high
  // 20 % further: 371), each its own column.
  EXPECT_NE(err.find("warm-up: 297 requests 334 requests 371 requests\n"), std::string::npos) << err;
  // A 9 s window still fails at the coldest corner. (Since the lab models
  // HAProxy's in-flight errors and its checks' 3 ms drift, issue 31, the
  // corner with the fewest warm-up requests fails 30 requests there, not 20;
  // since HAProxy's curve keeps HAProxy's own sixteenths by default, not
  // whole weights, the one with the most fails 21.)
  EXPECT_NE(err.find("    9 s      6.66              1 / 30       1 / 20       1 / 21\n"), std::string::npos) << err;
  // The second run's configuration is the first's with that window added.
  const std::string with = recorded_file("haproxy-slowstart.cfg");
  EXPECT_NE(with.find(" on-error mark-down weight 100 slowstart 18s\n"), std::string::npos);
  // And HAProxy held b's ramp that long: its second "is UP" ends slowstart.
  const RealRun r = real_run("with");
  ASSERT_EQ(r.ups.size(), 2u);
  EXPECT_NEAR(r.ups[1] - r.ups[0], 18, 0.1);
}

TEST(SystemRecommend, WithoutTheWindowBFlapsAndClientsSeeErrors) {
  const RealRun r = real_run("without");
  ASSERT_GT(r.returned, kRestartedAt);
  EXPECT_LT(r.returned, kRestartedAt + 2.1);  // rise 2 checks of inter 1 s
  // Marked down again by observe layer7 (10 timeouts in a row), twice, each
  // time back UP two checks later.
  EXPECT_GE(r.downs.size(), 1u);
  EXPECT_EQ(r.downs.size(), 2u);
  EXPECT_EQ(r.ups.size(), 3u);
  // 504s: timed out in b's line, not retried (45 here; 46 in a second
  // recording, the README's last section: a re-recording moves it by a few).
  EXPECT_GE(r.client_errors, 30);
  EXPECT_LE(r.client_errors, 60);
  EXPECT_EQ(r.client_requests, 3000);
}

TEST(SystemRecommend, WithTheWindowNoFlapAndNoClientError) {
  const RealRun r = real_run("with");
  ASSERT_GT(r.returned, kRestartedAt);
  EXPECT_EQ(r.downs.size(), 0u);
  EXPECT_EQ(r.client_errors, 0);
  EXPECT_EQ(r.client_requests, 3000);
  // Both runs lost a request or two to b's kill at 5 s (in flight, 502s),
  // with or without slow start alike: the restart's, not the return's.
  EXPECT_GE(r.client_errors_before, 1);
  EXPECT_LE(r.client_errors_before, 2);
  EXPECT_GE(real_run("without").client_errors_before, 1);
  EXPECT_LE(real_run("without").client_errors_before, 2);
}

TEST(SystemRecommend, TheLabsSimulateOfBothRunsAgreesWithThem) {
  const RealRun without = real_run("without");
  const LabRun lab_without = lab_run("haproxy.cfg");
  // Direction: the lab flaps and fails requests without the window...
  EXPECT_GE(lab_without.ejections, 1);
  EXPECT_GE(lab_without.failed, 1);
  // ... and in counts: the same mark-downs (2), failures within 15 % (46 against 45).
  EXPECT_EQ(lab_without.ejections, static_cast<long>(without.downs.size()));
  EXPECT_NEAR(static_cast<double>(lab_without.failed), without.client_errors, 0.15 * without.client_errors);
  // With the window: nothing, as in the real run.
  const LabRun lab_with = lab_run("haproxy-slowstart.cfg");
  EXPECT_EQ(lab_with.ejections, 0);
  EXPECT_EQ(lab_with.failed, 0);
}

}  // namespace
}  // namespace slowstart::system
