// The recordings of issue 31 (tests/cpp/traffic_real/<rule>/, Debian's
// HAProxy 2.6.12 and nginx 1.22.1) held against the rules of
// docs/proxy-rules.md, worked by hand here: HAProxy's health counter (H3, H4),
// its check intervals (H5), its slowstart staircase (H8-H10), leastconn's idle
// key (H11); nginx's single server (N2), least_conn's ties (N3) and
// proxy_next_upstream_tries (N6, N7). These check the evidence, not the lab:
// the lab's own comparisons with these recordings come with the rules.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "support/recordings.hpp"

namespace real_rules {  // named: this file is unity-built beside traffic_real_test.cpp

std::vector<std::string> read(const std::string& name) { return recorded_lines(name); }

std::vector<std::string> words(const std::string& line) {
  std::istringstream s(line);
  std::vector<std::string> out;
  for (std::string w; s >> w;) out.push_back(w);
  return out;
}

double time_of(const std::string& line) { return std::stod(line.substr(0, line.find(' '))); }

bool has(const std::string& line, const std::string& part) { return line.find(part) != std::string::npos; }

// HAProxy's health counter (H4) with on-error (H3), worked from the manual's
// words: 0 .. rise + fall - 1, UP from rise; a failure takes one off and, below
// rise, everything; a pass adds one and, at rise, jumps to the top.
struct Health {
  int rise, fall, health;
  Health(int r, int f) : rise(r), fall(f), health(r) {}  // a server starts at rise
  int top() const { return rise + fall - 1; }
  void fail() {
    if (health > 0 && --health < rise) health = 0;
  }
  void pass() {
    if (health < top() && ++health >= rise) health = top();
  }
  void on_error(const std::string& mode) {
    if (mode == "mark-down") health = rise;
    if (mode == "sudden-death" && health > rise) health = rise + 1;
    fail();  // fail-check, sudden-death and mark-down all end with a failed check
  }
  // How HAProxy writes it in "status: 2/3 UP".
  std::string status() const {
    std::ostringstream s;
    if (health >= rise)
      s << health - rise + 1 << '/' << fall << " UP";
    else
      s << health << '/' << rise << " DOWN";
    return s.str();
  }
};

// Replays every "Health check for server pool/b ..." message of a recording
// (HAProxy writes one whenever the counter changes) and checks the status it
// printed against the hand-worked counter. Returns how many were checked.
int replay_health(const std::string& file, const std::string& mode, int rise, int fall) {
  Health h(rise, fall);
  int checked = 0;
  for (const auto& l : read(file)) {
    if (!has(l, "Health check for server pool/b ")) continue;
    if (has(l, " succeeded"))
      h.pass();
    else if (has(l, "Health analyze"))
      h.on_error(mode);
    else
      h.fail();  // a real check that failed
    const auto at = l.find("status: ");
    EXPECT_NE(at, std::string::npos) << l;
    EXPECT_EQ(l.substr(at + 8, l.size() - at - 9), h.status()) << file << ": " << l;
    ++checked;
  }
  return checked;
}

TEST(TrafficRealRules, FailCheckCountsOneFailedCheckAndAGoodCheckUndoesIt) {
  EXPECT_GE(replay_health("haproxy-on-error/fail-check-access.txt", "fail-check", 2, 3), 5);
  for (const auto& l : read("haproxy-on-error/fail-check-access.txt")) EXPECT_FALSE(has(l, "pool/b is DOWN")) << l;
}

TEST(TrafficRealRules, SuddenDeathLeavesOneFailureBeforeDown) {
  EXPECT_GE(replay_health("haproxy-on-error/sudden-death-access.txt", "sudden-death", 2, 3), 5);
}

TEST(TrafficRealRules, InFlightErrorsAfterAMarkDownEraseTheRiseProgress) {
  const std::string file = "haproxy-mark-down-cycle/access.txt";
  EXPECT_GE(replay_health(file, "mark-down", 2, 3), 30);
  // H7: some mark-downs came while b was already DOWN with one good check.
  int erased = 0;
  bool progress = false;
  for (const auto& l : read(file)) {
    if (!has(l, "Health check for server pool/b ")) continue;
    if (has(l, "Health analyze") && progress) ++erased;
    progress = has(l, "status: 1/2 DOWN");
  }
  EXPECT_GE(erased, 3);
}

TEST(TrafficRealRules, FailedChecksWalkTheCounterDown) {
  EXPECT_GE(replay_health("haproxy-intervals/access.txt", "", 2, 3), 6);
}

// H5: after each check the next is due srv_getinter() later: inter at the
// top, downinter when DOWN at 0, fastinter in between (each unset one = inter).
TEST(TrafficRealRules, CheckIntervalsFollowTheState) {
  const double inter = 2, fastinter = 0.25, downinter = 1;  // haproxy-intervals/haproxy.cfg
  Health h(2, 3);
  bool down = false, first = true;
  double last = 0, expected = 0;
  int checked = 0;
  for (const auto& l : read("haproxy-intervals/b.txt")) {
    const auto w = words(l);
    if (w.size() < 3 || w[1] != "/health") continue;
    const double t = std::stod(w[0]);
    if (!first) {
      EXPECT_NEAR(t - last, expected, 0.06) << l;
      ++checked;
    }
    first = false;
    last = t;
    if (w[2] == "200")
      h.pass();
    else
      h.fail();
    if (h.health == 0) down = true;
    if (h.health >= h.rise) down = false;
    expected = h.health == h.top() ? inter : (down && h.health == 0) ? downinter : fastinter;
  }
  EXPECT_GE(checked, 8);
}

// With no fastinter or downinter set, every interval is inter, whatever the
// state (on-error fail-check, sudden-death, mark-down with inter 1s).
TEST(TrafficRealRules, UnsetFastinterAndDowninterAreInter) {
  for (const std::string file : {"haproxy-on-error/fail-check-b.txt", "haproxy-on-error/sudden-death-b.txt",
                                 "haproxy-mark-down-cycle/b.txt"}) {
    double last = -1e9;
    int checked = 0;
    for (const auto& l : read(file)) {
      if (!has(l, " /health ")) continue;
      const double t = time_of(l);
      if (last > -1e8) {
        EXPECT_NEAR(t - last, 1.0, 0.1) << file << ": " << l;  // a loaded machine: ±0.1 s
        ++checked;
      }
      last = t;
    }
    EXPECT_GE(checked, 10) << file;
  }
}

// A recorded weight line of a named stat file: time, server, status..., weight.
struct Weight {
  double t;
  std::string server, status;
  int weight;
};

std::vector<Weight> weights(const std::string& file) {
  std::vector<Weight> out;
  for (const auto& l : read(file)) {
    const auto w = words(l);
    Weight x{std::stod(w[0]), w[1], "", -1};
    for (std::size_t i = 2; i < w.size(); ++i) {
      if (!w[i].empty() && w[i].find_first_not_of("0123456789") == std::string::npos) {
        x.weight = std::stoi(w[i]);
        break;
      }
      x.status += (x.status.empty() ? "" : " ") + w[i];
    }
    out.push_back(x);
  }
  return out;
}

// H10 worked by hand: slowstart 4 s, weight 100; w = (16 x seconds + 4) / 4 in
// integers, shown as ceil(100 x w / 16): 7, 32, 57, 82, then 100.
std::vector<int> staircase() {
  std::vector<int> out;
  for (int s = 0; s < 4; ++s) {
    const int w = (16 * s + 4) / 4;
    out.push_back((100 * w + 15) / 16);
  }
  out.push_back(100);
  return out;
}

// Every ramp in FILE for SERVER: the weights from each 7 on (until the server
// leaves), one second apart. Returns the ramps.
std::vector<std::vector<int>> ramps(const std::string& file, const std::string& server) {
  std::vector<std::vector<int>> out;
  double last = 0;
  for (const auto& x : weights(file)) {
    if (x.server != server) continue;
    if (x.status.rfind("MAINT", 0) == 0) {
      if (!out.empty()) out.back().push_back(-1);  // interrupted: closes the ramp
      continue;
    }
    if (x.weight == 7 && (out.empty() || out.back().back() != 7)) {
      out.push_back({7});
      last = x.t;
      continue;
    }
    if (out.empty() || out.back().back() == -1 || out.back().back() == 100 || x.weight == out.back().back()) continue;
    EXPECT_NEAR(x.t - last, 1.0, 0.3) << file << " " << server << " at " << x.t;
    last = x.t;
    out.back().push_back(x.weight);
  }
  for (auto& r : out)
    if (!r.empty() && r.back() == -1) r.pop_back();
  return out;
}

void expect_staircase_prefix(const std::vector<int>& ramp, const std::string& where) {
  const auto full = staircase();
  ASSERT_LE(ramp.size(), full.size()) << where;
  for (std::size_t i = 0; i < ramp.size(); ++i) EXPECT_EQ(ramp[i], full[i]) << where << " step " << i;
}

TEST(TrafficRealRules, SlowstartStaircaseOnLeavingMaintenance) {
  EXPECT_EQ(staircase(), (std::vector<int>{7, 32, 57, 82, 100}));
  const auto b = ramps("haproxy-maintenance-ramp/roundrobin-stat.txt", "b");
  ASSERT_EQ(b.size(), 2u);
  expect_staircase_prefix(b[0], "b, 2 s in maintenance (back in maintenance at 82)");
  EXPECT_EQ(b[0].size(), 4u);
  EXPECT_EQ(b[1], staircase());  // 6 s in maintenance, longer than slowstart: ramps all the same
  const auto c = ramps("haproxy-maintenance-ramp/roundrobin-stat.txt", "c");
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0], staircase());  // add server, then enable server
  const auto s1 = ramps("haproxy-server-template/stat.txt", "s1");
  ASSERT_EQ(s1.size(), 1u);
  EXPECT_EQ(s1[0], staircase());  // the name appeared in DNS
  for (const std::string rate : {"10", "100"}) {
    const auto r = ramps("haproxy-leastconn-ramp/" + rate + "rps-stat.txt", "b");
    ASSERT_EQ(r.size(), 1u) << rate;
    EXPECT_EQ(r[0], staircase()) << rate;
  }
}

