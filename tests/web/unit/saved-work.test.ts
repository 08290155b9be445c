// The rules that keep a learner's work, in Node: the share-link payload
// (against Node's zlib, not the element's own encoder) and the script store
// against a Storage with a quota, so every branch of "what is kept" is hit.
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { describe, expect, it, vi } from 'vitest';
import { decodeLinkCode, encodeLinkCode, MAX_LINKED_SCRIPT_BYTES } from '../../../web/element/link-codec.js';
import { MAX_SAVED_CHARS, MAX_VERSIONS, ScriptStore } from '../../../web/element/script-store.js';

describe('link payloads', () => {
  const scripts = ['', 'POOL a=1\nPICK\n', 'POOL café=1 日本=2 🚀=3\r\nWEIGHTS', 'PICK\n'.repeat(100_000)];

  it.each(scripts.map((s) => [s.slice(0, 20), s]))('%j: `~` + base64url(raw DEFLATE), read back by zlib and by the decoder', async (_label, script) => {
    const code = (await encodeLinkCode(script)) as string;
    expect(code).toMatch(/^~[A-Za-z0-9_-]+$/); // never empty, URL-safe, unpadded
    expect(inflateRawSync(Buffer.from(code.slice(1), 'base64url')).toString('utf8')).toBe(script);
    expect(await decodeLinkCode(code)).toEqual({ script });
  });

  it('compresses a repetitive script to a small fraction of its base64', async () => {
    const script = 'NOW 5\nDOWN web-001\nUP web-001 30\nWEIGHTS\nPICK\nPICK\n'.repeat(20_000);
    const code = (await encodeLinkCode(script)) as string;
    expect(code.length).toBeLessThan(Buffer.from(script).toString('base64url').length / 50);
  });

  it('says how long a link would be instead of making one past the limit', async () => {
    const code = (await encodeLinkCode('POOL a=1\nPICK\n')) as string;
    expect(await encodeLinkCode('POOL a=1\nPICK\n', code.length)).toBe(code);
    expect(await encodeLinkCode('POOL a=1\nPICK\n', code.length - 1)).toEqual({ length: code.length });
  });

  it('opens old and foreign payloads: plain base64url, padded base64, the standard alphabet, padded DEFLATE', async () => {
    const text = 'POOL é=1\nPICK ?>?';
    expect(await decodeLinkCode(Buffer.from(text).toString('base64url'))).toEqual({ script: text });
    expect(await decodeLinkCode(Buffer.from(text).toString('base64'))).toEqual({ script: text });
    expect(Buffer.from(text).toString('base64')).toMatch(/[+/=]/);
    expect(await decodeLinkCode(`~${deflateRawSync(Buffer.from(text)).toString('base64')}`)).toEqual({ script: text });
  });

  it('refuses what gives no script: empty, not base64, bad padding, cut short, not DEFLATE, not UTF-8', async () => {
    const cut = `~${deflateRawSync(Buffer.from('POOL a=1\n'.repeat(40))).toString('base64url').slice(0, 10)}`;
    for (const code of ['', '~', '%%%', 'a b', 'QQ=x', 'QQ===', 'Q', cut, `~${Buffer.from('not deflate').toString('base64url')}`, Buffer.from([0xff, 0xfe]).toString('base64url')]) {
      expect(await decodeLinkCode(code), JSON.stringify(code)).toEqual({ problem: 'damaged' });
    }
  });

  it('refuses a payload that would unpack past 64 MiB, without unpacking it all', async () => {
    const bomb = `~${deflateRawSync(Buffer.alloc(MAX_LINKED_SCRIPT_BYTES + 1, 0x41)).toString('base64url')}`;
    expect(bomb.length).toBeLessThan(200_000);
    expect(await decodeLinkCode(bomb)).toEqual({ problem: 'too-big' });
    const fits = `~${deflateRawSync(Buffer.alloc(1 << 20, 0x41)).toString('base64url')}`;
    expect(await decodeLinkCode(fits)).toEqual({ script: 'A'.repeat(1 << 20) });
  });
});

/** localStorage with a quota in UTF-16 code units (keys and values), as browsers count it. */
class QuotaStorage implements Storage {
  readonly items = new Map<string, string>();
  constructor(public quota = Infinity) {}
  get length() {
    return this.items.size;
  }
  used(): number {
    let n = 0;
    for (const [k, v] of this.items) n += k.length + v.length;
    return n;
  }
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    const after = this.used() - (this.items.has(key) ? key.length + this.items.get(key)!.length : 0) + key.length + value.length;
    if (after > this.quota) throw new DOMException('quota', 'QuotaExceededError');
    this.items.set(key, value);
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
  key(i: number) {
    return [...this.items.keys()][i] ?? null;
  }
  clear() {
    this.items.clear();
  }
}

const KEY = 'slowstart:/lesson.html:ex1';
const STARTER = 'POOL a=1\nPICK\n';
const win = (storage: Storage | null) =>
  ({
    get localStorage() {
      if (!storage) throw new DOMException('blocked', 'SecurityError');
      return storage;
    },
  }) as unknown as Window;
const stored = (s: QuotaStorage) => JSON.parse(s.getItem(KEY)!) as { script: string; own: boolean; versions: { script: string }[] };

