#!/usr/bin/env bash
# bench-baseline.sh COMMIT: builds an earlier commit's package (the WebAssembly
# modules and dist/api) once, in build/baselines/COMMIT (a detached git
# worktree sharing this tree's node_modules), and prints its dist folder.
# For benchmarks that measure two builds side by side in one run: a goal
# set in CPU seconds on the day an issue was filed holds on a slower or
# busier machine when this build beats that day's build by the goal's ratio
# (the traffic bench's TRAFFIC_BENCH_BASELINE; docs/PERFORMANCE.md).
# Exits 3 when the commit is not in this clone (a shallow clone, say).
source "$(dirname "$0")/lib.sh"
commit=${1:?usage: bench-baseline.sh COMMIT}
if ! sha=$(git rev-parse --verify --quiet "$commit^{commit}"); then
  echo "bench-baseline: $commit is not in this clone's history (a shallow clone? git fetch --unshallow)" >&2
  exit 3
fi
dir=$ROOT/build/baselines/${sha:0:12}
if [[ -f $dir/.built ]]; then
  echo "$dir/dist"
  exit 0
fi
step "Building the baseline ${sha:0:12} for the benchmarks (build/baselines/, once)" >&2
git worktree prune
[[ -d $dir ]] || git worktree add --detach --force "$dir" "$sha" >&2
ln -sfn "$ROOT/node_modules" "$dir/node_modules"
# Its own scripts, as they were: the build of that day, with this machine's tools.
(cd "$dir" && bash scripts/build-wasm.sh && bash scripts/build-package.sh) >&2
touch "$dir/.built"
echo "$dir/dist"
