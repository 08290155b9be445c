// Rollup (docs/EMBEDDING.md, "Rollup"): Rollup does not build workers or
// emit files from `new URL(…, import.meta.url)`, so the package is not
// bundled: its dist/ is copied next to the bundle as it is, and the
// bundle's imports of it point there. The app's own code is bundled.
import { cpSync } from 'node:fs';
import { nodeResolve } from '@rollup/plugin-node-resolve';

export default {
  input: 'main.js',
  external: ['slowstart', 'slowstart/element'],
  output: {
    dir: 'dist',
    format: 'es',
    paths: { slowstart: './slowstart/api/index.js', 'slowstart/element': './slowstart/element/slow-start-runner.js' },
  },
  plugins: [
    nodeResolve(),
    {
      name: 'copy-slowstart',
      writeBundle() {
        cpSync('node_modules/slowstart/dist', 'dist/slowstart', { recursive: true });
        cpSync('public', 'dist', { recursive: true });
      },
    },
  ],
};
