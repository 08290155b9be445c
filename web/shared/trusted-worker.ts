// Starting a worker where Trusted Types are enforced. Under
// `require-trusted-types-for 'script'` the Worker constructor takes only a
// TrustedScriptURL: a plain URL is refused (a TypeError and a violation),
// so the implement mode's tests and big scripts' background runs could not
// start. A library must not set the page's default policy, so the workers
// are started through a named one, TRUSTED_TYPES_POLICY, which passes only
// same-origin http(s) URLs (a worker cannot be started from anything else).
// A page whose CSP lists the policies it allows (`trusted-types …`) must
// list this name (docs/SECURITY.md).
//
// The worker's URL is the bundler's to write: Vite, webpack and the
// element's own build each rewrite a Worker constructed from a URL made of
// a relative path and import.meta.url, and only that form, into the URL of
// the bundled worker (the form is written out in client.ts and
// background-run.ts; not here, where a bundler would take it for a worker). So each default factory keeps that form, and is called here with
// the global Worker briefly standing for a recorder: what it was given is
// then handed to the real one as a TrustedScriptURL. Where there is no
// Trusted Types API, or the page refuses the policy, the factory runs as it
// is (as it always did).

/** The Trusted Types policy the package's workers are started through. */
export const TRUSTED_TYPES_POLICY = 'slowstart';

interface ScriptUrlPolicy {
  createScriptURL(url: string): unknown;
}

let policy: ScriptUrlPolicy | null | undefined; // undefined: not asked for yet

function scriptUrlPolicy(): ScriptUrlPolicy | null {
  if (policy !== undefined) return policy;
  const api = (globalThis as { trustedTypes?: { createPolicy(name: string, rules: object): ScriptUrlPolicy } }).trustedTypes;
  policy = null;
  if (!api) return policy;
  try {
    policy = api.createPolicy(TRUSTED_TYPES_POLICY, {
      createScriptURL(url: string): string {
        const origin = globalThis.location?.origin;
        const parsed = new URL(url, globalThis.location?.href);
        if (!/^https?:$/.test(parsed.protocol) || parsed.origin !== origin) {
          throw new TypeError(`${TRUSTED_TYPES_POLICY}: a worker only from this site, not ${parsed.origin}`);
        }
        return parsed.href;
      },
    });
  } catch {
    // The page's `trusted-types` directive does not allow this name (the browser reported it).
  }
  return policy;
}

/** What a page author must change when `error` is the Worker constructor refusing a plain URL under Trusted Types ('' otherwise). */
export function trustedTypesHint(error: unknown): string {
  return /TrustedScriptURL/.test(String(error))
    ? ` (the page enforces Trusted Types: its Content-Security-Policy's trusted-types directive must allow the policy '${TRUSTED_TYPES_POLICY}')`
    : '';
}

/**
 * Starts the worker `make` starts (a factory in the form bundlers rewrite,
 * see above), its URL passed as a TrustedScriptURL where the Trusted Types
 * API exists.
 */
export function startWorker(make: () => Worker): Worker {
  const trusted = scriptUrlPolicy();
  const Real = globalThis.Worker;
  if (!trusted || typeof Real !== 'function') return make();
  let seen: { url: string | URL; options?: WorkerOptions } | null = null;
  const Recorder = function (this: unknown, url: string | URL, options?: WorkerOptions) {
    seen = { url, options };
  } as unknown as typeof Worker;
  globalThis.Worker = Recorder;
  try {
    make();
  } finally {
    globalThis.Worker = Real;
  }
  const asked = seen as { url: string | URL; options?: WorkerOptions } | null;
  if (!asked) return make(); // the factory made no worker through the global (a test's own): as it is
  return new Real(trusted.createScriptURL(String(asked.url)) as string, asked.options);
}
