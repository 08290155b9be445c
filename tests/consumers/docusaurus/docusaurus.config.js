// Docusaurus 3 (React, webpack; docs/EMBEDDING.md, "Docusaurus"): the
// element is defined by a client module; pages use it in MDX as JSX.
// The base URL is the site's sub-path (the test sets it).
export default {
  title: 'Slow start',
  url: 'http://127.0.0.1',
  baseUrl: process.env.SITE_BASE ?? '/',
  onBrokenLinks: 'throw',
  clientModules: ['./src/slowstart.js'],
  presets: [['classic', { docs: { routeBasePath: '/', sidebarPath: false }, blog: false, pages: false, theme: {} }]],
};