describe('the script store', () => {
  it('puts the learner’s own script aside for every link, however many, and restore() brings it back', () => {
    const storage = new QuotaStorage();
    const store = new ScriptStore(win(storage), KEY, STARTER);
    store.save('mine');
    for (let i = 1; i <= 4; i++) store.adoptLink(`code${i}`, `link ${i}`);
    expect(store.script).toBe('link 4');
    expect(store.linked).toBe(true);
    expect(store.versions.map((v) => v.script)).toEqual(['mine']); // links are not the learner's: never put aside
    expect(new ScriptStore(win(storage), KEY, STARTER).versions.map((v) => v.script)).toEqual(['mine']);
    expect(store.restore(0)).toBe('mine');
    expect(store.versions).toEqual([]);
    expect(stored(storage)).toMatchObject({ script: 'mine', own: true, versions: [] });
  });

  it('keeps the newest five own versions, without duplicates or the starter', () => {
    const store = new ScriptStore(win(new QuotaStorage()), KEY, STARTER);
    for (let i = 1; i <= 7; i++) {
      store.save(`own ${i}`);
      store.adoptLink(`c${i}`, `link ${i}`);
    }
    expect(MAX_VERSIONS).toBe(5);
    expect(store.versions.map((v) => v.script)).toEqual(['own 7', 'own 6', 'own 5', 'own 4', 'own 3']);
    store.save('own 5');
    store.adoptLink('c8', 'link 8');
    expect(store.versions.map((v) => v.script)).toEqual(['own 5', 'own 7', 'own 6', 'own 4', 'own 3']);
    store.save(STARTER);
    store.adoptLink('c9', 'link 9');
    expect(store.versions[0].script).toBe('own 5');
    // Saving the link's own text again is not an edit: it stays a link's script.
    store.save('link 9');
    expect(store.linked).toBe(true);
  });

  it('reads what is saved when nothing can be written, and says what is not kept', () => {
    const storage = new QuotaStorage();
    const savedAt = Date.UTC(2026, 0, 2, 14, 2); // when 'saved before' was written
    const clock = vi.spyOn(Date, 'now').mockReturnValue(savedAt);
    new ScriptStore(win(storage), KEY, STARTER).save('saved before');
    clock.mockRestore();
    storage.quota = storage.used(); // full to the last character
    const store = new ScriptStore(win(storage), KEY, STARTER);
    expect(store.available).toBe(true);
    expect(store.script).toBe('saved before');
    expect(store.problem).toBeNull();
    store.save('longer edit, not kept');
    expect(store.script).toBe('longer edit, not kept'); // the page still has it
    // What is not kept (this 21-character script) and what is (the version saved at savedAt).
    expect(store.problem).toEqual({ kind: 'script', savedAt, scriptLength: 21 });
    expect(stored(storage).script).toBe('saved before');
    storage.quota = Infinity;
    store.save('room again');
    expect(store.problem).toBeNull();
    expect(stored(storage).script).toBe('room again');
  });

  it('drops the oldest versions from storage first, never the script or the newest version', () => {
    const storage = new QuotaStorage();
    const store = new ScriptStore(win(storage), KEY, STARTER);
    for (let i = 1; i <= 3; i++) {
      store.save(`own ${i} ${'x'.repeat(100)}`);
      store.adoptLink(`c${i}`, `link ${i}`);
    }
    storage.quota = storage.used() - 50; // one version less fits
    store.save('edited link');
    expect(store.problem).toEqual({ kind: 'versions', dropped: 1 });
    expect(stored(storage).versions.length).toBe(2);
    expect(store.versions.length).toBe(3); // all still in the page
    storage.quota = 10;
    store.save('nothing fits now');
    expect(store.problem).toMatchObject({ kind: 'script' });
    expect(stored(storage).script).toBe('edited link');
  });

  it('does not write a script over MAX_SAVED_CHARS (and says so), nor anything for a big starter left as it is', () => {
    const storage = new QuotaStorage();
    const big = 'PICK\n'.repeat(MAX_SAVED_CHARS / 5 + 1);
    const store = new ScriptStore(win(storage), KEY, STARTER);
    store.save('mine');
    store.save(big);
    expect(store.script).toBe(big);
    expect(store.problem).toMatchObject({ kind: 'script', scriptLength: big.length });
    expect(stored(storage).script).toBe('mine');
    const bigStarter = new ScriptStore(win(storage), 'other', big);
    bigStarter.save(big);
    expect(bigStarter.problem).toBeNull();
    expect(storage.getItem('other')).toBeNull();
  });

  it('works in memory where storage is blocked, and reads version 1 records', () => {
    const blocked = new ScriptStore(win(null), KEY, STARTER);
    expect(blocked.available).toBe(false);
    blocked.save('mine');
    blocked.adoptLink('c', 'theirs');
    expect(blocked.restore(0)).toBe('mine');

    const storage = new QuotaStorage();
    storage.setItem(KEY, JSON.stringify({ v: 1, script: 'from a link', starter: '00000000', link: 'abc', backup: 'my old one' }));
    const old = new ScriptStore(win(storage), KEY, STARTER);
    expect(old.script).toBe('from a link');
    expect(old.link).toBe('abc');
    expect(old.linked).toBe(true);
    expect(old.versions).toEqual([{ script: 'my old one', at: 0 }]);
    storage.setItem(KEY, '{not json');
    expect(new ScriptStore(win(storage), KEY, STARTER).script).toBeNull();
  });
});
