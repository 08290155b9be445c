// Copy and export buttons of the runner's panels (#26 item 4): the output as
// plain text (no line numbers) to the clipboard or a file, the ramp chart as
// SVG or PNG. Buttons: reachable with Tab, named for screen readers.
import type { OutputLine } from '../api/index.js';
import { h } from '../shared/dom.js';
import { copyText, downloadFile, linesAsParts, pngOf, svgText } from '../shared/exports.js';

export interface RunExportsOptions {
  outputHead: HTMLElement;
  chartHead: HTMLElement | null;
  output(): readonly OutputLine[] | null;
  chart(): SVGSVGElement | null;
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
  const background = () => {
    const svg = options.chart();
    return svg ? doc.defaultView!.getComputedStyle(svg.closest('.ss-runner') ?? svg).getPropertyValue('--ss-panel').trim() || '#ffffff' : '#ffffff';
  };
  const chart = h(doc, 'div', { class: 'ss-panel-tools' });
  chart.append(
    tool(doc, 'SVG', 'Download the chart as SVG', () => {
      const svg = options.chart();
      if (!svg) return 'Nothing yet';
      downloadFile(doc, 'slowstart-chart.svg', [svgText(svg, background())], 'image/svg+xml');
      return null;
    }),
    tool(doc, 'PNG', 'Download the chart as PNG', async () => {
      const svg = options.chart();
      if (!svg) return 'Nothing yet';
      const { width, height } = svg.getBoundingClientRect();
      try {
        downloadFile(doc, 'slowstart-chart.png', [await pngOf(doc, svgText(svg, background()), width, height)], 'image/png');
        return null;
      } catch {
        return 'Not allowed here';
      }
    }),
  );
  options.chartHead.append(chart);
}
