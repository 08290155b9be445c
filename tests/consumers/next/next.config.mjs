// Next.js 16, App Router (docs/EMBEDDING.md, "Next.js"): nothing for
// slowstart. The sub-path and the output folder are the test's (it builds
// the app twice: Turbopack, then webpack), and so is NEXT_WEBPACK_NO_MINIFY:
// the test's webpack build leaves webpack's minifier off (33 s of CPU
// instead of 44 s, side by side; docs/TESTING.md), as the plain webpack app
// and Docusaurus do: a minifier does not touch what is tested (the URLs
// webpack rewrote). The Turbopack build is minified, as are the Vite apps.
// NEXT_NO_BUILD_CACHE (the test's, for both builds): no persistent build
// cache written (webpack's 99 MB, Turbopack's 21 MB), since no build of the
// test reads one (a package whose name and version stay the same from commit
// to commit must not be taken from a cache): 1-4 s of CPU a build (PL-40).
export default {
  basePath: process.env.SITE_BASE ?? '',
  distDir: process.env.NEXT_DIST_DIR ?? '.next',
  ...(process.env.NEXT_NO_BUILD_CACHE === '1' && { experimental: { turbopackFileSystemCacheForBuild: false } }),
  // (Only for the webpack build: Next 16 builds with Turbopack unless told, and a webpack config there is a mistake.)
  ...(process.env.NEXT_WEBPACK_NO_MINIFY === '1' && {
    webpack(config) {
      config.optimization.minimize = false;
      if (process.env.NEXT_NO_BUILD_CACHE === '1') config.cache = false;
      return config;
    },
  }),
};
