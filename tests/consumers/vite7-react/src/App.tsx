// React 19: `slowstart/element/react` defines the element and types it in
// JSX; props are set as the element's properties, `on<event>` listens
// (docs/EMBEDDING.md, React). Type-checked with the template's tsconfig.
import { useEffect, useRef, useState } from 'react';
import 'slowstart/element/react';
import type { SlowStartRunnerElement, SlowStartVerdictDetail } from 'slowstart/element';
import { loadSlowStart } from 'slowstart';

async function apiOutput(): Promise<string> {
  const slowstart = await loadSlowStart();
  // `using` with the template's ES2022 libs: the package declares Disposable.
  using balancer = slowstart.createBalancer();
  balancer.setPool({ a: 5, b: 1, c: 1 });
  return [balancer.pick(), balancer.pick(), balancer.pick()].join(' ');
}

export function App() {
  const [api, setApi] = useState('loading');
  const [verdict, setVerdict] = useState<SlowStartVerdictDetail | null>(null);
  const predict = useRef<SlowStartRunnerElement>(null);
  useEffect(() => {
    apiOutput().then(setApi, (e: unknown) => setApi(String(e)));
  }, []);
  useEffect(() => {
    if (api !== 'loading') document.body.dataset.api = 'done';
  }, [api]);
  useEffect(() => {
    const el = predict.current;
    if (el) el.dataset.starterLines = String(el.starter.split('\n').length);
  });
  return (
    <>
      <h1>Slow start, in React</h1>
      <p id="api-output">{api}</p>
      <p id="verdict">{verdict ? (verdict.pass ? 'passed' : 'not yet') : ''}</p>
      <slow-start-runner
        id="exercise"
        autorun
        starter={'POOL a=5 b=1 c=1\nPICK\nPICK\nPICK'}
        expected={['a', 'a', 'b']}
        onslowstart-pass={(e) => setVerdict(e.detail)}
      />
      <slow-start-runner id="predict" ref={predict} mode="predict" autorun starter={'POOL a=2 b=1\nPICK\nPICK'} />
      <slow-start-runner id="impl" mode="implement" heading-level={2} />
    </>
  );
}
