// Astro 5 with Starlight (docs/EMBEDDING.md, "Astro and Starlight"). The base
// is the site's sub-path (the test sets it); no search index (pagefind).
import starlight from '@astrojs/starlight';
import { defineConfig } from 'astro/config';

export default defineConfig({
  base: process.env.SITE_BASE ?? '/',
  integrations: [starlight({ title: 'Slow start', pagefind: false })],
});
