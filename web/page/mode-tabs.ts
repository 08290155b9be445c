// The page's two modes as WAI-ARIA tabs: "Run scripts" (the runner) and
// "Implement it yourself". Which one shows is the page's to decide (it
// follows the URL's hash, see main.ts); this module draws the tabs, moves
// between them with the arrow keys, Home and End, and says when the learner
// chose one.
export type Mode = 'run' | 'implement';

export interface ModeTabs {
  readonly mode: Mode;
  /** Shows a mode (without telling `onChoose`). */
  select(mode: Mode, options?: { focus?: boolean }): void;
}

export function setupModeTabs(
  tabs: Record<Mode, HTMLButtonElement>,
  panels: Record<Mode, HTMLElement>,
  onShow: (mode: Mode) => void,
  onChoose: (mode: Mode) => void,
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
    onShow(mode);
  };
  const choose = (mode: Mode, options: { focus?: boolean } = {}) => {
    select(mode, options);
    onChoose(mode);
  };
  for (const m of modes) tabs[m].addEventListener('click', () => choose(m));
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
    choose(modes[next], { focus: true });
  });
  return {
    get mode() {
      return current;
    },
    select,
  };
}
