// Scripts the browser tests and benchmarks generate: big, realistic ones.

/**
 * A fleet's day: `backends` backends, then for each 5 s one of them goes
 * DOWN and comes back UP with a 30 s ramp, the weights are printed and three
 * picks made; as many such steps as make about `bytes` bytes.
 */
export function fleetScript(bytes: number, backends = 200): string {
  const names = Array.from({ length: backends }, (_, i) => `web-${String(i).padStart(3, '0')}`);
  const lines = [`POOL ${names.map((n, i) => `${n}=${1 + (i % 7)}`).join(' ')}`];
  let size = lines[0].length;
  for (let t = 1; size < bytes; t++) {
    const name = names[t % names.length];
    for (const line of [`NOW ${t * 5}`, `DOWN ${name}`, `UP ${name} 30`, 'WEIGHTS', 'PICK', 'PICK', 'PICK']) {
      lines.push(line);
      size += line.length + 1;
    }
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Records the event loop's worst lateness (a 10 ms timer), in
 * `window.__lag`: pass to `page.addInitScript` or `page.evaluate`.
 */
export function lagProbe(): void {
  const w = window as unknown as { __lag: number };
  w.__lag = 0;
  let last = performance.now();
  setInterval(() => {
    const now = performance.now();
    w.__lag = Math.max(w.__lag, now - last - 10);
    last = now;
  }, 10);
}

/** The usage line of each command, as the SPEC lists the commands (what the engine's keyword table must say). */
export const SPEC_USAGES = [
  'POOL <name>=<weight> ...',
  'NOW <seconds>',
  'ADD <name>=<weight> <ramp>',
  'DOWN <name>',
  'UP <name> <ramp>',
  'WEIGHTS',
  'PICK',
];
