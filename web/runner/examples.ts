// The examples menu's scripts. Each one's comments say what to look at,
// and the claims they make were worked by hand. tests/web/e2e/page.test.ts
// loads every one (only "rejected-lines" may have diagnostics) and checks
// the ramp table against the SPEC's table.

export interface Example {
  /** Stable id (for links and tests). */
  id: string;
  title: string;
  /** One line shown under the title in the menu. */
  summary: string;
  script: string;
}

export const EXAMPLES: readonly Example[] = [
  {
    id: 'welcome',
    title: 'Slow start in action',
    summary: 'Two backends serve; a third joins with a 20 s ramp.',
    script: `# Welcome! Edit this script: it runs again as you type
# (Ctrl+Enter or Cmd+Enter runs it at once). The chart
# follows the run step by step: play or pause it, step
# through it, drag its slider, or click a line of output.
# At each PICK, the panel under the chart shows how the
# balancer chose.
#
# Two backends share the traffic...
POOL web1=5 web2=5
PICK
PICK
# ...then web3 joins with target 10 and a 20 s slow start.
# At the moment it joins its weight is 0: no traffic yet.
ADD web3=10 20
WEIGHTS
PICK
PICK
NOW 5
WEIGHTS
PICK
PICK
PICK
NOW 10
WEIGHTS
PICK
PICK
PICK
# At 20 s the ramp is done: web3 has its full weight 10,
# half of all the traffic.
NOW 20
WEIGHTS
PICK
PICK
PICK
PICK
`,
  },
  {
    id: 'ramp-table',
    title: 'The ramp table',
    summary: 'Target 10, ramp 20 s: 0, 2, 5, 7, 9, 10, 10.',
    script: `# The ramp table: target 10, ramp 20 s.
# effective = target * min(elapsed, ramp) / ramp, rounded down.
# Look at the WEIGHTS lines: new goes 0, 2, 5, 7, 9, 10, 10
# while old (from POOL, no ramp) stays at 10 the whole time.
POOL old=10
ADD new=10 20
WEIGHTS
NOW 5
WEIGHTS
NOW 10
WEIGHTS
NOW 15
WEIGHTS
# 10 * 19 / 20 = 9.5, rounded down: still 9, one second before the end.
NOW 19
WEIGHTS
NOW 20
WEIGHTS
# After the ramp the weight stays at the target; it never goes above it.
NOW 100
WEIGHTS
`,
  },
  {
    id: 'recovery',
    title: 'Recovery after DOWN',
    summary: 'A backend fails, comes back with UP and ramps up again.',
    script: `# Recovery after DOWN: a backend fails, comes back, and ramps up again.
POOL a=4 b=4
PICK
PICK
PICK
PICK
# At 10 s the health check marks a DOWN: it gets no traffic and its line
# in the chart stops (a gap), but it keeps its place in the pool.
NOW 10
DOWN a
WEIGHTS
PICK
PICK
# At 30 s a passes again. UP restarts it with a 20 s ramp and score 0:
# its weight is 0 right now, so b still takes every pick.
NOW 30
UP a 20
WEIGHTS
PICK
PICK
# Half way through the ramp a has weight 2 of 4: about one pick in three.
NOW 40
WEIGHTS
PICK
PICK
PICK
PICK
PICK
PICK
# Ramp over: back to an even split.
NOW 50
WEIGHTS
PICK
PICK
PICK
PICK
`,
  },
  {
    id: 'rolling-deploy',
    title: 'Rolling deploy of three backends',
    summary: 'Upgraded one at a time, each with a slow start.',
    script: `# A rolling deploy of three backends, one at a time.
# Each one is taken out (DOWN), upgraded, and brought back with UP and a
# 30 s slow start, so the new version gets traffic gradually.
# In the chart, watch each line drop out (gap) and then ramp back up.
POOL web1=10 web2=10 web3=10
PICK
PICK
PICK
# web1 first.
NOW 10
DOWN web1
PICK
PICK
NOW 20
UP web1 30
WEIGHTS
PICK
PICK
NOW 35
WEIGHTS
PICK
PICK
PICK
# Only once web1 is at full weight again is web2 taken out.
NOW 50
WEIGHTS
DOWN web2
PICK
PICK
NOW 60
UP web2 30
NOW 75
WEIGHTS
PICK
PICK
PICK
# Then web3.
NOW 90
DOWN web3
PICK
PICK
NOW 100
UP web3 30
NOW 115
WEIGHTS
PICK
PICK
PICK
NOW 130
# All three upgraded and at full weight.
WEIGHTS
PICK
PICK
PICK
`,
  },
  {
    id: 'mistake-weight-zero',
    title: 'Mistake: “weight 0 gets a little”',
    summary: 'It gets none; a backend that just joined has weight 0.',
    script: `# Common mistake: "weight 0 gets a little traffic". It gets none.
# Only backends that are UP with an effective weight above 0 take part.
POOL a=0 b=1
PICK
PICK
# A ramping backend has weight 0 at the moment it joins: c gets no pick yet.
ADD c=60 60
WEIGHTS
PICK
# One second later c has 60 * 1 / 60 = 1 and takes part.
NOW 1
WEIGHTS
PICK
PICK
# When nothing has a weight above 0 the answer is NONE (grey in the chart).
POOL a=0 b=0
PICK
`,
  },
  {
    id: 'mistake-scores',
    title: 'Mistake: “each PICK starts fresh”',
    summary: 'Scores are kept from pick to pick.',
    script: `# Common mistake: "each PICK starts from scratch". The scores are kept
# from pick to pick; only the weights fed in change with time.
POOL a=3 b=1
# b gains 1 per pick until its score is the highest, so it gets 1 pick in 4.
# If every pick started fresh, a would win them all.
PICK
PICK
PICK
PICK
# Moving the clock resets nothing: the cycle goes on where it was.
NOW 50
PICK
PICK
PICK
PICK
# DOWN keeps b's score; UP starts it again at 0, with a new ramp (0 here).
DOWN b
PICK
UP b 0
PICK
PICK
PICK
PICK
`,
  },
  {
    id: 'mistake-pool-ramp',
    title: 'Mistake: POOL to bring a backend in',
    summary: 'POOL has no ramp and resets everything; use ADD.',
    script: `# Common mistake: bringing a backend in with POOL. POOL replaces the whole
# pool: every backend at full weight at once (POOL has no ramp) and every
# score back to 0.
POOL a=10
NOW 100
# c gets its full weight 10 at once: no slow start.
POOL a=10 c=10
WEIGHTS
PICK
PICK
# The right way: keep the pool and ADD the new backend with a ramp.
POOL a=10
NOW 200
ADD c=10 30
WEIGHTS
PICK
PICK
NOW 215
WEIGHTS
PICK
PICK
PICK
NOW 230
WEIGHTS
`,
  },
  {
    id: 'rejected-lines',
    title: 'Rejected lines',
    summary: 'What the engine rejects, and where it says so.',
    script: `# Rejected lines: each bad line below is underlined in the editor (hover it,
# or press Ctrl+Shift+M for the list). A rejected line changes nothing and
# the script goes on with the next one.
POOL a=2 b=1
# Keywords are upper-case.
pick
# A weight is a plain non-negative integer.
ADD c=-1 20
# DOWN and UP need a backend that is in the pool.
DOWN web9
# Only the first token can start a comment: this PICK has an extra argument.
PICK # why?
PICK
WEIGHTS
`,
  },
];

/** The script the page opens with. */
export const DEFAULT_EXAMPLE: Example = EXAMPLES[0];
