#!/usr/bin/env bash
# The main job: set up, build the engine, and serve the web runner.
source "$(dirname "$0")/lib.sh"
bash scripts/setup.sh
bash scripts/build-wasm.sh
step "Serving the web runner"
exec npx vite --host 127.0.0.1 "$@"
