// `<slow-start-runner>` in React 19's JSX, for TypeScript (copied to
// dist/element/react.d.ts): `import 'slowstart/element/react'` defines the
// element, like `slowstart/element`, and brings these typings. Kept apart
// from the element's own typings so that a project without React types is
// not asked for them.
//
// React 19 sets a prop as a property when the element has one (every
// attribute is one: `starter`, `expected`, `noChart`…), otherwise as an
// attribute, and `on<event-name>` listens to that event: `onslowstart-run`.
import type { DetailedHTMLProps, HTMLAttributes } from 'react';
import type {
  SlowStartPredictDetail,
  SlowStartRunDetail,
  SlowStartRunnerAttributes,
  SlowStartRunnerElement,
  SlowStartVerdictDetail,
} from './slow-start-runner.js';

export * from './slow-start-runner.js';

/** The element's events as React 19 props (`onslowstart-run={(e) => …}`). */
export interface SlowStartRunnerEventProps {
  'onslowstart-ready'?: (event: CustomEvent<void>) => void;
  'onslowstart-run'?: (event: CustomEvent<SlowStartRunDetail>) => void;
  'onslowstart-pass'?: (event: CustomEvent<SlowStartVerdictDetail>) => void;
  'onslowstart-fail'?: (event: CustomEvent<SlowStartVerdictDetail>) => void;
  'onslowstart-predict'?: (event: CustomEvent<SlowStartPredictDetail>) => void;
}

/** The props `<slow-start-runner>` takes in JSX. */
export type SlowStartRunnerProps = DetailedHTMLProps<HTMLAttributes<SlowStartRunnerElement>, SlowStartRunnerElement> &
  Omit<SlowStartRunnerAttributes, 'expected'> &
  SlowStartRunnerEventProps & {
    /** The expected output: text (lines separated by newlines) or lines. */
    expected?: string | readonly string[];
  };

declare module 'react' {
  namespace JSX {
    interface IntrinsicElements {
      'slow-start-runner': SlowStartRunnerProps;
    }
  }
}
