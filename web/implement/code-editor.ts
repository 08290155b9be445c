// The learner's code editor: CodeMirror 6 in JavaScript mode. Besides
// editing, it underlines what JavaScript cannot parse (from the editor's own
// parse tree, live), marks the lines of the learner's code where the tests
// found problems, and runs the tests on Ctrl/Cmd+Enter.
import { closeBrackets, closeBracketsKeymap } from '@codemirror/autocomplete';
import { defaultKeymap, historyKeymap, indentWithTab } from '@codemirror/commands';
import { javascript } from '@codemirror/lang-javascript';
import {
  bracketMatching,
  ensureSyntaxTree,
  HighlightStyle,
  indentOnInput,
  syntaxHighlighting,
} from '@codemirror/language';
import { lintGutter, linter, type Diagnostic } from '@codemirror/lint';
import { EditorState, StateEffect, StateField, type Extension } from '@codemirror/state';
import { Decoration, EditorView, keymap, type DecorationSet } from '@codemirror/view';
import { tags as t } from '@lezer/highlight';
import { basicEditing, goToLine, replaceText } from '../shared/editor-base.js';

export interface CodeEditorOptions {
  parent: HTMLElement;
  /** The document or shadow root the editor lives in (CodeMirror's `root`). */
  root: Document | ShadowRoot;
  doc: string;
  /** Accessible name of the text area. */
  label: string;
  /** The text changed. */
  onChange(): void;
  /** Ctrl/Cmd+Enter. */
  onRun(): void;
}

// Colours are the runner's CSS variables, so one style serves both themes.
const highlightStyle = HighlightStyle.define([
  { tag: [t.keyword, t.controlKeyword, t.definitionKeyword, t.moduleKeyword], color: 'var(--ss-tok-keyword)', fontWeight: '600' },
  { tag: [t.function(t.variableName), t.function(t.definition(t.variableName))], color: 'var(--ss-tok-name)' },
  { tag: [t.propertyName], color: 'var(--ss-tok-name)' },
  { tag: [t.number, t.bool, t.null, t.atom], color: 'var(--ss-tok-number)' },
  { tag: [t.string], color: 'var(--ss-tok-number)' },
  { tag: [t.comment, t.lineComment, t.blockComment], color: 'var(--ss-tok-comment)', fontStyle: 'italic' },
  { tag: [t.operator, t.punctuation, t.bracket], color: 'var(--ss-muted)' },
]);

// The code editor's own rules on top of the shared look (editor-base.ts).
const theme = EditorView.theme({
  '.cm-matchingBracket': { backgroundColor: 'var(--ss-selection)', outline: 'none' },
  '.ss-code-problem': { backgroundColor: 'var(--ss-impl-fail-bg)', boxShadow: 'inset 3px 0 var(--ss-error)' },
});

/** Where JavaScript cannot parse the code: the first error in the editor's parse tree. */
export function firstSyntaxError(state: EditorState): { from: number; line: number } | null {
  const tree = ensureSyntaxTree(state, state.doc.length, 200);
  if (!tree) return null;
  let from = -1;
  tree.iterate({
    enter: (node) => {
      if (from >= 0) return false;
      if (node.type.isError) from = node.from;
      return undefined;
    },
  });
  return from < 0 ? null : { from, line: state.doc.lineAt(from).number };
}

// The live underline. The worker's compiler has the last word (its message
// is shown with the test results); this only points at the spot early.
const syntaxLinter = linter(
  (view) => {
    const error = firstSyntaxError(view.state);
    if (!error) return [];
    const line = view.state.doc.lineAt(error.from);
    const to = error.from < line.to ? error.from + 1 : error.from;
    const from = error.from === to && error.from > line.from ? error.from - 1 : error.from;
    const diagnostic: Diagnostic = {
      from,
      to,
      severity: 'error',
      source: 'JavaScript',
      message: 'JavaScript cannot read the code from here: a missing bracket, comma or quote?',
    };
    return [diagnostic];
  },
  { delay: 600 },
);

const setProblemLines = StateEffect.define<number[]>();
const problemMark = Decoration.line({ class: 'ss-code-problem' });

// Lines of the learner's code where a test found a problem; they follow
// edits until the next run replaces them.
const problemLines = StateField.define<DecorationSet>({
  create: () => Decoration.none,
  update(marks, tr) {
    let next = marks.map(tr.changes);
    for (const e of tr.effects) {
      if (!e.is(setProblemLines)) continue;
      const doc = tr.state.doc;
      const lines = [...new Set(e.value)].filter((l) => l >= 1 && l <= doc.lines).sort((a, b) => a - b);
      next = Decoration.set(lines.map((l) => problemMark.range(doc.line(l).from)));
    }
    return next;
  },
  provide: (f) => EditorView.decorations.from(f),
});

export class CodeEditor {
  readonly view: EditorView;

  constructor(options: CodeEditorOptions) {
    const extensions: Extension[] = [
      ...basicEditing(options),
      indentOnInput(),
      bracketMatching(),
      closeBrackets(),
      javascript(),
      syntaxHighlighting(highlightStyle),
      syntaxLinter,
      lintGutter(),
      problemLines,
      theme,
      EditorState.tabSize.of(2),
      // Tab indents, as in any code editor; Escape then Tab leaves the
      // editor (CodeMirror's rule), which the panel's hint says.
      keymap.of([...closeBracketsKeymap, ...defaultKeymap, ...historyKeymap, indentWithTab]),
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

  /** Replaces the whole text as one undoable change. */
  setText(text: string): void {
    replaceText(this.view, text);
  }

  /** Marks these lines of the code as where tests found problems ([] clears). */
  markProblemLines(lines: number[]): void {
    this.view.dispatch({ effects: setProblemLines.of(lines) });
  }

  /** The line of the first thing JavaScript cannot parse, or null. */
  syntaxErrorLine(): number | null {
    return firstSyntaxError(this.view.state)?.line ?? null;
  }

  /** Puts the cursor at the start of a line, scrolls it to the middle and focuses the editor. */
  goToLine(line: number): void {
    goToLine(this.view, line);
  }

  destroy(): void {
    this.view.destroy();
  }
}
