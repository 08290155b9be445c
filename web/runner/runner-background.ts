// The runner's side of background runs: which runs go to the worker (a big
// script, or one still going into the editor), the progress bar and Stop in
// the toolbar, and what happens when the worker cannot help (the script is
// run on the page instead, as before). The runner calls takes() where it
// would run the engine itself, and gets the result through `show`.
import type { RunResult } from '../api/index.js';
import { BackgroundRuns } from './background-run.js';
import { isLoading, whenLoaded } from '../shared/big-text.js';
import type { ScriptEditor } from './editor.js';
import { RunProgressView } from './run-progress.js';

/** The editor marks this many rejected lines at most (a note says how many more there are). */
export const MAX_MARKED = 500;

export interface RunnerBackgroundOptions {
  /** Show a finished run (the same as a run on the page). */
  show(result: RunResult, script: string, runMs: number): void;
  /** The worker could not run it: run `script` on the page. */
  runOnPage(script: string): void;
  /** One line of status (the runner's status text). */
  status(text: string, problem?: boolean): void;
  /** True while a run goes in the background: what the views show is the previous run's. */
  busy(going: boolean): void;
  /** True when the views show a run (so a background run leaves them showing an older one). */
  hasResult(): boolean;
  createWorker?: () => Worker;
}

export class RunnerBackground {
  readonly progress: RunProgressView;
  readonly #runs: BackgroundRuns;
  readonly #options: RunnerBackgroundOptions;
  #broken = false; // the worker could not start: every run is on the page from now on

  constructor(doc: Document, options: RunnerBackgroundOptions) {
    this.#options = options;
    this.progress = new RunProgressView(doc, () => this.stop());
    this.#runs = new BackgroundRuns({
      onProgress: (p) => {
        this.progress.show(p);
        options.busy(p !== null);
      },
      createWorker: options.createWorker,
    });
  }

  /** Starts a background run of the editor's script and returns true, or returns false when the page should run it. */
  takes(editor: ScriptEditor): boolean {
    const view = editor.view;
    if (this.#broken || (!BackgroundRuns.wanted(view.state.doc) && !isLoading(view) && editor.preview === null)) {
      if (this.#runs.running) this.#runs.stop(); // a small script replaces a big one still running
      return false;
    }
    void this.#go(editor);
    return true;
  }

  /** Stops the run going, leaving the last result shown. */
  stop(): void {
    if (!this.#runs.running) return;
    this.#runs.stop();
    this.#options.status(
      this.#options.hasResult()
        ? 'Stopped before the end: the output and the chart show the previous run. Press Run to run the script again.'
        : 'Stopped before the end. Press Run to run the script again.',
      true,
    );
  }

  destroy(): void {
    this.#runs.destroy();
  }

  async #go(editor: ScriptEditor): Promise<void> {
    this.#options.status(
      this.#options.hasResult()
        ? 'Running in the background; until it ends, the output and the chart show the previous run.'
        : 'Running in the background…',
    );
    const view = editor.view;
    const doc = await whenLoaded(view);
    if (doc !== view.state.doc || editor.textQueued) return; // edited meanwhile (or about to be): that edit brings its own run
    const outcome = await this.#runs.run(editor.preview ?? doc);
    if (outcome.kind === 'done') this.#options.show(outcome.result, outcome.script, outcome.ms);
    else if (outcome.kind === 'failed') {
      this.#broken = true;
      this.#options.status(`The background run failed (${outcome.message}); running on the page instead.`, true);
      this.#options.runOnPage(editor.text);
    }
  }
}
