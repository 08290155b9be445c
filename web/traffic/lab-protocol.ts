// Messages between the Traffic view and its worker (lab-worker.ts). The
// page asks for a plan (lab-plan.ts) of a script under some settings; the
// worker answers section by section, each simulation's columns transferred
// (traffic-wire.ts), and stops a plan when a newer one arrives.
import type { Traffic, TrafficDefaults, TrafficOptionInfo, TrafficOptions } from '../api/index.js';
import type { SectionOf } from './lab-plan.js';
import type { TrafficSettings } from './lab-settings.js';

/** A Traffic's columns and its diagnostics, in the shape the lab module returns them (Traffic.fromRaw's). */
export type WireTraffic = Parameters<typeof Traffic.fromRaw>[0];

export interface PlanRequest {
  type: 'plan';
  /** Grows with every request: a plan whose id is not the newest is dropped. */
  id: number;
  script: string;
  settings: TrafficSettings;
}

export interface WireRun {
  options: TrafficOptions;
  args: string[];
  traffic: WireTraffic;
}

export type WireSection = SectionOf<WireRun>;

export type PlanReply =
  /** Once, before the first section: the engine's defaults and its option table (the controls are made from them). */
  | { type: 'defaults'; defaults: TrafficDefaults; table: readonly TrafficOptionInfo[] }
  | { type: 'section'; id: number; section: WireSection }
  /** Every section of plan `id` has been sent. */
  | { type: 'done'; id: number }
  /** The lab could not load, or the plan failed for a reason of its own. */
  | { type: 'failed'; id: number; message: string };
