// The Traffic tab as a chart tab of the runner (shared/chart-tab.ts). This
// small file is all a host imports: the view and its stylesheet are a chunk
// of their own (open-view.ts), loaded the first time the tab is shown (or
// pointed at), while the lab module (the simulation) loads beside it.
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
  // The view's chunk and the lab module, loaded once, side by side.
  let parts: { view: Promise<typeof import('./open-view.js')>; lab: Promise<Lab> } | null = null;
  const load = () => {
    if (!parts) {
      const lab = options.lab();
      lab.catch(() => {}); // the view says so when it runs
      const view = import('./open-view.js');
      view.catch(() => (parts = null)); // the next time the tab is shown tries again
      parts = { view, lab };
    }
    return parts;
  };
  return {
    id: 'traffic',
    label: 'Traffic',
    wide: true,
    prefetch: () => void load(),
    async mount(box, context) {
      const { view, lab } = load();
      const { openTrafficView } = await view;
      const traffic = openTrafficView(box, context, () => lab);
      options.onView?.(traffic);
      return traffic;
    },
  };
}
