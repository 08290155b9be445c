// The cold start fitted from a canary's log (cpp/system/cold_fit.*,
// canary_log.*, access_log.*, fit_command.*): known parameters recovered
// from synthetic logs made with the simulator's own service model and
// noise, within 10 %; the bands hold the truth; time told from requests
// when the rate changes; refusals with their reasons; the CSV and the
// proxies' access logs read line by line, with line-numbered errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <queue>
#include <string>

#include "core/split_mix64.hpp"
#include "system/access_log.hpp"
#include "system/canary_log.hpp"
#include "system/cold_fit.hpp"
#include "system/fit_command.hpp"

namespace slowstart::system {
namespace {

// A canary as the lab models one (cpp/traffic's ServiceModel): service
// base * (1 + (cold - 1) * max(0, 1 - x / warmup)) with x the seconds since
// the start or the requests started before, times lognormal noise (mean 1);
// Poisson arrivals at `rate` growing by `growth` per second; `slots` > 0
// serve in that many slots, first come first served (a queue beyond).
struct Canary {
  double base = 100, cold = 6, warmup = 30;
  bool by_requests = false;
  double rate = 40, seconds = 120, noise = 0.2, growth = 0;
  int slots = 0;
  std::uint64_t seed = 1;
};

double uniform(SplitMix64& r) { return static_cast<double>(r.next() >> 11) * 0x1.0p-53; }
double normal(SplitMix64& r) {
  return std::sqrt(-2 * std::log(uniform(r) + 1e-300)) * std::cos(6.283185307179586 * uniform(r));
}

CanaryLog make(const Canary& c) {
  SplitMix64 r(c.seed);
  CanaryLog log;
  std::priority_queue<double, std::vector<double>, std::greater<>> busy;
  double t = 0;
  for (int k = 0;; ++k) {
    t += -std::log(uniform(r) + 1e-300) / (c.rate * (1 + c.growth * t));
    if (t > c.seconds) break;
    double start = t;
    if (c.slots > 0) {
      while (!busy.empty() && busy.top() <= t) busy.pop();
      if (static_cast<int>(busy.size()) >= c.slots) start = busy.top(), busy.pop();
    }
    const double x = c.by_requests ? k : start;
    const double ms = c.base * (1 + (c.cold - 1) * std::max(0.0, 1 - x / c.warmup)) *
                      std::exp(c.noise * normal(r) - c.noise * c.noise / 2);
    if (c.slots > 0) busy.push(start + ms / 1000);
    log.rows.push_back(CanaryRow{t, (start - t) * 1000 + ms, -1});
  }
  count_in_flight(log);
  return log;
}

void near(double got, double want, double within, const char* what) {
  EXPECT_LE(std::fabs(got - want), within * want) << what << ": " << got << " against " << want;
}

TEST(SystemFit, RecoversATimeColdStartWithin10Percent) {
  for (const std::uint64_t seed : {1, 2, 3}) {
    Canary c;
    c.seed = seed;
    c.growth = 0.03;  // the rate grows (as under slow start): time and requests differ
    const ColdFit f = fit_cold_start(make(c));
    ASSERT_EQ(f.refused, "") << seed;
    EXPECT_FALSE(f.by_requests) << seed;
    EXPECT_TRUE(f.decided) << seed;
    near(f.time.service_ms, 100, 0.1, "service_ms");
    near(f.time.cold_factor, 6, 0.1, "cold_factor");
    near(f.time.warmup, 30, 0.1, "warmup");
    // The 95 % bands hold the truth.
    EXPECT_LE(f.time.service_band.lo, 100 * 1.02);
    EXPECT_GE(f.time.service_band.hi, 100 * 0.98);
    EXPECT_LT(f.time.warmup_band.lo, 30.5);
    EXPECT_GT(f.time.warmup_band.hi, 29.5);
  }
}

TEST(SystemFit, RecoversARequestsColdStartWithin10Percent) {
  for (const std::uint64_t seed : {4, 5}) {
    Canary c;
    c.base = 80, c.cold = 4, c.warmup = 2000, c.by_requests = true, c.rate = 20, c.seconds = 150, c.growth = 0.05;
    c.seed = seed;
    const ColdFit f = fit_cold_start(make(c));
    ASSERT_EQ(f.refused, "") << seed;
    EXPECT_TRUE(f.by_requests) << seed;
    EXPECT_TRUE(f.decided) << seed;
    near(f.requests.service_ms, 80, 0.1, "service_ms");
    near(f.requests.cold_factor, 4, 0.1, "cold_factor");
    near(f.requests.warmup, 2000, 0.1, "warmup_requests");
    const std::string options = fit_options(f);
    EXPECT_NE(options.find("--warm-by requests --warmup-requests "), std::string::npos) << options;
  }
}

TEST(SystemFit, ASteadyRateCannotTellTimeFromRequests) {
  Canary c;  // Poisson at a steady 40 a second: requests served are time x 40
  const ColdFit f = fit_cold_start(make(c));
  ASSERT_EQ(f.refused, "");
  EXPECT_FALSE(f.decided);
  EXPECT_FALSE(f.by_requests);  // undecided: time, the simulator's default
  near(f.time.warmup, 30, 0.1, "warmup");
  near(f.requests.warmup, 30 * 40, 0.1, "warmup_requests");  // the same warm-up counted in requests
}

TEST(SystemFit, RefusesDataThatCannotDecide) {
  Canary few;
  few.rate = 0.2;  // 24 requests in two minutes
  EXPECT_NE(fit_cold_start(make(few)).refused.find("too few rows"), std::string::npos);
  Canary still_cold;
  still_cold.warmup = 300;  // the log ends at 120 s, long before it warms
  EXPECT_NE(fit_cold_start(make(still_cold)).refused.find("no warm phase"), std::string::npos);
  Canary queued;
  queued.slots = 4, queued.rate = 30;  // cold capacity 4 / 0.6 s: a long queue
  const ColdFit q = fit_cold_start(make(queued));
  EXPECT_NE(q.refused.find("queueing dominates"), std::string::npos) << q.refused;
  // The same rate with slots enough for the cold start: no queue, fitted.
  queued.slots = 200;
  EXPECT_EQ(fit_cold_start(make(queued)).refused, "");
  // A backend with no cold start at all behind a queue: its latency is the
  // queue's, not a service time ("no cold start, 300 ms" would be wrong).
  // (Four slots of 100 ms: 40 a second at most. Before, these were "no cold
  // start, 120 to 270 ms", or "no warm phase" where the queue was the reason.)
  for (const double rate : {30.0, 36.0, 38.0})
    for (const std::uint64_t seed : {1, 2, 3}) {
      Canary warm_queued;
      warm_queued.cold = 1, warm_queued.slots = 4, warm_queued.rate = rate, warm_queued.seed = seed;
      const ColdFit wq = fit_cold_start(make(warm_queued));
      EXPECT_NE(wq.refused.find("queueing dominates"), std::string::npos) << rate << " a second, seed " << seed << ": " << wq.refused;
    }
}

TEST(SystemFit, NoColdStartIsAnAnswer) {
  Canary flat;
  flat.cold = 1;
  const ColdFit f = fit_cold_start(make(flat));
  EXPECT_EQ(f.refused, "");
  EXPECT_FALSE(f.cold);
  const std::string options = fit_options(f);
  EXPECT_EQ(options.substr(options.find(" --cold")), " --cold-factor 1.00 --warm-by time --warmup 0.0");
  near(f.best().service_ms, 100, 0.05, "service_ms");
}

TEST(SystemFit, TheSameNumbersEveryRun) {
  const CanaryLog log = make(Canary{});
  EXPECT_EQ(fit_json(fit_cold_start(log)), fit_json(fit_cold_start(log)));
}

// ---- the CSV ---------------------------------------------------------------

std::string csv_error(std::string_view text) {
  CanaryLog log;
  std::string error;
  EXPECT_FALSE(read_canary_csv(text, log, error));
  return error;
}

TEST(SystemFit, ReadsRfc4180Csv) {
  CanaryLog log;
  std::string error;
  ASSERT_TRUE(read_canary_csv("\xEF\xBB\xBF" "path, T ,Latency_MS,in_flight\r\n"
                              "\"/a,b\",2.5,120,3\r\n"
                              "\"say \"\"hi\"\"\nover two lines\",0.5,100.25,\r\n"
                              "\n"
                              "/c,1,90,1\r\n",
                              log, error))
      << error;
  ASSERT_EQ(log.rows.size(), 3u);
  // Sorted by t; an empty in_flight makes in_flight unknown for all.
  EXPECT_EQ(log.rows[0].t, 0.5);
  EXPECT_EQ(log.rows[0].latency_ms, 100.25);
  EXPECT_EQ(log.rows[2].t, 2.5);
  EXPECT_FALSE(log.has_in_flight);
}

TEST(SystemFit, CsvErrorsNameTheLine) {
  EXPECT_EQ(csv_error(""), "the file is empty: a CSV starts with a header row naming t and latency_ms");
  EXPECT_EQ(csv_error("time,ms\n1,2\n"), "line 1: the header must name t and latency_ms (it names 'time', 'ms')");
  EXPECT_EQ(csv_error("t,latency_ms\n1,2\n2,x\n"), "line 3: latency_ms must be a number of milliseconds above 0, got 'x'");
  EXPECT_EQ(csv_error("t,latency_ms\n-1,2\n"), "line 2: t must be a number of seconds, 0 or more, got '-1'");
  EXPECT_EQ(csv_error("t,latency_ms\n1,0\n"), "line 2: latency_ms must be a number of milliseconds above 0, got '0'");
  EXPECT_EQ(csv_error("t,latency_ms\n1,2,3\n"), "line 2: 3 fields where the header has 2");
  EXPECT_EQ(csv_error("t,latency_ms\n\"1,2\n"), "line 2: a quoted field is not closed");
  EXPECT_EQ(csv_error("t,latency_ms\n\"1\"x,2\n"), "line 2: text after a closing quote");
  EXPECT_EQ(csv_error("t,latency_ms\n1,nan\n"), "line 2: latency_ms must be a number of milliseconds above 0, got 'nan'");
  // Past a billion no log is real, and the fit's sums would overflow (fuzzer's finds).
  EXPECT_EQ(csv_error("t,latency_ms\n1,1e201\n"), "line 2: latency_ms must be at most 1000000000, got '1e201'");
  EXPECT_EQ(csv_error("t,latency_ms\n1e300,2\n"), "line 2: t must be at most 1000000000, got '1e300'");
  EXPECT_EQ(csv_error("t,latency_ms,in_flight\n1,2,1e10\n"), "line 2: in_flight must be at most 1000000000, got '1e10'");
  CanaryLog at_bound;
  std::string error;
  EXPECT_TRUE(read_canary_csv("t,latency_ms\n1000000000,1000000000\n", at_bound, error)) << error;  // the bound itself is read
  // A header of many names says the first eight.
  EXPECT_EQ(csv_error("a,b,c,d,e,f,g,h,i,j\n"),
            "line 1: the header must name t and latency_ms (it names 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h' and 2 more)");
}

TEST(SystemFit, InFlightCountedFromTheRows) {
  CanaryLog log;
  log.rows = {{0, 1000, -1}, {0.5, 100, -1}, {0.7, 100, -1}, {1.5, 100, -1}};
  count_in_flight(log);
  // At 0.5 the first is running (until 1.0); at 0.7 still only the first
  // (the second ended at 0.6); at 1.5 nothing.
  EXPECT_EQ(log.rows[0].in_flight, 0);
  EXPECT_EQ(log.rows[1].in_flight, 1);
  EXPECT_EQ(log.rows[2].in_flight, 1);
  EXPECT_EQ(log.rows[3].in_flight, 0);
}

// ---- access logs -------------------------------------------------------------

CanaryLog access(std::string_view text, LogFormat format, std::string backend = "") {
  CanaryLog log;
  std::string error;
  AccessLogOptions o;
  o.format = format;
  o.backend = std::move(backend);
  EXPECT_TRUE(read_access_log(text, o, log, error)) << error;
  return log;
}

TEST(SystemFit, NginxAccessLog) {
  // log_format canary '$msec $upstream_addr $upstream_response_time $upstream_status';
  // A request tried on b (timed out at 0.500) then a; one served by nginx itself.
  const CanaryLog log = access(
      "1733480001.200 10.0.0.2:80 0.120 200\n"
      "1733480002.000 10.0.0.2:80, 10.0.0.1:80 0.500, 0.100 504, 200\n"
      "1733480002.500 - - -\n"
      "1733480003.000 10.0.0.2:80 0.250 200\n",
      LogFormat::Nginx, "10.0.0.2:80");
  ASSERT_EQ(log.rows.size(), 3u);
  // Starts: 1.200 - 0.120 = 1.080; 2.000 - 0.100 - 0.500 = 1.400; 3.000 - 0.250 = 2.750; t from the first.
  EXPECT_NEAR(log.rows[0].t, 0, 1e-6);
  EXPECT_NEAR(log.rows[1].t, 0.320, 1e-6);
  EXPECT_NEAR(log.rows[1].latency_ms, 500, 1e-6);
  EXPECT_NEAR(log.rows[2].t, 1.670, 1e-6);
  EXPECT_EQ(log.rows[1].in_flight, 0);
}

TEST(SystemFit, NginxAccessLogOtherForms) {
  // [$time_local] and key=value fields (the "main_ext" style), and JSON lines.
  CanaryLog log = access(
      "10.1.1.1 - - [06/Dec/2026:10:00:01 +0100] \"GET / HTTP/1.1\" 200 5 \"-\" \"curl\" urt=\"0.200\" ua=\"b:80\"\n"
      "10.1.1.1 - - [06/Dec/2026:10:00:03 +0100] \"GET / HTTP/1.1\" 200 5 \"-\" \"curl\" urt=\"0.100\" ua=\"b:80\"\n",
      LogFormat::Nginx);
  ASSERT_EQ(log.rows.size(), 2u);
  EXPECT_NEAR(log.rows[1].t, 2.1, 1e-6);
  // A request tried on two servers, in the quoted fields of NGINX's own
  // example format (uct="$upstream_connect_time" ... urt="..."): nginx
  // writes the lists with ", ", inside the quotes. The canary's try is a row.
  log = access(
      "10.1.1.1 - - [06/Dec/2026:10:00:01 +0100] \"GET / HTTP/1.1\" 200 5 \"-\" \"curl\" rt=0.301 uct=\"0.000, 0.000\" "
      "uht=\"-, 0.300\" urt=\"0.001, 0.300\" ua=\"a:80, b:80\" us=\"502, 200\"\n"
      "10.1.1.1 - - [06/Dec/2026:10:00:03 +0100] \"GET / HTTP/1.1\" 200 5 \"-\" \"curl\" rt=0.100 uct=\"0.000\" "
      "uht=\"0.100\" urt=\"0.100\" ua=\"b:80\" us=\"200\"\n",
      LogFormat::Nginx, "b:80");
  ASSERT_EQ(log.rows.size(), 2u);
  EXPECT_NEAR(log.rows[0].latency_ms, 300, 1e-6);
  log = access("{\"msec\": \"1733480001.000\", \"upstream_addr\": \"b:80\", \"upstream_response_time\": \"0.300\"}\n"
               "{\"msec\": \"1733480002.000\", \"upstream_addr\": \"b:80\", \"upstream_response_time\": \"0.100\"}\n",
               LogFormat::Nginx);
  ASSERT_EQ(log.rows.size(), 2u);
  EXPECT_NEAR(log.rows[1].t, 1.2, 1e-6);
  EXPECT_NEAR(log.rows[0].latency_ms, 300, 1e-6);
}

// The same canary as RecoversATimeColdStartWithin10Percent, its lines as
// nginx writes them with [$time_local] (whole seconds, in the order the
// requests ended) and upstream_response_time: warmth follows time, and the
// fit must not find requests served "10^33 times likelier" because every
// request of a second carries the same stamp. Spread across their second,
// the lines tell time from requests as $msec lines do.
TEST(SystemFit, WholeSecondStampsStillTellTimeFromRequests) {
  for (const std::uint64_t seed : {1, 2}) {
    Canary c;
    c.seed = seed, c.growth = 0.03;
    const CanaryLog truth = make(c);
    std::vector<std::pair<double, double>> ends;  // (end, latency)
    for (const CanaryRow& r : truth.rows) ends.emplace_back(r.t + r.latency_ms / 1000, r.latency_ms);
    std::sort(ends.begin(), ends.end());
    std::string text;
    for (const auto& [end, ms] : ends) {
      const int whole = 600 + static_cast<int>(std::floor(end));  // from 10:10:00
      char line[200];
      std::snprintf(line, sizeof line,
                    "10.1.1.1 - - [06/Dec/2026:10:%02d:%02d +0000] \"GET / HTTP/1.1\" 200 5 \"-\" \"curl\" urt=\"%.3f\" ua=\"b:80\"\n",
                    whole / 60 % 60, whole % 60, ms / 1000);
      text += line;
    }
    const CanaryLog log = access(text, LogFormat::Nginx);
    EXPECT_FALSE(log.has_in_flight);  // starts known to a fraction of a second: no queueing check
    const ColdFit f = fit_cold_start(log);
    ASSERT_EQ(f.refused, "") << seed;
    EXPECT_FALSE(f.by_requests && f.decided) << seed << ": requests by " << f.likelihood_gap;
    near(f.time.cold_factor, 6, 0.1, "cold_factor");
    near(f.time.warmup, 30, 0.1, "warmup");
  }
}

TEST(SystemFit, HAProxyHttpLog) {
  // option httplog, behind syslog's prefix: timers TR/Tw/Tc/Tr/Ta.
  const CanaryLog log = access(
      "Dec  6 10:00:00 lb haproxy[7]: 127.0.0.1:5000 [06/Dec/2026:10:00:00.100] www api/b 0/0/1/300/301 200 100 - - "
      "---- 1/1/0/0/0 0/0 \"GET / HTTP/1.1\"\n"
      "Dec  6 10:00:01 lb haproxy[7]: 127.0.0.1:5001 [06/Dec/2026:10:00:01.000] www api/a 0/0/0/100/100 200 100 - - "
      "---- 1/1/0/0/0 0/0 \"GET / HTTP/1.1\"\n"
      "Dec  6 10:00:02 lb haproxy[7]: 127.0.0.1:5002 [06/Dec/2026:10:00:02.000] www api/b 2/0/1/150/153 200 100 - - "
      "---- 1/1/0/0/0 0/0 \"GET / HTTP/1.1\"\n"
      "Dec  6 10:00:03 lb haproxy[7]: 127.0.0.1:5003 [06/Dec/2026:10:00:03.000] www api/<NOSRV> -1/-1/-1/-1/0 503 0 - - "
      "SC-- 1/1/0/0/0 0/0 \"GET / HTTP/1.1\"\n",
      LogFormat::HAProxy, "b");
  ASSERT_EQ(log.rows.size(), 2u);
  // Starts: accept + TR + Tw + Tc: 0.101 and 2.003.
  EXPECT_NEAR(log.rows[1].t, 1.902, 1e-6);
  EXPECT_NEAR(log.rows[0].latency_ms, 300, 1e-6);
  EXPECT_NEAR(log.rows[1].latency_ms, 150, 1e-6);
}

TEST(SystemFit, EnvoyAccessLog) {
  // The default format (with the newer fields before the byte counts).
  const CanaryLog log = access(
      "[2026-12-06T10:00:00.000Z] \"GET / HTTP/1.1\" 200 - via_upstream - \"-\" 0 5 251 250 \"-\" \"curl\" \"id1\" "
      "\"front\" \"10.0.0.2:80\" orders 10.0.0.9:5000 10.0.0.9:8080 10.0.0.5:4000 - default\n"
      "[2026-12-06T10:00:02.500Z] \"GET / HTTP/1.1\" 200 - 0 5 101 - \"-\" \"curl\" \"id2\" \"front\" \"10.0.0.2:80\"\n"
      "[2026-12-06T10:00:03.000Z] 10.0.0.2:80 90\n",
      LogFormat::Envoy);
  ASSERT_EQ(log.rows.size(), 3u);
  EXPECT_NEAR(log.rows[0].latency_ms, 250, 1e-6);  // x-envoy-upstream-service-time
  EXPECT_NEAR(log.rows[1].latency_ms, 101, 1e-6);  // '-': the duration
  EXPECT_NEAR(log.rows[1].t, 2.5, 1e-6);
  EXPECT_NEAR(log.rows[2].latency_ms, 90, 1e-6);
}

TEST(SystemFit, AccessLogErrors) {
  CanaryLog log;
  std::string error;
  AccessLogOptions o;
  o.format = LogFormat::Nginx;
  EXPECT_FALSE(read_access_log("1733480001.2 a:80 0.1\n1733480002.2 b:80 0.1\n", o, log, error));
  EXPECT_EQ(error, "the log has 2 backends (a:80 1, b:80 1 requests): name the canary with --backend");
  // A byte-order mark inside a name shows nothing: written as bytes, like a
  // control character (a fuzzer's find: two backends that looked the same).
  EXPECT_FALSE(read_access_log("1733480001.2 a:80 0.1\n1733480002.2 \xEF\xBB\xBF" "a:80 0.1\n", o, log, error));
  EXPECT_EQ(error, "the log has 2 backends (a:80 1, \\xef\\xbb\\xbfa:80 1 requests): name the canary with --backend");
  // Many backends, and long names: the first eight, each cut at 60 bytes, then how many more.
  std::string many;
  for (int i = 0; i < 10; ++i) many += "1733480001.2 " + std::string(i == 0 ? 70 : 1, 'a' + static_cast<char>(i)) + ":80 0.1\n";
  EXPECT_FALSE(read_access_log(many, o, log, error));
  EXPECT_EQ(error, "the log has 10 backends (" + std::string(60, 'a') +
                       "... 1, b:80 1, c:80 1, d:80 1, e:80 1, f:80 1, g:80 1, h:80 1 requests, and 2 more): name the canary with --backend");
  o.backend = "c:80";
  EXPECT_FALSE(read_access_log("1733480001.2 a:80 0.1\n", o, log, error));
  EXPECT_EQ(error, "no request went to 'c:80' (the log's backends: a:80)");
  o.backend = "z:80";
  EXPECT_FALSE(read_access_log(many, o, log, error));
  EXPECT_EQ(error, "no request went to 'z:80' (the log's backends: " + std::string(60, 'a') + "..., b:80, c:80, d:80, e:80, f:80, g:80, h:80, and 2 more)");
  // A latency no request has ("0.096e200" s reads as a number) makes its line one the reader does not know.
  o.backend.clear();
  log = CanaryLog{};
  EXPECT_TRUE(read_access_log("1733480001.2 a:80 0.1\n1733480002.2 a:80 0.096e200\n1733480003.2 a:80 0.1\n", o, log, error)) << error;
  EXPECT_EQ(log.rows.size(), 2u);
  EXPECT_EQ(log.notes.front(), "1 lines skipped, not nginx access lines (the first: line 2)");
  o.backend = "c:80";
  o.format = LogFormat::HAProxy;
  EXPECT_FALSE(read_access_log("hello\nworld\n", o, log, error));
  EXPECT_EQ(error, "line 1: not a line of an haproxy access log this reader knows (2 of 2 lines are not; "
                   "docs/YOUR-SYSTEM.md gives the log format)");
}

TEST(SystemFit, EpochSecondsOfCivilDates) {
  EXPECT_EQ(epoch_seconds(1970, 1, 1, 0, 0, 0), 0);
  EXPECT_EQ(epoch_seconds(2000, 3, 1, 0, 0, 0), 951868800);   // after a leap day
  EXPECT_EQ(epoch_seconds(2024, 12, 31, 23, 59, 59), 1735689599);
}

// ---- the command -------------------------------------------------------------

TEST(SystemFit, CommandPrintsOptionsAndWords) {
  std::string csv = "t,latency_ms\n";
  for (const CanaryRow& r : make(Canary{}).rows) csv += std::to_string(r.t) + "," + std::to_string(r.latency_ms) + "\n";
  const auto reader = [&](const std::string&, std::size_t, std::string& text) -> Problem {
    text = csv;
    return std::nullopt;
  };
  std::string out, err;
  EXPECT_EQ(run_fit({"canary.csv"}, reader, out, err), 0);
  EXPECT_EQ(out.rfind("--service-ms ", 0), 0u) << out;
  EXPECT_EQ(out.back(), '\n');
  EXPECT_NE(err.find("warm service time"), std::string::npos);
  out.clear(), err.clear();
  EXPECT_EQ(run_fit({"--json", "canary.csv"}, reader, out, err), 0);
  for (const char* key : {"\"service_ms\"", "\"cold_factor\"", "\"warm_by\"", "\"warmup\"", "\"warmup_requests\"",
                          "\"service_ms_band\"", "\"warmup_band\""})
    EXPECT_NE(out.find(key), std::string::npos) << key;
  out.clear(), err.clear();
  csv = "t,latency_ms\n1,100\n";
  EXPECT_EQ(run_fit({"--json", "canary.csv"}, reader, out, err), 1);
  EXPECT_EQ(out, "{\"refused\": \"too few rows (1): the fit needs at least 30 requests, many of them after the warm-up\", \"rows\": 1}\n");
  out.clear(), err.clear();
  EXPECT_EQ(run_fit({"--backend", "a"}, reader, out, err), 2);
  EXPECT_EQ(err, "slowstart fit: --backend and --started read an access log: add --log-format\n");
}

}  // namespace
}  // namespace slowstart::system
