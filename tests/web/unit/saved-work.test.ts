// The rules that keep a learner's work, in Node: the share-link payload
// (against Node's zlib, not the element's own encoder), the script store
// against a Storage with a quota, so every branch of "what is kept" is hit,
// two stores on one storage (two tabs), which page is which and the
// takeover of what was saved under the path alone; and what a run whose
// output was cut says and how it is judged.
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { describe, expect, it, vi } from 'vitest';
import { decodeLinkCode, encodeLinkCode, MAX_LINKED_SCRIPT_BYTES } from '../../../web/host/link-codec.js';
import { MAX_SAVED_CHARS, MAX_VERSIONS, ScriptStore } from '../../../web/host/script-store.js';
import { judge } from '../../../web/host/compare.js';
import { pageIdentity } from '../../../web/host/identity.js';
import { runStatus } from '../../../web/runner/run-words.js';
import { QuotaStorage } from '../support/quota-storage.js';

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

describe('which page is which (pageIdentity)', () => {
  const id = (url: string) => {
    const u = new URL(url, 'https://lms.example');
    return pageIdentity({ pathname: u.pathname, search: u.search });
  };

  it('is the path and the query: pages an LMS serves from one path stay apart', () => {
    expect(id('/mod/page/view.php?id=1')).toBe('/mod/page/view.php?id=1');
    expect(id('/mod/page/view.php?id=2')).not.toBe(id('/mod/page/view.php?id=1'));
    expect(id('/course/lesson.html')).toBe('/course/lesson.html'); // as every key was before queries counted
    expect(id('/course/lesson.html?')).toBe('/course/lesson.html');
  });

  it('drops campaign and click tags, ignores the hash and the order of parameters, reads encodings as one', () => {
    const week1 = id('/view.php?id=1');
    for (const url of [
      '/view.php?id=1&utm_source=mail&utm_medium=email&UTM_Campaign=x',
      '/view.php?fbclid=IwAR&id=1&gclid=1&msclkid=2&_ga=3&mc_eid=4',
      '/view.php?id=1#ss-ramp=~abc',
      '/view.php?id=%31',
    ]) {
      expect(id(url), url).toBe(week1);
    }
    expect(id('/view.php?b=2&a=1')).toBe(id('/view.php?a=1&b=2'));
    expect(id('/view.php?a=1&a=2')).not.toBe(id('/view.php?a=2&a=1')); // a repeated name keeps its order
    expect(id('/view.php?id=1&forceview=1')).not.toBe(week1); // the LMS's own parameters count: storage-key is for them
    expect(id('/view.php?utm_source=x')).toBe('/view.php');
  });
});

describe('one page in two tabs: two stores on one storage', () => {
  it('a stale tab starts every change from what is stored now, so it never drops what the other tab kept', () => {
    const storage = new QuotaStorage();
    const a = new ScriptStore(win(storage), KEY, STARTER);
    const b = new ScriptStore(win(storage), KEY, STARTER); // opened at the same time: nothing saved yet
    a.save('mine');
    a.adoptLink('c1', 'from a link'); // 'mine' is put aside
    b.adoptLink('c2', 'another link'); // b never saw either: what a put aside stays
    expect(stored(storage).versions.map((v) => v.script)).toEqual(['mine']);
    expect(stored(storage).script).toBe('another link');
  });

  it('refresh() says when another tab wrote, and the latest edit wins with the other put aside', () => {
    const storage = new QuotaStorage();
    const a = new ScriptStore(win(storage), KEY, STARTER);
    const b = new ScriptStore(win(storage), KEY, STARTER);
    expect(b.refresh()).toBe(false);
    a.save('a edits');
    expect(b.refresh()).toBe(true);
    expect(b.script).toBe('a edits');
    expect(b.refresh()).toBe(false);
    // b showed neither: its edit replaces a's, which is kept.
    b.save('b edits');
    expect(stored(storage)).toMatchObject({ script: 'b edits', versions: [{ script: 'a edits' }] });
    // a follows b's script (it shows it), then edits on top of it: nothing to put aside.
    expect(a.refresh()).toBe(true);
    a.followed();
    a.save('a edits again');
    expect(stored(storage).versions.map((v) => v.script)).toEqual(['a edits']);
  });

  it('a tab whose last write did not fit keeps what it has until another tab writes', () => {
    const storage = new QuotaStorage();
    const a = new ScriptStore(win(storage), KEY, STARTER);
    a.save('kept');
    storage.quota = storage.used();
    a.save('too long to fit now');
    expect(a.refresh()).toBe(false);
    expect(a.script).toBe('too long to fit now');
    storage.quota = Infinity;
    new ScriptStore(win(storage), KEY, STARTER).save('other tab');
    expect(a.refresh()).toBe(true);
    expect(a.script).toBe('other tab');
    expect(a.problem).toBeNull(); // what storage holds is the other tab's, whole
  });

  it('something not ours written under the key is not a change: the tab keeps what it has', () => {
    const storage = new QuotaStorage();
    const a = new ScriptStore(win(storage), KEY, STARTER);
    a.save('mine');
    storage.setItem(KEY, '{"not": "a record"');
    expect(a.refresh()).toBe(false);
    expect(a.script).toBe('mine');
    storage.removeItem(KEY); // Reset to starter in another tab
    expect(a.refresh()).toBe(true);
    expect(a.script).toBeNull();
  });
});

