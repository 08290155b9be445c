// The implement mode's earlier versions (issue 35: the code before Reset, or
// a second tab's code, was gone after a reload), in Node against a Storage
// with a quota: what is put aside and what is not, Restore, two tabs on one
// list, a full or blocked storage, and records that are not ours.
import { describe, expect, it } from 'vitest';
import { CodeVersions, MAX_CODE_VERSIONS, MAX_VERSION_CHARS, versionsKey } from '../../../web/implement/code-versions.js';
import { QuotaStorage } from '../support/quota-storage.js';

const KEY = 'slowstart:/course/week.html?id=1:ramp:implement';
const TEMPLATE = 'function pick(backends) {\n  // TODO\n}\n';
const win = (storage: Storage | null) =>
  ({
    get localStorage() {
      if (!storage) throw new DOMException('blocked', 'SecurityError');
      return storage;
    },
  }) as unknown as Window;
const codes = (v: CodeVersions) => v.list.map((x) => x.code);

describe('the implement mode’s earlier versions', () => {
  it('keeps what is put aside, newest first, under the code’s key + ":versions", across a reload', () => {
    const storage = new QuotaStorage();
    const versions = new CodeVersions(win(storage), KEY, TEMPLATE);
    versions.putAside('first', 'second');
    versions.putAside('second', TEMPLATE);
    expect(codes(versions)).toEqual(['second', 'first']);
    expect(versionsKey(KEY)).toBe(`${KEY}:versions`);
    expect(JSON.parse(storage.getItem(`${KEY}:versions`)!).versions.map((v: { code: string }) => v.code)).toEqual(['second', 'first']);
    // The page reloaded: the same list.
    expect(codes(new CodeVersions(win(storage), KEY, TEMPLATE))).toEqual(['second', 'first']);
  });

  it('puts aside neither the template, nor blank code, nor the code replacing it, nor a runaway paste; no duplicates; at most MAX_CODE_VERSIONS', () => {
    const versions = new CodeVersions(win(new QuotaStorage()), KEY, TEMPLATE);
    versions.putAside(TEMPLATE, 'x');
    versions.putAside('  \n', 'x');
    versions.putAside('same', 'same');
    versions.putAside('x'.repeat(MAX_VERSION_CHARS + 1), 'x');
    expect(codes(versions)).toEqual([]);
    for (const c of ['a', 'b', 'a', 'c', 'd', 'e', 'f', 'g']) versions.putAside(c, null);
    expect(MAX_CODE_VERSIONS).toBe(5);
    expect(codes(versions)).toEqual(['g', 'f', 'e', 'd', 'c']);
  });

  it('Restore takes a version out and puts the code it replaces in its place (unless that is the template)', () => {
    const versions = new CodeVersions(win(new QuotaStorage()), KEY, TEMPLATE);
    versions.putAside('old', null);
    versions.putAside('older', null);
    expect(versions.take(1, 'now')).toBe('old');
    expect(codes(versions)).toEqual(['now', 'older']);
    expect(versions.take(0, TEMPLATE)).toBe('now');
    expect(codes(versions)).toEqual(['older']);
    expect(versions.take(5, 'x')).toBeNull();
    expect(codes(versions)).toEqual(['older']);
  });

  it('two tabs add to one list: each change starts from what storage holds', () => {
    const storage = new QuotaStorage();
    const a = new CodeVersions(win(storage), KEY, TEMPLATE);
    const b = new CodeVersions(win(storage), KEY, TEMPLATE);
    a.putAside('from a', null);
    b.putAside('from b', null);
    expect(codes(b)).toEqual(['from b', 'from a']);
    expect(a.refresh()).toBe(true);
    expect(codes(a)).toEqual(['from b', 'from a']);
    expect(a.refresh()).toBe(false); // nothing new
    // a restores what b put aside: b sees it gone.
    expect(a.take(0, 'a now')).toBe('from b');
    b.refresh();
    expect(codes(b)).toEqual(['a now', 'from a']);
  });

  it('storage nearly full: older versions give way first and `kept` says so; the page keeps them all', () => {
    const storage = new QuotaStorage();
    const versions = new CodeVersions(win(storage), KEY, TEMPLATE);
    versions.putAside('a'.repeat(100), null);
    versions.putAside('b'.repeat(100), null);
    expect(versions.kept).toBe(true);
    // Room for a list of one version of 100 characters in place of the two, not for three.
    storage.quota = storage.used() - storage.getItem(`${KEY}:versions`)!.length + 160;
    versions.putAside('c'.repeat(100), null);
    expect(versions.kept).toBe(false);
    expect(codes(versions).map((c) => c[0])).toEqual(['c', 'b', 'a']);
    const stored = JSON.parse(storage.getItem(`${KEY}:versions`)!).versions.map((v: { code: string }) => v.code[0]);
    expect(stored).toEqual(['c']);
  });

  it('works in memory where storage is blocked or no key is given, and ignores a record that is not ours', () => {
    for (const v of [new CodeVersions(win(null), KEY, TEMPLATE), new CodeVersions(win(new QuotaStorage()), null, TEMPLATE)]) {
      v.putAside('kept for the page’s life', null);
      expect(codes(v)).toEqual(['kept for the page’s life']);
      expect(v.kept).toBe(false);
    }
    const storage = new QuotaStorage();
    for (const raw of ['not json', '{"v":9,"versions":[]}', '[1,2]', '{"v":1,"versions":[{"code":3},{"code":"ok","at":"x"}]}']) {
      storage.setItem(`${KEY}:versions`, raw);
      const v = new CodeVersions(win(storage), KEY, TEMPLATE);
      expect(codes(v)).toEqual(raw.includes('"ok"') ? ['ok'] : []);
    }
  });
});
