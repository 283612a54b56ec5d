/**
 * Pure: a topic's menu. Its visibility choices as Zulip offers them (Mute, Default, Unmute only in
 * a muted channel, Follow), resolved topics (Zulip marks them with a "✔ " prefix), and which
 * actions the menu lists for the user's role and connection.
 */
import { canDeleteTopics, canMoveMessages, canResolveTopics } from './message-actions.js';

/** Zulip's prefix of a resolved topic's name. */
export const RESOLVED_PREFIX = '✔ ';

export function isResolved(topic: string): boolean {
  return topic.startsWith(RESOLVED_PREFIX);
}

/** The topic's name once resolved or unresolved (what the server will call it). */
export function resolvedName(topic: string, resolved: boolean): string {
  const bare = isResolved(topic) ? topic.slice(RESOLVED_PREFIX.length) : topic;
  return resolved ? `${RESOLVED_PREFIX}${bare}` : bare;
}

export type VisibilityPolicy = 0 | 1 | 2 | 3;

export interface VisibilityChoice {
  policy: VisibilityPolicy;
  label: string;
}

/** Mute, Default, (Unmute in a muted channel), Follow: the radio items of the topic's menu. */
export function visibilityChoices(channelMuted: boolean): VisibilityChoice[] {
  const out: VisibilityChoice[] = [
    { policy: 1, label: 'Mute' },
    { policy: 0, label: 'Default' },
  ];
  if (channelMuted) out.push({ policy: 2, label: 'Unmute' });
  out.push({ policy: 3, label: 'Follow' });
  return out;
}

/**
 * The choice to show as checked: the topic's own policy, except that "Unmute" outside a muted
 * channel (where it is not offered) is what "Default" means there.
 */
export function checkedPolicy(policy: number, channelMuted: boolean): VisibilityPolicy {
  if (policy === 1 || policy === 3) return policy;
  if (policy === 2 && channelMuted) return 2;
  return 0;
}

export interface TopicMenuModel {
  resolve: 'resolve' | 'unresolve' | null;
  move: boolean;
  /** null: not offered; otherwise whether it can be done now (deleting needs a connection). */
  delete: { enabled: boolean } | null;
}

export function topicMenuModel(topic: string, role: number | null, online: boolean): TopicMenuModel {
  return {
    resolve: canResolveTopics(role) ? (isResolved(topic) ? 'unresolve' : 'resolve') : null,
    move: canMoveMessages(role),
    delete: canDeleteTopics(role) ? { enabled: online } : null,
  };
}
