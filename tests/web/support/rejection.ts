// What the API throws: a SlowStartError with a stable code and a message.
import { expect } from 'vitest';
import type { SlowStartErrorCode } from '../../../dist/api/node.js';

/** Matches a thrown SlowStartError of `code` with exactly `message`. */
export function rejection(code: SlowStartErrorCode, message: string | RegExp): unknown {
  return expect.objectContaining({
    name: 'SlowStartError',
    code,
    message: typeof message === 'string' ? message : expect.stringMatching(message),
  });
}
