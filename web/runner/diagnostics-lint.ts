// Shows the engine's diagnostics in the editor through @codemirror/lint: an
// underline, a gutter marker and the message on hover (and the lint panel,
// Ctrl/Cmd+Shift+M, for keyboard users). The engine is the only judge of a
// line; this module only decides which part of the line to underline.
import { lintGutter, lintKeymap, setDiagnostics, type Diagnostic as LintDiagnostic } from '@codemirror/lint';
import type { Extension, Text } from '@codemirror/state';
import { keymap, type EditorView } from '@codemirror/view';
import type { Diagnostic } from '../api/index.js';
import { lintPanelFit } from './lint-panel-fit.js';

/**
 * Engine diagnostics as editor diagnostics: what the engine found wrong
 * (Diagnostic.from/to: the offending token, or the name or the weight of a
 * `name=weight`) is underlined. A range the line no longer has (it was
 * edited since the run) falls back to the whole line, blanks trimmed.
 */
export function toLintDiagnostics(doc: Text, diagnostics: readonly Diagnostic[]): LintDiagnostic[] {
  const out: LintDiagnostic[] = [];
  for (const d of diagnostics) {
    if (d.line < 1 || d.line > doc.lines) continue;
    const line = doc.line(d.line);
    const [from, to] = underline(line.text, d);
    out.push({
      from: line.from + from,
      to: line.from + to,
      severity: 'error',
      source: `line ${d.line}`,
      message: d.message,
    });
  }
  return out;
}

function underline(text: string, d: Diagnostic): [number, number] {
  if (d.from < d.to && d.to <= text.length) return [d.from, d.to];
  const start = text.search(/[^ \t]/);
  if (start < 0) return [0, text.length];
  return [start, text.replace(/[ \t]+$/, '').length];
}

/** Replaces the editor's diagnostics with these. */
export function showDiagnostics(view: EditorView, diagnostics: readonly Diagnostic[]): void {
  view.dispatch(setDiagnostics(view.state, toLintDiagnostics(view.state.doc, diagnostics)));
}

/** The gutter markers, the lint keymap (Ctrl/Cmd+Shift+M opens the list, F8 goes to the next), and a list of whole items. */
export function diagnosticsDisplay(): Extension {
  return [lintGutter(), keymap.of(lintKeymap), lintPanelFit];
}
