// Help on hover: a command word shows how a line with it is written and
// what it does, from the engine's keyword table (language.ts).
import type { Extension } from '@codemirror/state';
import { EditorView, hoverTooltip } from '@codemirror/view';
import type { Language } from './language.js';

export function keywordHelp(language: Language): Extension {
  return [
    hoverTooltip((view, pos) => {
      const line = view.state.doc.lineAt(pos);
      const first = /^([ \t]*)([^ \t]+)/.exec(line.text);
      if (!first) return null;
      const from = line.from + first[1].length;
      const to = from + first[2].length;
      const shape = language.get(first[2]);
      if (!shape || pos < from || pos > to) return null;
      return {
        pos: from,
        end: to,
        create: (v) => {
          const doc = v.dom.ownerDocument;
          const dom = doc.createElement('div');
          dom.className = 'ss-keyword-help';
          const usage = doc.createElement('code');
          usage.textContent = shape.keyword.usage;
          const summary = doc.createElement('p');
          summary.textContent = shape.keyword.summary;
          dom.append(usage, summary);
          return { dom };
        },
      };
    }),
    EditorView.theme({
      '.ss-keyword-help': { padding: '6px 8px', maxWidth: '42ch' },
      '.ss-keyword-help code': { fontWeight: '600' },
      '.ss-keyword-help p': { margin: '4px 0 0' },
    }),
  ];
}
