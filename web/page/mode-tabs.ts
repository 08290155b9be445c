// The page's two modes as WAI-ARIA tabs: "Run scripts" (the runner) and
// "Implement it yourself". The mode is also in the URL's hash (#implement),
// so a link can open the page in it; switching replaces the hash rather than
// adding history entries, and keeps its other `&`-separated parts (a shared
// script's `ss-script=...`).
export type Mode = 'run' | 'implement';

export interface ModeTabs {
  readonly mode: Mode;
  select(mode: Mode, options?: { focus?: boolean }): void;
}

function hashParts(): string[] {
  return location.hash.slice(1).split('&').filter(Boolean);
}

export function setupModeTabs(
  tabs: Record<Mode, HTMLButtonElement>,
  panels: Record<Mode, HTMLElement>,
  onShow: (mode: Mode) => void,
): ModeTabs {
  const modes = Object.keys(tabs) as Mode[];
  let current: Mode = 'run';
  const select = (mode: Mode, options: { focus?: boolean } = {}) => {
    current = mode;
    for (const m of modes) {
      const on = m === mode;
      tabs[m].setAttribute('aria-selected', String(on));
      tabs[m].tabIndex = on ? 0 : -1;
      panels[m].hidden = !on;
    }
    if (options.focus) tabs[mode].focus();
    const parts = hashParts().filter((p) => p !== 'implement');
    if (mode !== 'run') parts.unshift(mode);
    const hash = parts.length ? `#${parts.join('&')}` : '';
    if (location.hash !== hash) history.replaceState(null, '', `${location.pathname}${location.search}${hash}`);
    onShow(mode);
  };
  for (const m of modes) tabs[m].addEventListener('click', () => select(m));
  const list = tabs[modes[0]].parentElement!;
  list.addEventListener('keydown', (e) => {
    const at = modes.indexOf(current);
    const next =
      e.key === 'ArrowRight' ? (at + 1) % modes.length
      : e.key === 'ArrowLeft' ? (at + modes.length - 1) % modes.length
      : e.key === 'Home' ? 0
      : e.key === 'End' ? modes.length - 1
      : -1;
    if (next < 0) return;
    e.preventDefault();
    select(modes[next], { focus: true });
  });
  select(hashParts().includes('implement') ? 'implement' : 'run');
  return {
    get mode() {
      return current;
    },
    select,
  };
}
