// The Traffic tab's "Your system" panel (docs/YOUR-SYSTEM.md): paste or drop
// a proxy's configuration and a canary restart's log; the page reads the
// file (what it became, line by line), fits the cold start (the dots and
// the fitted curve), recommends the slow-start window and writes it back as
// the chosen proxy's configuration, to copy. Every step is the engine's own
// command through lab.command(), so the page says byte for byte what both
// CLIs say; the files stay in the page (nothing is sent anywhere).
import type { CanaryFit, Lab } from '../api/index.js';
import { stylesheetAdopter } from '../shared/adopt-styles.js';
import { h, setText } from '../shared/dom.js';
import { CanaryChart } from './canary-chart.js';

const CONFIG_FORMATS = ['nginx', 'haproxy', 'envoy', 'caddy', 'alb'] as const;
const LOG_FORMATS = [
  ['', 'CSV (t, latency_ms)'],
  ['nginx', 'nginx access log'],
  ['haproxy', 'HAProxy log'],
  ['envoy', 'Envoy access log'],
] as const;
const EMIT_FORMATS = [
  ['nginx-plus', 'NGINX Plus / nginx-mod'],
  ['nginx', 'nginx (open source)'],
  ['haproxy', 'HAProxy'],
  ['envoy', 'Envoy'],
  ['caddy', 'Caddy'],
  ['alb', 'AWS ALB'],
] as const;

/** The names the files have in the commands (and in what they print). */
export const CONFIG_FILE = 'your-config';
export const LOG_FILE = 'canary.log';
export const SCENARIO_FILE = 'scenario.txt';
const FIT_FILE = 'fit.json';

/** The scenario when the user has not written one: a restart of the file's first server. */
export function restartScenario(server: string): string {
  return `# A restart of ${server}: down at 30 s, back cold at 40 s\n# (its ramp is the file's slow start, or the recommended one).\nNOW 30\nDOWN ${server}\nNOW 40\nUP ${server} 0\n`;
}

function select(doc: Document, options: readonly (readonly [string, string])[], label: string): HTMLSelectElement {
  const s = h(doc, 'select', { class: 'ss-select', attrs: { 'aria-label': label } });
  for (const [value, text] of options) s.append(h(doc, 'option', { text, attrs: { value } }));
  return s;
}

function field(doc: Document, label: string, ...controls: HTMLElement[]): HTMLLabelElement {
  return h(doc, 'label', { class: 'ss-field' }, h(doc, 'span', { text: label }), ...controls);
}

/** A text area that also takes a dropped or chosen file (read here, as text). */
function fileArea(doc: Document, label: string, placeholder: string, changed: () => void): { box: HTMLElement; text: HTMLTextAreaElement } {
  const text = h(doc, 'textarea', { class: 'ss-system-text', attrs: { 'aria-label': label, placeholder, spellcheck: 'false', rows: '9' } });
  const pick = h(doc, 'input', { attrs: { type: 'file', 'aria-label': `${label}: choose a file` } });
  const take = async (file: File | undefined) => {
    if (!file) return;
    text.value = await file.text();
    changed();
  };
  pick.addEventListener('change', () => void take(pick.files?.[0]));
  text.addEventListener('dragover', (e) => {
    e.preventDefault();
    text.classList.add('ss-drop');
  });
  text.addEventListener('dragleave', () => text.classList.remove('ss-drop'));
  text.addEventListener('drop', (e) => {
    e.preventDefault();
    text.classList.remove('ss-drop');
    void take(e.dataTransfer?.files?.[0]);
  });
  text.addEventListener('input', changed);
  const box = h(doc, 'div', { class: 'ss-system-file' }, h(doc, 'span', { class: 'ss-system-label', text: label }), text, pick);
  return { box, text };
}

export class YourSystemPanel {
  readonly element: HTMLElement;
  readonly #lab: () => Promise<Lab>;
  readonly #config: HTMLTextAreaElement;
  readonly #format: HTMLSelectElement;
  readonly #pool: HTMLInputElement;
  readonly #log: HTMLTextAreaElement;
  readonly #logFormat: HTMLSelectElement;
  readonly #scenario: HTMLTextAreaElement;
  readonly #rps: HTMLInputElement;
  readonly #emit: HTMLSelectElement;
  readonly #status: HTMLParagraphElement;
  readonly #explain: HTMLPreElement;
  readonly #fitText: HTMLPreElement;
  readonly #chart: CanaryChart;
  readonly #report: HTMLPreElement;
  readonly #emitted: HTMLPreElement;
  readonly #copy: HTMLButtonElement;
  #scenarioWritten = false; // the user edited the scenario: keep theirs
  #timer: ReturnType<typeof setTimeout> | undefined;
  #fit: CanaryFit | null = null;
  #fitJson = '';

