/**
 * A search's matches marked in a message's shown content: the words the search matched wrapped in
 * `<mark class="search-match">`, in text only (never attributes, math or a spoiler's button), as
 * Zulip web shows its search results. What matches is common/search.ts's `searchMatcher`, the same
 * rule the local index and the reference server's `match_content` follow, so results read the same
 * online and offline. Works on the sanitised DOM, so no HTML is ever built from text.
 */
import { searchMatcher, splitMatches } from '../../../common/search.js';

const MARK_CLASS = 'search-match';
/** Subtrees left alone: rendered math (its text is layout, not words) and controls. */
const SKIP = 'math, .katex, button, script, style';

/** Remove earlier marks, then mark `search`'s matches under `root` (nothing for null or no words). */
export function markSearchMatches(root: HTMLElement, search: string | null): void {
  for (const m of root.querySelectorAll(`mark.${MARK_CLASS}`)) m.replaceWith(...m.childNodes);
  root.normalize();
  const matcher = search === null ? null : searchMatcher(search);
  if (matcher === null) return;
  const doc = root.ownerDocument;
  const walker = doc.createTreeWalker(root, NodeFilter.SHOW_TEXT, {
    acceptNode: (n) => (n.parentElement?.closest(SKIP) ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT),
  });
  const texts: Text[] = [];
  for (let n = walker.nextNode(); n !== null; n = walker.nextNode()) texts.push(n as Text);
  for (const t of texts) {
    const runs = splitMatches(t.data, matcher);
    if (!runs.some((r) => r.match)) continue;
    t.replaceWith(
      ...runs.map((r) => {
        if (!r.match) return doc.createTextNode(r.text);
        const mark = doc.createElement('mark');
        mark.className = MARK_CLASS;
        mark.textContent = r.text;
        return mark;
      }),
    );
  }
}

const MARKED_RUN = /<span class="highlight">([^<]*)<\/span>|([^<]+)/y;
const ENTITY = /&(?:#(\d+)|#x([0-9a-f]+)|(amp|lt|gt|quot|apos));/gi;
const NAMED: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const unescapeHtml = (s: string) => s.replace(ENTITY, (_m, dec?: string, hex?: string, name?: string) => (name !== undefined ? NAMED[name.toLowerCase()]! : String.fromCodePoint(parseInt(dec ?? hex!, dec !== undefined ? 10 : 16))));

/**
 * The server's marked topic (Zulip's `match_subject`: the topic HTML-escaped, its matches in
 * `<span class="highlight">`) as runs of plain text, for the renderer to mark without inserting
 * HTML; null when it holds anything else, or is not `topic` marked (then the topic shows unmarked).
 */
export function serverMarkedRuns(matchSubject: string, topic: string): Array<{ text: string; match: boolean }> | null {
  const runs: Array<{ text: string; match: boolean }> = [];
  MARKED_RUN.lastIndex = 0;
  while (MARKED_RUN.lastIndex < matchSubject.length) {
    const m = MARKED_RUN.exec(matchSubject);
    if (m === null) return null;
    runs.push({ text: unescapeHtml(m[1] ?? m[2]!), match: m[1] !== undefined });
  }
  return runs.map((r) => r.text).join('') === topic ? runs.filter((r) => r.text !== '') : null;
}
