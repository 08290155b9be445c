import type { Plugin } from 'vite';

// QuickJS's glue (the implement worker's sandbox) computes its .wasm's URL
// as `new URL("emscripten-module.wasm", import.meta.url)` when it is given no
// locateFile. The sandbox always gives one in a browser (the page hands the
// URL to the worker: web/api/start-worker.ts), so that default is replaced
// by the bare file name: a bundler then sees no .wasm in the worker's graph
// and emits QuickJS's .wasm once, from the page's graph (library mode would
// otherwise inline it as base64). Used by both of our Vite builds.
const QUICKJS_GLUE = /[\\/]@jitl[\\/]quickjs-wasmfile-[\w-]+[\\/]dist[\\/]emscripten-module\.browser\.mjs$/;

export const quickjsGlueUrl: Plugin = {
  name: 'slowstart-quickjs-glue-url',
  enforce: 'pre',
  transform(code, id) {
    if (!QUICKJS_GLUE.test(id)) return null;
    const out = code.replace(/new URL\((["'])([\w-]+\.wasm)\1,\s*import\.meta\.url\)(\.href|\.toString\(\))?/g, '"$2"');
    if (out === code) this.error(`${id}: QuickJS's glue no longer computes new URL("….wasm", import.meta.url); see vite.plugins.ts`);
    return { code: out, map: null };
  },
};
