/**
 * A PID namespace for each graded program in the Node CLI (the native CLI
 * makes the same one with its own system calls: cpp/cli/grade_namespace.cpp).
 * Node cannot call unshare(2) or setns(2), so each program starts through a
 * shell (the script below) and util-linux: `unshare --pid --fork` makes the
 * namespace, whose PID 1 is a holder (a shell that waits, collecting every
 * orphan there, on a read of its lifeline); then `nsenter --pid` forks the
 * program into it and stays outside as its parent, ending as the program
 * ends (its exit status, or the signal that killed it). So:
 *
 * - the grader sees the program's own status, signals and time, as without
 *   a namespace; the program is not PID 1 (whose default signal actions the
 *   kernel ignores: an abort() there would end as SIGSEGV), and it can start
 *   threads (a process whose children go into a namespace other than its own
 *   cannot: so the namespace is not the program's children's alone);
 * - everything it starts (forks, double forks, setsid, a re-exec with a
 *   clean environment, a pid hopper) lives in the namespace, with no way
 *   out by fork;
 * - when the holder ends, the kernel kills every process in the namespace
 *   at once (atomic against fork). The holder ends when the grader closes
 *   its end of the lifeline (descriptor 3: at the end of the test, or when
 *   the grader dies), or at the SIGKILL of the program's group (unshare's
 *   --kill-child passes it on).
 *
 * It needs CAP_SYS_ADMIN (a root grader outside a restricted container),
 * or, without root, an unprivileged user namespace where the kernel allows
 * one: the grader's own uid and gid mapped to themselves, entered with the
 * same credentials, so the program is no more privileged inside than out
 * (execve drops the capabilities a non-zero uid has there). A probe tries
 * it once per run; where it fails, grading falls back to marking the
 * programs' environment and sweeping /proc (grade-processes.ts).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';

/**
 * Set by the tests alone, to see the defences the namespace replaces (and a
 * hostile program beat them without it): grading as where no namespace can be made.
 */
export const NO_NAMESPACE_SWITCH = 'SLOWSTART_TEST_NO_PID_NAMESPACE';

/**
 * The holder, PID 1 of the namespace: pids there continue from its own as
 * the machine sees it (/proc is the machine's), so that programs of tests
 * running at once do not all get the same small pid (a program that names
 * a file after its pid, `$$`, would meet another test's; where it may not
 * set that, as without root, they start at 1); then it waits on a read of
 * the lifeline in a child (the sign, for the starter, that the pids are
 * set), collecting every orphan of the namespace meanwhile.
 */
const HOLDER = 'read -r p _ </proc/self/stat; echo "$p" 2>/dev/null >/proc/sys/kernel/ns_last_pid; read _ <&3 & wait';

/** A word for sh, as it is. */
const quoted = (word: string) => `'${word.replace(/'/g, "'\\''")}'`;

/**
 * The shell that starts each program ("$@": the program's command), given
 * util-linux's unshare and nsenter commands. The holder (unshare's child,
 * the namespace's PID 1) is found as unshare's child in /proc; once it has
 * a child of its own, nsenter takes the shell's place. Without the kernel's children file, or when
 * unshare fails, it says so as unshare would and exits 1.
 */
export function starter(unshare: string[], nsenter: string[]): string {
  return [
    `${unshare.map(quoted).join(' ')} /bin/sh -c ${quoted(HOLDER)} </dev/null >/dev/null 2>&1 &`,
    'u=$!',
    'while :; do',
    '  [ -e "/proc/$u/task/$u/children" ] || { echo "unshare: unshare failed: Function not implemented" >&2; exit 1; }',
    '  h=; read -r h _ <"/proc/$u/task/$u/children"',
    '  k=; [ -n "$h" ] && read -r k _ 2>/dev/null <"/proc/$h/task/$h/children"',
    '  [ -n "$k" ] && break',
    '  read -r _ _ s _ <"/proc/$u/stat"',
    '  [ "$s" = Z ] && { echo "unshare: unshare failed: Resource temporarily unavailable" >&2; exit 1; }',
    'done',
    `exec 3>&- && exec ${nsenter.map(quoted).join(' ')} --target "$h" -- "$@"`,
  ].join('\n');
}

/** util-linux's own failure to exec the program: "setpriv: failed to execute NAME: TEXT" (or nsenter's). */
export const EXEC_FAILED = /^(?:setpriv|nsenter): [^\n]*: ([^\n:]+)\n?$/;

/** unshare's failure to make the namespace (after a probe that succeeded: e.g. out of namespaces). */
export const UNSHARE_FAILED = /^unshare: unshare failed: ([^\n:]+)\n?$/;

/** A util-linux command on PATH (or in /usr/bin, /bin), or null. */
function find(name: string): string | null {
  const dirs = [...(process.env.PATH || '').split(':').filter(Boolean), '/usr/bin', '/bin'];
  return dirs.map((d) => `${d}/${name}`).find((p) => existsSync(p)) ?? null;
}

/** The command before the program's: a PID namespace, and as a user other than root a user namespace with it. */
function starterCommand(unshare: string, nsenter: string): string[] {
  const uid = process.geteuid?.() ?? 0;
  const gid = process.getegid?.() ?? 0;
  const user = uid === 0 ? [] : ['--user', `--map-user=${uid}`, `--map-group=${gid}`];
  const enterUser = uid === 0 ? [] : ['--user', '--preserve-credentials'];
  return ['/bin/sh', '-c', starter([unshare, ...user, '--pid', '--fork', '--kill-child'], [nsenter, ...enterUser, '--pid']), 'sh'];
}

/**
 * The prefix that starts a program in a PID namespace of its own, or null
 * where none can be made here (Linux only; the test switch; no unshare; no
 * privilege; a restricted container). Tried once per run: a program in
 * the namespace, not its PID 1, starts a child there and exits 0.
 */
export function probePidNamespace(): Promise<string[] | null> {
  if (process.platform !== 'linux' || process.env[NO_NAMESPACE_SWITCH]) return Promise.resolve(null);
  const unshare = find('unshare');
  const nsenter = find('nsenter');
  if (!unshare || !nsenter) return Promise.resolve(null);
  const prefix = starterCommand(unshare, nsenter);
  return new Promise((ok) => {
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn(prefix[0], [...prefix.slice(1), '/bin/sh', '-c', '[ "$$" -gt 1 ] && /bin/sh -c "exit 7"; [ $? = 7 ]'], {
        stdio: ['ignore', 'ignore', 'ignore', 'pipe'],
      });
    } catch {
      return ok(null);
    }
    const lifeline = child.stdio[3];
    const done = (works: boolean) => {
      lifeline?.destroy();
      ok(works ? prefix : null);
    };
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      done(false);
    }, 10_000);
    child.on('error', () => (clearTimeout(timer), done(false)));
    child.on('exit', (code) => (clearTimeout(timer), done(code === 0)));
  });
}
