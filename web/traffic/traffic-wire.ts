// A plan's sections on their way from the lab's worker to the page: each
// Traffic's columns as they are (typed arrays, transferred, not copied) and
// its rejected lines as one text, in the shape the lab module returns
// (RawTraffic), so the page rebuilds the same Traffic the API gives. Every
// column a Traffic has goes, whatever it is named: a column the engine adds
// crosses without a change here.
// (the class's own module: the worker's graph holds no import(), which the package's index has)
import { Traffic } from '../api/lab.js';
import { mapRuns, type PlanRun, type Section } from './lab-plan.js';
import type { WireRun, WireSection, WireTraffic } from './lab-protocol.js';

/**
 * A copy of `t` to post (the worker keeps `t` in its cache; the copy's
 * buffers are handed over). `transfer` collects them.
 */
export function toWire(t: Traffic, transfer: Transferable[]): WireTraffic {
  const wire: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(t)) {
    if (key === 'diagnostics') continue;
    if (ArrayBuffer.isView(value)) {
      const copy = (value as unknown as { slice(): ArrayBufferView }).slice();
      transfer.push(copy.buffer as ArrayBuffer);
      wire[key] = copy;
    } else wire[key] = Array.isArray(value) ? [...value] : value;
  }
  const d = t.diagnostics;
  const lines = Uint32Array.from(d, (x) => x.line);
  const columns = Uint32Array.from(d.flatMap((x) => [x.from, x.to]));
  transfer.push(lines.buffer, columns.buffer);
  return { ...wire, diagnosticText: d.map((x) => x.message).join('\n'), diagnosticLines: lines, diagnosticColumns: columns } as WireTraffic;
}

/** The Traffic again, on the page. */
export function fromWire(wire: WireTraffic): Traffic {
  return Traffic.fromRaw(wire);
}

/** A section to post; `transfer` collects the buffers to hand over. */
export function wireSection(s: Section, transfer: Transferable[]): WireSection {
  return mapRuns(s, (r: PlanRun): WireRun => ({ options: r.options, args: r.args, traffic: toWire(r.traffic, transfer) }));
}

/** A posted section, on the page. */
export function sectionOf(s: WireSection): Section {
  return mapRuns(s, (r: WireRun): PlanRun => ({ options: r.options, args: r.args, traffic: fromWire(r.traffic) }));
}
