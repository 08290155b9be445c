#!/usr/bin/env bash
# Builds the npm package's files into dist/: the typed API and Node CLI
# (tsc) next to the WASM module, and the embeddable <slow-start-runner>
# (dist/element, Vite library mode). Needs web/wasm (build-wasm.sh) first.
source "$(dirname "$0")/lib.sh"
step "Building the npm package (dist/)"
rm -rf dist/api dist/wasm
npx tsc -p tsconfig.build.json
mkdir -p dist/wasm
cp web/wasm/engine.mjs web/wasm/engine.wasm web/wasm/engine.d.mts web/wasm/lab.mjs web/wasm/lab.wasm web/wasm/lab.d.mts dist/wasm/
chmod +x dist/api/cli.js
step "Building the <slow-start-runner> element (dist/element/)"
npm run --silent build:element
