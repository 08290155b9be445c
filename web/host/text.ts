// Turning text an author wrote into a script or expected output lines.
// Authors indent what they put inside <slow-start-runner> to match their
// HTML; the indentation and the blank lines around it are not the script's.

/** Lines of text, with CR LF and lone CR read as line ends. */
export function splitLines(text: string): string[] {
  return text.replace(/\r\n?/g, '\n').split('\n');
}

const isBlank = (line: string) => /^[ \t]*$/.test(line);

/** Drops blank lines at both ends. */
function trimBlankLines(lines: string[]): string[] {
  let start = 0;
  let end = lines.length;
  while (start < end && isBlank(lines[start])) start++;
  while (end > start && isBlank(lines[end - 1])) end--;
  return lines.slice(start, end);
}

/**
 * A script written inline in HTML: blank lines at both ends dropped, the
 * indentation all lines share removed, one final newline. Inner blank lines
 * and relative indentation stay (they are harmless in the language).
 */
export function dedentScript(text: string): string {
  const lines = trimBlankLines(splitLines(text));
  if (lines.length === 0) return '';
  const indents = lines.filter((l) => !isBlank(l)).map((l) => /^[ \t]*/.exec(l)![0]);
  let common = indents[0];
  for (const indent of indents) {
    let i = 0;
    while (i < common.length && i < indent.length && common[i] === indent[i]) i++;
    common = common.slice(0, i);
  }
  return lines.map((l) => (l.startsWith(common) ? l.slice(common.length) : l.trimStart())).join('\n') + '\n';
}

/**
 * Expected output written inline in HTML: each line trimmed (an output line
 * never starts or ends with a blank: names have none), blank lines at both
 * ends dropped. An empty line inside stays: WEIGHTS of an empty pool.
 */
export function inlineOutputLines(text: string): string[] {
  return trimBlankLines(splitLines(text)).map((l) => l.trim());
}

/**
 * Output in the CLI's format (a file, or what a learner's program printed):
 * every line ends with a newline, so one final newline is dropped and
 * nothing else is touched.
 */
export function outputFileLines(text: string): string[] {
  const lines = splitLines(text);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}
