#!/bin/sh
# escapes.sh once per test of a grading run: each program takes the next
# numbered folder under $1 for its daemon's state ($1/0, $1/1, ...: mkdir
# is atomic, so programs run at once never share one), so that one grading
# run of many tests leaves one daemon's record per test, each checked by
# grade-isolation.test.ts as a run of its own was.
n=0
while ! mkdir "$1/$n" 2>/dev/null; do n=$((n + 1)); done
exec /bin/sh "$(dirname "$0")/escapes.sh" "$1/$n"