describe('work saved under the path alone is taken over once', () => {
  const LEGACY = 'slowstart:/view.php:ramp';
  const WEEK1 = 'slowstart:/view.php?id=1:ramp';
  const WEEK2 = 'slowstart:/view.php?id=2:ramp';
  const WEEK2_STARTER = 'POOL b=2\nWEIGHTS\n';
  /** What an earlier version wrote: a record under the path alone, against STARTER. */
  const seed = (storage: QuotaStorage) => new ScriptStore(win(storage), LEGACY, STARTER).save('week 1 answer');

  it('the first page with its starter opens it; the next page with that starter, and a page with another, get it as an earlier version', () => {
    const storage = new QuotaStorage();
    seed(storage);
    const week1 = new ScriptStore(win(storage), WEEK1, STARTER, LEGACY);
    expect(week1.script).toBe('week 1 answer');
    expect(JSON.parse(storage.getItem(WEEK1)!).script).toBe('week 1 answer');
    const week2 = new ScriptStore(win(storage), WEEK2, WEEK2_STARTER, LEGACY);
    expect(week2.script).toBe(WEEK2_STARTER); // its own starter
    expect(week2.versions.map((v) => v.script)).toEqual(['week 1 answer']);
    const sameStarter = new ScriptStore(win(storage), 'slowstart:/view.php?id=3:ramp', STARTER, LEGACY);
    expect(sameStarter.script).toBe(STARTER);
    expect(sameStarter.versions.map((v) => v.script)).toEqual(['week 1 answer']);
    expect(storage.getItem(LEGACY)).not.toBeNull(); // stays for pages not opened yet
  });

  it('a Reset is not undone by the old record, and a page with its own work ignores it', () => {
    const storage = new QuotaStorage();
    seed(storage);
    new ScriptStore(win(storage), WEEK1, STARTER, LEGACY).save(STARTER); // Reset to starter
    expect(storage.getItem(WEEK1)).toBeNull();
    expect(new ScriptStore(win(storage), WEEK1, STARTER, LEGACY).script).toBeNull();
    const own = new QuotaStorage();
    new ScriptStore(win(own), WEEK2, WEEK2_STARTER).save('week 2 answer');
    seed(own);
    const week2 = new ScriptStore(win(own), WEEK2, WEEK2_STARTER, LEGACY);
    expect(week2.script).toBe('week 2 answer');
    expect(week2.versions).toEqual([]);
  });
});

describe('a run whose output was cut at 64 MiB', () => {
  const out = (n: number) => Array.from({ length: n }, (_, i) => ({ line: i + 2, text: `a=${i}` }));

  it('never passes an exercise, and a difference is only one within the lines kept', () => {
    const expected = ['a=0', 'a=1'];
    expect(judge(expected, out(2), [], false).pass).toBe(true);
    expect(judge(expected, out(2), [], true)).toMatchObject({ pass: false, difference: null });
    // The kept lines stop before the expected ones: cut, not ended.
    expect(judge(['a=0', 'a=1', 'a=2'], out(2), [], true)).toMatchObject({ pass: false, difference: null, sourceLine: null });
    expect(judge(['a=0', 'x'], out(2), [], true).difference).toEqual({ index: 1, expected: 'x', actual: 'a=1' });
  });

  it('is said in the status line, with what is shown and up to which script line, never as "no problems"', () => {
    const result = (n: number, truncated: boolean, diagnostics: { line: number; message: string; from: number; to: number }[] = []) => ({
      output: out(n),
      diagnostics,
      truncated,
    });
    expect(runStatus(result(3, false))).toEqual({ text: 'Ran: 3 output lines, no problems.', problem: false });
    expect(runStatus(result(1024, true))).toEqual({
      text: 'Output cut at 64 MiB: the first 1,024 output lines are shown (printed up to script line 1025); the rest of the output, and any line rejected after the cut, is not.',
      problem: true,
    });
    expect(runStatus(result(1, true)).text).toMatch(/^Output cut at 64 MiB: the first 1 output line is shown \(printed up to script line 2\)/);
    expect(runStatus(result(0, true)).text).toMatch(/^Output cut at 64 MiB: no output line is shown;/);
    expect(runStatus(result(2, true, [{ line: 1, message: "unknown command 'pick' (use PICK)", from: 0, to: 4 }])).text).toMatch(
      /is not\. Before the cut: 1 rejected line · line 1: unknown command 'pick' \(use PICK\)$/,
    );
  });
});
