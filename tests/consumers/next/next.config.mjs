// Next.js 16, App Router (docs/EMBEDDING.md, "Next.js"): nothing for
// slowstart. The sub-path and the output folder are the test's (it builds
// the app twice: Turbopack, then webpack), and so is NEXT_WEBPACK_NO_MINIFY:
// the test's webpack build leaves webpack's minifier off (33 s of CPU
// instead of 44 s, side by side; docs/TESTING.md), as the plain webpack app
// and Docusaurus do: a minifier does not touch what is tested (the URLs
// webpack rewrote). The Turbopack build is minified, as are the Vite apps.
export default {
  basePath: process.env.SITE_BASE ?? '',
  distDir: process.env.NEXT_DIST_DIR ?? '.next',
  ...(process.env.NEXT_WEBPACK_NO_MINIFY === '1' && {
    webpack(config) {
      config.optimization.minimize = false;
      return config;
    },
  }),
};
