// The script editor: CodeMirror 6 with the command language, completion,
// the engine's diagnostics, Ctrl/Cmd+Enter to run, and two line marks the
// rest of the runner drives (the playhead's line and the line linked to a
// hovered output row).
import { completionKeymap } from '@codemirror/autocomplete';
import { setDiagnostics } from '@codemirror/lint';
import { defaultKeymap, historyKeymap } from '@codemirror/commands';
import { EditorState, StateEffect, StateField, type Extension, type Range } from '@codemirror/state';
import { Decoration, EditorView, keymap, type DecorationSet } from '@codemirror/view';
import type { Diagnostic } from '../api/index.js';
import { scriptCompletion } from './completion.js';
import { diagnosticsDisplay, showDiagnostics, toLintDiagnostics } from './diagnostics-lint.js';
import { basicEditing, goToLine, replaceText } from './editor-base.js';
import { slowstartSyntax } from './language.js';

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
  '.cm-tooltip-autocomplete > ul > li[aria-selected]': { backgroundColor: 'var(--ss-accent)', color: 'var(--ss-on-accent)' },
  '.cm-completionDetail': { color: 'inherit', opacity: '0.75', fontStyle: 'normal', marginLeft: '1em' },
  '.cm-diagnosticSource': { opacity: '0.7' },
  '.cm-panels': { backgroundColor: 'var(--ss-panel)', color: 'var(--ss-fg)' },
  '.cm-panel.cm-panel-lint ul [aria-selected]': { backgroundColor: 'var(--ss-selection)' },
});

export class ScriptEditor {
  readonly view: EditorView;
  #marks: Marks = { current: null, linked: null };

  constructor(options: EditorOptions) {
    const extensions: Extension[] = [
      ...basicEditing(options),
      slowstartSyntax(),
      scriptCompletion(),
      diagnosticsDisplay(),
      marksField,
      theme,
      // Tab is left to the browser, so keyboard users can leave the editor.
      keymap.of([...completionKeymap, ...defaultKeymap, ...historyKeymap]),
      EditorState.readOnly.of(options.readOnly ?? false),
      EditorView.updateListener.of((u) => {
        const moved = u.transactions.some((tr) => tr.isUserEvent('select') || tr.isUserEvent('input'));
        if (u.selectionSet && moved) options.onCursorLine(u.state.doc.lineAt(u.state.selection.main.head).number);
      }),
      EditorView.domEventHandlers({
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
      state: EditorState.create({ doc: options.doc, extensions }),
    });
  }

  get text(): string {
    return this.view.state.doc.toString();
  }

  get lineCount(): number {
    return this.view.state.doc.lines;
  }

  /** Replaces the whole text as one undoable change; the cursor goes to the top. */
  setText(text: string): void {
    replaceText(this.view, text);
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
    const spec = setDiagnostics(this.view.state, toLintDiagnostics(this.view.state.doc, diagnostics));
    this.#marks = { ...this.#marks, current: currentLine };
    this.view.dispatch(spec, { effects: setMarks.of(this.#marks) });
  }

  /** Marks the playhead's line; `scroll` brings it into view if it is not. */
  setCurrentLine(line: number | null, scroll: boolean): void {
    this.#setMarks({ ...this.#marks, current: line }, scroll ? line : null);
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
    if (scrollTo !== null && scrollTo >= 1 && scrollTo <= doc.lines) {
      effects.push(EditorView.scrollIntoView(doc.line(scrollTo).from, { y: 'nearest' }));
    }
    this.view.dispatch({ effects });
  }
}
