/**
 * The default URLs of the package's .wasm files, written as bundlers read
 * them (`new URL('<literal>', import.meta.url)`: Vite, webpack, Parcel and
 * Turbopack emit the file and give its final URL). Only the page's side
 * names them: a worker is handed them (worker-wasm.ts), so each file is
 * emitted once, by the page's build.
 */
import { packageFileUrl } from './package-url.js';

export const engineWasmUrl = (): URL => packageFileUrl(new URL('../wasm/engine.wasm', import.meta.url), 'wasm/engine.wasm');

export const labWasmUrl = (): URL => packageFileUrl(new URL('../wasm/lab.wasm', import.meta.url), 'wasm/lab.wasm');
