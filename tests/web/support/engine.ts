// Loads the freshly built package entry (dist/), the way a Node user gets it.
import { loadSlowStart } from '../../../dist/api/node.js';

export const slowstart = await loadSlowStart();
export { loadSlowStart };
