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
# QuickJS's .wasm (the implement mode's sandbox) beside ours: the element names it as ../wasm/quickjs.wasm.
cp node_modules/@jitl/quickjs-wasmfile-release-sync/dist/emscripten-module.wasm dist/wasm/quickjs.wasm
# The glue's own default URL, `new URL("engine.wasm", import.meta.url)`, is
# replaced by the bare name: the package always passes locateFile (the URL
# its page-side entry computed: web/api/wasm-urls.ts), and a glue that names
# no .wasm can be imported by a worker without its bundler emitting the
# .wasm a second time (web/api/engine-loader.ts).
for glue in engine lab; do
  sed -E 's/new URL\("([a-z]+\.wasm)",import\.meta\.url\)\.toString\(\)/"\1"/g' "web/wasm/$glue.mjs" >"dist/wasm/$glue.mjs"
  if grep -q 'new URL([^)]*import\.meta\.url' "dist/wasm/$glue.mjs" || ! grep -q "wasmBinaryFile=\"$glue.wasm\"" "dist/wasm/$glue.mjs"; then
    echo "build-package: dist/wasm/$glue.mjs still computes its .wasm URL from import.meta.url (Emscripten's glue changed?)" >&2
    exit 1
  fi
done
chmod +x dist/api/cli.js
step "Building the <slow-start-runner> element (dist/element/)"
npm run --silent build:element
