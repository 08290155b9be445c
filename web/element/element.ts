// <slow-start-runner>: the element's life cycle. It reads its sources
// (text, templates, src URLs) once it is in a document, builds an
// ElementMount in its shadow root, rebuilds it when a structural attribute
// changes, and saves the learner's edits when it leaves the page or the
// page is hidden. Everything it shows is in web/element/mount.ts.
import { h } from '../shared/dom.js';
import { adoptRunnerStyles } from '../runner/styles.js';
import { autoPaneHeight, BOOLEAN_PROPERTIES, LIVE_ATTRIBUTES, paneHeight, readConfig, REBUILD_ATTRIBUTES, STRING_PROPERTIES } from './attributes.js';
import { authorProblems, tellAuthor } from './author-warnings.js';
import { adoptElementStyles } from './element-styles.js';
import type { SlowStartRunDetail, SlowStartRunnerApi } from './element-types.js';
import { elementKey, storageKeys } from '../host/identity.js';
import type { ElementMount } from './mount.js';
import { readLink } from '../host/permalink.js';
import { readSources, type GivenSources } from './sources.js';

// Outside a browser (server-side rendering imports the module in Node) there
// is no HTMLElement: the class is then defined on a stand-in and never used.
const ElementBase: typeof HTMLElement = globalThis.HTMLElement ?? (class {} as unknown as typeof HTMLElement);

export class SlowStartRunnerElement extends ElementBase implements SlowStartRunnerApi {
  static readonly observedAttributes = [...REBUILD_ATTRIBUTES, ...LIVE_ATTRIBUTES];

