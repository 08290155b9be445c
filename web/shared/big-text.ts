// Big text into CodeMirror without blocking the page. CodeMirror builds its
// document tree in the task that inserts the text: a 5 MB paste takes it
// 0.3–1 s, a 50 MB script many seconds, and the page cannot take a key
// press meanwhile. So text over BIG_TEXT goes in as pieces of about
// PIECE characters, cut at line ends, one piece per task, as one undo step;
// the editor takes no other edit until the last piece is in.
import { Annotation, EditorSelection, EditorState, StateEffect, StateField, Transaction, type Extension, type Text } from '@codemirror/state';
import type { EditorView } from '@codemirror/view';

/** Text longer than this (in UTF-16 units) is inserted piece by piece. */
export const BIG_TEXT = 256 * 1024;
/** About this much per task (a few tens of milliseconds of CodeMirror's work). */
const PIECE = 32 * 1024;

// Every piece carries `piece`; all but the first also `laterPiece` (they continue one edit).
const piece = Annotation.define<true>();
const laterPiece = Annotation.define<true>();
const setLoading = StateEffect.define<boolean>();
const loadingField = StateField.define<boolean>({
  create: () => false,
  update(value, tr) {
    for (const e of tr.effects) if (e.is(setLoading)) value = e.value;
    return value;
  },
});
const loading = new WeakMap<EditorView, Promise<Text>>();

/**
 * Blocks other edits while a big text is going in (its own pieces pass).
 * `loadingAtStart`: the editor's first text is big and will go in with
 * `insertText(..., { later: true })`; nothing else may edit it meanwhile.
 */
export function bigTextGuard(loadingAtStart = false): Extension {
  return [
    loadingAtStart ? loadingField.init(() => true) : loadingField,
    EditorState.transactionFilter.of((tr) =>
      !tr.docChanged || tr.annotation(piece) || !tr.startState.field(loadingField, false) ? tr : [],
    ),
  ];
}

/** True for the pieces after the first of a big text (the edit they continue was already reported), and for all of a first text. */
export function continuesEdit(tr: Transaction): boolean {
  return tr.annotation(laterPiece) === true;
}

/** Resolves with the document once a big text that is going into `view` is all in (at once when none is). */
export function whenLoaded(view: EditorView): Promise<Text> {
  return loading.get(view) ?? Promise.resolve(view.state.doc);
}

/** True while a big text is going into `view`. */
export function isLoading(view: EditorView): boolean {
  return loading.has(view);
}

/**
 * Replaces [from, to) with `text`: at once when it is small, otherwise the
 * first piece now and the rest one per task. `userEvent` labels the first
 * transaction ("input.paste", "input.replace"); the rest join it in the
 * undo history. `onProgress` gets the share inserted (0..1). Resolves with
 * the final document.
 */
export function insertText(
  view: EditorView,
  from: number,
  to: number,
  text: string,
  options: {
    userEvent: string;
    cursorAtStart?: boolean;
    /** False: not undoable, and not an edit at all (the editor's first text). */
    history?: boolean;
    /** The first piece too goes in a later task (the editor was just made: its first update lays out the page). */
    later?: boolean;
    onProgress?: (share: number) => void;
  },
): Promise<Text> {
  const selectionAt = (end: number) => EditorSelection.cursor(options.cursorAtStart ? from : end);
  const history = options.history === false ? [Transaction.addToHistory.of(false)] : [];
  if (text.length <= BIG_TEXT && !options.later) {
    view.dispatch({
      changes: { from, to, insert: text },
      selection: selectionAt(from + text.length),
      scrollIntoView: true,
      userEvent: options.userEvent,
      annotations: history,
    });
    return Promise.resolve(view.state.doc);
  }
  // One time for every piece: the undo history joins them into one step however long they take.
  const time = Transaction.time.of(Date.now());
  const done = (async () => {
    let at = 0;
    let pos = from;
    try {
      if (options.later) await nextTask();
      while (at < text.length) {
        const end = cut(text, at);
        const first = at === 0;
        const last = end === text.length;
        // The selection is set once, with the last piece: each setting makes CodeMirror sync the DOM's.
        view.dispatch({
          changes: { from: pos, to: first ? to : pos, insert: text.slice(at, end) },
          ...(last || (first && options.cursorAtStart) ? { selection: selectionAt(pos + end - at) } : {}),
          annotations: [piece.of(true), time, ...(first && options.history !== false ? [] : [laterPiece.of(true)]), ...history],
          effects: first || last ? setLoading.of(!last) : [],
          ...(first ? { userEvent: options.userEvent, scrollIntoView: true } : {}),
        });
        pos += end - at;
        at = end;
        options.onProgress?.(at / text.length);
        if (!last) await nextTask();
      }
      return view.state.doc;
    } finally {
      loading.delete(view);
    }
  })();
  loading.set(view, done);
  return done;
}

/**
 * Where the piece starting at `at` ends: at the first line end after PIECE
 * characters. A line is never split: CodeMirror keeps each line as one
 * string, so a long line appended piece by piece would be copied again for
 * every piece.
 */
function cut(text: string, at: number): number {
  if (at + PIECE >= text.length) return text.length;
  const newline = text.indexOf('\n', at + PIECE - 1);
  return newline < 0 ? text.length : newline + 1;
}

/** A macrotask (the page handles input and paints in between); one channel serves them all. */
export function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    if (!channel) {
      channel = new MessageChannel();
      channel.port1.onmessage = () => waiting.shift()?.();
    }
    waiting.push(resolve);
    channel.port2.postMessage(null);
  });
}

let channel: MessageChannel | null = null;
const waiting: (() => void)[] = [];