// H8: static-rr is not dynamic: b comes back at its full weight.
TEST(TrafficRealRules, NoRampWithStaticRoundRobin) {
  EXPECT_TRUE(ramps("haproxy-maintenance-ramp/static-rr-stat.txt", "b").empty());
  bool back = false;
  for (const auto& x : weights("haproxy-maintenance-ramp/static-rr-stat.txt"))
    if (x.server == "b" && x.t > 4 && x.status.rfind("UP", 0) == 0) {
      EXPECT_EQ(x.weight, 100) << x.t;
      back = true;
    }
  EXPECT_TRUE(back);
}

// H9: a plain reload ends the ramp at full weight; with the state file it starts over.
TEST(TrafficRealRules, AReloadEndsOrRestartsTheRamp) {
  const double reload = time_of(read("haproxy-reload/plain-reload.txt").at(0));
  for (const auto& x : weights("haproxy-reload/plain-stat.txt"))
    if (x.t > reload + 0.2) {
      EXPECT_EQ(x.weight, 100) << x.t;
    }
  const auto r = ramps("haproxy-reload/state-file-stat.txt", "b");
  ASSERT_EQ(r.size(), 2u);
  expect_staircase_prefix(r[0], "before the reload");
  EXPECT_EQ(r[1], staircase());
}

