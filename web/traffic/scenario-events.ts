// The script's events, to mark on the lab's time axes: each accepted POOL,
// ADD, DOWN and UP line at the clock the engine ran it at (a restart is a
// DOWN then an UP, a join an ADD, a reload a POOL). The clock and which
// lines ran come from the engine's timeline; only the line's first word and
// its text are read here, to name the event.
import type { Timeline } from '../api/index.js';

export interface ScenarioEvent {
  /** Seconds (the script's clock when the line ran). */
  time: number;
  /** 1-based script line. */
  line: number;
  /** The command: POOL, ADD, DOWN or UP. */
  command: 'POOL' | 'ADD' | 'DOWN' | 'UP';
  /** The line as written, at most LABEL_CHARS characters. */
  label: string;
}

const COMMANDS = new Set(['POOL', 'ADD', 'DOWN', 'UP']);
/** Events kept at most: a time axis shows no more than this many marks. */
export const MAX_EVENTS = 200;
const LABEL_CHARS = 40;

/** The events of a run of `script` whose timeline is `timeline`. */
export function scenarioEvents(script: string, timeline: Timeline): ScenarioEvent[] {
  const events: ScenarioEvent[] = [];
  // Line starts, found once (a script of many lines is not split into strings).
  const starts = [0];
  for (let at = script.indexOf('\n'); at >= 0; at = script.indexOf('\n', at + 1)) starts.push(at + 1);
  for (let i = 0; i < timeline.length && events.length < MAX_EVENTS; i++) {
    const line = timeline.stepLine[i];
    const from = starts[line - 1];
    if (from === undefined) continue;
    const end = line < starts.length ? starts[line] - 1 : script.length;
    const text = script.slice(from, Math.min(end, from + 400)).trim();
    const command = text.split(/\s+/, 1)[0].toUpperCase();
    if (!COMMANDS.has(command)) continue;
    const label = text.length > LABEL_CHARS ? `${text.slice(0, LABEL_CHARS - 1)}…` : text;
    events.push({ time: timeline.stepNow[i], line, command: command as ScenarioEvent['command'], label });
  }
  return events;
}
