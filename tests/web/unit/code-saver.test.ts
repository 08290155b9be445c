// The implement mode's code in two tabs, in Node: two CodeSavers on one
// storage, each with its own window (an EventTarget standing in for it), and
// the events a browser sends (pagehide, storage, focus) dispatched by hand.
import { describe, expect, it } from 'vitest';
import { CodeSaver } from '../../../web/implement/code-saver.js';
import { CodeStorage } from '../../../web/implement/code-storage.js';

const KEY = 'slowstart:/course/week.html?id=1:ramp:implement';

/** A window of one tab: its own events, a shared localStorage, timers that run when told. */
function tab(storage: Storage) {
  const win = new EventTarget() as EventTarget & Record<string, unknown>;
  const doc = new EventTarget() as EventTarget & { visibilityState: string };
  doc.visibilityState = 'visible';
  const timers = new Map<number, () => void>();
  let next = 1;
  Object.assign(win, {
    document: doc,
    localStorage: storage,
    setTimeout: (f: () => void) => (timers.set(next, f), next++),
    clearTimeout: (id: number) => timers.delete(id),
  });
  let text = 'TEMPLATE';
  const shown: string[] = [];
  const replaced: string[] = [];
  const saver = new CodeSaver(win as unknown as Window, new CodeStorage(win as unknown as Window, KEY), () => text, {
    failed: () => shown.push('failed'),
    changed: (code) => {
      text = code;
      shown.push(code);
    },
    replacing: (theirs) => replaced.push(theirs),
  });
  return {
    type(code: string) {
      text = code;
      saver.soon();
    },
    runTimers() {
      for (const [id, f] of [...timers]) (timers.delete(id), f());
    },
    fire(type: string) {
      win.dispatchEvent(new Event(type));
    },
    /** What the browser sends this tab when another one writes `key`. */
    storageEvent(key: string | null) {
      const e = new Event('storage') as Event & { key: string | null; storageArea: Storage };
      Object.assign(e, { key, storageArea: storage });
      win.dispatchEvent(e);
    },
    get text() {
      return text;
    },
    shown,
    replaced,
  };
}

function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    getItem: (k) => items.get(k) ?? null,
    setItem: (k, v) => void items.set(k, v),
    removeItem: (k) => void items.delete(k),
    clear: () => items.clear(),
    key: (i) => [...items.keys()][i] ?? null,
  };
}

describe('the implement mode’s code in two tabs', () => {
  it('an untouched tab writes nothing when it is left, and shows the code the other tab saved', () => {
    const storage = memoryStorage();
    const old = tab(storage);
    const newer = tab(storage);
    newer.type('my code');
    newer.runTimers();
    expect(storage.getItem(KEY)).toBe('my code');
    old.fire('pagehide'); // closing the old tab
    old.fire('blur');
    expect(storage.getItem(KEY)).toBe('my code');
    old.storageEvent(KEY);
    expect(old.text).toBe('my code');
    expect(old.shown).toEqual(['my code']);
    old.fire('pagehide'); // shown, not edited here: still nothing to write
    expect(storage.getItem(KEY)).toBe('my code');
  });

  it('a tab with an edit waiting keeps it, saves it when left, and the other tab then shows it', () => {
    const storage = memoryStorage();
    const a = tab(storage);
    const b = tab(storage);
    a.type('a code');
    b.type('b code, typed last');
    a.runTimers();
    b.storageEvent(KEY); // a's save reaches b while b's edit waits
    expect(b.text).toBe('b code, typed last');
    b.fire('blur'); // the learner leaves b: saved at once
    expect(storage.getItem(KEY)).toBe('b code, typed last');
    // ... over a's, which b never showed: handed over first, to be kept among the earlier versions.
    expect(b.replaced).toEqual(['a code']);
    expect(a.replaced).toEqual([]);
    a.storageEvent(KEY);
    expect(a.text).toBe('b code, typed last');
  });

  it('a tab that missed the event looks again when it is focused or shown; other keys are not its own', () => {
    const storage = memoryStorage();
    const a = tab(storage);
    storage.setItem(KEY, 'written while a was frozen');
    a.storageEvent('slowstart:/course/other.html:ramp:implement');
    expect(a.text).toBe('TEMPLATE');
    a.fire('focus');
    expect(a.text).toBe('written while a was frozen');
    storage.setItem(KEY, 'and again');
    a.fire('pageshow');
    expect(a.shown).toEqual(['written while a was frozen', 'and again']);
  });
});
