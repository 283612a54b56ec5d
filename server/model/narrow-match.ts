/**
 * register's `narrow` ([[operator, operand]]) applied to a new message in memory, like Zulip's
 * Tornado narrow filter: only `message` events that match reach the queue. Operators Tornado does
 * not filter on let every message through.
 */
import type { ServerState } from '../state.js';
import { FLAG, MENTION_BITS } from './flags.js';
import { sql } from '../db/statements.js';
import { dmParticipantIds, type MessageRow } from './messages.js';
import { sameTopic } from '../../common/topic-key.js';

export function matchesEventNarrow(
  srv: ServerState,
  narrow: ReadonlyArray<readonly [string, string]>,
  m: MessageRow,
  userId: number,
  flags: number | undefined,
): boolean {
  for (const [rawOp, operand] of narrow) {
    const op = rawOp.replace(/_/g, '-');
    const lower = String(operand).toLowerCase();
    switch (op) {
      case 'stream':
      case 'channel': {
        if (m.type !== 'stream') return false;
        const name = sql(srv, 'SELECT name FROM channels WHERE id = ?').pluck().get(m.channel_id) as string | undefined;
        if ((name ?? '').toLowerCase() !== lower && String(m.channel_id) !== String(operand)) return false;
        break;
      }
      case 'topic':
        if (m.type !== 'stream' || !sameTopic(m.topic, String(operand))) return false;
        break;
      case 'sender': {
        const email = sql(srv, 'SELECT email FROM users WHERE id = ?').pluck().get(m.sender_id) as string | undefined;
        if ((email ?? '').toLowerCase() !== lower && String(m.sender_id) !== String(operand)) return false;
        break;
      }
      case 'is':
        if ((lower === 'dm' || lower === 'private') && m.type !== 'private') return false;
        if (lower === 'mentioned' && !((flags ?? 0) & MENTION_BITS)) return false;
        if (lower === 'alerted' && !((flags ?? 0) & FLAG.has_alert_word)) return false;
        if (lower === 'starred' && !((flags ?? 0) & FLAG.starred)) return false;
        if (lower === 'unread' && (flags ?? FLAG.read) & FLAG.read) return false;
        break;
      case 'dm':
      case 'pm-with': {
        if (m.type !== 'private') return false;
        const emailOf = (id: number) => ((sql(srv, 'SELECT email FROM users WHERE id = ?').pluck().get(id) as string | undefined) ?? '').toLowerCase();
        const wanted = new Set(lower.split(',').map((e) => e.trim()).filter((e) => e !== ''));
        wanted.add(emailOf(userId));
        const actual = new Set(dmParticipantIds(srv, m.recipient_id).map(emailOf));
        if (wanted.size !== actual.size || [...wanted].some((e) => !actual.has(e))) return false;
        break;
      }
      case 'search': {
        const words = lower.split(/\s+/).filter((w) => w !== '');
        const hay = `${m.topic} ${m.content}`.toLowerCase();
        if (!words.every((w) => hay.includes(w))) return false;
        break;
      }
      default:
        break;
    }
  }
  return true;
}
