// What the page shows, in its URL: no view in the hash is the runner with
// its ramp chart, "traffic" the runner with the Traffic tab, "implement" the
// implement-it-yourself mode. The hash's other `&`-separated parts (a shared
// script's `ss-script=...`) stay as they are. A tab the learner chooses is a
// new history entry, so Back and Forward go between them; a link or an
// edited hash is followed at once.
export type PageView = 'run' | 'traffic' | 'implement';

const VIEWS: readonly string[] = ['traffic', 'implement'];

function parts(hash: string): string[] {
  return hash.replace(/^#/, '').split('&').filter(Boolean);
}

export function viewOf(hash: string): PageView {
  const p = parts(hash);
  return p.includes('implement') ? 'implement' : p.includes('traffic') ? 'traffic' : 'run';
}

/** `hash` showing `view`, its other parts kept. */
export function hashOf(view: PageView, hash = ''): string {
  const rest = parts(hash).filter((p) => !VIEWS.includes(p));
  const all = view === 'run' ? rest : [view, ...rest];
  return all.length ? `#${all.join('&')}` : '';
}

/**
 * Calls `show` with the view in the URL now and whenever it changes (Back,
 * Forward, a link, an edited hash). Returns `go`, for the learner's choices:
 * it adds a history entry (nothing when the view is already the URL's).
 */
export function followLocation(win: Window, show: (view: PageView) => void): (view: PageView) => void {
  const apply = () => show(viewOf(win.location.hash));
  win.addEventListener('popstate', apply);
  win.addEventListener('hashchange', apply);
  apply();
  return (view) => {
    const hash = hashOf(view, win.location.hash);
    if (win.location.hash === hash) return;
    const { pathname, search } = win.location;
    win.history.pushState(null, '', `${pathname}${search}${hash}`);
  };
}