  readonly #shadow: ShadowRoot;
  readonly #container: HTMLDivElement;
  #mount: ElementMount | null = null;
  // Bumped on every (re)build and teardown: a build that finishes after a
  // newer one started, or after the element left, is dropped.
  #generation = 0;
  #building = false;
  #teardownTimer = 0;
  #rebuildQueued = false;
  #heightWarned: string | null = null; // the last clamping said, so it is said once
  readonly #toldAuthor = new Set<string>(); // author warnings said (author-warnings.ts), each once
  // A script set (or a run asked for) that has not run yet: given to the runner the element
  // builds next when there is none yet, or when a changed attribute rebuilds it first.
  #scriptToRun: string | null = null;
  #runToDo = false;
  // The starter and expected output set as properties (they win over attributes and children).
  readonly #given: GivenSources = { starter: null, expected: null };
  #upgraded = false;
  #resolveReady!: () => void;
  readonly ready: Promise<void> = new Promise((resolve) => (this.#resolveReady = resolve));

  readonly #onHashChange = () => void this.#mount?.applyHash();
  readonly #onHide = () => this.#mount?.flush();

  constructor() {
    super();
    this.#shadow = this.attachShadow({ mode: 'open' });
    adoptRunnerStyles(this.#shadow);
    adoptElementStyles(this.#shadow);
    this.#container = h(this.ownerDocument, 'div', { class: 'sse-reset' });
    this.#shadow.append(this.#container);
    this.addEventListener('slowstart-run', (e) => {
      this.#runToDo = false;
      if ((e as CustomEvent<SlowStartRunDetail>).detail.script === this.#scriptToRun) this.#scriptToRun = null;
    });
  }

  connectedCallback(): void {
    if (!this.#upgraded) this.#upgradeProperties();
    const win = this.ownerDocument.defaultView;
    win?.clearTimeout(this.#teardownTimer);
    win?.addEventListener('hashchange', this.#onHashChange);
    win?.addEventListener('pagehide', this.#onHide);
    this.ownerDocument.addEventListener('visibilitychange', this.#onHide);
    this.#applyHeight();
    if (!this.#mount && !this.#building) void this.#build();
  }

  disconnectedCallback(): void {
    const win = this.ownerDocument.defaultView;
    win?.removeEventListener('hashchange', this.#onHashChange);
    win?.removeEventListener('pagehide', this.#onHide);
    this.ownerDocument.removeEventListener('visibilitychange', this.#onHide);
    this.#mount?.flush();
    // Moving the element disconnects and reconnects it in one task: only
    // tear down if it is still out of the document afterwards.
    if (win) this.#teardownTimer = win.setTimeout(() => this.isConnected || this.#teardown(), 0);
  }

  attributeChangedCallback(name: string, oldValue: string | null, newValue: string | null): void {
    if (oldValue === newValue) return;
    if (LIVE_ATTRIBUTES.includes(name) && this.#mount) tellAuthor(this, authorProblems(this), this.#toldAuthor);
    if (name === 'height') this.#applyHeight();
    else if (REBUILD_ATTRIBUTES.includes(name) && (this.#mount || this.#building)) this.#queueRebuild();
  }

  get script(): string {
    return this.#mount?.script ?? this.#scriptToRun ?? '';
  }

  set script(script: string) {
    // At any time after connection: before the runner or the engine is there, it runs once they are.
    this.#scriptToRun = script;
    if (this.#mount) this.#mount.script = script;
  }

  get starter(): string {
    return this.#mount?.starter ?? this.#given.starter ?? this.getAttribute('starter') ?? '';
  }

  set starter(starter: string | null) {
    this.#given.starter = starter === null || starter === undefined ? null : String(starter);
    this.#sourcesChanged();
  }

  get expected(): readonly string[] | null {
    if (this.#mount) return this.#mount.expected;
    const given = this.#given.expected ?? this.getAttribute('expected');
    return given === null ? null : typeof given === 'string' ? given.split('\n') : given;
  }

  /** Text (lines separated by newlines) or lines; null: none (the attribute, file or children say). */
  set expected(expected: string | readonly string[] | null) {
    this.#given.expected = expected === null || expected === undefined ? null : Array.isArray(expected) ? [...expected] : String(expected);
    this.#sourcesChanged();
  }

  #sourcesChanged(): void {
    if (this.#mount || this.#building) this.#queueRebuild();
  }

  // A framework (or a script) may set properties before the element is defined: they are then
  // the instance's own and hide the class's accessors. Taken off and set again through them.
  #upgradeProperties(): void {
    this.#upgraded = true;
    for (const name of ['starter', 'expected', 'script', ...Object.keys(BOOLEAN_PROPERTIES), ...Object.keys(STRING_PROPERTIES), 'headingLevel']) {
      if (!Object.prototype.hasOwnProperty.call(this, name)) continue;
      const value = (this as Record<string, unknown>)[name];
      delete (this as Record<string, unknown>)[name];
      (this as Record<string, unknown>)[name] = value;
    }
  }

  get result(): SlowStartRunDetail | null {
    return this.#mount?.lastRun ?? null;
  }

  run(): SlowStartRunDetail | null {
    if (!this.#mount) {
      this.#runToDo = true;
      return null;
    }
    this.#mount.runner.run({ play: true });
    return this.#mount.lastRun;
  }

  reset(): void {
    this.#mount?.reset();
  }

  permalink(): Promise<string> {
    return this.#mount?.permalink() ?? Promise.resolve(this.ownerDocument.location.href);
  }

  /** @internal The runner inside, for tests. */
  get runner() {
    return this.#mount?.runner ?? null;
  }

  async #build(): Promise<void> {
    const generation = ++this.#generation;
    this.#building = true;
    const loading = h(this.ownerDocument, 'p', { class: 'sse-loading', text: 'Loading the slow-start runner…' });
    this.#container.replaceChildren(loading);
    try {
      // Children are read after the parser has added them (a defined element
      // is upgraded as soon as its start tag is seen when the script ran first).
      await whenParsed(this.ownerDocument);
      const sources = await readSources(this, this.#given);
      const key = elementKey(this);
      const keys = storageKeys(this, key);
      // Links are compressed: unpacking one is asynchronous, so it is done before the mount picks its script.
      const link = this.hasAttribute('readonly') ? null : await readLink(this.ownerDocument.location.hash, key);
      // The editor and the views load with the first element that connects
      // (the module that defines the element stays small).
      const { ElementMount } = await import('./mount.js');
      if (generation !== this.#generation || !this.isConnected) return;
      this.#mount = new ElementMount({
        host: this,
        container: this.#container,
        shadowRoot: this.#shadow,
        config: readConfig(this),
        sources,
        key,
        storageKey: keys.key,
        legacyStorageKey: keys.legacy,
        link,
      });
      if (this.#scriptToRun !== null) this.#mount.script = this.#scriptToRun;
      else if (this.#runToDo) this.#mount.runner.run({ play: true });
      this.#applyHeight();
      const note = tellAuthor(this, authorProblems(this), this.#toldAuthor);
      if (note) this.#container.prepend(note);
      this.#resolveReady();
      this.dispatchEvent(new CustomEvent('slowstart-ready', { bubbles: true, composed: true }));
    } finally {
      if (generation === this.#generation) this.#building = false;
    }
  }

  #queueRebuild(): void {
    if (this.#rebuildQueued) return;
    this.#rebuildQueued = true;
    // Several attribute changes in one task make one rebuild.
    queueMicrotask(() => {
      this.#rebuildQueued = false;
      if (!this.isConnected) return;
      this.#teardown();
      void this.#build();
    });
  }

  #teardown(): void {
    this.#generation++;
    this.#building = false;
    this.#mount?.destroy();
    this.#mount = null;
    this.#container.replaceChildren();
  }

  // Through CSS variables the runner's stylesheet reads, set with the CSSOM
  // (which a style-src CSP allows, unlike a style attribute). An
  // out-of-bounds height is clamped, with a console warning (once per value).
  #applyHeight(): void {
    const win = this.ownerDocument.defaultView;
    const height = win ? paneHeight(this.getAttribute('height'), win) : null;
    const style = this.#container.style;
    if (height?.clamped && height.clamped !== this.#heightWarned) {
      this.#heightWarned = height.clamped;
      console.warn(`<slow-start-runner${this.id ? ` id="${this.id}"` : ''}>: ${height.clamped}.`);
    }
    if (height) {
      style.setProperty('--ss-pane-height', height.css);
      style.setProperty('--ss-output-height', height.css);
      return;
    }
    style.removeProperty('--ss-output-height');
    if (this.#mount) style.setProperty('--ss-pane-height', autoPaneHeight(this.#mount.starter));
    else style.removeProperty('--ss-pane-height');
  }
}

function whenParsed(doc: Document): Promise<void> {
  if (doc.readyState !== 'loading') return Promise.resolve();
  return new Promise((resolve) => doc.addEventListener('DOMContentLoaded', () => resolve(), { once: true }));
}

// Every attribute as a property (attributes.ts): a boolean attribute is a boolean, the others strings.
for (const [property, attribute] of Object.entries(BOOLEAN_PROPERTIES)) {
  Object.defineProperty(SlowStartRunnerElement.prototype, property, {
    get(this: HTMLElement) {
      return this.hasAttribute(attribute);
    },
    set(this: HTMLElement, on: unknown) {
      this.toggleAttribute(attribute, Boolean(on));
    },
    configurable: true,
    enumerable: true,
  });
}
for (const [property, attribute] of [...Object.entries(STRING_PROPERTIES), ['headingLevel', 'heading-level'] as const]) {
  Object.defineProperty(SlowStartRunnerElement.prototype, property, {
    get(this: HTMLElement) {
      const value = this.getAttribute(attribute);
      return property === 'headingLevel' ? (value === null ? null : Number(value)) : value;
    },
    set(this: HTMLElement, value: unknown) {
      if (value === null || value === undefined) this.removeAttribute(attribute);
      else this.setAttribute(attribute, String(value));
    },
    configurable: true,
    enumerable: true,
  });
}
