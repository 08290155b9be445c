// A lab run as the shell lines that reproduce it: the script written to a
// file (a quoted here-document: the shell changes nothing in it) and
// `slowstart simulate` with the run's arguments. What "Copy as command"
// copies and the run's "Command line" shows; both CLIs (npm's and the
// native one) read the same arguments.

/** The file the lines write the script to. */
export const SCRIPT_FILE = 'scenario.txt';

// Words the shell reads as they are (no quoting needed).
const PLAIN = /^[A-Za-z0-9_.,:=+/@%-]+$/;

/** `word` as one shell word: as it is when plain, else in single quotes. */
export function shellWord(word: string): string {
  return PLAIN.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/** A here-document's end marker that no line of the script is. */
function marker(script: string): string {
  const lines = new Set(script.split('\n'));
  let m = 'SCENARIO';
  for (let i = 2; lines.has(m); i++) m = `SCENARIO_${i}`;
  return m;
}

/**
 * The lines that reproduce a run: `cat` writes the script (ended by a line
 * break, if it had none), then `slowstart simulate` runs it with `args`
 * (the run's options as the CLI spells them).
 */
export function simulateCommand(script: string, args: readonly string[]): string {
  const end = marker(script);
  const body = script.endsWith('\n') ? script : `${script}\n`;
  const command = ['slowstart', 'simulate', ...args, SCRIPT_FILE].map(shellWord).join(' ');
  return `cat > ${SCRIPT_FILE} <<'${end}'\n${body}${end}\n${command}\n`;
}
