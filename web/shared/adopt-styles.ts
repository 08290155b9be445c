// One constructed stylesheet per document for a block of CSS, adopted into
// any document or shadow root that asks (once each). Shadow roots of the
// same document share the sheet, so a page with many elements parses it once.

/** A function that adopts `css` into a document or shadow root. */
export function stylesheetAdopter(css: () => string): (root: Document | ShadowRoot) => void {
  const sheets = new WeakMap<Document, CSSStyleSheet>();
  return (root) => {
    const doc = root.nodeType === 9 ? (root as Document) : root.ownerDocument!;
    let sheet = sheets.get(doc);
    if (!sheet) {
      const Sheet = doc.defaultView?.CSSStyleSheet ?? CSSStyleSheet;
      sheet = new Sheet();
      sheet.replaceSync(css());
      sheets.set(doc, sheet);
    }
    if (!root.adoptedStyleSheets.includes(sheet)) root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
  };
}
