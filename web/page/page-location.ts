// What the page shows, in its URL: "" is the runner with its ramp chart,
// "#traffic" the runner with the Traffic tab, "#implement" the implement-it-
// yourself mode. A tab the learner chooses is a new history entry, so Back
// and Forward go between them; a link or an edited hash is followed at once.
export type PageView = 'run' | 'traffic' | 'implement';

export function viewOf(hash: string): PageView {
  return hash === '#implement' ? 'implement' : hash === '#traffic' ? 'traffic' : 'run';
}

export function hashOf(view: PageView): string {
  return view === 'run' ? '' : `#${view}`;
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
    const hash = hashOf(view);
    if (win.location.hash === hash) return;
    const { pathname, search } = win.location;
    win.history.pushState(null, '', `${pathname}${search}${hash}`);
  };
}
