// The implement view's page: a short introduction, the toolbar (Run tests,
// Stop, Reset to template, status) and two panels, the learner's code and
// the tests' results. Only elements here; view.ts wires them.
import { h, setText } from '../shared/dom.js';
import { makePanel } from '../shared/panel.js';
import { modEnterButton } from '../shared/shortcut.js';

export interface ImplementLayout {
  toolbar: HTMLDivElement;
  runButton: HTMLButtonElement;
  stopButton: HTMLButtonElement;
  resetButton: HTMLButtonElement;
  status: HTMLDivElement;
  /** Where the code editor goes. */
  editorHost: HTMLDivElement;
  resultsPanel: HTMLElement;
  resultsMeta: HTMLSpanElement;
  /** Where the summary and the test list go. */
  resultsBody: HTMLDivElement;
}

/** Fills `root` (emptied first). */
export function layOutImplement(root: HTMLElement, headingLevel: 2 | 3 | 4 | 5 | 6): ImplementLayout {
  const doc = root.ownerDocument;
  const level = `h${headingLevel}` as 'h2';
  // ss-runner brings the runner's CSS variables, fonts and container queries.
  root.classList.add('ss-runner', 'ss-implement');
  root.replaceChildren();

  const intro = h(doc, 'p', {
    class: 'ss-impl-intro',
    text:
      'Write the rules yourself: how much weight a ramping backend has (effectiveWeight), which backend a PICK chooses (pick), ' +
      'and what a backend that joins starts with (onJoin). The engine still reads each test script, keeps the pool and prints; ' +
      'your functions decide the weights and the winners. Run the tests to compare your output with the engine’s.',
  });

  const toolbar = h(doc, 'div', { class: 'ss-toolbar' });
  const runButton = modEnterButton(doc, 'Run tests', 'ss-impl-run');
  const stopButton = h(doc, 'button', { class: 'ss-btn ss-impl-stop', text: 'Stop', attrs: { type: 'button' } });
  stopButton.hidden = true;
  const resetButton = h(doc, 'button', {
    class: 'ss-btn ss-impl-reset',
    text: 'Reset to template',
    attrs: { type: 'button', title: 'Start again from the template (Ctrl+Z in the editor brings your code back)' },
  });
  const status = h(doc, 'div', { class: 'ss-impl-status', attrs: { role: 'status' } });
  toolbar.append(runButton, stopButton, resetButton, status);

  const code = makePanel(doc, level, 'ss-impl-code', 'Your rules');
  const results = makePanel(doc, level, 'ss-impl-results', 'Tests');
  setText(code.meta, 'JavaScript · Tab indents (Esc, Tab leaves)');
  const editorHost = h(doc, 'div', { class: 'ss-impl-editor' });
  code.section.append(editorHost);
  const resultsBody = h(doc, 'div', { class: 'ss-impl-results-body' });
  results.section.append(resultsBody);
  root.append(intro, toolbar, h(doc, 'div', { class: 'ss-impl-panels' }, code.section, results.section));
  return { toolbar, runButton, stopButton, resetButton, status, editorHost, resultsPanel: results.section, resultsMeta: results.meta, resultsBody };
}
