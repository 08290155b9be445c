// `--from FILE`'s per-server slow start works as `--slow-start` does (issue
// 33 item 1): the file's window goes to every server, the balancer's rule
// decides which joins ramp, and the script's own ramps are not used (a note
// says which). Worked by hand from HAProxy's sixteenths (H9, H10).
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "system/simulate_from.hpp"

namespace from_slow_start {  // named: unity builds put test files side by side

slowstart::system::FileReader reader(const std::map<std::string, std::string>& files) {
  return [files](const std::string& path, std::size_t, std::string& out) -> slowstart::Problem {
    const auto it = files.find(path);
    if (it == files.end()) return "cannot open " + path;
    out = it->second;
    return std::nullopt;
  };
}

const char* const kConfig =
    "backend pool\n"
    "    balance roundrobin\n"
    "    server a 10.0.0.1:80 weight 16 slowstart 8s\n"
    "    server b 10.0.0.2:80 weight 16 slowstart 8s\n";

// b leaves maintenance at 4 (UP b 3: its own ramp is not used): HAProxy's
// step 1 + floor(16 e / 8) = 1, 3, 5, ... sixteenths of 16 x 16 = 256 against
// a's 256: b's share of second 4's 160 requests is 16 / 272 (about 9), of
// second 5's 48 / 304 (about 25). At the start nothing ramps: 80 each.
TEST(SystemSlowStart, TheFilesSlowstartIsEveryServersWindowByHAProxysRule) {
  const auto files = reader({{"haproxy.cfg", kConfig}, {"s.txt", "NOW 2\nDOWN b\nNOW 4\nUP b 3\n"}});
  std::string out, err;
  const int status = slowstart::system::run_simulate_system(
      {"--from", "haproxy.cfg", "--rps", "160", "--duration", "14", "--csv", "s.txt"}, files, out, err);
  ASSERT_EQ(status, 0) << err;
  // The note names the script's own line (4), not the file's prelude's.
  EXPECT_NE(err.find("the ramp written on line 4 is not used"), std::string::npos) << err;
  const auto count = [&](const std::string& t, const std::string& name) {
    const std::string key = "\n" + t + "," + name + ",";
    const auto at = out.find(key);
    EXPECT_NE(at, std::string::npos) << key;
    return std::stoi(out.substr(at + key.size()));
  };
  EXPECT_EQ(count("0", "b"), 80);
  EXPECT_NEAR(count("4", "b"), 160.0 * 16 / 272, 2);
  EXPECT_NEAR(count("5", "b"), 160.0 * 48 / 304, 2);
  EXPECT_EQ(count("13", "b"), 80);  // 4 + 8 s: full
  // --explain says what the file's slowstart became.
  std::string explained;
  ASSERT_EQ(slowstart::system::run_simulate_system({"--from", "haproxy.cfg", "--explain", "s.txt"}, files, explained, err), 0);
  EXPECT_NE(explained.find("--slow-start 8"), std::string::npos) << explained;
  EXPECT_NE(explained.find("the script's ramps are not used"), std::string::npos) << explained;
}

}  // namespace from_slow_start
