/**
 * Pure: the keyboard shortcuts, as in Zulip web. One key press (with where the focus is) maps to at
 * most one command. Single keys never act while the user types in a text field (or an IME is
 * composing); Ctrl+K (Cmd+K) and Escape do. Enter replies only when the focus is not on a control
 * (where Enter already means "press this").
 */
import type { ChannelSummary } from '../../../sync/protocol/commands.js';
import { isTopicMuted } from '../data/channels-reducer.js';

export type KeyCommand = 'next' | 'prev' | 'first' | 'last' | 'nextUnread' | 'prevUnread' | 'reply' | 'newTopic' | 'newDm' | 'search' | 'escape' | 'help';

export interface KeyPress {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  shiftKey: boolean;
  isComposing?: boolean;
}

/** Where the focus is when the key is pressed. */
export interface KeyPlace {
  /** A text input, textarea, select or editable element. */
  typing: boolean;
  /** A button, link or other control of its own. */
  control: boolean;
}

const SINGLE: Readonly<Record<string, KeyCommand>> = {
  j: 'next',
  k: 'prev',
  Home: 'first',
  End: 'last',
  n: 'nextUnread',
  p: 'prevUnread',
  r: 'reply',
  c: 'newTopic',
  x: 'newDm',
  '/': 'search',
  '?': 'help',
};

export function commandOf(e: KeyPress, place: KeyPlace): KeyCommand | null {
  if (e.isComposing === true) return null;
  if (e.key === 'Escape') return 'escape';
  if ((e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && e.key.toLowerCase() === 'k') return 'search';
  if (place.typing || e.ctrlKey || e.metaKey || e.altKey) return null;
  if (e.key === 'Enter') return place.control || e.shiftKey ? null : 'reply';
  // Shifted letters are other shortcuts in Zulip (not offered here); "?" is typed with Shift.
  if (e.shiftKey && e.key !== '?') return null;
  // Home / End on a control (a focused select, say) keep their own meaning.
  if ((e.key === 'Home' || e.key === 'End') && place.control) return null;
  return SINGLE[e.key] ?? null;
}

/** Whether an element takes typed text (shortcut letters must reach it). */
export function isTypingElement(el: { tagName: string; isContentEditable?: boolean; type?: string } | null): boolean {
  if (el === null) return false;
  const tag = el.tagName.toLowerCase();
  if (el.isContentEditable === true || tag === 'textarea' || tag === 'select') return true;
  if (tag !== 'input') return false;
  return !['button', 'checkbox', 'radio', 'submit', 'reset', 'range', 'color', 'file', 'image'].includes((el.type ?? 'text').toLowerCase());
}

export function isControlElement(el: { tagName: string; getAttribute?(name: string): string | null } | null): boolean {
  if (el === null) return false;
  const tag = el.tagName.toLowerCase();
  if (['a', 'button', 'input', 'select', 'textarea', 'summary', 'option'].includes(tag)) return true;
  const role = el.getAttribute?.('role');
  return role === 'button' || role === 'link' || role === 'menuitem' || role === 'option' || role === 'tab' || role === 'checkbox';
}

/** The shortcuts as the help dialog lists them. */
export const SHORTCUTS: readonly { keys: string[]; what: string }[] = [
  { keys: ['j'], what: 'Select the next message' },
  { keys: ['k'], what: 'Select the previous message' },
  { keys: ['Home'], what: 'Select the first message loaded' },
  { keys: ['End'], what: 'Select the last message' },
  { keys: ['n'], what: 'Go to the next unread topic' },
  { keys: ['p'], what: 'Go to the previous unread topic' },
  { keys: ['r', 'Enter'], what: 'Reply to the selected message' },
  { keys: ['c'], what: 'New topic in this channel' },
  { keys: ['x'], what: 'New direct message' },
  { keys: ['/', 'Ctrl+K'], what: 'Search messages' },
  { keys: ['Esc'], what: 'Close the composer, the search or this list' },
  { keys: ['?'], what: 'Show these shortcuts' },
];

export interface TopicRef {
  channelId: number;
  channelName: string;
  topic: string;
}

/**
 * The unread topic n (step 1) or p (step -1) goes to, in the sidebar's order (channels as listed,
 * topics newest first), skipping muted channels and topics and the current topic itself, wrapping
 * around; from a channel view the search starts at that channel. Null when nothing else is unread.
 */
export function unreadTopicFrom(
  channels: readonly ChannelSummary[],
  current: { channelId: number; topic: string | null } | null,
  step: 1 | -1,
): TopicRef | null {
  const all: (TopicRef & { unread: boolean })[] = [];
  for (const c of channels) {
    for (const t of c.topics) {
      all.push({ channelId: c.channel_id, channelName: c.name, topic: t.topic, unread: t.unread_count > 0 && !isTopicMuted(c, t) });
    }
  }
  if (all.length === 0) return null;
  const same = (r: TopicRef) => current !== null && r.channelId === current.channelId && current.topic !== null && r.topic.toLowerCase() === current.topic.toLowerCase();
  let at = all.findIndex(same);
  if (at < 0 && current !== null) {
    // A channel view (or a topic not listed): start just before the channel's first topic.
    const first = all.findIndex((r) => r.channelId === current.channelId);
    at = first < 0 ? -1 : step === 1 ? first - 1 : first;
  }
  const n = all.length;
  for (let i = 1; i <= n; i++) {
    const r = all[(((at + step * i) % n) + n) % n];
    if (r && r.unread && !same(r)) return { channelId: r.channelId, channelName: r.channelName, topic: r.topic };
  }
  return null;
}
