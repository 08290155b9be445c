// Loads the freshly built package entry (dist/), the way a Node user gets it.
import { loadSlowStart, NO_WINNER, NOT_A_PICK } from '../../../dist/api/node.js';

export const slowstart = await loadSlowStart();
export { loadSlowStart, NO_WINNER, NOT_A_PICK };
