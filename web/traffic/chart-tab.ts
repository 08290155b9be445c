// The Traffic tab as a chart tab of the runner (shared/chart-tab.ts). This
// small file is all a host imports: the view and its stylesheet are a chunk
// of their own (open-view.ts), loaded the first time the tab is shown, while
// the lab module (the simulation) loads beside it.
import type { Lab } from '../api/index.js';
import type { ChartTab } from '../shared/chart-tab.js';
import type { TrafficView } from './traffic-view.js';

export interface TrafficTabOptions {
  /** Loads the lab module (called once, when the tab is first shown). */
  lab: () => Promise<Lab>;
  /** The view has been built (for the page's browser tests). */
  onView?: (view: TrafficView) => void;
}

/** The tab "Traffic", id 'traffic'. */
export function trafficTab(options: TrafficTabOptions): ChartTab {
  return {
    id: 'traffic',
    label: 'Traffic',
    async mount(box, context) {
      const lab = options.lab();
      lab.catch(() => {}); // the view says so when it runs
      const { openTrafficView } = await import('./open-view.js');
      const view = openTrafficView(box, context, () => lab);
      options.onView?.(view);
      return view;
    },
  };
}