// The servers named in HAProxy's request lines ("T server status ..."), in order.
std::vector<std::string> haproxy_picks(const std::string& file, bool fast) {
  std::vector<std::string> out;
  for (const auto& l : read(file)) {
    const auto w = words(l);
    if (w.size() == 6 && (w[1] == "a" || w[1] == "b") && has(w[5], "/fast") == fast) out.push_back(w[1]);
  }
  return out;
}

// H11: an idle server's key is 0 whatever its weight (3 and 1 here), so at 10
// requests a second (every server idle at each pick) they simply alternate.
TEST(TrafficRealRules, HAProxyLeastconnIgnoresWeightsWhenIdle) {
  const auto picks = haproxy_picks("haproxy-leastconn/access.txt", false);
  ASSERT_EQ(picks.size(), 60u);
  for (std::size_t i = 1; i < picks.size(); ++i) EXPECT_NE(picks[i], picks[i - 1]) << i;
  const auto busy = haproxy_picks("haproxy-leastconn/access.txt", true);
  const auto a = std::count(busy.begin(), busy.end(), "a");
  EXPECT_GT(a, 3 * static_cast<long>(busy.size() - a));  // busy: more than 3 : 1
}

// N3: idle servers tie at 0 connections; nginx then runs its smooth weighted
// round-robin among them. Worked by hand for weights 3 (a) and 1 (b).
TEST(TrafficRealRules, NginxLeastConnBreaksTiesByWeightedRoundRobin) {
  std::vector<std::string> expected;
  int ca = 0, cb = 0;
  for (int i = 0; i < 60; ++i) {
    ca += 3, cb += 1;
    const bool pick_a = ca >= cb;  // the first server wins a tie
    expected.push_back(pick_a ? "a" : "b");
    (pick_a ? ca : cb) -= 4;
  }
  EXPECT_EQ(std::vector<std::string>(expected.begin(), expected.begin() + 4), (std::vector<std::string>{"a", "a", "b", "a"}));
  std::vector<std::string> picks;
  for (const auto& l : read("nginx-least-conn/access.txt")) {
    const auto w = words(l);
    if (has(w.back(), "/fast")) continue;
    picks.push_back(w[1] == "127.0.0.1:24211" ? "a" : "b");
  }
  EXPECT_EQ(picks, expected);
}

