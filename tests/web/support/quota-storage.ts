// A Storage for tests in Node: localStorage's behaviour, with a quota.

/** localStorage with a quota in UTF-16 code units (keys and values), as browsers count it. */
export class QuotaStorage implements Storage {
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
