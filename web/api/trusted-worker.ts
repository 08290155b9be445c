// Starting a worker where Trusted Types are enforced. Under
// `require-trusted-types-for 'script'` the Worker constructor takes only a
// TrustedScriptURL: a plain URL is refused (a TypeError and a violation),
// so the implement mode's tests and big scripts' background runs could not
// start. A library must not set the page's default policy, so the workers
// are started through a named one, TRUSTED_TYPES_POLICY, which passes only
// URLs of the page's own origin: http(s), or the blob: script that
// start-worker.ts makes to start a worker served from another origin (a
// worker cannot be started from anything else). A page whose CSP lists the
// policies it allows (`trusted-types …`) must list this name
// (docs/SECURITY.md). Where there is no Trusted Types API, or the page
// refuses the policy, the URL is passed as it is (as it always was).

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
        if (!/^(https?|blob):$/.test(parsed.protocol) || parsed.origin !== origin) {
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

/** `url` as the Worker constructor takes it: a TrustedScriptURL through the package's policy where Trusted Types exist, else as it is. */
export function workerScriptUrl(url: string | URL): string | URL {
  const trusted = scriptUrlPolicy();
  return trusted ? (trusted.createScriptURL(String(url)) as string) : url;
}

/** What a page author must change when `error` is the Worker constructor refusing a plain URL under Trusted Types ('' otherwise). */
export function trustedTypesHint(error: unknown): string {
  return /TrustedScriptURL/.test(String(error))
    ? ` (the page enforces Trusted Types: its Content-Security-Policy's trusted-types directive must allow the policy '${TRUSTED_TYPES_POLICY}')`
    : '';
}