// N2: one server: every request goes to it, none is passed to a second try.
TEST(TrafficRealRules, NginxNeverTakesOutASingleServer) {
  const auto access = read("nginx-single-server/access.txt");
  EXPECT_EQ(access.size(), 80u);
  for (const auto& l : access) {
    const auto w = words(l);
    EXPECT_EQ(w[1], "127.0.0.1:24201") << l;  // one upstream, no ", "
    EXPECT_TRUE(w[2] == "\"504\"" || w[2] == "\"200\"") << l;
  }
  bool answered = false;
  for (const auto& l : read("nginx-single-server/client.txt")) {
    const auto w = words(l);
    if (w[1] == "200") answered = true;
    if (answered) {
      EXPECT_EQ(w[1], "200") << l;  // 504s while cold, then only 200s
    }
  }
  EXPECT_TRUE(answered);
}

// N6, N7: how many servers one request tried.
std::map<int, int> tries(const std::string& file) {
  std::map<int, int> out;
  for (const auto& l : read(file)) {
    const auto upstreams = l.substr(l.find(' ') + 1, l.find('"') - l.find(' ') - 2);
    ++out[1 + static_cast<int>(std::count(upstreams.begin(), upstreams.end(), ','))];
  }
  return out;
}

TEST(TrafficRealRules, NginxNextUpstreamTriesAndTimeout) {
  const auto all = tries("nginx-tries-0/tries-0-access.txt");  // 0: every server once (3)
  EXPECT_GT(all.count(3), 0u);
  EXPECT_EQ(all.rbegin()->first, 3);
  EXPECT_EQ(tries("nginx-tries-0/tries-2-access.txt").rbegin()->first, 2);
  // 700 ms: after two 500 ms timeouts, no third server.
  EXPECT_EQ(tries("nginx-tries-0/tries-0-timeout-700ms-access.txt").rbegin()->first, 2);
  for (const auto& l : read("nginx-tries-0/tries-0-access.txt")) EXPECT_TRUE(has(l, " 200 /")) << l;
}

}  // namespace real_rules
