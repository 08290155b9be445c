// The web runner page: the runner filling <main> with its Traffic tab
// (web/traffic/chart-tab.ts: its code loads when the tab is first opened) and
// its "Compare with my program" box, the learner's work kept as in the element (saved edits,
// share links, Download, earlier versions: web/element/saved-work.ts), the
// implement-it-yourself mode beside it (a tab, built the first time it is
// shown), and the theme toggle. Which tab shows follows the URL's hash
// (page-location.ts).
import { loadLab, loadSlowStart } from '../api/index.js';
import { CompareBox, PREDICT_HOLDS_COMPARE } from '../host/compare-box.js';
import { adoptCompareStyles } from '../host/compare-styles.js';
import { OPEN_IN_RUNNER_EVENT } from '../implement/events.js';
import { adoptImplementStyles } from '../implement/styles.js';
import type { ImplementView } from '../implement/view.js';
import { keysFor, pageIdentity } from '../host/identity.js';
import { readLink } from '../host/permalink.js';
import { SavedWork } from '../host/saved-work.js';
import { adoptSavedWorkStyles } from '../host/saved-work-styles.js';
import { DEFAULT_EXAMPLE } from '../runner/examples.js';
import { createRunner, type Runner } from '../runner/runner.js';
import { adoptRunnerStyles } from '../runner/styles.js';
import { trafficTab } from '../traffic/chart-tab.js';
import type { TrafficView } from '../traffic/traffic-view.js';
import { setupModeTabs } from './mode-tabs.js';
import { followLocation, type PageView } from './page-location.js';
import { showLanguageSummary } from './language-summary.js';
import { setupThemeToggle } from './theme-toggle.js';

declare global {
  interface Window {
    /** The page's runner, for the browser tests and the benchmark. */
    slowstartRunner?: Runner;
    /** The implement mode, once its tab has been shown (for the browser tests). */
    slowstartImplement?: ImplementView;
    /** The runner's Traffic tab, once it has been shown (for the browser tests). */
    slowstartTraffic?: TrafficView;
  }
}

adoptRunnerStyles(document);
adoptSavedWorkStyles(document);
adoptImplementStyles(document);
setupThemeToggle(document.querySelector<HTMLButtonElement>('#theme-toggle')!, document.documentElement);
// The page's script has the key "script" in links (#ss-script=...). Work is
// kept per page, its path and query (identity.ts); earlier versions kept
// the script under the path alone, and the implement mode's code under one
// key for the whole site.
const KEY = 'script';
const scriptKeys = keysFor(`slowstart:${pageIdentity(location)}:${KEY}`, `slowstart:${location.pathname}:${KEY}`);
const codeKeys = keysFor(`slowstart:${pageIdentity(location)}:implement`, 'slowstart-page-implement-code');
const work = new SavedWork({
  win: window,
  key: KEY,
  storageKey: scriptKeys.key,
  legacyStorageKey: scriptKeys.legacy,
  starter: DEFAULT_EXAMPLE.script,
  link: await readLink(location.hash, KEY),
});
// The learner's choices of tab go into the history (set below, once the
// page follows its URL); the runner's chart tab is part of the Run view.
let navigate: (view: PageView) => void = () => {};
let chartTab = 'ramp';
const runView = (): PageView => (chartTab === 'traffic' ? 'traffic' : 'run');
// "Compare with my program", below the toolbar: what a learner's own
// program printed for the script, its first difference and the mistake it
// looks like (the element has the same box).
adoptCompareStyles(document);
const compare = new CompareBox(document, (line) => runner.editor.goToLine(line), { lab: () => loadLab() });
// The engine, shared by the runner and the language summary below the page.
const engine = loadSlowStart();
void engine.then(
  (e) => showLanguageSummary(document.querySelector<HTMLDListElement>('#language-summary')!, e.keywords),
  () => {}, // (the runner says the engine failed to load)
);
const runner = createRunner({
  root: document.querySelector<HTMLElement>('#runner')!,
  documentRoot: document,
  engine,
  script: work.openingScript,
  chartTabs: [trafficTab({ lab: () => loadLab(), onView: (view) => (window.slowstartTraffic = view) })],
  onChartTab: (tab) => {
    chartTab = tab;
    navigate(runView());
  },
  onRun: (result, script) => {
    work.ran(script);
    compare.setEngineOutput(result.output, script, result.truncated === true);
  },
  onEdit: () => work.edited(),
  // Predict mode: no comparison while lines are held back (it would show the engine's).
  onShown: (_shown, all) => compare.hold(all ? null : PREDICT_HOLDS_COMPARE),
});
work.attach(runner);
// The language help is at the foot of the page: the header's button opens it and goes there.
document.querySelector('#language-help')?.addEventListener('click', () => {
  const help = document.querySelector<HTMLDetailsElement>('#language')!;
  help.open = true;
  help.scrollIntoView({ block: 'start' });
  help.querySelector('summary')?.focus({ preventScroll: true });
});
// Predict, then reveal: a toggle in the toolbar (predict.ts).
{
  const box = document.createElement('input');
  box.type = 'checkbox';
  box.addEventListener('change', () => runner.setPredict(box.checked));
  const label = document.createElement('label');
  label.className = 'ss-check';
  label.title = 'Type what each WEIGHTS and PICK line prints before it is shown';
  label.append(box, document.createTextNode('Predict'));
  runner.addToolbarItems(label);
}
runner.addBelowToolbar(work.actions.element, compare.element);
window.slowstartRunner = runner;
window.addEventListener('hashchange', () => void work.applyHash());
window.addEventListener('pagehide', () => work.flush());
document.addEventListener('visibilitychange', () => work.flush());

const implementRoot = document.querySelector<HTMLElement>('#implement')!;
// The mode (and its JavaScript editor) is a separate chunk, loaded the
// first time its tab is shown: the runner alone stays as small as it was.
let implementLoading: Promise<void> | null = null;
function showImplement(): Promise<void> {
  // The lab module brings the built-in tests and the mistake catalogue.
  implementLoading ??= Promise.all([import('../implement/view.js'), loadLab()]).then(
    ([{ ImplementView }, lab]) => {
      window.slowstartImplement = new ImplementView({
        root: implementRoot,
        documentRoot: document,
        runner,
        lab,
        storageKey: codeKeys.key,
        legacyStorageKey: codeKeys.legacy,
      });
    },
    (error: unknown) => {
      implementLoading = null; // let the next visit try again
      implementRoot.textContent = `The implement mode failed to load: ${String(error)}`;
    },
  );
  return implementLoading;
}

const tabs = setupModeTabs(
  { run: document.querySelector('#mode-run')!, implement: document.querySelector('#mode-implement')! },
  { run: document.querySelector('#runner')!, implement: implementRoot },
  (mode) => {
    if (mode === 'implement') void showImplement();
  },
  (mode) => navigate(mode === 'implement' ? 'implement' : runView()),
);
navigate = followLocation(window, (view) => {
  tabs.select(view === 'implement' ? 'implement' : 'run');
  if (view !== 'implement') runner.showChartTab((chartTab = view === 'traffic' ? 'traffic' : 'ramp'));
});

// "Open in the runner": the script is loaded; show the runner, from its top
// when the learner had scrolled down the results.
implementRoot.addEventListener(OPEN_IN_RUNNER_EVENT, () => {
  tabs.select('run');
  navigate(runView());
  const nav = document.querySelector('.page-modes')!;
  if (nav.getBoundingClientRect().top < 0) nav.scrollIntoView({ block: 'start' });
});
