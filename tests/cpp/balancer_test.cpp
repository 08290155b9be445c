// The imperative API: same rules and messages as script lines.
#include <gtest/gtest.h>

#include <vector>

#include "core/balancer.hpp"

using namespace slowstart;

namespace {

template <typename F>
std::string error_of(F f) {
  const Problem p = f();
  return p ? *p : "(no error)";
}

}  // namespace

TEST(Balancer, SameSequenceAsScripts) {
  Balancer b;
  ASSERT_FALSE(b.set_pool({{"a", 5}, {"b", 1}, {"c", 1}}));
  std::vector<std::int32_t> out(7);
  b.pick_many(7, out.data());
  EXPECT_EQ(out, (std::vector<std::int32_t>{0, 0, 1, 0, 2, 0, 0}));
  ASSERT_FALSE(b.add("d", 10, 20));
  ASSERT_FALSE(b.set_now(5));
  EXPECT_EQ(b.weights_line(), "a=5 b=1 c=1 d=2");
  EXPECT_EQ(b.weights(), (std::vector<std::pair<std::string, std::int64_t>>{
                             {"a", 5}, {"b", 1}, {"c", 1}, {"d", 2}}));
}

TEST(Balancer, BadArgumentsReturnTheScriptsMessagesAndChangeNothing) {
  Balancer b;
  ASSERT_FALSE(b.set_pool({{"a", 1}}));
  EXPECT_EQ(error_of([&] { return b.set_pool({{"x", 1}, {"x", 2}}); }),
            "duplicate backend name 'x' in POOL");
  EXPECT_EQ(error_of([&] { return b.set_pool({{"x=y", 1}}); }),
            "backend name must not contain '=', got 'x=y'");
  EXPECT_EQ(error_of([&] { return b.set_pool({{"x", -1}}); }),
            "weight must be a non-negative integer, got '-1'");
  EXPECT_EQ(error_of([&] { return b.set_now(-1); }), "time must be a non-negative integer, got '-1'");
  EXPECT_EQ(error_of([&] { return b.set_now_text("1.5"); }),
            "time must be a non-negative integer, got '1.5'");
  EXPECT_EQ(error_of([&] { return b.add("b", 1'000'001, 0); }),
            "weight must be at most 1000000, got '1000001'");
  EXPECT_EQ(error_of([&] { return b.add("", 1, 0); }), "backend name is empty");
  EXPECT_EQ(error_of([&] { return b.add_text("b", "1", "1e3"); }),
            "ramp must be a non-negative integer, got '1e3'");
  EXPECT_EQ(error_of([&] { return b.down("zz"); }), "no backend named 'zz'");
  EXPECT_EQ(error_of([&] { return b.up("zz", 1); }), "no backend named 'zz'");
  EXPECT_EQ(b.weights_line(), "a=1");
  EXPECT_EQ(b.pool().now(), 0);
}
