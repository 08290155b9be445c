// The element's published event types (web/element/element-types.d.ts, a
// standalone file) say what the views really send: checked by the type
// checker (npm test's tsc over tests/web), so a change to the predict
// mode's detail fails here until the published type follows.
import { expect, it } from 'vitest';
import type { SlowStartPredictDetail } from '../../../web/element/element-types.js';
import type { PredictDetail } from '../../../web/runner/predict.js';

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const predictTyped: Same<PredictDetail, SlowStartPredictDetail> = true;

it('types slowstart-predict with the detail the predict mode sends', () => {
  expect(predictTyped).toBe(true);
});
