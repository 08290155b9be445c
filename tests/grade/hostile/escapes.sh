#!/bin/sh
# A hostile submission (docs/SECURITY.md): every way out of a grader that
# looks for a program's processes by their parent, group, session or
# environment, at once. The program double-forks a daemon into a session of
# its own with an empty environment (no mark a grader could have put there),
# which hops from pid to pid (a new session and a new pid each time, the old
# one exits) as fast as it can. The program prints its answer only once the
# daemon runs, so the daemon is alive when the program ends. $1: a folder
# for its state: "first" (the daemon's first pid) and "current" (its pid
# now, rewritten at every hop), each as the grader sees it (/proc/self/stat
# read by the shell itself: /proc is the machine's, whatever PID namespace
# the process is in); the test checks that none of them is alive once the
# grader ends. The daemon stops by itself after 20,000 hops, or once
# $1/stop exists. (A shell, not Python: 50 runs of it are a test.)
HOPPER='
read -r pid _ </proc/self/stat
[ "$2" = 0 ] && echo "$pid" >"$1/first"
echo "$pid" >"$1/current"
[ -e "$1/stop" ] || [ "$2" -ge 20000 ] || exec setsid -f /bin/sh -c "$0" "$0" "$1" $(($2 + 1)) </dev/null >/dev/null 2>&1
'
cat >/dev/null
rm -f "$1/first" "$1/current"
( setsid env -i /bin/sh -c "$HOPPER" "$HOPPER" "$1" 0 </dev/null >/dev/null 2>&1 & )
i=0
while [ ! -e "$1/current" ] && [ $i -lt 1000 ]; do sleep 0.01; i=$((i + 1)); done
echo a
