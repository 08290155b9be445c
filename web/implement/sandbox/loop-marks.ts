/**
 * Where an endless loop is. When time runs out, QuickJS's stack gives the
 * line of the last call the running function made, or the line where the
 * function starts when it made none: `while (true) {}` on line 12 of a
 * function that starts on line 11 was reported on line 11. So before the
 * learner's code is loaded, each loop's body is made to write the loop's
 * own line into a global the harness defines (LOOP_MARK) as it starts an
 * iteration; when time runs out, that global names the innermost loop that
 * was running, and the host reads it (a plain data property the learner
 * cannot turn into a getter).
 *
 * Only text is inserted, never a line break, so every line keeps its
 * number (the learner's messages and links stay right); a body that is one
 * statement is wrapped in braces, which changes nothing else (a loop's body
 * cannot be a declaration). The code is parsed with Lezer's JavaScript
 * grammar (the editor's); code it does not parse cleanly is loaded as it
 * is, and so is marked code QuickJS refuses (sandbox.ts tries the original
 * then), so the marks can never make the learner's code fail.
 */
import { parser } from '@lezer/javascript';
import type { SyntaxNode } from '@lezer/common';

/** The global each loop writes its line into (defined by the harness, non-configurable). */
export const LOOP_MARK = '__slowstartLoopLine';

/** The learner's code with its loops marked, or null when it has no loop or does not parse cleanly. */
export function markLoops(source: string): string | null {
  const tree = parser.parse(source);
  const lineOf = lineFinder(source);
  const inserts: { at: number; text: string }[] = [];
  let broken = false;
  tree.iterate({
    enter(node) {
      if (node.type.isError) broken = true;
      if (broken) return false;
      const body = loopBody(node.name, node.node);
      if (!body) return undefined;
      const mark = `${LOOP_MARK}=${lineOf(node.from)};`;
      if (body.name === 'Block') inserts.push({ at: body.from + 1, text: mark });
      else inserts.push({ at: body.from, text: `{${mark}` }, { at: body.to, text: '}' });
      return undefined;
    },
  });
  if (broken || inserts.length === 0) return null;
  // From the end, so earlier offsets stay right; at one offset only closing braces meet.
  inserts.sort((a, b) => b.at - a.at);
  let out = source;
  for (const { at, text } of inserts) out = out.slice(0, at) + text + out.slice(at);
  return out;
}

// The statement a loop repeats: the last child of `while` and `for`, the one after `do`.
function loopBody(name: string, node: SyntaxNode): SyntaxNode | null {
  if (name === 'WhileStatement' || name === 'ForStatement') return node.lastChild;
  if (name === 'DoStatement') return node.firstChild?.nextSibling ?? null;
  return null;
}

/** Offset -> 1-based line, by binary search over the line breaks (found once). */
function lineFinder(source: string): (offset: number) => number {
  const breaks: number[] = [];
  for (let i = source.indexOf('\n'); i >= 0; i = source.indexOf('\n', i + 1)) breaks.push(i);
  return (offset) => {
    let lo = 0;
    let hi = breaks.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (breaks[mid] < offset) lo = mid + 1;
      else hi = mid;
    }
    return lo + 1;
  };
}
