// The Traffic tab as a chart tab of the runner (shared/chart-tab.ts). This
// small file is all a host imports: the view and its stylesheet are a chunk
// of their own (open-view.ts), loaded the first time the tab is shown (or
// pointed at). The lab module (the simulation) loads in the view's worker
// (lab-worker.ts), never on the page, unless no worker can start there.
import type { Lab } from '../api/index.js';
import type { ChartTab } from '../shared/chart-tab.js';
import type { TrafficView } from './traffic-view.js';

export interface TrafficTabOptions {
  /** Loads the lab module on the page: called only where no worker can start. */
  lab: () => Promise<Lab>;
  /** Makes the lab's worker (a host that builds its workers itself; default: lab-client.ts's). */
  createWorker?: () => Worker;
  /** Puts a script in the runner's editor (one undoable edit) and runs it: given, the lab offers its scenario presets. */
  setScript?: (script: string) => void;
  /** The view has been built (for the page's browser tests). */
  onView?: (view: TrafficView) => void;
}

/** The tab "Traffic", id 'traffic': a wide tab (the runner gives it its whole width). */
export function trafficTab(options: TrafficTabOptions): ChartTab {
  let view: Promise<typeof import('./open-view.js')> | null = null;
  const load = () => {
    if (!view) {
      view = import('./open-view.js');
      view.catch(() => (view = null)); // the next time the tab is shown tries again
    }
    return view;
  };
  return {
    id: 'traffic',
    label: 'Traffic',
    wide: true,
    prefetch: () => void load(),
    async mount(box, context) {
      const { openTrafficView } = await load();
      const traffic = openTrafficView(box, context, { lab: options.lab, createWorker: options.createWorker, setScript: options.setScript });
      options.onView?.(traffic);
      return traffic;
    },
  };
}
