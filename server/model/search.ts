/**
 * Full-text search: the contentless FTS5 index `messages_fts` (rowid = message id) over the topic
 * and the message's rendered text (common/html-text.ts; the FTS5 queries built from user search text
 * are common/search.ts, the client's too), and Zulip-style `<span class="highlight">` marking for
 * `match_content` / `match_subject`.
 */
import { htmlText } from '../../common/html-text.js';
import { searchTerms } from '../../common/search.js';
import type { ServerState } from '../state.js';
import { sql } from '../db/statements.js';

/** (Re)index a message; call after sending, editing content or moving to another topic. */
export function indexMessage(srv: ServerState, id: number, topic: string, renderedContent: string): void {
  sql(srv, 'DELETE FROM messages_fts WHERE rowid = ?').run(id);
  sql(srv, 'INSERT INTO messages_fts (rowid, topic, body) VALUES (?, ?, ?)').run(id, topic, htmlText(renderedContent));
}

export function unindexMessages(srv: ServerState, ids: readonly number[]): void {
  const del = sql(srv, 'DELETE FROM messages_fts WHERE rowid = ?');
  for (const id of ids) del.run(id);
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A highlighter for one search: wraps the matched words of plain text or HTML text nodes in
 * `<span class="highlight">`. Build it once per request (the Unicode-aware pattern is costly to
 * compile) and apply it to every message.
 */
export function highlighter(search: string): (textOrHtml: string, isHtml: boolean) => string {
  const terms = searchTerms(search);
  if (terms.length === 0) return (s) => s;
  const alternatives = terms.map((t) => t.phrase.split(' ').map(escapeRe).join('[^\\p{L}\\p{N}_]+') + (t.prefix ? '[\\p{L}\\p{N}_]*' : ''));
  const re = new RegExp(`(?<![\\p{L}\\p{N}_])(?:${alternatives.join('|')})(?![\\p{L}\\p{N}_])`, 'giu');
  const mark = (s: string) => s.replace(re, (m) => `<span class="highlight">${m}</span>`);
  // In HTML only text between tags is marked, never attribute values.
  return (textOrHtml, isHtml) => (isHtml ? textOrHtml.replace(/(^|>)([^<]+)/g, (_m, gt: string, text: string) => gt + mark(text)) : mark(textOrHtml));
}

/** One-off form of `highlighter`. */
export function highlight(textOrHtml: string, search: string, isHtml: boolean): string {
  return highlighter(search)(textOrHtml, isHtml);
}
