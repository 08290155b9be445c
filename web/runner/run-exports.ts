// Copy and export buttons of the runner's panels (#26 item 4): the output as
// plain text (no line numbers) to the clipboard or a file, the ramp chart as
// SVG or PNG (with a title and a key, its colours concrete). Buttons:
// reachable with Tab, named for screen readers. In predict mode they give
// what the page shows: the output lines revealed and the chart drawn so far
// (the runner hands them nothing else).
import type { OutputLine } from '../api/index.js';
import { h, setText } from '../shared/dom.js';
import { concreteColour, copyText, downloadFile, linesAsParts, PngBlocked, pngOf, svgText, type ExportKey } from '../shared/exports.js';

export interface RunExportsOptions {
  outputHead: HTMLElement;
  chartHead: HTMLElement | null;
  /** The output lines shown (null before the first run). */
  output(): readonly OutputLine[] | null;
  chart(): SVGSVGElement | null;
  /** The chart's title and key, for the exported files. */
  chartParts(): { title: string; key: ExportKey[] };
}

function tool(doc: Document, text: string, label: string, act: (button: HTMLButtonElement) => Promise<string | null> | string | null): HTMLButtonElement {
  const button = h(doc, 'button', { class: 'ss-btn ss-mini', text, attrs: { type: 'button', 'aria-label': label, title: label } });
  let timer = 0;
  button.addEventListener('click', async () => {
    const said = await act(button);
    if (said === null) return;
    // A word on the button for a moment (a polite live region would repeat it on every press).
    button.textContent = said;
    const win = doc.defaultView!;
    win.clearTimeout(timer);
    timer = win.setTimeout(() => (button.textContent = text), 1500);
  });
  return button;
}

export function addRunExports(doc: Document, options: RunExportsOptions): void {
  const out = h(doc, 'div', { class: 'ss-panel-tools' });
  out.append(
    tool(doc, 'Copy', 'Copy the output (plain text)', async () => {
      const lines = options.output();
      if (!lines) return 'Nothing yet';
      return (await copyText(doc, linesAsParts(lines).join(''))) ? 'Copied' : 'Not allowed';
    }),
    tool(doc, 'Download', 'Download the output', () => {
      const lines = options.output();
      if (!lines) return 'Nothing yet';
      downloadFile(doc, 'slowstart-output.txt', linesAsParts(lines));
      return null;
    }),
  );
  options.outputHead.append(out);
  if (!options.chartHead) return;
  const chartHead = options.chartHead;
  // Why a PNG could not be made stays said (a word on the button is gone in a moment).
  const note = h(doc, 'p', { class: 'ss-export-note', attrs: { role: 'status' } });
  const exported = () => {
    const svg = options.chart();
    if (!svg) return null;
    // The panel's own background, concrete (its custom property holds a light-dark()).
    const background = concreteColour(svg.parentElement ?? svg, 'var(--ss-panel, #ffffff)');
    return svgText(svg, { background, ...options.chartParts() });
  };
  const chart = h(doc, 'div', { class: 'ss-panel-tools' });
  chart.append(
    tool(doc, 'SVG', 'Download the chart as SVG', () => {
      setText(note, '');
      const file = exported();
      if (!file) return 'Nothing yet';
      downloadFile(doc, 'slowstart-chart.svg', [file.text], 'image/svg+xml');
      return null;
    }),
    tool(doc, 'PNG', 'Download the chart as PNG', async () => {
      setText(note, '');
      const file = exported();
      if (!file) return 'Nothing yet';
      try {
        downloadFile(doc, 'slowstart-chart.png', [await pngOf(doc, file.text, file.width, file.height)], 'image/png');
        return null;
      } catch (error) {
        const policy = error instanceof PngBlocked && error.byPolicy;
        setText(
          note,
          policy
            ? 'No PNG: this page’s Content-Security-Policy blocks data: images, which the PNG is drawn from. Its author can add data: to img-src (img-src \'self\' data:). SVG works here.'
            : `No PNG: ${error instanceof Error ? error.message : String(error)}. SVG works here.`,
        );
        return policy ? 'Blocked: img-src' : 'Failed';
      }
    }),
  );
  chartHead.append(chart);
  chartHead.after(note);
}
