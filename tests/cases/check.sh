#!/usr/bin/env bash
# Golden-case checker.
#
#   bash check.sh <path-to-slowstart> <path/to/NAME.txt>
#
# Runs the CLI on NAME.txt and compares, byte for byte:
#   stdout      with NAME.out (must exist; an empty file means "no output"),
#   stderr      with NAME.err (a missing file means "stderr must be empty"),
#   exit status with 1 when NAME.err is non-empty, else 0.
# Prints a unified diff for every mismatch and exits 1 if anything differs,
# 0 if everything matches, 2 on a usage or setup problem.
set -euo pipefail

if [[ $# -ne 2 ]]; then
  echo "usage: bash check.sh <path-to-slowstart> <path/to/NAME.txt>" >&2
  exit 2
fi

bin=$1
script=$2

if [[ ! -x $bin ]]; then
  echo "check.sh: CLI not found or not executable: '$bin'" >&2
  exit 2
fi
if [[ $script != *.txt || ! -f $script ]]; then
  echo "check.sh: not a .txt case file: '$script'" >&2
  exit 2
fi

base=${script%.txt}
name=$(basename -- "$base")
want_out=$base.out
want_err=$base.err

if [[ ! -f $want_out ]]; then
  echo "check.sh: $name: missing expected stdout file '$want_out'" >&2
  exit 2
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/slowstart-golden.XXXXXX")
trap 'rm -rf -- "$tmp"' EXIT

# Expected stderr: the .err file, or nothing at all.
if [[ -f $want_err ]]; then
  cp -- "$want_err" "$tmp/want.err"
else
  : >"$tmp/want.err"
fi
want_status=0
if [[ -s $tmp/want.err ]]; then want_status=1; fi

# Run the CLI. It must not read the terminal, and a non-zero exit status is
# data here, not a reason for `set -e` to stop the script.
status=0
"$bin" "$script" <"/dev/null" >"$tmp/got.out" 2>"$tmp/got.err" || status=$?

failed=0

if ! cmp -s -- "$want_out" "$tmp/got.out"; then
  echo "FAIL $name: stdout differs from $want_out (--- expected, +++ actual):"
  diff -u -a --label "expected stdout ($name.out)" --label "actual stdout" \
    -- "$want_out" "$tmp/got.out" || true
  failed=1
fi

if ! cmp -s -- "$tmp/want.err" "$tmp/got.err"; then
  if [[ -f $want_err ]]; then err_label="expected stderr ($name.err)"; else err_label="expected stderr (empty: no $name.err)"; fi
  echo "FAIL $name: stderr differs (--- expected, +++ actual):"
  diff -u -a --label "$err_label" --label "actual stderr" \
    -- "$tmp/want.err" "$tmp/got.err" || true
  failed=1
fi

if [[ $status -ne $want_status ]]; then
  echo "FAIL $name: exit status $status, expected $want_status"
  failed=1
fi

if [[ $failed -ne 0 ]]; then
  exit 1
fi
echo "ok $name"
