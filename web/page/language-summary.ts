// The page's "language in brief": each command as the engine writes it and
// what it does, from the engine's keyword table (SlowStart.keywords), so the
// page says what the engine does and keeps no list of its own.
import type { Keyword } from '../api/index.js';

export function showLanguageSummary(list: HTMLDListElement, keywords: readonly Keyword[]): void {
  const doc = list.ownerDocument;
  list.replaceChildren(
    ...keywords.flatMap((k) => {
      const term = doc.createElement('dt');
      const usage = doc.createElement('code');
      usage.textContent = k.usage;
      term.append(usage);
      const description = doc.createElement('dd');
      description.textContent = k.summary;
      return [term, description];
    }),
  );
}
