// libFuzzer target: the fast exact pick against the O(n) oracle.
//
// The first byte chooses the subject: SmoothWrr on its own (weights and
// scores set directly, rebases forced), or a Pool driven like a script
// (POOL, NOW forward/back/jumps, ADD in place or appended, DOWN, UP, PICK).
// The rest is decoded by tests/support/pick_differential.hpp; any
// difference in a winner, a weight or a score traps with a description.
//
// Build and run: tests/fuzz/run.sh --pick [SECONDS]
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include <sys/time.h>
#include <unistd.h>

#include "../support/pick_differential.hpp"

namespace {

// A pick that never returns is a finding too. libFuzzer's -timeout catches
// it natively; under qemu-i386 (run.sh --m32, the 32-bit size_t that
// WebAssembly has) its alarm never fires, so SLOWSTART_FUZZ_WATCHDOG=SECONDS
// arms one of our own per input, and an input that outlives it aborts,
// which libFuzzer saves as a crash artifact like any other.
[[noreturn]] void on_watchdog(int) {
  static const char kMessage[] = "\n*** A PICK DID NOT RETURN (SLOWSTART_FUZZ_WATCHDOG)\n";
  (void)!write(2, kMessage, sizeof kMessage - 1);
  std::abort();
}

long watchdog_seconds() {
  static const long seconds = [] {
    const char* v = std::getenv("SLOWSTART_FUZZ_WATCHDOG");
    const long s = v ? std::atol(v) : 0;
    if (s > 0) std::signal(SIGALRM, on_watchdog);
    return s;
  }();
  return seconds;
}

void arm(long seconds) {
  itimerval t{};
  t.it_value.tv_sec = seconds;
  setitimer(ITIMER_REAL, &t, nullptr);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const long watchdog = watchdog_seconds();
  if (watchdog > 0) arm(watchdog);
  struct Disarm {
    long on;
    ~Disarm() { if (on > 0) arm(0); }
  } disarm{watchdog};
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
