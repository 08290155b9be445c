// The API on a course page (course-page.html's apps): three picks, and a
// bad weight rejected with the package's own error class (a bundler that
// copied the class would break `instanceof`). `slowstart` is the package's
// module, however the page got it; `options` are loadSlowStart's.
export function showApi(slowstart, options) {
  const out = document.getElementById('api-output');
  slowstart
    .loadSlowStart(options)
    .then((s) => {
      const picks = s.run('POOL a=5 b=1 c=1\nPICK\nPICK\nPICK\n').output.map((o) => o.text);
      let rejected = 'not rejected';
      try {
        s.createBalancer().setPool({ a: -1 });
      } catch (e) {
        rejected = `${e instanceof slowstart.SlowStartError} ${e.name} ${e.code}`;
      }
      out.textContent = `${picks.join(' ')}; ${rejected}`;
    }, (e) => (out.textContent = String(e)))
    .finally(() => (document.body.dataset.api = 'done'));
}
