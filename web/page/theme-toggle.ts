// The page's light/dark switch. The theme is the root's `color-scheme`
// (light-dark() colours follow it, in the page and in the runner): by
// default the system's preference; once toggled, the user's choice, kept
// in localStorage.
const KEY = 'slowstart-theme';
type Theme = 'light' | 'dark';

function stored(): Theme | null {
  try {
    const v = localStorage.getItem(KEY);
    return v === 'light' || v === 'dark' ? v : null;
  } catch {
    return null; // storage blocked (private mode, sandboxed frame)
  }
}

export function setupThemeToggle(button: HTMLButtonElement, html: HTMLElement): void {
  const system = matchMedia('(prefers-color-scheme: dark)');
  const current = (): Theme => (html.dataset.theme as Theme | undefined) ?? (system.matches ? 'dark' : 'light');
  const show = () => button.setAttribute('aria-pressed', String(current() === 'dark'));

  const saved = stored();
  if (saved) html.dataset.theme = saved;
  show();
  system.addEventListener('change', show);
  button.addEventListener('click', () => {
    const next: Theme = current() === 'dark' ? 'light' : 'dark';
    html.dataset.theme = next;
    try {
      localStorage.setItem(KEY, next);
    } catch {
      // not kept; fine
    }
    show();
  });
}
