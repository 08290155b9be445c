// What the Traffic tab's chunk starts with (chart-tab.ts imports it on first
// use): its stylesheet adopted where the view goes, then the view.
import type { Lab } from '../api/index.js';
import type { ChartTabContext } from '../shared/chart-tab.js';
import { adoptTrafficStyles } from './styles.js';
import { TrafficView } from './traffic-view.js';
import { adoptYourSystemStyles } from './your-system-panel.js';

export function openTrafficView(box: HTMLElement, context: ChartTabContext, options: { lab: () => Promise<Lab>; createWorker?: () => Worker; setScript?: (script: string) => void }): TrafficView {
  adoptTrafficStyles(context.documentRoot);
  adoptYourSystemStyles(context.documentRoot);
  return new TrafficView(box, { ...options, headingLevel: context.headingLevel });
}
