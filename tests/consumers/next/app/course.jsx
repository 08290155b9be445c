'use client';
// The element on the client: imported here (on the server its module
// defines nothing), its script and expected output as props.
import 'slowstart/element/react';

export function Course() {
  return (
    <>
      <slow-start-runner id="exercise" autorun starter={'POOL a=5 b=1 c=1\nPICK\nPICK\nPICK'} expected={'a\na\nb'} />
      <slow-start-runner id="predict" mode="predict" autorun starter={'POOL a=2 b=1\nPICK\nPICK'} />
      <slow-start-runner id="impl" mode="implement" />
    </>
  );
}
