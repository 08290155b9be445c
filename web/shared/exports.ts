// Getting things out of the page: a file download, the clipboard, a chart
// as a standalone SVG (its CSS-class colours written onto it as
// presentation attributes, so it looks the same anywhere) and as a PNG, a
// table as plain text. No style attribute is ever set (a strict CSP would
// report it), and the PNG is drawn from a data: URL (what the page's CSP
// allows for images; an element under a policy without img-src data:
// says that the PNG could not be made).

/** Saves `parts` as a file named `name` (a Blob: no string of the whole is needed). */
export function downloadFile(doc: Document, name: string, parts: BlobPart[], type = 'text/plain;charset=utf-8'): void {
  const win = doc.defaultView!;
  const urls = (win as Window & { URL: typeof URL }).URL;
  const url = urls.createObjectURL(new Blob(parts, { type }));
  const a = doc.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  win.setTimeout(() => urls.revokeObjectURL(url), 60_000);
}

/** Puts text on the clipboard; resolves false when the browser refused. */
export async function copyText(doc: Document, text: string): Promise<boolean> {
  try {
    await doc.defaultView!.navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/** Output lines as the CLI prints them: each line's text and a newline, in pieces of 10,000 lines. */
export function linesAsParts(lines: ArrayLike<{ text: string }>): string[] {
  const parts: string[] = [];
  for (let i = 0; i < lines.length; i += 10_000) {
    let s = '';
    for (let k = i; k < Math.min(lines.length, i + 10_000); k++) s += `${lines[k].text}\n`;
    parts.push(s);
  }
  return parts;
}

// What a chart's look is made of (the rest is geometry, already attributes).
const LOOK = ['fill', 'fill-opacity', 'stroke', 'stroke-width', 'stroke-dasharray', 'stroke-opacity', 'opacity', 'font-family', 'font-size', 'font-weight', 'text-anchor', 'dominant-baseline'];

/** The chart as a standalone SVG document: computed looks written as presentation attributes, a background, no masks. */
export function svgText(svg: SVGSVGElement, background: string): string {
  const doc = svg.ownerDocument;
  const win = doc.defaultView!;
  const clone = svg.cloneNode(true) as SVGSVGElement;
  const from = [svg, ...svg.querySelectorAll('*')];
  const to = [clone, ...clone.querySelectorAll('*')];
  from.forEach((el, i) => {
    const target = to[i];
    target.removeAttribute('class');
    target.removeAttribute('mask'); // the faint-after-the-playhead mask: the export shows the whole run
    if (el === svg) return;
    const look = win.getComputedStyle(el);
    if (look.display === 'none' || look.visibility === 'hidden') {
      target.setAttribute('display', 'none');
      return;
    }
    for (const p of LOOK) {
      const v = look.getPropertyValue(p);
      if (v && v !== 'normal' && v !== 'auto') target.setAttribute(p, v);
    }
  });
  for (const m of clone.querySelectorAll('mask')) m.remove();
  const { width, height } = svg.getBoundingClientRect();
  clone.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
  clone.setAttribute('width', String(Math.round(width)));
  clone.setAttribute('height', String(Math.round(height)));
  const bg = doc.createElementNS('http://www.w3.org/2000/svg', 'rect');
  bg.setAttribute('width', '100%');
  bg.setAttribute('height', '100%');
  bg.setAttribute('fill', background);
  clone.insertBefore(bg, clone.firstChild);
  return new XMLSerializer().serializeToString(clone);
}

/** The SVG text drawn at `scale` into a PNG. Rejects when the browser (or a CSP without img-src data:) does not let it be drawn. */
export function pngOf(doc: Document, svg: string, width: number, height: number, scale = 2): Promise<Blob> {
  return new Promise((resolve, reject) => {
    const img = new (doc.defaultView as Window & typeof globalThis).Image();
    img.onload = () => {
      const canvas = doc.createElement('canvas');
      canvas.width = Math.round(width * scale);
      canvas.height = Math.round(height * scale);
      const ctx = canvas.getContext('2d');
      if (!ctx) return reject(new Error('no canvas'));
      ctx.scale(scale, scale);
      ctx.drawImage(img, 0, 0, width, height);
      canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('no PNG'))), 'image/png');
    };
    img.onerror = () => reject(new Error('the chart could not be drawn as an image'));
    img.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
  });
}

/** A table as aligned plain text: caption, header, rows and footer, columns padded to their widest cell. */
export function tableText(table: HTMLTableElement, cellText: (cell: HTMLTableCellElement) => string = (c) => c.textContent ?? ''): string {
  const rows = [...table.rows].map((r) => [...r.cells].map((c) => cellText(c).replace(/\s+/g, ' ').trim()));
  // Column widths from the rows without a spanning cell (a footer's sentence would widen them all).
  const widths: number[] = [];
  [...table.rows].forEach((r, k) => {
    if ([...r.cells].some((c) => c.colSpan > 1)) return;
    rows[k].forEach((c, i) => (widths[i] = Math.max(widths[i] ?? 0, c.length)));
  });
  const lines = rows.map((r) => (r.length > 1 ? r.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ').trimEnd() : r[0] ?? ''));
  const caption = table.caption?.textContent?.trim();
  return `${caption ? `${caption}\n` : ''}${lines.join('\n')}\n`;
}
