// Next.js 16, App Router (docs/EMBEDDING.md, "Next.js"): nothing for
// slowstart. The sub-path and the output folder are the test's (it builds
// the app twice: Turbopack, then webpack).
export default {
  basePath: process.env.SITE_BASE ?? '',
  distDir: process.env.NEXT_DIST_DIR ?? '.next',
};
