// A server component calling the API (Node: the package's node entry, its
// .wasm read from disk), and the client component with the elements.
import { loadSlowStart } from 'slowstart';
import { Course } from './course.jsx';

export const dynamic = 'force-dynamic'; // the API runs on each request, not only at build

export default async function Page() {
  const slowstart = await loadSlowStart();
  const { output } = slowstart.run('POOL a=5 b=1 c=1\nPICK\nPICK\nPICK\n');
  return (
    <main>
      <h1>Slow start, in Next.js</h1>
      <p id="api-output">{output.map((o) => o.text).join(' ')}</p>
      <Course />
    </main>
  );
}
