#!/usr/bin/env bash
# `npm pack` / `npm publish` run this first (package.json "prepack"): the
# package is built from this tree, checked, and its npm README put in place.
# It refuses loudly (exit 1, nothing packed) rather than ship a package
# without dist/. postpack.sh puts the repository's README back.
source "$(dirname "$0")/lib.sh"
# npm pack --json prints the result on stdout: the build talks on stderr.
exec 1>&2
refuse() {
  printf '\nprepack: %s\nprepack: nothing was packed.\n' "$*" >&2
  exit 1
}

# A pack that stopped half-way left the npm README in place: put ours back first.
bash scripts/postpack.sh

[[ -x node_modules/.bin/tsc && -x node_modules/.bin/vite ]] ||
  refuse "the build tools are missing (node_modules/): run \`npm ci\` first, then pack again."
if [[ ! -f web/wasm/engine.wasm || ! -f web/wasm/lab.wasm ]] && ! command -v emcmake >/dev/null; then
  refuse "web/wasm/ is not built and Emscripten (emcmake) is not installed: run \`npm run setup\` (Debian: installs it), then pack again."
fi
bash scripts/build-wasm.sh
bash scripts/build-package.sh

# Everything package.json points at must exist (an empty dist/ is never shipped).
node --input-type=module -e '
  import { existsSync, readFileSync } from "node:fs";
  const pkg = JSON.parse(readFileSync("package.json", "utf8"));
  const targets = [pkg.types, ...Object.values(pkg.bin ?? {})];
  const walk = (v) => (typeof v === "string" ? targets.push(v) : v && typeof v === "object" && Object.values(v).forEach(walk));
  walk(pkg.exports);
  for (const f of pkg.files) if (!f.includes("*")) targets.push(f);
  const missing = targets.filter((t) => !existsSync(t));
  if (missing.length) { console.error("prepack: built, but missing: " + missing.join(", ")); process.exit(1); }
' || refuse "the build did not produce the package's files."

# The npm page shows the tarball's README.md: the package's own (install,
# examples, absolute links), not the repository's.
mkdir -p build/pack
cp README.md build/pack/README.repository.md
cp docs/PACKAGE.md README.md
