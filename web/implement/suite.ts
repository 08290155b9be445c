/**
 * The built-in tests of the implement-it-yourself mode: the SPEC's examples
 * and at least one script that each classic mistake gets wrong. Expected
 * output is the engine's own (the reference), computed when the test runs.
 */
export interface ImplementTest {
  id: string;
  title: string;
  script: string;
}

const lines = (...l: string[]) => l.join('\n') + '\n';

export const BUILT_IN_TESTS: readonly ImplementTest[] = [
  {
    id: 'spec-example',
    title: 'The SPEC\'s worked example',
    script: lines('POOL a=5 b=1 c=1', 'PICK', 'PICK', 'ADD d=10 20', 'WEIGHTS', 'NOW 5', 'WEIGHTS', 'PICK', 'DOWN a', 'PICK'),
  },
  {
    id: 'ramp-table',
    title: 'The ramp table: target 10, ramp 20',
    script: lines(
      'ADD web=10 20',
      ...[0, 5, 10, 15, 19, 20, 100].flatMap((t) => [`NOW ${t}`, 'WEIGHTS']),
    ),
  },
  {
    id: 'rounding',
    title: 'Rounding down: target 10, ramp 30',
    script: lines('ADD web=10 30', 'NOW 1', 'WEIGHTS', 'NOW 5', 'WEIGHTS', 'NOW 14', 'WEIGHTS', 'NOW 29', 'WEIGHTS'),
  },
  {
    id: 'nginx-5-1-1',
    title: 'Smooth WRR: weights 5/1/1 give a a b a c a a',
    script: lines('POOL a=5 b=1 c=1', ...Array(7).fill('PICK')),
  },
  {
    id: 'pool-no-ramp',
    title: 'POOL has no ramp',
    script: lines('NOW 100', 'POOL a=2 b=1', 'WEIGHTS', 'PICK', 'PICK', 'PICK'),
  },
  {
    id: 'weight-zero',
    title: 'A weight-0 backend never wins',
    script: lines(
      '# b ramps to full weight and builds up a score...',
      'POOL a=1',
      'ADD b=3 10',
      'NOW 10',
      'PICK',
      'PICK',
      'PICK',
      '# ...then the clock goes back: b is at weight 0 again, with score 1.',
      'NOW 0',
      'WEIGHTS',
      'PICK',
      'PICK',
    ),
  },
  {
    id: 'scores-kept',
    title: 'Scores are kept from pick to pick',
    script: lines('POOL a=1 b=1', 'PICK', 'PICK', 'PICK', 'PICK'),
  },
  {
    id: 'ties-first',
    title: 'Ties go to the earliest backend in the pool',
    script: lines('POOL z=1 y=1 x=1', 'PICK', 'PICK', 'PICK'),
  },
  {
    id: 'join-resets-score',
    title: 'ADD and UP start a backend with score 0',
    script: lines('POOL a=3 b=1', 'PICK', 'PICK', 'UP a 0', 'PICK', 'PICK', 'ADD b=1 0', 'PICK', 'PICK'),
  },
  {
    id: 'winner-pays',
    title: 'The winner gives back the total',
    script: lines('POOL a=2 b=1', 'PICK', 'PICK', 'PICK', 'PICK', 'PICK', 'PICK'),
  },
  {
    id: 'cap',
    title: 'The weight stops at the target',
    script: lines('POOL a=10', 'ADD b=10 20', 'NOW 40', 'WEIGHTS', 'PICK', 'PICK'),
  },
  {
    id: 'recovery',
    title: 'A recovery: DOWN, then UP with a ramp',
    script: lines('POOL a=4 b=4', 'PICK', 'DOWN b', 'PICK', 'NOW 30', 'UP b 20', 'PICK', 'NOW 40', 'WEIGHTS', 'PICK', 'PICK', 'PICK'),
  },
];
