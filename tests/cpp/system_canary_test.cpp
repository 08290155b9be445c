// Two real canary restarts (tests/cpp/system_canary/, its README has the
// setup): Debian's nginx and HAProxy in front of a backend programmed to
// start cold, their access logs fitted by `slowstart fit`'s code. The fit
// must tell time from requests as the backend was programmed, and recover
// its warm-up and cold factor within 10 % once the proxy's own time is
// taken out (the README works the numbers).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "system/access_log.hpp"
#include "system/cold_fit.hpp"

namespace slowstart::system {
namespace {

std::string recorded(const std::string& name) {
  std::ifstream in(std::filesystem::path(SLOWSTART_SOURCE_DIR) / "tests/cpp/system_canary" / name, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

ColdFit fit_log(const std::string& file, LogFormat format) {
  CanaryLog log;
  std::string error;
  AccessLogOptions o;
  o.format = format;
  EXPECT_TRUE(read_access_log(recorded(file), o, log, error)) << error;
  EXPECT_EQ(log.rows.size(), 700u);
  return fit_cold_start(log);
}

// The backend's own first line: arrival (s since its start), start, service ms, in service.
double first_arrival(const std::string& backend_log) {
  std::istringstream in(recorded(backend_log));
  double arrival = 0;
  in >> arrival;
  return arrival;
}

constexpr double kBaseMs = 40, kColdFactor = 5;

// The cold factor the backend had, from the fit's, with the proxy's time
// (the fitted warm service time less the programmed one) taken out.
double backend_cold_factor(const ModelFit& m) {
  const double overhead = m.service_ms - kBaseMs;
  return (m.cold_factor * m.service_ms - overhead) / kBaseMs;
}

TEST(SystemCanary, NginxLogOfABackendWarmingByTime) {
  const ColdFit f = fit_log("nginx-access.log", LogFormat::Nginx);
  ASSERT_EQ(f.refused, "");
  EXPECT_TRUE(f.decided);
  EXPECT_FALSE(f.by_requests);
  // Programmed: 8 s from the process's start; the log starts at its first request.
  const double first = first_arrival("nginx-backend.txt");
  const double warmup = 8 - first;
  EXPECT_NEAR(f.time.warmup, warmup, 0.1 * warmup);
  const double cold_then = 1 + (kColdFactor - 1) * (1 - first / 8);
  EXPECT_NEAR(backend_cold_factor(f.time), cold_then, 0.1 * cold_then);
  EXPECT_NEAR(f.time.service_ms, kBaseMs, 0.1 * kBaseMs);
}

TEST(SystemCanary, HAProxyLogOfABackendWarmingByRequests) {
  const ColdFit f = fit_log("haproxy.log", LogFormat::HAProxy);
  ASSERT_EQ(f.refused, "");
  EXPECT_TRUE(f.decided);
  EXPECT_TRUE(f.by_requests);
  EXPECT_NEAR(f.requests.warmup, 300, 30);
  EXPECT_NEAR(backend_cold_factor(f.requests), kColdFactor, 0.1 * kColdFactor);
  // HAProxy's own time here is about 5 ms on 40: the warm time seen is within 15 %.
  EXPECT_NEAR(f.requests.service_ms, kBaseMs, 0.15 * kBaseMs);
}

}  // namespace
}  // namespace slowstart::system
