// Completion: the commands at the start of a line, and the backend names
// the script already defines wherever a name goes (DOWN, UP, ADD).
import {
  autocompletion,
  type Completion,
  type CompletionContext,
  type CompletionResult,
} from '@codemirror/autocomplete';
import type { Extension, Text } from '@codemirror/state';
import { COMMANDS, type Command } from './language.js';

const COMMAND_OPTIONS: readonly (Completion & { label: Command })[] = (Object.keys(COMMANDS) as Command[]).map(
  (label) => ({ label, type: 'keyword', detail: COMMANDS[label] }),
);

// Names are gathered once per document version: the source runs on every
// keystroke while the popup is open, and a script may have 10,000 lines.
const namesCache = new WeakMap<Text, string[]>();

/** Every name defined by a POOL or ADD line, in order of first appearance. */
export function definedNames(doc: Text): string[] {
  const cached = namesCache.get(doc);
  if (cached) return cached;
  const seen = new Set<string>();
  for (let iter = doc.iterLines(); !iter.next().done; ) {
    const tokens = iter.value.split(/[ \t]+/).filter((x) => x !== '');
    const command = tokens[0];
    if (command !== 'POOL' && command !== 'ADD') continue;
    const args = command === 'ADD' ? tokens.slice(1, 2) : tokens.slice(1);
    for (const arg of args) {
      const eq = arg.indexOf('=');
      if (eq > 0) seen.add(arg.slice(0, eq));
    }
  }
  const names = [...seen];
  namesCache.set(doc, names);
  return names;
}

/** The completion source (exported for tests and for other editors). */
export function completeScript(ctx: CompletionContext): CompletionResult | null {
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
    const options = without(COMMAND_OPTIONS);
    return options.length ? { from, options } : null;
  }

  const command = tokens[0];
  const namesHere = (command === 'DOWN' || command === 'UP') && index === 1;
  const addName = command === 'ADD' && index === 1 && !word.includes('=');
  if (!namesHere && !addName) return null;
  const names = without(
    definedNames(ctx.state.doc).map((name) => ({
      label: name,
      type: 'variable',
      detail: 'backend',
      // ADD of an existing name replaces it in place: type its `=` too.
      apply: addName ? `${name}=` : name,
    })),
  );
  return names.length ? { from, options: names } : null;
}

export function scriptCompletion(): Extension {
  // Nothing is selected when the popup opens: Enter always starts a new
  // line (typing "PICK⏎" fast must not be swallowed by the popup); arrow
  // keys pick an option, then Enter takes it.
  return autocompletion({ override: [completeScript], icons: false, selectOnOpen: false });
}
