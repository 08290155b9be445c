// The web runner page: one runner filling <main>, plus the theme toggle.
import { loadLab, loadSlowStart } from '../api/index.js';
import { createRunner, type Runner } from '../runner/runner.js';
import { adoptRunnerStyles } from '../runner/styles.js';
import { setupThemeToggle } from './theme-toggle.js';

declare global {
  interface Window {
    /** The page's runner, for the browser tests and the benchmark. */
    slowstartRunner?: Runner;
  }
}

adoptRunnerStyles(document);
setupThemeToggle(document.querySelector<HTMLButtonElement>('#theme-toggle')!, document.documentElement);
window.slowstartRunner = createRunner({
  root: document.querySelector<HTMLElement>('#runner')!,
  documentRoot: document,
  engine: loadSlowStart(),
  traffic: { lab: () => loadLab() },
});
