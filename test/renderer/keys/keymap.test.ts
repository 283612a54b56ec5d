/**
 * The keyboard: which key does what (Zulip web's main shortcuts), never single keys while typing
 * or composing, Enter only off controls; which elements count as typing or controls; and where n / p
 * go (the next / previous unread topic in the sidebar's order, muted ones skipped, wrapping).
 */
import { describe, expect, it } from 'vitest';
import { commandOf, isControlElement, isTypingElement, keyLabel, keyName, muteToggle, SHORTCUTS, unreadTopicFrom, type KeyCommand, type KeyPress } from '../../../renderer/src/keys/keymap.js';
import { channel, topic } from '../fixtures.js';

const key = (k: string, over: Partial<KeyPress> = {}): KeyPress => ({ key: k, ctrlKey: false, metaKey: false, altKey: false, shiftKey: false, ...over });
const free = { typing: false, control: false };
const typing = { typing: true, control: false };
const onButton = { typing: false, control: true };

describe('key map', () => {
  it('maps Zulip web’s main shortcuts', () => {
    const map = Object.fromEntries(['j', 'k', 'n', 'p', 'r', 'c', 'x', '/', 'Home', 'End', 'Enter', 'Escape'].map((k) => [k, commandOf(key(k), free)]));
    expect(map).toEqual({ j: 'next', k: 'prev', n: 'nextUnread', p: 'prevUnread', r: 'reply', c: 'newTopic', x: 'newDm', '/': 'search', Home: 'first', End: 'last', Enter: 'reply', Escape: 'escape' });
    expect(commandOf(key('?', { shiftKey: true }), free)).toBe('help');
    expect(commandOf(key('k', { ctrlKey: true }), free)).toBe('search');
    expect(commandOf(key('k', { metaKey: true }), free)).toBe('search');
  });

  it('never a single key while typing; Ctrl+K and Escape still work there', () => {
    for (const k of ['j', 'k', 'r', 'c', 'x', 'n', '/', 'Home', 'End', 'Enter']) expect(commandOf(key(k), typing)).toBeNull();
    expect(commandOf(key('?', { shiftKey: true }), typing)).toBeNull();
    expect(commandOf(key('k', { ctrlKey: true }), typing)).toBe('search');
    expect(commandOf(key('Escape'), typing)).toBe('escape');
  });

  it('nothing while an IME composes, with other modifiers, or for keys not bound', () => {
    expect(commandOf(key('j', { isComposing: true }), free)).toBeNull();
    expect(commandOf(key('Escape', { isComposing: true }), free)).toBeNull();
    expect(commandOf(key('j', { ctrlKey: true }), free)).toBeNull();
    expect(commandOf(key('r', { altKey: true }), free)).toBeNull();
    expect(commandOf(key('R', { shiftKey: true }), free)).toBeNull();
    expect(commandOf(key('k', { ctrlKey: true, shiftKey: true }), free)).toBeNull();
    expect(commandOf(key('q'), free)).toBeNull();
  });

  it('names keys as Zulip does: letters upper-case (Caps Lock changes nothing), Shift kept on letters, not on symbols typed with it', () => {
    expect(keyName(key('j'))).toBe('J');
    expect(keyName(key('J'))).toBe('J');
    expect(keyName(key('U', { shiftKey: true }))).toBe('Shift+U');
    expect(keyName(key('*', { shiftKey: true }))).toBe('*');
    expect(keyName(key(':', { shiftKey: true }))).toBe(':');
    expect(keyName(key('s', { ctrlKey: true }))).toBe('Ctrl+S');
    expect(keyName(key('s', { metaKey: true }))).toBe('Ctrl+S');
    expect(keyName(key('[', { ctrlKey: true }))).toBe('Ctrl+[');
    expect(keyName(key('ArrowDown', { shiftKey: true }))).toBe('Shift+ArrowDown');
    expect(commandOf(key('J'), free)).toBe('next');
  });

  it('the message actions, views and arrow keys Zulip web binds', () => {
    const cases: [KeyPress, KeyCommand][] = [
      [key('e'), 'edit'],
      [key('s', { ctrlKey: true }), 'star'],
      [key('s', { metaKey: true }), 'star'],
      [key('+', { shiftKey: true }), 'thumbsUp'],
      [key(':', { shiftKey: true }), 'reactions'],
      [key('>', { shiftKey: true }), 'quote'],
      [key('U', { shiftKey: true }), 'markUnread'],
      [key('M', { shiftKey: true }), 'muteTopic'],
      [key('I', { shiftKey: true }), 'inbox'],
      [key('t'), 'recent'],
      [key('a'), 'feed'],
      [key('*', { shiftKey: true }), 'starred'],
      [key('d'), 'drafts'],
      [key('ArrowDown'), 'next'],
      [key('ArrowUp'), 'prev'],
      [key('G', { shiftKey: true }), 'last'],
      [key('[', { ctrlKey: true }), 'escape'],
    ];
    for (const [press, cmd] of cases) expect([press.key, commandOf(press, free)]).toEqual([press.key, cmd]);
    // Unshifted, these letters are other shortcuts or none.
    expect(commandOf(key('u'), free)).toBeNull();
    expect(commandOf(key('m'), free)).toBeNull();
    expect(commandOf(key('i'), free)).toBeNull();
  });

  it('none of the new ones while typing but Ctrl+[, which backs out as Escape does', () => {
    for (const press of [key('e'), key('s', { ctrlKey: true }), key('+', { shiftKey: true }), key(':', { shiftKey: true }), key('U', { shiftKey: true }), key('M', { shiftKey: true }), key('t'), key('d'), key('ArrowDown'), key('*', { shiftKey: true })]) {
      expect(commandOf(press, typing)).toBeNull();
    }
    expect(commandOf(key('[', { ctrlKey: true }), typing)).toBe('escape');
  });

  it('Shift+M mutes or unmutes as Zulip toggles a topic', () => {
    expect(muteToggle(false, 0)).toBe(1);
    expect(muteToggle(false, 3)).toBe(1);
    expect(muteToggle(false, 1)).toBe(0);
    expect(muteToggle(true, 0)).toBe(2);
    expect(muteToggle(true, 1)).toBe(2);
    expect(muteToggle(true, 2)).toBe(0);
    expect(muteToggle(true, 3)).toBe(0);
  });

  it('Enter, Home and End on a control keep their own meaning', () => {
    expect(commandOf(key('Enter'), onButton)).toBeNull();
    expect(commandOf(key('Home'), onButton)).toBeNull();
    expect(commandOf(key('j'), onButton)).toBe('next');
  });

  it('tells typing places and controls apart', () => {
    expect(isTypingElement({ tagName: 'TEXTAREA' })).toBe(true);
    expect(isTypingElement({ tagName: 'INPUT', type: 'search' })).toBe(true);
    expect(isTypingElement({ tagName: 'INPUT', type: 'checkbox' })).toBe(false);
    expect(isTypingElement({ tagName: 'SELECT' })).toBe(true);
    expect(isTypingElement({ tagName: 'DIV', isContentEditable: true })).toBe(true);
    expect(isTypingElement({ tagName: 'LI' })).toBe(false);
    expect(isTypingElement(null)).toBe(false);
    expect(isControlElement({ tagName: 'BUTTON' })).toBe(true);
    expect(isControlElement({ tagName: 'A' })).toBe(true);
    expect(isControlElement({ tagName: 'DIV', getAttribute: (n) => (n === 'role' ? 'button' : null) })).toBe(true);
    expect(isControlElement({ tagName: 'LI', getAttribute: () => null })).toBe(false);
  });

  it('one table: every key once, every section listed, labels for the named keys', () => {
    const keys = SHORTCUTS.flatMap((s) => s.keys);
    expect(new Set(keys).size).toBe(keys.length);
    // Each key as listed, pressed (off controls, not typing), runs the command it is listed with.
    const press = (name: string): KeyPress => {
      const m = /^(Ctrl\+)?(Shift\+)?(.+)$/.exec(name)!;
      const k = m[3]!;
      return key(k.length === 1 && !m[2] ? k.toLowerCase() : k, { ctrlKey: m[1] !== undefined, shiftKey: m[2] !== undefined });
    };
    for (const s of SHORTCUTS) for (const k of s.keys) expect([k, commandOf(press(k), free)]).toEqual([k, s.command]);
    expect(new Set(SHORTCUTS.map((s) => s.section))).toEqual(new Set(['The basics', 'Navigation', 'Message actions']));
    expect([keyLabel('Escape'), keyLabel('ArrowDown'), keyLabel('Ctrl+K')]).toEqual(['Esc', '↓', 'Ctrl+K']);
  });
});

