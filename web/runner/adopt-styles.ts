// Constructable stylesheets, adopted into a document or a shadow root: CSS
// that no `style-src` Content-Security-Policy restricts (no <style>, no
// style attributes). One sheet per document and text, shared by every root.
const sheets = new WeakMap<Document, Map<string, CSSStyleSheet>>();

export function adoptStyles(root: Document | ShadowRoot, css: string): void {
  const doc = root.nodeType === 9 ? (root as Document) : root.ownerDocument!;
  let byText = sheets.get(doc);
  if (!byText) sheets.set(doc, (byText = new Map()));
  let sheet = byText.get(css);
  if (!sheet) {
    const Sheet = doc.defaultView?.CSSStyleSheet ?? CSSStyleSheet;
    sheet = new Sheet();
    sheet.replaceSync(css);
    byText.set(css, sheet);
  }
  if (!root.adoptedStyleSheets.includes(sheet)) root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
}
