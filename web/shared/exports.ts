// Getting things out of the page: a file download, the clipboard, a chart
// as a standalone SVG (its CSS-class colours written onto it as
// presentation attributes, concrete, so it looks the same anywhere, with a
// title and a key) and as a PNG, a
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

/**
 * A CSS colour (a custom property, `light-dark()`, a keyword) as the browser
 * computes it where `context` is, with its theme: `rgb()` or `rgba()`, which
 * every SVG reader draws (librsvg, GNOME's and LibreOffice's, draws a
 * `light-dark()` it does not know as black). Read from a hidden probe whose
 * colour is set through the CSSOM (no style attribute: a strict CSP allows it).
 */
export function concreteColour(context: Element, css: string): string {
  const doc = context.ownerDocument;
  const probe = doc.createElement('span');
  probe.hidden = true;
  probe.style.setProperty('color', css);
  context.append(probe);
  const colour = doc.defaultView!.getComputedStyle(probe).color;
  probe.remove();
  return colour || css;
}

/** A line of the exported chart's key: a backend's name and the element whose stroke (colour and dash) it shows. */
export interface ExportKey {
  name: string;
  sample: Element;
}

export interface SvgExportOptions {
  /** The background, as a concrete colour (concreteColour). */
  background: string;
  /** A title above the chart (also the file's <title>). */
  title?: string;
  /** A key below the chart. */
  key?: readonly ExportKey[];
}

export interface SvgExport {
  text: string;
  width: number;
  height: number;
}

const TITLE_LINE = 19; // px per line of the title (14 px bold)
const TITLE_CHAR = 8; // px per character of the title, a little generous
const KEY_ROW = 20; // px per row of the key
const KEY_CHAR = 7; // px per character of a key's name (12 px text, a little generous)

/**
 * The chart as a standalone SVG document: computed looks written as
 * presentation attributes (colours concrete), a background, a title and a
 * key, no masks. Its size grows by the title and the key.
 */
export function svgText(svg: SVGSVGElement, options: SvgExportOptions): SvgExport {
  const doc = svg.ownerDocument;
  const win = doc.defaultView!;
  const NS = 'http://www.w3.org/2000/svg';
  const clone = svg.cloneNode(true) as SVGSVGElement;
  const from = [svg, ...svg.querySelectorAll('*')];
  const to = [clone, ...clone.querySelectorAll('*')];
  from.forEach((el, i) => {
    const target = to[i];
    target.removeAttribute('class');
    target.removeAttribute('mask'); // the faint-after-the-playhead mask: the export shows what the chart holds
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
  const { width: w, height: h } = svg.getBoundingClientRect();
  const width = Math.round(w);
  const chartH = Math.round(h);
  const look = win.getComputedStyle(svg);
  const ink = look.color;
  const font = look.fontFamily;
  const el = (name: string, attrs: Record<string, string>, text?: string) => {
    const e = doc.createElementNS(NS, name);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    return e;
  };

  // The key: a sample line and a name per backend, in rows that wrap at the width.
  const keyGroup = el('g', { 'font-family': font, 'font-size': '12', fill: ink });
  let x = 12;
  let row = 0;
  for (const item of options.key ?? []) {
    const itemW = 30 + Math.min(item.name.length, 40) * KEY_CHAR + 14;
    if (x > 12 && x + itemW > width - 8) {
      x = 12;
      row++;
    }
    const y = row * KEY_ROW + KEY_ROW / 2;
    const s = win.getComputedStyle(item.sample);
    const line = el('line', { x1: String(x), x2: String(x + 22), y1: String(y), y2: String(y), stroke: s.stroke, 'stroke-width': '2.5' });
    if (s.strokeDasharray && s.strokeDasharray !== 'none') line.setAttribute('stroke-dasharray', s.strokeDasharray);
    const name = item.name.length > 40 ? `${item.name.slice(0, 39)}…` : item.name;
    keyGroup.append(line, el('text', { x: String(x + 28), y: String(y), 'dominant-baseline': 'central' }, name));
    x += itemW;
  }
  const keyH = options.key?.length ? (row + 1) * KEY_ROW + 8 : 0;
  const titleLines = options.title ? wrapWords(options.title, Math.max(20, Math.floor((width - 24) / TITLE_CHAR))) : [];
  const titleH = titleLines.length ? titleLines.length * TITLE_LINE + 12 : 0;
  const height = titleH + chartH + keyH;

  const out = el('svg', { xmlns: NS, width: String(width), height: String(height), viewBox: `0 0 ${width} ${height}` });
  if (options.title) out.append(el('title', {}, options.title));
  out.append(el('rect', { width: '100%', height: '100%', fill: options.background }));
  titleLines.forEach((line, i) => {
    const y = 8 + i * TITLE_LINE + TITLE_LINE / 2;
    out.append(el('text', { x: '12', y: String(y), 'dominant-baseline': 'central', 'font-family': font, 'font-size': '14', 'font-weight': '600', fill: ink }, line));
  });
  // The chart itself, as a nested <svg> at its own size (its viewBox kept).
  clone.removeAttribute('role');
  clone.removeAttribute('aria-label');
  clone.setAttribute('x', '0');
  clone.setAttribute('y', String(titleH));
  clone.setAttribute('width', String(width));
  clone.setAttribute('height', String(chartH));
  out.append(clone);
  if (keyH) {
    keyGroup.setAttribute('transform', `translate(0 ${titleH + chartH + 4})`);
    out.append(keyGroup);
  }
  return { text: new XMLSerializer().serializeToString(out), width, height };
}

/** Words into lines of at most `chars` characters (a longer word has a line of its own). */
function wrapWords(text: string, chars: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > chars) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

/** Why a PNG could not be made: the page's policy forbids the data: image it is drawn from, or the browser failed. */
export class PngBlocked extends Error {
  constructor(readonly byPolicy: boolean) {
    super(
      byPolicy
        ? 'this page’s Content-Security-Policy does not allow data: images (img-src), which the PNG is drawn from'
        : 'the browser could not draw the chart as an image',
    );
  }
}

/**
 * The SVG text drawn at `scale` into a PNG. Rejects with a PngBlocked when
 * the browser (or a CSP without `img-src data:`) does not let it be drawn.
 */
export function pngOf(doc: Document, svg: string, width: number, height: number, scale = 2): Promise<Blob> {
  return new Promise((resolve, reject) => {
    const win = doc.defaultView as Window & typeof globalThis;
    let blocked = false;
    const onViolation = (e: SecurityPolicyViolationEvent) => {
      if (e.blockedURI.startsWith('data') && /img-src|default-src/.test(e.effectiveDirective || e.violatedDirective)) blocked = true;
    };
    doc.addEventListener('securitypolicyviolation', onViolation);
    const done = () => doc.removeEventListener('securitypolicyviolation', onViolation);
    const img = new win.Image();
    img.onload = () => {
      done();
      const canvas = doc.createElement('canvas');
      canvas.width = Math.round(width * scale);
      canvas.height = Math.round(height * scale);
      const ctx = canvas.getContext('2d');
      if (!ctx) return reject(new PngBlocked(false));
      ctx.scale(scale, scale);
      ctx.drawImage(img, 0, 0, width, height);
      canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new PngBlocked(false))), 'image/png');
    };
    // The violation is reported in a task of its own, which may come after the error: wait for it a moment.
    img.onerror = () =>
      win.setTimeout(() => {
        done();
        reject(new PngBlocked(blocked));
      }, 50);
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
