// The script editor: CodeMirror 6 with the command language, completion,
// the engine's diagnostics, Ctrl/Cmd+Enter to run, and two line marks the
// rest of the runner drives (the playhead's line and the line linked to a
// hovered output row).
import { completionKeymap } from '@codemirror/autocomplete';
import { diagnosticCount, setDiagnostics } from '@codemirror/lint';
import { defaultKeymap, historyKeymap } from '@codemirror/commands';
import { Compartment, EditorState, StateEffect, StateField, type Extension, type Range, type Text } from '@codemirror/state';
import { Decoration, EditorView, keymap, type DecorationSet } from '@codemirror/view';
import type { Diagnostic, Keyword } from '../api/index.js';
import { scriptCompletion } from './completion.js';
import { diagnosticsDisplay, showDiagnostics, toLintDiagnostics } from './diagnostics-lint.js';
import { BIG_TEXT, bigTextGuard, continuesEdit, insertText, isLoading, whenLoaded } from '../shared/big-text.js';
import { rememberText, textOf } from '../shared/doc-text.js';
import { longLines } from './long-lines.js';
import { EDIT_LIMIT, ScriptPreview } from './script-preview.js';
import { basicEditing, goToLine, replaceText } from '../shared/editor-base.js';
import { keywordHelp } from './keyword-help.js';
import { languageOf, NO_LANGUAGE, slowstartSyntax, type Language } from './language.js';
import { PlayingLine } from './playing-line.js';

export interface EditorOptions {
  parent: HTMLElement;
  /** The document or shadow root the editor lives in (CodeMirror's `root`). */
  root: Document | ShadowRoot;
  doc: string;
  /** Accessible name of the text area. */
  label: string;
  /** No edits (the cursor and selection still move, for stepping and copying). */
  readOnly?: boolean;
  /** The text changed (typing, paste, undo, setText). */
  onChange(): void;
  /** Ctrl/Cmd+Enter. */
  onRun(): void;
  /** The user moved the cursor (click or keys) to this 1-based line. */
  onCursorLine(line: number): void;
  /** The pointer is over this 1-based line, or left the text (null). */
  onHoverLine(line: number | null): void;
}

interface Marks {
  current: number | null;
  linked: number | null;
}

const setMarks = StateEffect.define<Marks>();
const currentLine = Decoration.line({ class: 'ss-line-current' });
const linkedLine = Decoration.line({ class: 'ss-line-linked' });

const marksField = StateField.define<DecorationSet>({
  create: () => Decoration.none,
  update(marks, tr) {
    let next = marks.map(tr.changes);
    for (const e of tr.effects) {
      if (!e.is(setMarks)) continue;
      const ranges: Range<Decoration>[] = [];
      const { current, linked } = e.value;
      const doc = tr.state.doc;
      const at = (line: number) => doc.line(line).from;
      if (current !== null && current >= 1 && current <= doc.lines) ranges.push(currentLine.range(at(current)));
      if (linked !== null && linked >= 1 && linked <= doc.lines) ranges.push(linkedLine.range(at(linked)));
      ranges.sort((a, b) => a.from - b.from);
      next = Decoration.set(ranges);
    }
    return next;
  },
  provide: (f) => EditorView.decorations.from(f),
});

// The script editor's own rules on top of the shared look (editor-base.ts).
const theme = EditorView.theme({
  '.ss-line-current': { backgroundColor: 'var(--ss-current-bg)', boxShadow: 'inset 3px 0 var(--ss-accent)' },
  '.ss-line-linked': { backgroundColor: 'var(--ss-linked-bg)' },
  // The playhead's line while a run plays (playing-line.ts): the same look, behind the text.
  '.ss-line-playing': {
    position: 'absolute',
    top: 0,
    left: 0,
    right: 0,
    zIndex: -1,
    pointerEvents: 'none',
    contain: 'strict',
    willChange: 'transform',
    backgroundColor: 'var(--ss-current-bg)',
    boxShadow: 'inset 3px 0 var(--ss-accent)',
  },
  '.cm-tooltip-autocomplete > ul > li[aria-selected]': { backgroundColor: 'var(--ss-accent)', color: 'var(--ss-on-accent)' },
  '.cm-completionDetail': { color: 'inherit', opacity: '0.75', fontStyle: 'normal', marginLeft: '1em' },
  '.cm-diagnosticSource': { opacity: '0.7' },
  '.cm-panels': { backgroundColor: 'var(--ss-panel)', color: 'var(--ss-fg)' },
  '.cm-panel.cm-panel-lint ul [aria-selected]': { backgroundColor: 'var(--ss-selection)' },
});

// What the editor knows of the language, all from the engine's keyword
// table: the words it colours, completes and explains on hover.
function languageSupport(language: Language): Extension {
  return [slowstartSyntax(language), scriptCompletion(language), keywordHelp(language)];
}

