/**
 * Full-text search: the contentless FTS5 index `messages_fts` (rowid = message id) over the topic
 * and the message's rendered text (common/html-text.ts; the FTS5 queries built from user search text
 * are common/search.ts, the client's too), and Zulip-style `<span class="highlight">` marking for
 * `match_content` / `match_subject`.
 */
import { htmlText } from '../../common/html-text.js';
import { searchMatcher } from '../../common/search.js';
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

/**
 * A highlighter for one search: wraps the matched words of plain text or HTML text nodes in
 * `<span class="highlight">` (common/search.ts decides what matches). Build it once per request and
 * apply it to every message.
 */
export function highlighter(search: string): (textOrHtml: string, isHtml: boolean) => string {
  const re = searchMatcher(search);
  if (re === null) return (s) => s;
  const mark = (s: string) => s.replace(re, (m) => `<span class="highlight">${m}</span>`);
  // In HTML only text between tags is marked, never attribute values.
  return (textOrHtml, isHtml) => (isHtml ? textOrHtml.replace(/(^|>)([^<]+)/g, (_m, gt: string, text: string) => gt + mark(text)) : mark(textOrHtml));
}

/** One-off form of `highlighter`. */
export function highlight(textOrHtml: string, search: string, isHtml: boolean): string {
  return highlighter(search)(textOrHtml, isHtml);
}
