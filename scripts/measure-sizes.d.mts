/** The sizes table of the package at `source` (a tarball or a dist/ folder), with its markers. */
export function sizesTable(source: string): string;
/** The sizes table as `doc` (a path from the repository's root) carries it, or null. */
export function documentedTable(doc: string): string | null;
