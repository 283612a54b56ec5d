/**
 * Pure: the keyboard shortcuts, as Zulip web binds them (web/src/hotkey.ts), for the features this
 * app has. One table (`SHORTCUTS`) says which key does what, and the help dialog lists that same
 * table. A key press is named as Zulip names it (letters upper-case, "Shift+U", "Ctrl+K", with
 * Shift left out of symbols typed with it: "*", "+", ":", ">", "?"). Single keys never act while
 * the user types in a text field (or an IME is composing); Escape, Ctrl+[ and Ctrl+K do. Enter,
 * Home and End act only off controls (where they already mean "press this" or "go to the end").
 */
import type { ChannelSummary } from '../../../sync/protocol/commands.js';
import { isTopicMuted } from '../data/channels-reducer.js';
import type { VisibilityPolicy } from '../actions/topic-actions.js';

export type KeyCommand =
  | 'next'
  | 'prev'
  | 'first'
  | 'last'
  | 'nextUnread'
  | 'prevUnread'
  | 'reply'
  | 'newTopic'
  | 'newDm'
  | 'search'
  | 'escape'
  | 'help'
  | 'inbox'
  | 'recent'
  | 'feed'
  | 'starred'
  | 'drafts'
  | 'edit'
  | 'star'
  | 'thumbsUp'
  | 'reactions'
  | 'quote'
  | 'markUnread'
  | 'muteTopic';

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

export type ShortcutSection = 'The basics' | 'Navigation' | 'Message actions';

export interface Shortcut {
  command: KeyCommand;
  /** The keys, as `keyName` names them. */
  keys: readonly string[];
  what: string;
  section: ShortcutSection;
  /** Those of its keys that act while typing in a field too. */
  anywhere?: readonly string[];
  /** Not on a button, link or other control. */
  offControls?: boolean;
}

/** Every shortcut, in the order the help lists them. */
export const SHORTCUTS: readonly Shortcut[] = [
  { command: 'reply', keys: ['R', 'Enter'], what: 'Reply to the selected message', section: 'The basics', offControls: true },
  { command: 'newTopic', keys: ['C'], what: 'New topic in this channel', section: 'The basics' },
  { command: 'newDm', keys: ['X'], what: 'New direct message', section: 'The basics' },
  { command: 'escape', keys: ['Escape', 'Ctrl+['], what: 'Close the composer, the search or the selection', section: 'The basics', anywhere: ['Escape', 'Ctrl+['] },
  { command: 'search', keys: ['/', 'Ctrl+K'], what: 'Search messages', section: 'The basics', anywhere: ['Ctrl+K'] },
  { command: 'help', keys: ['?'], what: 'Show these shortcuts', section: 'The basics' },
  { command: 'next', keys: ['J', 'ArrowDown'], what: 'Select the next message', section: 'Navigation' },
  { command: 'prev', keys: ['K', 'ArrowUp'], what: 'Select the previous message', section: 'Navigation' },
  { command: 'first', keys: ['Home'], what: 'Select the first message loaded', section: 'Navigation', offControls: true },
  { command: 'last', keys: ['End', 'Shift+G'], what: 'Select the last message', section: 'Navigation', offControls: true },
  { command: 'nextUnread', keys: ['N'], what: 'Go to the next unread topic', section: 'Navigation' },
  { command: 'prevUnread', keys: ['P'], what: 'Go to the previous unread topic', section: 'Navigation' },
  { command: 'inbox', keys: ['Shift+I'], what: 'Go to the inbox', section: 'Navigation' },
  { command: 'recent', keys: ['T'], what: 'Go to recent conversations', section: 'Navigation' },
  { command: 'feed', keys: ['A'], what: 'Go to the combined feed', section: 'Navigation' },
  { command: 'starred', keys: ['*'], what: 'Go to starred messages', section: 'Navigation' },
  { command: 'drafts', keys: ['D'], what: 'Open your drafts', section: 'Navigation' },
  { command: 'edit', keys: ['E'], what: 'Edit the selected message (or its topic)', section: 'Message actions' },
  { command: 'star', keys: ['Ctrl+S'], what: 'Star or unstar the selected message', section: 'Message actions' },
  { command: 'thumbsUp', keys: ['+'], what: 'React with 👍 (again: take it back)', section: 'Message actions' },
  { command: 'reactions', keys: [':'], what: 'Add an emoji reaction', section: 'Message actions' },
  { command: 'quote', keys: ['>'], what: 'Quote and reply', section: 'Message actions' },
  { command: 'markUnread', keys: ['Shift+U'], what: 'Mark as unread from the selected message', section: 'Message actions' },
  { command: 'muteTopic', keys: ['Shift+M'], what: 'Mute or unmute the topic of the selected message', section: 'Message actions' },
];

/** Symbols typed with Shift on many layouts: Shift is not part of their name (as in Zulip). */
const SHIFT_TYPED = new Set(['*', '+', '=', '-', '/', ':', '<', '>', '?', '@']);

/** A key press named as the table names keys ("J", "Shift+U", "Ctrl+K", "*"); Cmd counts as Ctrl. */
export function keyName(e: KeyPress): string {
  let key = /^[a-z]$/i.test(e.key) ? e.key.toUpperCase() : e.key;
  if (e.shiftKey && !SHIFT_TYPED.has(key)) key = `Shift+${key}`;
  if (e.altKey) key = `Alt+${key}`;
  if (e.ctrlKey || e.metaKey) key = `Ctrl+${key}`;
  return key;
}

const BY_KEY: ReadonlyMap<string, Shortcut> = new Map(SHORTCUTS.flatMap((s) => s.keys.map((k) => [k, s] as const)));

export function commandOf(e: KeyPress, place: KeyPlace): KeyCommand | null {
  if (e.isComposing === true) return null;
  const name = keyName(e);
  const s = BY_KEY.get(name);
  if (s === undefined) return null;
  if (place.typing && s.anywhere?.includes(name) !== true) return null;
  if (place.control && s.offControls === true) return null;
  return s.command;
}

/** How the help shows a key name ("Esc", "↓", "Ctrl+K"). */
export function keyLabel(name: string): string {
  return ({ Escape: 'Esc', ArrowDown: '↓', ArrowUp: '↑' } as Record<string, string>)[name] ?? name;
}

/**
 * What Shift+M sets a topic's visibility to (Zulip's toggle_topic_visibility_policy): in a muted
 * channel an unmuted or followed topic goes back to the default, any other is unmuted; elsewhere a
 * muted topic goes back to the default, any other is muted.
 */
export function muteToggle(channelMuted: boolean, policy: number): VisibilityPolicy {
  if (channelMuted) return policy === 2 || policy === 3 ? 0 : 2;
  return policy === 1 ? 0 : 1;
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
