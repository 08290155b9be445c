// The two values a winner column holds besides a backend's index, as the
// engine writes them: kNone (cpp/spec/pick.hpp) and kNotAPick
// (cpp/core/timeline.hpp), stated once for TypeScript
// (tests/web/unit/api.test.ts checks they are the engine's).

/** No backend took part in the pick (the CLI prints NONE): in {@link Balancer.pickMany}'s result and a timeline's `stepWinner`. */
export const NO_WINNER = -1;

/** A timeline's `stepWinner` for a step that was not a PICK. */
export const NOT_A_PICK = -2;
