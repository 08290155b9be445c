/// <reference types="vite/client" />
/**
 * The URL of QuickJS's .wasm, on the page's side: the implement worker is
 * handed it (web/api/start-worker.ts), so that no worker's graph names a
 * .wasm and a bundler emits it once. The page's build (Vite) emits the file
 * for `?url`; the element's build (vite.element.config.ts) writes this
 * import as `new URL("../wasm/quickjs.wasm", import.meta.url)`, the package's
 * copy (scripts/build-package.sh), which a consumer's bundler emits in turn.
 */
import wasm from '@jitl/quickjs-wasmfile-release-sync/wasm?url';
import { packageFileUrl } from '../../api/package-url.js';

export const quickjsWasmUrl = (): string => packageFileUrl(new URL(wasm, globalThis.location?.href), 'wasm/quickjs.wasm').href;
