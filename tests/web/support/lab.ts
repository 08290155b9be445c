// The lab module from the freshly built package entry (dist/).
import { loadLab } from '../../../dist/api/node.js';

export const lab = await loadLab();
