#!/usr/bin/env bash
# Golden cases of `slowstart simulate`: the bytes both CLIs print for a set
# of scenarios, recorded once and compared ever after.
#
#   bash check.sh CLI NAME...        compare (CLI: build/slowstart, or "node dist/api/cli.js")
#   bash check.sh --record CLI NAME...   write NAME.out, NAME.err, NAME.status
#
# cases.list holds one case a line: NAME, then the arguments after `simulate`
# (script paths are relative to this folder, where the CLI runs). stdout must
# equal NAME.out byte for byte, stderr NAME.err, the exit status NAME.status.
# Prints a unified diff for every mismatch; exits 1 if anything differs.
set -euo pipefail

record=0
if [[ ${1:-} == --record ]]; then
  record=1
  shift
fi
if [[ $# -lt 2 ]]; then
  echo "usage: bash check.sh [--record] CLI NAME..." >&2
  exit 2
fi
# "node dist/api/cli.js" is two words: split it, and make paths absolute
# before this script moves into its folder.
read -r -a cli <<<"$1"
shift
for i in "${!cli[@]}"; do
  if [[ -e ${cli[$i]} ]]; then cli[$i]=$(realpath -- "${cli[$i]}"); fi
done
cd -- "$(dirname -- "$0")"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/slowstart-simulate-golden.XXXXXX")
trap 'rm -rf -- "$tmp"' EXIT

failed=0
for name in "$@"; do
  line=$(grep -E "^$name( |$)" cases.list || true)
  if [[ -z $line ]]; then
    echo "check.sh: no case '$name' in cases.list" >&2
    exit 2
  fi
  read -r -a args <<<"${line#"$name"}"
  status=0
  "${cli[@]}" simulate "${args[@]}" </dev/null >"$tmp/out" 2>"$tmp/err" || status=$?
  if [[ $record -eq 1 ]]; then
    cp -- "$tmp/out" "$name.out"
    cp -- "$tmp/err" "$name.err"
    echo "$status" >"$name.status"
    echo "recorded $name (exit $status)"
    continue
  fi
  ok=1
  if ! cmp -s -- "$name.out" "$tmp/out"; then
    echo "FAIL $name: stdout differs (--- expected, +++ actual):"
    diff -u -a --label "$name.out" --label "actual stdout" -- "$name.out" "$tmp/out" | head -40 || true
    ok=0
  fi
  if ! cmp -s -- "$name.err" "$tmp/err"; then
    echo "FAIL $name: stderr differs (--- expected, +++ actual):"
    diff -u -a --label "$name.err" --label "actual stderr" -- "$name.err" "$tmp/err" | head -20 || true
    ok=0
  fi
  if [[ $status -ne $(cat -- "$name.status") ]]; then
    echo "FAIL $name: exit status $status, expected $(cat -- "$name.status")"
    ok=0
  fi
  if [[ $ok -eq 1 ]]; then echo "ok $name"; else failed=1; fi
done
exit $failed
