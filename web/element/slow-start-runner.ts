/**
 * The embeddable runner: `<script type="module" src=".../slow-start-runner.js">`
 * defines `<slow-start-runner>`. Built by vite.element.config.ts into
 * dist/element/ (this file, the engine's .wasm next to it, and the lazily
 * loaded Traffic simulation). See docs/EMBEDDING.md.
 */
import { SlowStartRunnerElement } from './element.js';
import { TAG } from './identity.js';

export { SlowStartRunnerElement };
export type * from './element-types.js';

// Loading the file twice (two copies on one page) must not throw; in Node
// (server-side rendering) there is no customElements, and nothing is defined.
if (typeof customElements !== 'undefined' && !customElements.get(TAG)) customElements.define(TAG, SlowStartRunnerElement);
