/**
 * A search's matches as the server marked them: `GET /messages` with a `search` narrow answers each
 * message's content and topic with the matched words in `<span class="highlight">` (`match_content`,
 * `match_subject`, as Zulip). The view of that search keeps them for the messages it fetched online
 * and shows them instead of the device's own marks, as long as the message is unchanged since (an
 * edit makes them stale: the renderer's local marks take over again). Never stored: a search
 * reopened offline marks its matches from the device's index.
 */
import type { Message } from '../../api/index.js';
import type { LocalMessage } from '../../protocol/messages.js';

export interface SearchMatch {
  /** The content the marks were made on. */
  readonly content: string;
  readonly match_content: string;
  readonly match_subject: string;
}

/** The matches in an answer of `GET /messages`, by message id (none unless the narrow searched). */
export function searchMatchesOf(messages: readonly Message[], into: Map<number, SearchMatch>): void {
  for (const m of messages) {
    if (m.match_content !== undefined && m.match_subject !== undefined) into.set(m.id, { content: m.content, match_content: m.match_content, match_subject: m.match_subject });
  }
}

/** The message with the server's marks when they were made on its current content. */
export function withSearchMatch(message: LocalMessage, match: SearchMatch | undefined): LocalMessage {
  if (match === undefined || match.content !== message.content) return message;
  return { ...message, match_content: match.match_content, match_subject: match.match_subject };
}