export class ScriptEditor {
  readonly view: EditorView;
  #marks: Marks = { current: null, linked: null };
  // Empty until the engine has loaded and said what the language is (setKeywords).
  readonly #language = new Compartment();
  readonly #preview: ScriptPreview;
  #playing!: PlayingLine;
  #queued: string | null = null; // set while a big text was going in (setText)

  constructor(options: EditorOptions) {
    this.#preview = new ScriptPreview(options.parent.ownerDocument, options.readOnly ?? false);
    options.parent.before(this.#preview.note);
    // A big script starts empty and goes in piece by piece, from the next task (not undoable: it is where the editor starts).
    const big = options.doc.length > BIG_TEXT;
    const shown = options.doc.length > EDIT_LIMIT ? this.#preview.start(options.doc) : options.doc;
    const extensions: Extension[] = [
      // A big text's later pieces are not new edits: the first one said the text changed (big-text.ts).
      ...basicEditing({ ...options, onChange: (u) => u.transactions.every(continuesEdit) || options.onChange() }),
      this.#language.of(languageSupport(NO_LANGUAGE)),
      diagnosticsDisplay(),
      marksField,
      longLines(),
      theme,
      // Tab is left to the browser, so keyboard users can leave the editor.
      keymap.of([...completionKeymap, ...defaultKeymap, ...historyKeymap]),
      this.#preview.extension(),
      EditorView.updateListener.of((u) => {
        const moved = u.transactions.some((tr) => tr.isUserEvent('select') || tr.isUserEvent('input'));
        if (u.selectionSet && moved) options.onCursorLine(u.state.doc.lineAt(u.state.selection.main.head).number);
      }),
      bigTextGuard(big),
      EditorView.domEventHandlers({
        // A big paste goes in piece by piece (big-text.ts), so the page never freezes on it.
        paste: (event, view) => {
          // While a big text is going in the editor takes no other edit (big-text.ts): nor this paste.
          if (isLoading(view)) {
            event.preventDefault();
            return true;
          }
          const text = event.clipboardData?.getData('text/plain') ?? '';
          if (text.length <= BIG_TEXT || view.state.readOnly) return false;
          event.preventDefault();
          const { from, to } = view.state.selection.main;
          const doc = view.state.doc;
          if (doc.length - (to - from) + text.length > EDIT_LIMIT) this.setText(doc.sliceString(0, from) + text + doc.sliceString(to));
          else void this.#load(insertText(view, from, to, text, { userEvent: 'input.paste' }), text);
          return true;
        },
        mousemove: (event, view) => {
          const pos = view.posAtCoords({ x: event.clientX, y: event.clientY });
          options.onHoverLine(pos === null ? null : view.state.doc.lineAt(pos).number);
        },
        mouseleave: () => options.onHoverLine(null),
      }),
    ];
    this.view = new EditorView({
      parent: options.parent,
      root: options.root,
      state: EditorState.create({ doc: big ? '' : options.doc, extensions }),
    });
    this.#playing = new PlayingLine(this.view);
    // In a later task: the editor's first update lays out the page that is still being built
    // (and its first piece must not reach a runner that is still being built either).
    if (big) void this.#load(insertText(this.view, 0, 0, shown, { userEvent: 'input.replace', cursorAtStart: true, history: false, later: true }), shown);
  }

  /** The script (read once per document, see doc-text.ts); all of it when only its start is shown. */
  get text(): string {
    return this.#preview.text ?? textOf(this.view.state.doc);
  }

  /** True when a text set while a big one was going in waits to replace it (setText). */
  get textQueued(): boolean {
    return this.#queued !== null;
  }

  /** The whole script when it is too big to edit and only its start is shown (script-preview.ts), else null. */
  get preview(): string | null {
    return this.#preview.text;
  }

  get lineCount(): number {
    return this.view.state.doc.lines;
  }

  /** Replaces the whole text as one undoable change; the cursor goes to the top. */
  setText(text: string): void {
    // A big text still going in is finished first; then the latest text set meanwhile replaces it.
    if (isLoading(this.view)) {
      const waiting = this.#queued !== null;
      this.#queued = text;
      if (!waiting) {
        const apply = () => {
          const latest = this.#queued!;
          this.#queued = null;
          this.setText(latest);
        };
        whenLoaded(this.view).then(apply, apply);
      }
      return;
    }
    this.#preview.leave(this.view);
    const shown = text.length > EDIT_LIMIT ? this.#preview.enter(this.view, text) : text;
    if (shown.length <= BIG_TEXT) replaceText(this.view, shown);
    else void this.#load(insertText(this.view, 0, this.view.state.doc.length, shown, { userEvent: 'input.replace', cursorAtStart: true }), shown);
  }

  // Once a big text is all in, its document reads as that text (no need to join it again),
  // unless CodeMirror changed its line ends.
  async #load(loaded: Promise<Text>, text: string): Promise<void> {
    const doc = await loaded.catch(() => null);
    if (doc && doc.length === text.length && !text.includes('\r')) rememberText(doc, text);
  }

