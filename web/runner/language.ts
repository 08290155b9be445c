// Syntax highlighting for the command language, as a CodeMirror stream
// language. It only colours tokens; whether a line is valid is the engine's
// call (its diagnostics come back through diagnostics-lint.ts), so the two
// can never disagree about the rules.
import { HighlightStyle, StreamLanguage, syntaxHighlighting, type StringStream } from '@codemirror/language';
import type { Extension } from '@codemirror/state';
import { tags as t } from '@lezer/highlight';

/** The commands and how each is written (shown by completion). */
export const COMMANDS = {
  POOL: 'POOL <name>=<weight> ...',
  NOW: 'NOW <seconds>',
  ADD: 'ADD <name>=<weight> <ramp>',
  DOWN: 'DOWN <name>',
  UP: 'UP <name> <ramp>',
  WEIGHTS: 'WEIGHTS',
  PICK: 'PICK',
} as const;

export type Command = keyof typeof COMMANDS;

export function isCommand(word: string): word is Command {
  return Object.hasOwn(COMMANDS, word);
}

interface LineState {
  /** Index of the token being read on this line (0 = the command). */
  token: number;
  command: string;
  /** Inside a `name=weight` token: which part comes next. */
  part: 'name' | 'eq' | 'value' | null;
}

// Tokens are separated by runs of spaces or tabs only (SPEC), so a
// no-break space is part of a name, as the engine sees it.
const BLANK = /[ \t]/;
const WORD = /^[^ \t]+/;
const NUMBER = /^[0-9]+(?![^ \t])/;

/** True where the language expects `name=weight` (POOL's arguments, ADD's first). */
function isPair(s: LineState): boolean {
  return s.command === 'POOL' || (s.command === 'ADD' && s.token === 1);
}

function token(stream: StringStream, s: LineState): string | null {
  if (stream.sol()) {
    s.token = -1;
    s.command = '';
    s.part = null;
  }
  if (stream.eatWhile(BLANK)) {
    s.part = null;
    return null;
  }
  if (s.part === null) s.token += 1;

  if (s.token === 0) {
    // Only the first token can start a comment.
    if (stream.peek() === '#') {
      stream.skipToEnd();
      return 'comment';
    }
    stream.match(WORD);
    s.command = stream.current();
    return isCommand(s.command) ? 'keyword' : null;
  }

  if (isPair(s)) {
    if (s.part === null) {
      s.part = 'eq';
      if (stream.match(/^[^ \t=]+/)) return 'variableName';
    }
    if (s.part === 'eq') {
      if (stream.eat('=')) {
        s.part = 'value';
        return 'operator';
      }
      stream.match(WORD);
      return null;
    }
    s.part = null;
    if (stream.match(NUMBER)) return 'number';
    stream.match(WORD);
    return null;
  }

  if ((s.command === 'DOWN' || s.command === 'UP') && s.token === 1) {
    stream.match(WORD);
    return 'variableName';
  }
  if (stream.match(NUMBER)) return 'number';
  stream.match(WORD);
  return null;
}

export const slowstartLanguage = StreamLanguage.define<LineState>({
  name: 'slowstart',
  startState: () => ({ token: -1, command: '', part: null }),
  copyState: (s) => ({ ...s }),
  token,
  languageData: { commentTokens: { line: '#' } },
});

// Colours are CSS variables (styles.ts), so one style serves both themes.
const highlightStyle = HighlightStyle.define([
  { tag: t.keyword, color: 'var(--ss-tok-keyword)', fontWeight: '600' },
  { tag: t.variableName, color: 'var(--ss-tok-name)' },
  { tag: t.number, color: 'var(--ss-tok-number)' },
  { tag: t.operator, color: 'var(--ss-muted)' },
  { tag: t.comment, color: 'var(--ss-tok-comment)', fontStyle: 'italic' },
]);

/** The language and its highlighting, ready to put in an editor. */
export function slowstartSyntax(): Extension {
  return [slowstartLanguage, syntaxHighlighting(highlightStyle)];
}
