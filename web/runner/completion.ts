// Completion: the commands at the start of a line (with their usage and what
// they do), and the backend names the script already defines wherever one
// backend is named (`<name>`, or a single `<name>=<weight>`). Both read the
// engine's keyword table (language.ts).
import {
  autocompletion,
  type Completion,
  type CompletionContext,
  type CompletionResult,
} from '@codemirror/autocomplete';
import type { Extension, Text } from '@codemirror/state';
import { argumentKind, type Language } from './language.js';

/**
 * Every name defined by an argument `name=weight` (POOL's, ADD's), in
 * order of first appearance.
 */
export function definedNames(doc: Text, language: Language): string[] {
  const seen = new Set<string>();
  for (let iter = doc.iterLines(); !iter.next().done; ) {
    const tokens = iter.value.split(/[ \t]+/).filter((x) => x !== '');
    for (let i = 1; i < tokens.length && argumentKind(language, tokens[0], i) === 'entry'; i++) {
      const eq = tokens[i].indexOf('=');
      if (eq > 0) seen.add(tokens[i].slice(0, eq));
    }
  }
  return [...seen];
}

/** The completion source for a language (exported for tests and for other editors). */
export function completeScript(language: Language): (ctx: CompletionContext) => CompletionResult | null {
  const commands: readonly Completion[] = [...language.values()].map(({ keyword }) => ({
    label: keyword.word,
    type: 'keyword',
    detail: keyword.usage,
    info: keyword.summary,
  }));
  // Names are gathered once per document version: the source runs on every
  // keystroke while the popup is open, and a script may have 10,000 lines.
  const namesCache = new WeakMap<Text, string[]>();
  const namesOf = (doc: Text) => {
    let names = namesCache.get(doc);
    if (!names) namesCache.set(doc, (names = definedNames(doc, language)));
    return names;
  };

  return (ctx) => {
    const line = ctx.state.doc.lineAt(ctx.pos);
    const before = line.text.slice(0, ctx.pos - line.from);
    const tokens = before.replace(/^[ \t]+/, '').split(/[ \t]+/);
    const word = tokens[tokens.length - 1];
    const index = tokens.length - 1;
    if (word === '' && !ctx.explicit) return null;
    const from = ctx.pos - word.length;

    // An option equal to what is typed is dropped, so that once a word is
    // complete the popup closes and Enter starts a new line.
    const without = (options: readonly Completion[]) => options.filter((o) => o.label !== word);

    if (index === 0) {
      if (word.startsWith('#')) return null;
      const options = without(commands);
      return options.length ? { from, options } : null;
    }

    // A backend is named here: `<name>`, or one `<name>=<weight>` (ADD of
    // an existing name replaces it in place: its `=` is typed too). A
    // repeated one (POOL's) defines new names.
    const kind = argumentKind(language, tokens[0], index);
    const single = kind === 'entry' && !language.get(tokens[0])?.repeats && !word.includes('=');
    if (kind !== 'name' && !single) return null;
    const names = without(
      namesOf(ctx.state.doc).map((name) => ({
        label: name,
        type: 'variable',
        detail: 'backend',
        apply: single ? `${name}=` : name,
      })),
    );
    return names.length ? { from, options: names } : null;
  };
}

export function scriptCompletion(language: Language): Extension {
  // Nothing is selected when the popup opens: Enter always starts a new
  // line (typing "PICK⏎" fast must not be swallowed by the popup); arrow
  // keys pick an option, then Enter takes it.
  return autocompletion({ override: [completeScript(language)], icons: false, selectOnOpen: false });
}
