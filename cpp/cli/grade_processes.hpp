// The process side of `slowstart grade` in the native CLI: running the
// learner's program once per test, and making sure that nothing it starts
// outlives its test or reaches anything of the grader's but the program's
// stdin and stdout (docs/SECURITY.md, "Grading hostile programs"). The Node
// CLI does the same in web/api/grade-processes.ts.
//
// Each program starts in a session of its own (setsid: its own process
// group, and no controlling terminal, so /dev/tty and TIOCSTI reach
// nothing), with every descriptor above 2 closed, default signal
// dispositions, and with --user that user's identity and groups (as
// initgroups gives them). Its stdin, stdout and stderr are non-blocking
// pipes read from one poll() loop, `jobs` at a time. At the time limit, or
// past the stdout cap, its process group gets SIGKILL; so does what is left
// of it when it exits. The grader is a child subreaper (Linux), so what a
// program leaves running outside its group (a double fork, setsid) becomes
// the grader's child: it is killed (with its process group) whenever a test
// ends, in sweeps bounded in time that never wait on one process. With
// --user, the tests run in rounds of `jobs`, and after each round every
// process of that user is killed by one kill(-1) as that user, which the
// kernel makes atomic against fork (a fork bomb cannot outrun it); a user
// another run holds, or that has processes, is refused.
#pragma once
#include <signal.h>
#include <sys/types.h>

#include <string>
#include <vector>

#include "grading/grade.hpp"

namespace slowstart::cli {

// --user: who the program runs as.
struct RunAs {
  bool set = false;
  std::string name;
  uid_t uid = 0;
  gid_t gid = 0;
  std::vector<gid_t> groups;  // as initgroups(3) gives them: the user's supplementary groups
};

// --user NAME: the user's ids and groups, or why it cannot be.
Problem run_as(const std::string& name, RunAs& as);

// The user, for this run alone: refused when another run holds it (an
// abstract socket named after its uid, which both CLIs bind) or when it has
// processes. Released when this object goes.
class UserClaim {
 public:
  Problem claim(const RunAs& as);
  ~UserClaim();

 private:
  int fd_ = -1;
};

// A signal that ends the grader (SIGINT, SIGTERM, SIGHUP): noted here, and
// poll() woken, by the handler install_stop_handlers() sets.
extern volatile sig_atomic_t g_stop;
void install_stop_handlers();
void restore_stop_handlers();

// Runs every test, as above. Stops starting tests once the program cannot
// be started (GradeRun::finish then reports that alone), or when a signal
// says stop (then it returns at once, every program killed). Returns false
// when some process a program started could not be killed within the
// bounds (only without --user: a program hopping from pid to pid faster
// than /proc can be read); the caller says so.
bool run_all(grading::GradeRun& run, const std::vector<std::string>& paths, const RunAs& as);


}  // namespace slowstart::cli
