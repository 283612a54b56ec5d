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
