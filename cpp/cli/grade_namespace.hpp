// A PID namespace for each graded program (Linux, where the grader may make
// one: root with CAP_SYS_ADMIN, outside a restricted container), as the Node
// CLI makes it with util-linux's unshare (web/api/grade-namespace.ts).
//
// The program's child process (after setsid, before exec) unshares its PID
// namespace for its children and forks the holder first: the namespace's
// PID 1, which collects what is orphaned there and waits on the run's
// lifeline. Then it forks the program into the namespace and stays outside
// as its parent, ending as the program ends (its exit status, or the signal
// that killed it): so the grader sees the program's own status, and the
// program is not PID 1 (whose default signal actions the kernel ignores:
// abort() there would end as SIGSEGV) and can start threads (a process
// whose children go into another namespace than its own cannot). Everything
// it starts lives in the namespace, with no way out by fork, double fork,
// setsid, a clean environment or pid hopping.
// When the holder ends, the kernel kills every process in the namespace at
// once (atomic against fork): the grader kills it by pid when the test ends,
// and it ends by itself when the lifeline closes (the grader is gone).
// Where no namespace can be made, the grader stays a child subreaper
// (grade_processes.hpp) and sweeps its strays.
#pragma once
#include <sys/types.h>

namespace slowstart::cli {

// Set by the tests alone, to grade as where no namespace can be made.
inline constexpr const char* kNoNamespaceSwitch = "SLOWSTART_TEST_NO_PID_NAMESPACE";

// Whether a PID namespace can be made here: tried once (a fork inside one
// must exit 0), false under the tests' switch.
bool pid_namespace_works();

// The run's lifeline: a pipe whose write end only the grader holds (close
// on exec; every holder closes all but the read end), so that every holder
// sees it close when the grader ends, however it ends.
class Lifeline {
 public:
  bool open();
  int read_end() const { return fds_[0]; }
  ~Lifeline();

 private:
  int fds_[2] = {-1, -1};
};

// In the program's child, before exec: a PID namespace for what it will
// start, and its holder. Returns the holder's pid, or -errno.
pid_t enter_pid_namespace(int lifeline);

// Then: forks the program into the namespace and, outside, waits for it and
// ends as it ends (never returns there). Returns 0 in the program, or an
// errno when the fork fails.
int fork_into_namespace();

}  // namespace slowstart::cli
