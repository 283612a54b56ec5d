/** Pure: finding saved snippets by title or content, and putting one into a text at the caret. */

export interface SnippetLike {
  id: number;
  title: string;
  content: string;
}

/** Snippets whose title or content contains every word of `query` (case-insensitive), titles first, alphabetical. */
export function filterSnippets<T extends SnippetLike>(list: readonly T[], query: string): T[] {
  const words = query.toLowerCase().split(/\s+/).filter((w) => w !== '');
  const hits = list.filter((s) => {
    const hay = `${s.title}\n${s.content}`.toLowerCase();
    return words.every((w) => hay.includes(w));
  });
  const inTitle = (s: T) => words.every((w) => s.title.toLowerCase().includes(w));
  return hits.sort((a, b) => Number(inTitle(b)) - Number(inTitle(a)) || a.title.localeCompare(b.title) || a.id - b.id);
}

/**
 * `content` put at the caret (replacing a selection from `start` to `end`), on a word boundary:
 * a space is added where it would otherwise run into the text around. The caret goes after it.
 */
export function insertAtCaret(text: string, start: number, end: number, content: string): { text: string; caret: number } {
  const a = Math.max(0, Math.min(start, text.length));
  const b = Math.max(a, Math.min(end, text.length));
  const before = text.slice(0, a);
  const after = text.slice(b);
  const lead = before !== '' && !/\s$/.test(before) ? ' ' : '';
  const trail = after !== '' && !/^\s/.test(after) ? ' ' : '';
  const head = `${before}${lead}${content}${trail}`;
  return { text: `${head}${after}`, caret: head.length };
}

/** Why a snippet cannot be saved (both fields are required by the server), or null. */
export function snippetProblem(title: string, content: string): string | null {
  if (title.trim() === '') return 'Give the snippet a title.';
  if (content.trim() === '') return 'Write the snippet’s text.';
  return null;
}