  /** Resolves when the last reading (or recommendation) has been shown (for tests). */
  ready: Promise<void> = Promise.resolve();

  constructor(parent: HTMLElement, lab: () => Promise<Lab>, level: number) {
    const doc = parent.ownerDocument;
    this.#lab = lab;
    const heading = (text: string, l = level) => h(doc, `h${l}` as 'h3', { class: 'ss-traffic-heading', text });
    this.element = h(doc, 'section', { class: 'ss-system', attrs: { 'aria-label': 'Your system' } });
    this.element.append(
      heading('Your system'),
      h(doc, 'p', {
        class: 'ss-traffic-intro',
        text:
          'Paste or drop your proxy’s configuration (nginx, HAProxy, Envoy, Caddy, an ALB target group) and, ' +
          'if you have one, a log of a canary restart. The page reads the file, fits the cold start, finds the ' +
          'shortest slow-start window with no ejection and no failed request, and writes it as your proxy’s ' +
          'configuration. The files stay in this page: nothing is sent anywhere.',
      }),
    );
    const changed = () => this.#changed();
    const config = fileArea(doc, 'Configuration', 'upstream app {\n    server 10.0.0.1:8080 max_fails=3;\n    ...', changed);
    const log = fileArea(doc, 'Canary log (optional)', 't,latency_ms\n0.01,412\n...', changed);
    this.#config = config.text;
    this.#log = log.text;
    this.#format = select(doc, [['', 'told from the text'], ...CONFIG_FORMATS.map((f) => [f, f] as const)], 'Configuration format');
    this.#pool = h(doc, 'input', { class: 'ss-number ss-system-pool', attrs: { type: 'text', 'aria-label': 'Pool', placeholder: 'the one in use' } });
    this.#logFormat = select(doc, LOG_FORMATS, 'Log format');
    for (const c of [this.#format, this.#pool, this.#logFormat]) c.addEventListener('change', changed);
    config.box.append(h(doc, 'div', { class: 'ss-traffic-controls' }, field(doc, 'Format', this.#format), field(doc, 'Pool', this.#pool)));
    log.box.append(h(doc, 'div', { class: 'ss-traffic-controls' }, field(doc, 'Log format', this.#logFormat)));
    this.element.append(h(doc, 'div', { class: 'ss-system-inputs' }, config.box, log.box));

    this.#scenario = h(doc, 'textarea', { class: 'ss-system-text ss-system-scenario', attrs: { 'aria-label': 'Your system: scenario', spellcheck: 'false', rows: '6' } });
    this.#scenario.addEventListener('input', () => {
      this.#scenarioWritten = true;
    });
    this.#rps = h(doc, 'input', { class: 'ss-number', attrs: { type: 'number', min: '1', max: '5000', step: '1', value: '100', 'aria-label': 'Requests per second' } });
    this.#emit = select(doc, EMIT_FORMATS, 'Write the settings for');
    const go = h(doc, 'button', { class: 'ss-btn ss-system-go', text: 'Recommend a window', attrs: { type: 'button' } });
    go.addEventListener('click', () => void this.recommend());
    this.element.append(
      h(doc, 'div', { class: 'ss-system-file' }, h(doc, 'span', { class: 'ss-system-label', text: 'Scenario (the file’s servers by name; the file’s pool comes first)' }), this.#scenario),
      h(doc, 'div', { class: 'ss-traffic-controls' }, field(doc, 'Requests per second', this.#rps), field(doc, 'Write the settings for', this.#emit), go),
    );
    this.#status = h(doc, 'p', { class: 'ss-system-status', attrs: { role: 'status' } });
    this.element.append(this.#status);

    const out = h(doc, 'div', { class: 'ss-system-out' });
    this.#explain = h(doc, 'pre', { class: 'ss-system-pre ss-system-explain' });
    this.#fitText = h(doc, 'pre', { class: 'ss-system-pre ss-system-fit' });
    const fitBox = h(doc, 'div', { class: 'ss-system-fitbox' }, heading('The canary’s cold start', level + 1));
    this.#chart = new CanaryChart(fitBox);
    this.#chart.set(null);
    fitBox.append(this.#fitText);
    out.append(h(doc, 'div', {}, heading('What the file became', level + 1), this.#explain), fitBox);
    this.element.append(out);

    this.#report = h(doc, 'pre', { class: 'ss-system-pre ss-system-report' });
    this.#emitted = h(doc, 'pre', { class: 'ss-system-pre ss-system-emitted', attrs: { tabindex: '0', 'aria-label': 'The settings to paste' } });
    this.#copy = h(doc, 'button', { class: 'ss-btn', text: 'Copy', attrs: { type: 'button', 'aria-label': 'Copy the settings' } });
    this.#copy.disabled = true;
    this.#copy.addEventListener('click', () => void this.#copyEmitted());
    this.element.append(
      h(doc, 'div', { class: 'ss-system-out' },
        h(doc, 'div', {}, heading('Recommendation', level + 1), this.#report),
        h(doc, 'div', {}, h(doc, 'div', { class: 'ss-system-bar' }, heading('Settings to paste', level + 1), this.#copy), this.#emitted)),
    );
    parent.append(this.element);
    this.#show();
  }

  /** Sets the inputs (tests, or a page that has the files already) and reads them. */
  load(files: { config?: string; format?: string; log?: string; logFormat?: string; scenario?: string }): Promise<void> {
    if (files.config !== undefined) this.#config.value = files.config;
    if (files.format !== undefined) this.#format.value = files.format;
    if (files.log !== undefined) this.#log.value = files.log;
    if (files.logFormat !== undefined) this.#logFormat.value = files.logFormat;
    if (files.scenario !== undefined) {
      this.#scenario.value = files.scenario;
      this.#scenarioWritten = true;
    }
    clearTimeout(this.#timer);
    this.#settle?.(); // a read still waiting on its pause is this one now
    this.#settle = undefined;
    return (this.ready = this.#read());
  }

  // An edit is read after a pause; `ready` settles once that read is done
  // (a newer edit in the pause takes the read over: its promise settles with it).
  #changed(): void {
    clearTimeout(this.#timer);
    const settle = this.#settle;
    this.ready = new Promise<void>((resolve) => {
      this.#settle = resolve;
      this.#timer = setTimeout(() => {
        this.#settle = undefined;
        void this.#read().finally(resolve);
      }, 250);
    });
    settle?.();
  }
  #settle: (() => void) | undefined;

  #fromArgs(): string[] {
    const a = ['--from', CONFIG_FILE];
    if (this.#format.value) a.push('--from-format', this.#format.value);
    if (this.#pool.value.trim()) a.push('--from-pool', this.#pool.value.trim());
    return a;
  }

  #files(): Record<string, string> {
    const f: Record<string, string> = { [SCENARIO_FILE]: this.#scenario.value };
    if (this.#config.value.trim()) f[CONFIG_FILE] = this.#config.value;
    if (this.#fitJson) f[FIT_FILE] = this.#fitJson;
    return f;
  }

  // Reads the configuration (--explain) and fits the log, as both CLIs would.
  async #read(): Promise<void> {
    const hasConfig = this.#config.value.trim() !== '';
    const hasLog = this.#log.value.trim() !== '';
    if (!hasConfig && !hasLog) {
      this.#show();
      return;
    }
    setText(this.#status, 'Reading…');
    const lab = await this.#lab();
    this.#clearRecommendation();
    if (hasConfig) {
      let servers: { name: string; down: boolean }[] = [];
      try {
        servers = lab.importConfig(this.#config.value, {
          format: (this.#format.value || undefined) as never,
          pool: this.#pool.value.trim() || undefined,
        }).servers;
      } catch {
        // said by the command below, with the file's line and column
      }
      const first = servers.find((s) => !s.down) ?? servers[0];
      if (!this.#scenarioWritten && first) this.#scenario.value = restartScenario(first.name);
      const r = lab.command(['simulate', ...this.#fromArgs(), '--explain', SCENARIO_FILE], this.#files());
      setText(this.#explain, r.status === 0 ? r.out : r.err);
      this.#explain.classList.toggle('ss-system-error', r.status !== 0);
    } else {
      setText(this.#explain, 'No configuration: the scenario’s own POOL and the lab’s options.');
      this.#explain.classList.remove('ss-system-error');
    }
    this.#fit = null;
    this.#fitJson = '';
    if (hasLog) {
      const fmt = this.#logFormat.value ? ['--log-format', this.#logFormat.value] : [];
      const r = lab.command(['fit', '--json', ...fmt, LOG_FILE], { [LOG_FILE]: this.#log.value });
      if (r.status === 0) this.#fitJson = r.out;
      if (r.status === 2) setText(this.#fitText, r.err);
      else {
        this.#fit = lab.fitCanary(this.#log.value, { logFormat: (this.#logFormat.value || undefined) as never });
        setText(this.#fitText, this.#fit.summary + (this.#fit.options ? `options: ${this.#fit.options}\n` : ''));
      }
      this.#fitText.classList.toggle('ss-system-error', r.status === 2);
    } else {
      setText(this.#fitText, 'No canary log: the lab’s default cold start (200 ms warm, ×5 cold, 30 s to warm up). Drop a log of one of your backends restarting for yours.');
      this.#fitText.classList.remove('ss-system-error');
    }
    this.#chart.set(this.#fit);
    setText(this.#status, 'Read. Choose the proxy to write for, then “Recommend a window”.');
  }

  #clearRecommendation(): void {
    setText(this.#report, '');
    setText(this.#emitted, '');
    this.#copy.disabled = true;
  }

  #show(): void {
    setText(this.#status, 'Paste or drop a configuration (or write a scenario with its own POOL) to begin.');
    setText(this.#explain, '');
    setText(this.#fitText, '');
    this.#chart.set(null);
  }

  /** Runs `slowstart recommend` on the inputs and shows its report and the emitted settings. */
  recommend(): Promise<void> {
    clearTimeout(this.#timer);
    return (this.ready = this.ready.then(() => this.#recommend()));
  }

  async #recommend(): Promise<void> {
    const lab = await this.#lab();
    setText(this.#status, 'Searching for the window (each try is a simulation)…');
    // Let the status paint before the engine takes the thread.
    await new Promise((r) => setTimeout(r, 30));
    const args = ['recommend'];
    if (this.#config.value.trim()) args.push(...this.#fromArgs());
    if (this.#fitJson) args.push('--fit', FIT_FILE);
    args.push('--rps', this.#rps.value || '100', '--emit', this.#emit.value, SCENARIO_FILE);
    const r = lab.command(args, this.#files());
    setText(this.#report, r.err);
    this.#report.classList.toggle('ss-system-error', r.status === 2);
    setText(this.#emitted, r.out);
    this.#copy.disabled = r.out === '';
    setText(
      this.#status,
      r.status === 0 ? 'Recommended: the settings are below, ready to paste.' : r.status === 1 ? 'No window helps: the report says why and what would.' : 'The inputs could not be used: see the report.',
    );
  }

  async #copyEmitted(): Promise<void> {
    const text = this.#emitted.textContent ?? '';
    try {
      await this.element.ownerDocument.defaultView!.navigator.clipboard.writeText(text);
      setText(this.#copy, 'Copied');
    } catch {
      // No clipboard (an insecure origin): select the text for Ctrl+C instead.
      const range = this.element.ownerDocument.createRange();
      range.selectNodeContents(this.#emitted);
      const sel = this.element.ownerDocument.getSelection();
      sel?.removeAllRanges();
      sel?.addRange(range);
      setText(this.#copy, 'Selected: press Ctrl+C');
    }
    setTimeout(() => setText(this.#copy, 'Copy'), 2000);
  }
}

const SYSTEM_CSS = /* css */ `
.ss-system { display: grid; gap: 8px; min-width: 0; margin-top: 8px; padding-top: 8px; border-top: 1px solid var(--ss-border); }
.ss-system-inputs, .ss-system-out { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 380px), 1fr)); gap: 10px 16px; min-width: 0; }
.ss-system-out > * { min-width: 0; }
.ss-system-file { display: grid; gap: 4px; min-width: 0; font-size: 12.5px; }
.ss-system-label { font-weight: 600; font-size: 12.5px; }
.ss-system-text {
  font-family: var(--ss-mono); font-size: 12px; color: var(--ss-fg); background: var(--ss-bg);
  border: 1px solid var(--ss-border); border-radius: 6px; padding: 6px 8px; resize: vertical; min-width: 0; width: 100%; box-sizing: border-box;
}
.ss-system-text.ss-drop { border-color: var(--ss-accent); border-style: dashed; }
.ss-system-pool { width: 12em; }
.ss-system-pre {
  margin: 0; font-family: var(--ss-mono); font-size: 12px; line-height: 1.45; white-space: pre-wrap; overflow-wrap: anywhere;
  background: var(--ss-panel, transparent); border: 1px solid var(--ss-border); border-radius: 6px; padding: 6px 8px; max-height: 28em; overflow: auto;
}
.ss-system-pre:empty { display: none; }
.ss-system-error { border-color: var(--ss-error); color: var(--ss-error); }
.ss-system-status { margin: 0; font-size: 12.5px; color: var(--ss-muted); min-height: 1.45em; }
.ss-system-bar { display: flex; align-items: end; justify-content: space-between; gap: 8px; }
.ss-canary-chart { min-width: 0; }
.ss-canary-chart[hidden] { display: none; }
.ss-canary-dots { fill: var(--ss-muted); fill-opacity: 0.55; }
.ss-canary-fit { fill: none; stroke: var(--ss-accent); stroke-width: 2.5; }
`;

/** Adopts the panel's stylesheet where the Traffic view goes (open-view.ts). */
export const adoptYourSystemStyles: (root: Document | ShadowRoot) => void = stylesheetAdopter(() => SYSTEM_CSS);
