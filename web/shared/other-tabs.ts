// The same page open in several tabs (or windows) shares localStorage, so a
// learner's work saved in one tab must reach the others, or an old tab would
// write its old text back. What one tab saves reaches the others as a
// `storage` event; a tab the browser froze, or kept in its back-forward
// cache, may have missed some, so it looks again when it is shown or
// focused. A tab the learner leaves (another tab, another window, closing
// it) saves what is pending at once, so the tab they go to has the latest.

export interface OtherTabs {
  /** What is stored under the key may have changed in another tab: read it again. */
  changed(): void;
  /** The learner is leaving this tab: save what is pending now. */
  leaving(): void;
}

/** Listens for `key` in `win`'s localStorage until the returned function is called. */
export function followOtherTabs(win: Window, key: string, on: OtherTabs): () => void {
  const doc = win.document;
  let storage: Storage | null = null;
  try {
    storage = win.localStorage;
  } catch {
    // blocked: no other tab can share it either
  }
  // A null key: the other tab cleared all of storage.
  const onStorage = (e: StorageEvent) => {
    if ((e.key === key || e.key === null) && e.storageArea === storage) on.changed();
  };
  const onVisibility = () => (doc.visibilityState === 'hidden' ? on.leaving() : on.changed());
  const onBack = () => on.changed();
  const onLeave = () => on.leaving();
  const listeners: [EventTarget, string, EventListener][] = [
    [win, 'storage', onStorage as EventListener],
    [win, 'focus', onBack],
    [win, 'pageshow', onBack],
    [win, 'blur', onLeave],
    [win, 'pagehide', onLeave],
    [doc, 'visibilitychange', onVisibility],
  ];
  for (const [target, type, listener] of listeners) target.addEventListener(type, listener);
  return () => {
    for (const [target, type, listener] of listeners) target.removeEventListener(type, listener);
  };
}
