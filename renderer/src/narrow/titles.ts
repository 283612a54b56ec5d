/** Pure: the heading of a message view, in words (the header's h1 and the page title). */
import { topicLabel } from '../kit/format.js';
import type { FilterTerm, NarrowTarget } from '../data/target.js';

export interface Names {
  /** The channel's current name (a rename shows at once), if known. */
  channelName(id: number): string | undefined;
  userName(id: number): string | undefined;
  ownUserId: number | null;
}

export interface ViewTitle {
  /** The channel part of a channel or topic view. */
  channel: string | null;
  /** The topic of a topic view. */
  topic: string | null;
  /** The whole heading as one line ("general › lunch plans", "Starred messages"). */
  text: string;
}

/** "A, B and C" of user ids, by name. */
export function peopleList(ids: readonly number[], names: Names): string {
  const list = ids.map((id) => (id === names.ownUserId ? 'you' : (names.userName(id) ?? `user ${id}`)));
  if (list.length <= 1) return list[0] ?? '';
  return `${list.slice(0, -1).join(', ')} and ${list[list.length - 1]}`;
}

/** A filter term's operand in words: channels and people by name. */
function termName(f: FilterTerm, names: Names): string {
  if (f.operator === 'channel' && typeof f.wire === 'number') return names.channelName(f.wire) ?? f.operand;
  if (typeof f.wire === 'number') return names.userName(f.wire) ?? f.operand;
  if (Array.isArray(f.wire)) return peopleList(f.wire, names);
  return f.operand;
}

export function viewTitle(t: NarrowTarget, names: Names): ViewTitle {
  const plain = (text: string): ViewTitle => ({ channel: null, topic: null, text });
  switch (t.kind) {
    case 'channel':
    case 'topic': {
      const channel = names.channelName(t.channelId) ?? t.channelName;
      if (t.kind === 'channel') return { channel, topic: null, text: channel };
      const topic = topicLabel(t.topic);
      return { channel, topic, text: `${channel} › ${topic}` };
    }
    case 'dm':
      if (t.userIds.length === 1 && t.userIds[0] === names.ownUserId) return plain('Messages with yourself');
      return plain(`Direct messages with ${peopleList(t.userIds, names)}`);
    case 'starred':
      return plain('Starred messages');
    case 'mentioned':
      return plain('Mentions');
    case 'search':
      return plain(`Search results for “${t.query}”`);
    case 'filter':
      return plain(`Search results for “${t.terms.map((f) => `${f.negated ? '-' : ''}${f.operator}:${termName(f, names)}`).join(' ')}”`);
    case 'feed':
      return plain('Combined feed');
  }
}
