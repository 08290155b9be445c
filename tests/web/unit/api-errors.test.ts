// Every rejection of the API is a SlowStartError with a stable code; a
// failed load names the URL it tried.
import { describe, expect, it } from 'vitest';
import { loadLab, loadSlowStart, SlowStartError } from '../../../dist/api/node.js';
import { slowstart } from '../support/engine.js';

const quiet = { printErr: () => {}, print: () => {}, onAbort: () => {} };

describe('SlowStartError', () => {
  it('is an Error with a code; engine rejections keep the script message', () => {
    const b = slowstart.createBalancer();
    let caught: unknown;
    try {
      b.setPool({ a: 1, b: -1 });
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(SlowStartError);
    expect(caught).toBeInstanceOf(Error);
    expect(caught).toMatchObject({
      name: 'SlowStartError',
      code: 'INVALID_ARGUMENT',
      message: "weight must be a non-negative integer, got '-1'",
    });
    expect(() => b.add('c', 1, -5)).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
    expect(() => b.pickMany(-1)).toThrow(expect.objectContaining({ code: 'OUT_OF_RANGE' }));
    expect(() => b.pickMany('1' as unknown as number)).toThrow(expect.objectContaining({ code: 'WRONG_TYPE' }));
    b.dispose();
    expect(() => b.pick()).toThrow(expect.objectContaining({ code: 'DISPOSED', message: 'this Balancer has been disposed' }));
  });

  it('a .wasm that cannot be fetched rejects with WASM_LOAD_FAILED naming the URL tried', async () => {
    const url = 'http://127.0.0.1:9/nowhere/engine.wasm'; // port 9 (discard): nothing listens
    const error = await loadSlowStart({ ...quiet, locateFile: () => url }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SlowStartError);
    expect(error).toMatchObject({ code: 'WASM_LOAD_FAILED', url });
    expect((error as Error).message).toContain(url);
    const lab = await loadLab({ ...quiet, locateFile: (path) => `http://127.0.0.1:9/cdn/${path}` }).catch((e: unknown) => e);
    expect(lab).toMatchObject({ code: 'WASM_LOAD_FAILED', url: 'http://127.0.0.1:9/cdn/lab.wasm' });
  });

  it('bytes that are not a module reject with WASM_LOAD_FAILED too', async () => {
    const error = await loadSlowStart({ ...quiet, wasmBinary: new Uint8Array([1, 2, 3]) }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'SlowStartError', code: 'WASM_LOAD_FAILED' });
  });
});
