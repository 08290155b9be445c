// The runner's extension point: a view the host adds beside the ramp chart,
// as a tab of the chart panel (the Traffic tab is one). The runner lays out
// the tab and its panel and tells the view what ran; the host decides which
// views there are and how their code loads (a dynamic import, so a page pays
// for a tab only when it is opened). Types only: the runner and the views
// meet here instead of importing each other.

/** What a chart tab's view does for the runner. */
export interface ChartTabView {
  /** The script of the latest run (called after every run, shown or not). */
  update(script: string): void;
  /** Whether the tab is shown: a view may do its work only while it is. */
  visible: boolean;
}

/** What the runner tells a view it builds. */
export interface ChartTabContext {
  /** The document or shadow root the view is in (where its stylesheet goes). */
  documentRoot: Document | ShadowRoot;
  /** Level of the view's own headings (one below the runner's panels). */
  headingLevel: 2 | 3 | 4 | 5 | 6;
}

/** A tab a host adds to the runner's chart panel. */
export interface ChartTab {
  /** Names the tab to the host (onChartTab, showChartTab; e.g. 'traffic'). The runner's own is 'ramp'. */
  id: string;
  /** The tab's text. */
  label: string;
  /**
   * While shown, the tab's panel takes the runner's whole width (a row of its
   * own under the Script and Output panels, which then share theirs and are
   * kept short): a view with more to lay out than a chart (Traffic).
   */
  wide?: boolean;
  /** Builds the view into `box` the first time the tab is shown (its code may load then). */
  mount(box: HTMLElement, context: ChartTabContext): Promise<ChartTabView>;
  /** The learner may open the tab soon (the pointer is over it, or it has focus): start loading. */
  prefetch?(): void;
}
