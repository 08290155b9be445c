/**
 * A PID namespace for each graded program in the Node CLI (the native CLI
 * makes the same one with its own system calls: cpp/cli/grade_namespace.cpp).
 * Node cannot call unshare(2), so each program starts through util-linux's
 * `unshare --pid`, which execs a shell in the grader's namespace whose
 * children go into a new one; the shell forks a holder first (the
 * namespace's PID 1), then execs the program in its own place. So:
 *
 * - the program itself stays the grader's child, with its own pid: its exit
 *   status, signals and time limit are as without a namespace (it is not
 *   PID 1, whose default signal actions the kernel ignores: an abort() there
 *   would end as SIGSEGV);
 * - everything it starts (forks, double forks, setsid, a re-exec with a
 *   clean environment, a pid hopper) lives in the namespace, with no way
 *   out by fork, and the holder collects what is orphaned there;
 * - when the holder ends, the kernel kills every process in the namespace
 *   at once (atomic against fork). The holder ends when the grader closes
 *   its end of the holder's lifeline (descriptor 3: the end of the test, or
 *   the grader's own death), or at the SIGKILL of the program's group.
 *
 * It needs CAP_SYS_ADMIN (a root grader outside a restricted container),
 * or, without root, an unprivileged user namespace where the kernel allows
 * one: the user's own uid and gid mapped to themselves, so the program is
 * no more privileged inside than out (execve drops the capabilities a
 * non-zero uid has there). probePidNamespace() tries it once per run; where
 * it fails, grading falls back to marking the programs' environment and
 * sweeping /proc (grade-processes.ts).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';

/**
 * Set by the tests alone, to see the defences the namespace replaces (and a
 * hostile program beat them without it): grading as where no namespace can be made.
 */
export const NO_NAMESPACE_SWITCH = 'SLOWSTART_TEST_NO_PID_NAMESPACE';

/**
 * The shell `unshare --pid` runs, with the program's command as "$@". Its
 * first fork (the namespace's PID 1, before anything else can fork) is the
 * holder: a subshell that waits (collecting every orphan of the namespace)
 * on a `read` of the lifeline, which returns when the grader closes it.
 * Then the lifeline is closed and the program takes the shell's place.
 */
export const HOLDER_SCRIPT = '(read _ <&3 & wait) </dev/null >/dev/null 2>&1 & exec 3>&- && exec "$@"';

/** dash's own failure to exec the program: "sh: 1: exec: NAME: TEXT". */
export const SHELL_EXEC_FAILED = /^sh: \d+: exec: [^\n]*: ([^\n:]+)\n?$/;

/** unshare's failure to make the namespace (after a probe that succeeded: e.g. out of namespaces). */
export const UNSHARE_FAILED = /^unshare: unshare failed: ([^\n:]+)\n?$/;

/** util-linux's unshare on PATH (or in /usr/bin, /bin), or null. */
function findUnshare(): string | null {
  const dirs = [...(process.env.PATH || '').split(':').filter(Boolean), '/usr/bin', '/bin'];
  return dirs.map((d) => `${d}/unshare`).find((p) => existsSync(p)) ?? null;
}

/** The command before the program's: a PID namespace, and as a user other than root a user namespace with it. */
function unshareCommand(unshare: string): string[] {
  const uid = process.geteuid?.() ?? 0;
  const gid = process.getegid?.() ?? 0;
  const user = uid === 0 ? [] : ['--user', `--map-user=${uid}`, `--map-group=${gid}`];
  return [unshare, ...user, '--pid', '--', '/bin/sh', '-c', HOLDER_SCRIPT, 'sh'];
}

/**
 * The prefix that starts a program in a PID namespace of its own, or null
 * where none can be made here (Linux only; the test switch; no unshare; no
 * privilege; a restricted container). Tried once per run: a shell in the
 * namespace forks a child there, which must exit 0.
 */
export function probePidNamespace(): Promise<string[] | null> {
  if (process.platform !== 'linux' || process.env[NO_NAMESPACE_SWITCH]) return Promise.resolve(null);
  const unshare = findUnshare();
  if (!unshare) return Promise.resolve(null);
  const prefix = unshareCommand(unshare);
  return new Promise((ok) => {
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn(prefix[0], [...prefix.slice(1), '/bin/sh', '-c', '/bin/sh -c "exit 7"; [ $? = 7 ]'], {
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
