// The problems list (CodeMirror's lint panel) shows whole items: its own
// height is a fixed 100 px, which cut the third item of a list in half
// (each item is a message and its line, about 40 px). After each update
// that can change the list, its height is set to the items that fit in
// MAX_PX, whole, and a scroll stops at an item's top. Read in one measure
// pass, written in the next (no forced layout); set through the CSSOM (a
// strict CSP allows it: no style attribute).
import { EditorView, ViewPlugin, type ViewUpdate } from '@codemirror/view';

/** The list's height at most: four items of one line each. */
const MAX_PX = 170;

export const lintPanelFit = [
  ViewPlugin.fromClass(
    class {
      constructor(readonly view: EditorView) {
        this.#measure();
      }

      update(u: ViewUpdate): void {
        if (u.transactions.length || u.geometryChanged) this.#measure();
      }

      #measure(): void {
        this.view.requestMeasure({
          key: this,
          read: (view) => {
            const list = view.dom.querySelector<HTMLElement>('.cm-panel-lint ul');
            if (!list) return null;
            let height = 0;
            for (const item of list.children) {
              const h = item.getBoundingClientRect().height;
              if (height > 0 && height + h > MAX_PX) break;
              height += h;
            }
            return { list, height };
          },
          write: (m) => {
            if (m && m.height > 0) m.list.style.maxHeight = `${Math.floor(m.height)}px`;
          },
        });
      }
    },
  ),
  EditorView.theme({
    '.cm-panel.cm-panel-lint ul': { scrollSnapType: 'y proximity' },
    '.cm-panel.cm-panel-lint ul > li': { scrollSnapAlign: 'start' },
  }),
];
