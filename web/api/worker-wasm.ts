/**
 * A worker's side of start-worker.ts: the .wasm URLs the page sends as its
 * first message. Imported by a worker before it loads a module, so the
 * listener is there before any message arrives.
 */

/** The first message a worker started by startWorker() gets. */
export interface WasmUrlsMessage {
  type: 'slowstart-wasm';
  urls: Record<string, string>;
}

/** True for that message (a worker's own handlers skip it). */
export function isWasmUrls(data: unknown): data is WasmUrlsMessage {
  return typeof data === 'object' && data !== null && (data as { type?: unknown }).type === 'slowstart-wasm';
}

let received: (urls: Record<string, string>) => void;
const urls = new Promise<Record<string, string>>((resolve) => (received = resolve));
if (typeof self !== 'undefined' && typeof (self as { importScripts?: unknown }).importScripts === 'function') {
  self.addEventListener('message', (event: MessageEvent) => {
    if (isWasmUrls(event.data)) received(event.data.urls);
  });
}

/** The URL the page gave for the .wasm named `name` (`engine`, `lab`, `quickjs`). */
export async function wasmUrl(name: string): Promise<string> {
  const url = (await urls)[name];
  if (!url) throw new Error(`the page did not say where ${name}.wasm is`);
  return url;
}