describe('next / previous unread topic', () => {
  const channels = [
    channel(1, 'design', { topics: [topic('logo', { unread_count: 2 }), topic('colours'), topic('fonts', { unread_count: 1 })] }),
    channel(2, 'general', { topics: [topic('lunch', { unread_count: 1 }), topic('muted one', { unread_count: 4, visibility_policy: 1 }), topic('welcome')] }),
    channel(3, 'quiet', { is_muted: true, topics: [topic('noise', { unread_count: 9 }), topic('unmuted here', { unread_count: 1, visibility_policy: 2 })] }),
  ];
  const at = (channelId: number, t: string | null) => ({ channelId, topic: t });

  it('n goes to the next unread topic in sidebar order, skipping muted ones, wrapping around', () => {
    expect(unreadTopicFrom(channels, at(1, 'logo'), 1)?.topic).toBe('fonts');
    expect(unreadTopicFrom(channels, at(1, 'fonts'), 1)?.topic).toBe('lunch');
    expect(unreadTopicFrom(channels, at(2, 'lunch'), 1)?.topic).toBe('unmuted here');
    expect(unreadTopicFrom(channels, at(3, 'unmuted here'), 1)?.topic).toBe('logo');
    // From a topic without unreads, a channel view, or nowhere.
    expect(unreadTopicFrom(channels, at(1, 'colours'), 1)?.topic).toBe('fonts');
    expect(unreadTopicFrom(channels, at(2, null), 1)?.topic).toBe('lunch');
    expect(unreadTopicFrom(channels, null, 1)).toMatchObject({ channelId: 1, channelName: 'design', topic: 'logo' });
  });

  it('p goes back', () => {
    expect(unreadTopicFrom(channels, at(2, 'lunch'), -1)?.topic).toBe('fonts');
    expect(unreadTopicFrom(channels, at(1, 'logo'), -1)?.topic).toBe('unmuted here');
    expect(unreadTopicFrom(channels, at(2, null), -1)?.topic).toBe('fonts');
  });

  it('nothing else unread: nowhere to go', () => {
    const one = [channel(1, 'design', { topics: [topic('logo', { unread_count: 2 }), topic('colours')] })];
    expect(unreadTopicFrom(one, at(1, 'LOGO'), 1)).toBeNull();
    expect(unreadTopicFrom([], null, 1)).toBeNull();
  });
});
