// VitePress 1 (docs/EMBEDDING.md, "VitePress"): Vue must take the element
// for a custom element. The base is the site's sub-path (the test sets it).
import { defineConfig } from 'vitepress';

export default defineConfig({
  title: 'Slow start',
  base: process.env.SITE_BASE ?? '/',
  vue: { template: { compilerOptions: { isCustomElement: (tag) => tag === 'slow-start-runner' } } },
});
