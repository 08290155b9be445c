// The runner's three panels side by side (stacked on narrow widths, by the
// container queries in styles.ts): Script, Output, and the chart panel.
import { h, setText } from '../shared/dom.js';
import { makePanel, type Panel } from '../shared/panel.js';

export interface RunnerPanels {
  /** The row of panels. */
  element: HTMLDivElement;
  editor: Panel;
  /** Where the script editor goes. */
  editorHost: HTMLDivElement;
  output: Panel;
  chart: Panel;
}

export function layOutPanels(
  doc: Document,
  headingLevel: 2 | 3 | 4 | 5 | 6,
  options: { readOnly: boolean; chart: boolean },
): RunnerPanels {
  const level = `h${headingLevel}` as 'h2';
  const editor = makePanel(doc, level, 'ss-panel-editor', 'Script');
  const output = makePanel(doc, level, 'ss-panel-output', 'Output');
  const chart = makePanel(doc, level, 'ss-panel-chart', 'Ramp');
  setText(editor.meta, options.readOnly ? 'Read-only' : 'Ctrl+Space completes');
  if (!options.readOnly) editor.meta.classList.add('ss-kbd-hint'); // (not on a touch screen: styles.ts)
  const editorHost = h(doc, 'div', { class: 'ss-editor' });
  editor.section.append(editorHost);
  // Hidden rather than left out: the playhead behind it still marks the
  // editor's line and the output's row.
  chart.section.hidden = !options.chart;
  const element = h(doc, 'div', { class: 'ss-panels' }, editor.section, output.section, chart.section);
  return { element, editor, editorHost, output, chart };
}
