// libFuzzer target: the fast exact pick against the O(n) oracle.
//
// The first byte chooses the subject: SmoothWrr on its own (weights and
// scores set directly, rebases forced), or a Pool driven like a script
// (POOL, NOW forward/back/jumps, ADD in place or appended, DOWN, UP, PICK).
// The rest is decoded by tests/support/pick_differential.hpp; any
// difference in a winner, a weight or a score traps with a description.
//
// Build and run: tests/fuzz/run.sh --pick [SECONDS]
#include <cstdint>
#include <cstdio>
#include <string>

#include "../support/pick_differential.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  slowstart_test::ByteSource in(data + 1, size - 1);
  // Pools of up to ~160 backends (both sides of the small-pool and the
  // tournament thresholds) and up to 64 picks per operation: thousands of
  // inputs per second under the sanitizers.
  const slowstart_test::Scale scale{160, 48};
  const std::string problem = data[0] & 1 ? slowstart_test::run_pool_ops(in, scale)
                                          : slowstart_test::run_wrr_ops(in, scale);
  if (!problem.empty()) {
    std::fprintf(stderr, "\n*** PICK DIFFERS FROM THE ORACLE: %s\n", problem.c_str());
    __builtin_trap();
  }
  return 0;
}
