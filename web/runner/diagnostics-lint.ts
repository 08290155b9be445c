// Shows the engine's diagnostics in the editor through @codemirror/lint: an
// underline, a gutter marker and the message on hover (and the lint panel,
// Ctrl/Cmd+Shift+M, for keyboard users). The engine is the only judge of a
// line; this module only decides which part of the line to underline.
import { lintGutter, lintKeymap, setDiagnostics, type Diagnostic as LintDiagnostic } from '@codemirror/lint';
import type { Extension, Text } from '@codemirror/state';
import { keymap, type EditorView } from '@codemirror/view';
import type { Diagnostic } from '../api/index.js';

/**
 * Engine diagnostics as editor diagnostics. When the message quotes a
 * token that appears on its line (`got '-1'`, `no backend named 'web9'`),
 * only that token is underlined; otherwise the whole line, blanks trimmed.
 */
export function toLintDiagnostics(doc: Text, diagnostics: readonly Diagnostic[]): LintDiagnostic[] {
  const out: LintDiagnostic[] = [];
  for (const d of diagnostics) {
    if (d.line < 1 || d.line > doc.lines) continue;
    const line = doc.line(d.line);
    const [from, to] = underline(line.text, d.message);
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

function underline(text: string, message: string): [number, number] {
  const quoted = /'([^']+)'/.exec(message)?.[1];
  if (quoted) {
    const at = tokenIndex(text, quoted);
    if (at >= 0) return [at, at + quoted.length];
  }
  const start = text.search(/[^ \t]/);
  if (start < 0) return [0, text.length];
  return [start, text.replace(/[ \t]+$/, '').length];
}

/** Where `token` starts as a whole token (or the name part of name=w) on the line, or -1. */
function tokenIndex(text: string, token: string): number {
  for (let at = text.indexOf(token); at >= 0; at = text.indexOf(token, at + 1)) {
    const before = at === 0 ? ' ' : text[at - 1];
    const after = at + token.length >= text.length ? ' ' : text[at + token.length];
    if (/[ \t=]/.test(before) && /[ \t=]/.test(after)) return at;
  }
  return -1;
}

/** Replaces the editor's diagnostics with these. */
export function showDiagnostics(view: EditorView, diagnostics: readonly Diagnostic[]): void {
  view.dispatch(setDiagnostics(view.state, toLintDiagnostics(view.state.doc, diagnostics)));
}

/** The gutter markers and the lint keymap (Ctrl/Cmd+Shift+M opens the list, F8 goes to the next). */
export function diagnosticsDisplay(): Extension {
  return [lintGutter(), keymap.of(lintKeymap)];
}
