// The recorded runs of real proxies under tests/cpp/traffic_real/ (their
// README says how each was made), read as lines for the tests that compare
// with them: traffic_real_test.cpp (the lab against the first recording) and
// traffic_real_rules_test.cpp (the later recordings against the rules).
#pragma once
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

// The non-empty lines of tests/cpp/traffic_real/NAME; a missing file fails
// the calling test.
inline std::vector<std::string> recorded_lines(const std::string& name) {
  std::ifstream in(std::string(SLOWSTART_SOURCE_DIR) + "/tests/cpp/traffic_real/" + name);
  EXPECT_TRUE(in) << name;
  std::vector<std::string> out;
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) out.push_back(line);
  return out;
}
