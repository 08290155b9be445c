#!/usr/bin/env bash
# Builds the npm package's files into dist/: the typed API and Node CLI
# (tsc) next to the WASM modules, and the embeddable <slow-start-runner>
# (dist/element, Vite library mode, importing ../api and ../wasm). Needs
# web/wasm (build-wasm.sh) first. `npm pack` runs it (scripts/prepack.sh).
source "$(dirname "$0")/lib.sh"
step "Building the npm package (dist/)"
rm -rf dist/api dist/wasm
npx tsc -p tsconfig.build.json
mkdir -p dist/wasm
cp web/wasm/engine.wasm web/wasm/engine.d.mts web/wasm/lab.wasm web/wasm/lab.d.mts dist/wasm/
# The glue's `new URL("engine.wasm", import.meta.url)` written as bundlers
# read a relative URL (webpack takes a bare "engine.wasm" for a module name).
for glue in engine lab; do
  sed -E 's/new URL\("([a-z]+\.wasm)",import\.meta\.url\)/new URL("\.\/\1",import.meta.url)/g' "web/wasm/$glue.mjs" >"dist/wasm/$glue.mjs"
  grep -q "new URL(\"./$glue.wasm\",import.meta.url)" "dist/wasm/$glue.mjs" || {
    echo "build-package: dist/wasm/$glue.mjs has no new URL(\"./$glue.wasm\", import.meta.url) (Emscripten's glue changed?)" >&2
    exit 1
  }
done
chmod +x dist/api/cli.js
step "Building the <slow-start-runner> element (dist/element/)"
npm run --silent build:element
