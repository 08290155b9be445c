// The Traffic view's worker: the lab module (the traffic simulation) runs
// every simulation of the view here, off the page's main thread
// (lab-plan.ts says which, in order). Each section goes back as soon as it is
// done, its columns transferred (traffic-wire.ts). A newer plan replaces an
// older one: the worker reads messages between simulations and drops the
// older plan there (the page ends the worker instead when one simulation
// runs long: lab-client.ts). Started by web/api/start-worker.ts, as every
// worker of the package: the lab's .wasm URL is the page's first message,
// and the lab is loaded with a static import (no import() in a worker's
// graph), from that URL; a failed load is tried again at the next plan.
import { loadLabAt } from '../api/lab-loader.js';
import { isWasmUrls, wasmUrl } from '../api/worker-wasm.js';
import { CachedLab } from './cached-lab.js';
import { PlanCancelled, runPlan } from './lab-plan.js';
import type { PlanReply, PlanRequest } from './lab-protocol.js';
import { wireSection } from './traffic-wire.js';

let loading: Promise<CachedLab> | null = null;
const lab = () =>
  (loading ??= wasmUrl('lab')
    .then((url) => loadLabAt(url))
    .then((l) => {
      post({ type: 'defaults', defaults: l.trafficDefaults(), table: l.trafficOptionTable() });
      return new CachedLab(l);
    })
    .catch((error: unknown) => {
      loading = null;
      throw error;
    }));
lab().catch(() => {}); // loading starts now; a failure is said by the first plan
let newest = 0;

const post = (reply: PlanReply, transfer: Transferable[] = []) => (self as unknown as Worker).postMessage(reply, transfer);

self.onmessage = (event: MessageEvent<PlanRequest>) => {
  const request = event.data;
  if (isWasmUrls(request) || request.type !== 'plan') return;
  newest = request.id;
  void plan(request);
};

async function plan({ id, script, settings }: PlanRequest): Promise<void> {
  try {
    const sim = (await lab()).simulator(() => id === newest);
    await runPlan(script, settings, sim, (section) => {
      const transfer: Transferable[] = [];
      post({ type: 'section', id, section: wireSection(section, transfer) }, transfer);
    });
    post({ type: 'done', id });
  } catch (error) {
    if (error instanceof PlanCancelled) return;
    post({ type: 'failed', id, message: error instanceof Error ? error.message : String(error) });
  }
}
