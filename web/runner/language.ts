// The command language in the editor, read from the engine's keyword table
// (SlowStart.keywords, cpp/core/command.hpp): which words are commands and
// what each argument is (the table's argument kinds). This file knows no
// command itself.
//
// Syntax highlighting is a CodeMirror stream language. It only colours
// tokens; whether a line is valid is the engine's call (its diagnostics come
// back through diagnostics-lint.ts), so the two can never disagree.
import { HighlightStyle, StreamLanguage, syntaxHighlighting, type StringStream } from '@codemirror/language';
import type { Extension } from '@codemirror/state';
import { tags as t } from '@lezer/highlight';
import type { Keyword } from '../api/index.js';

/** What an argument is: `<name>=<weight>`, `<name>`, or a number (`<seconds>`, `<ramp>`). */
export type ArgumentKind = Keyword['args'][number];

/** A command, as the engine's keyword table states it. */
export interface CommandShape {
  keyword: Keyword;
  /** Its arguments in order; with `repeats` (`...`), the last may come any number of times. */
  args: readonly ArgumentKind[];
  repeats: boolean;
}

/** The commands by word. */
export type Language = ReadonlyMap<string, CommandShape>;

/** No commands yet (before the engine has loaded). */
export const NO_LANGUAGE: Language = new Map();

export function languageOf(keywords: readonly Keyword[]): Language {
  return new Map(keywords.map((keyword) => [keyword.word, { keyword, args: keyword.args, repeats: keyword.maxArgs === Infinity }]));
}

/** What argument `index` (1-based) of a line starting with `word` is, or undefined (no such command or argument). */
export function argumentKind(language: Language, word: string, index: number): ArgumentKind | undefined {
  const shape = language.get(word);
  if (!shape || index < 1) return undefined;
  if (index <= shape.args.length) return shape.args[index - 1];
  return shape.repeats ? shape.args.at(-1) : undefined;
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

function tokenizer(language: Language) {
  return (stream: StringStream, s: LineState): string | null => {
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
      return language.has(s.command) ? 'keyword' : null;
    }

    const kind = argumentKind(language, s.command, s.token);
    if (kind === 'entry') {
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
    if (kind === 'name') {
      stream.match(WORD);
      return 'variableName';
    }
    if (stream.match(NUMBER)) return 'number';
    stream.match(WORD);
    return null;
  };
}

// Colours are CSS variables (styles.ts), so one style serves both themes.
const highlightStyle = HighlightStyle.define([
  { tag: t.keyword, color: 'var(--ss-tok-keyword)', fontWeight: '600' },
  { tag: t.variableName, color: 'var(--ss-tok-name)' },
  { tag: t.number, color: 'var(--ss-tok-number)' },
  { tag: t.operator, color: 'var(--ss-muted)' },
  { tag: t.comment, color: 'var(--ss-tok-comment)', fontStyle: 'italic' },
]);

/** The language's highlighting, ready to put in an editor. */
export function slowstartSyntax(language: Language): Extension {
  const streamLanguage = StreamLanguage.define<LineState>({
    name: 'slowstart',
    startState: () => ({ token: -1, command: '', part: null }),
    copyState: (s) => ({ ...s }),
    token: tokenizer(language),
    languageData: { commentTokens: { line: '#' } },
  });
  return [streamLanguage, syntaxHighlighting(highlightStyle)];
}
