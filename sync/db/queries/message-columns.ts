/**
 * What the store derives from a message object: the columns narrows filter on and the search text.
 * Kept apart from the writers so the benchmark's raw baseline can insert exactly the same rows.
 */
import { topicKey, type Message } from '../../api/index.js';
import { flagsToBits } from '../flags.js';

export interface MessageRow {
  readonly id: number;
  readonly type: string;
  readonly channel_id: number | null;
  readonly topic: string;
  /** The topic's comparison key (`topicKey`: the server's case folding); `''` for DMs. */
  readonly topic_key: string;
  readonly dm_key: string | null;
  readonly sender_id: number;
  readonly flags: number;
  readonly has_link: number;
  readonly has_image: number;
  readonly has_attachment: number;
  readonly has_reaction: number;
  /** The message object without `flags` (kept as bits) and the search-only `match_*` fields. */
  readonly json: string;
}

/** Sorted participant ids, self included (display_recipient lists every participant). */
export function dmKeyOf(m: Pick<Message, 'type' | 'display_recipient'>): string | null {
  if (m.type !== 'private' || typeof m.display_recipient === 'string') return null;
  return m.display_recipient
    .map((r) => r.id)
    .sort((a, b) => a - b)
    .join(',');
}

/**
 * The server's `has:` operands, read off the rendered HTML the way Zulip's
 * `MessageRenderingResult` decides them: any link, an inline image preview, an uploaded file.
 */
export function hasFlags(html: string): { has_link: number; has_image: number; has_attachment: number } {
  return {
    has_link: html.includes('<a href') ? 1 : 0,
    has_image: html.includes('message_inline_image') ? 1 : 0,
    has_attachment: html.includes('/user_uploads/') ? 1 : 0,
  };
}

const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** Visible text of rendered HTML, for the search index (tags dropped, entities decoded). */
export function htmlToText(html: string): string {
  return html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, name: string) => {
      if (name[0] === '#') {
        const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
        return Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
      }
      return ENTITIES[name.toLowerCase()] ?? whole;
    });
}

/** The message as stored: the fetched object minus what is per-view (`flags`, `match_*`). */
export function storedJson(m: Message): string {
  const { flags: _flags, match_content: _mc, match_subject: _ms, ...rest } = m;
  return JSON.stringify(rest);
}

/** The row for a message; `flagBits` overrides the message's own `flags` list when given. */
export function messageRow(m: Message, flagBits?: number): MessageRow {
  const has = hasFlags(m.content);
  const topic = m.type === 'stream' ? m.subject : '';
  return {
    id: m.id,
    type: m.type,
    channel_id: m.type === 'stream' ? (m.stream_id ?? null) : null,
    topic,
    topic_key: topicKey(topic),
    dm_key: dmKeyOf(m),
    sender_id: m.sender_id,
    flags: flagBits ?? flagsToBits(m.flags),
    ...has,
    has_reaction: m.reactions.length > 0 ? 1 : 0,
    json: storedJson(m),
  };
}
