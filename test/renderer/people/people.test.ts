/** The user card's words and the buddy list's order and filter (renderer/src/people/people.ts). */
import { describe, expect, it } from 'vitest';
import type { UserSummary } from '../../../sync/protocol/commands.js';
import { buddyList, localTime, roleName, visibleEmail, type Presence } from '../../../renderer/src/people/people.js';

const u = (user_id: number, full_name: string, extra: Partial<UserSummary> = {}): UserSummary => ({
  user_id,
  full_name,
  email: `${full_name.split(' ')[0]!.toLowerCase()}@example.com`,
  is_active: true,
  is_bot: false,
  avatar_url: null,
  ...extra,
});

describe('people', () => {
  it('names roles as Zulip does, bots as Bot', () => {
    expect([100, 200, 300, 400, 600].map((role) => roleName({ role, is_bot: false }))).toEqual(['Owner', 'Administrator', 'Moderator', 'Member', 'Guest']);
    expect(roleName({ role: 400, is_bot: true })).toBe('Bot');
  });

  it('shows the delivery email when shared, never a dummy one', () => {
    expect(visibleEmail({ email: 'user8@chat.example.com', delivery_email: null })).toBeNull();
    expect(visibleEmail({ email: 'user8@chat.example.com', delivery_email: 'iago@example.com' })).toBe('iago@example.com');
    expect(visibleEmail({ email: 'iago@example.com', delivery_email: null })).toBe('iago@example.com');
  });

  it('gives the local time in the person\'s timezone, none for an unknown one', () => {
    const at = new Date(Date.UTC(2026, 0, 15, 15, 5));
    expect(localTime('Asia/Kolkata', at, false)).toBe('8:35 PM local time');
    expect(localTime('America/New_York', at, true)).toBe('10:05 local time');
    expect(localTime('', at, false)).toBeNull();
    expect(localTime('Nowhere/Atlantis', at, false)).toBeNull();
  });

  it('orders the buddy list active, idle, offline, by name; leaves out muted people, bots and deactivated users; filters by name', () => {
    const users = [u(1, 'Othello'), u(2, 'Iago'), u(3, 'Cordelia'), u(4, 'Hamlet'), u(5, 'Bot', { is_bot: true }), u(6, 'Gone', { is_active: false }), u(7, 'King Lear'), u(8, 'Desdemona')];
    const presence: Record<number, Presence> = { 1: 'active', 2: 'idle', 4: 'active', 8: 'idle' };
    const list = buddyList(users, (id) => presence[id], (id) => id === 3, '');
    expect(list.map((r) => [r.user.full_name, r.presence])).toEqual([
      ['Hamlet', 'active'],
      ['Othello', 'active'],
      ['Desdemona', 'idle'],
      ['Iago', 'idle'],
      ['King Lear', 'offline'],
    ]);
    expect(buddyList(users, (id) => presence[id], () => false, 'lea').map((r) => r.user.full_name)).toEqual(['King Lear']);
    expect(buddyList(users, (id) => presence[id], () => false, 'o').map((r) => r.user.full_name)).toEqual(['Othello']);
  });
});