  /** The language's keywords, from the engine (SlowStart.keywords): highlighting, completion and help follow them. */
  setKeywords(keywords: readonly Keyword[]): void {
    this.view.dispatch({ effects: this.#language.reconfigure(languageSupport(languageOf(keywords))) });
  }

  showDiagnostics(diagnostics: readonly Diagnostic[]): void {
    showDiagnostics(this.view, diagnostics);
  }

  /**
   * A run's results in one transaction: its diagnostics and the playhead's
   * line. One dispatch, not two, because each one can make the browser lay
   * out the page (CodeMirror reads the DOM selection).
   */
  showRun(diagnostics: readonly Diagnostic[], currentLine: number | null): void {
    this.#playing.hide();
    // Nothing to mark before or after, on the same line: no transaction (an
    // update of the editor's view costs ~0.6 ms on a 10,000-line script, PL-29).
    if (diagnostics.length === 0 && currentLine === this.#marks.current && diagnosticCount(this.view.state) === 0) return;
    const spec = setDiagnostics(this.view.state, toLintDiagnostics(this.view.state.doc, diagnostics));
    this.#marks = { ...this.#marks, current: currentLine };
    this.view.dispatch(spec, { effects: setMarks.of(this.#marks) });
  }

  /** Marks the playhead's line; `scroll` brings it into view if it is not. */
  setCurrentLine(line: number | null, scroll: boolean): void {
    this.#playing.hide();
    this.#setMarks({ ...this.#marks, current: line }, scroll ? line : null);
  }

  /**
   * While a run plays: the playhead's line, shown and scrolled to without a
   * transaction (playing-line.ts), after one that takes its mark away.
   * setCurrentLine (or a run shown) marks it again. True when its scroll
   * made CodeMirror draw lines now.
   */
  followLine(line: number): boolean {
    this.unmarkLine();
    return this.#playing.show(line);
  }

  /** Takes the playhead's line mark away (a run starts playing: followLine's strip shows it). */
  unmarkLine(): void {
    if (this.#marks.current !== null) this.#setMarks({ ...this.#marks, current: null }, null);
  }

  /** The playhead's marked line (null: none, or followLine's strip shows it). */
  get markedLine(): number | null {
    return this.#marks.current;
  }

  /** The line followLine shows, 0 when the playhead's line is marked (not following). */
  get followedLine(): number {
    return this.#playing.line;
  }

  /** Marks the line linked to a hovered output row (null clears it). */
  setLinkedLine(line: number | null): void {
    this.#setMarks({ ...this.#marks, linked: line }, null);
  }

  /** Puts the cursor at the start of a line and focuses the editor. */
  goToLine(line: number): void {
    goToLine(this.view, line);
  }

  destroy(): void {
    this.view.destroy();
  }

  #setMarks(marks: Marks, scrollTo: number | null): void {
    if (marks.current === this.#marks.current && marks.linked === this.#marks.linked && scrollTo === null) return;
    this.#marks = marks;
    const effects: StateEffect<unknown>[] = [setMarks.of(marks)];
    const doc = this.view.state.doc;
    this.view.dispatch({ effects });
    if (scrollTo !== null && scrollTo >= 1 && scrollTo <= doc.lines) this.#scrollInside(doc.line(scrollTo).from);
  }

  // Brings a line into the editor's own view. CodeMirror's scrollIntoView
  // also scrolls the page to the editor, which moved the page by 53 px as a
  // run played on load; here only the editor's scroller moves (in
  // CodeMirror's measure phase, with its other layout reads). A line that
  // left the view comes back a third of the way down, so a run playing
  // through the script scrolls the editor once a page of lines, not at
  // every step (each scroll made CodeMirror measure again in that frame).
  #scrollInside(pos: number): void {
    const view = this.view;
    view.requestMeasure({
      read: () => {
        // A run started playing since it was asked for (Play, in the task
        // after a seek, before CodeMirror's next measure): the playing line's
        // strip scrolls the editor now, and this would undo its scroll (PL-53).
        if (this.#playing.line) return null;
        const block = view.lineBlockAt(pos);
        const scroller = view.scrollDOM;
        const top = block.top + view.documentPadding.top;
        const bottom = block.bottom + view.documentPadding.top;
        const from = scroller.scrollTop;
        const height = scroller.clientHeight;
        if (top >= from && bottom <= from + height) return null;
        return Math.max(0, top - Math.max(0, (height - (bottom - top)) / 3));
      },
      write: (to) => {
        if (to !== null) view.scrollDOM.scrollTop = to;
      },
    });
  }
}
