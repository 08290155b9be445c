import 'slowstart/element';
import { loadSlowStart } from 'slowstart';

const out = document.getElementById('api-output');
loadSlowStart().then(
  (s) => (out.textContent = s.run('POOL a=5 b=1 c=1\nPICK\nPICK\nPICK\n').output.map((o) => o.text).join(' ')),
  (e) => (out.textContent = String(e)),
).finally(() => (document.body.dataset.api = 'done'));
