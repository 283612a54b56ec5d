/**
 * The realm every server starts with: realm settings and the system groups. `seedDemoPeople`
 * adds the demo accounts, channels, subscriptions and user groups (deterministic: same ids and
 * names every time; API keys are random, fetch them with `POST /fetch_api_key`).
 */
import { seconds } from '../clock.js';
import { REALM_GROUP_DEFAULTS, setRealmSettings } from '../model/realm.js';
import { SYSTEM_GROUP_NAMES, systemGroupId } from '../model/groups.js';
import { setUploadedAvatar } from '../model/media.js';
import { hashPassword, insertUser, ROLE, type Role } from '../model/users.js';
import type { ServerState } from '../state.js';

export function seedRealm(srv: ServerState): void {
  const insert = srv.db.prepare('INSERT INTO user_groups (name, description, is_system_group, date_created) VALUES (?, ?, 1, ?)');
  for (const name of SYSTEM_GROUP_NAMES) insert.run(name, `System group ${name}`, seconds(srv.clock));
  const groups: Record<string, number> = {};
  for (const [setting, group] of Object.entries(REALM_GROUP_DEFAULTS)) groups[setting] = systemGroupId(srv, group);
  setRealmSettings(srv, { name: srv.config.realmName, ...groups });
}

export const DEMO_PASSWORD = 'sandbox';

export const DEMO_USERS: ReadonlyArray<{ email: string; full_name: string; role: Role; can_create_users?: boolean; timezone: string }> = [
  { email: 'desdemona@example.com', full_name: 'Desdemona', role: ROLE.owner, can_create_users: true, timezone: 'Europe/Rome' },
  { email: 'iago@example.com', full_name: 'Iago', role: ROLE.administrator, timezone: 'Europe/Rome' },
  { email: 'shiva@example.com', full_name: 'Shiva', role: ROLE.moderator, timezone: 'Asia/Kolkata' },
  { email: 'hamlet@example.com', full_name: 'King Hamlet', role: ROLE.member, timezone: 'Europe/Copenhagen' },
  { email: 'othello@example.com', full_name: 'Othello, the Moor of Venice', role: ROLE.member, timezone: 'Europe/Rome' },
  { email: 'cordelia@example.com', full_name: 'Cordelia, Lear\'s daughter', role: ROLE.member, timezone: 'Europe/London' },
  { email: 'polonius@example.com', full_name: 'Polonius', role: ROLE.guest, timezone: 'Europe/Copenhagen' },
];

/** Channels: [name, description, invite_only, subscriber emails]. */
export const DEMO_CHANNELS: ReadonlyArray<{ name: string; description: string; invite_only: boolean; members: readonly string[]; is_default?: boolean }> = [
  { name: 'general', description: 'Everyone, everything.', invite_only: false, is_default: true, members: ['desdemona', 'iago', 'shiva', 'hamlet', 'othello', 'cordelia', 'polonius'] },
  { name: 'Verona', description: 'Fair Verona, where we lay our scene.', invite_only: false, is_default: true, members: ['desdemona', 'iago', 'shiva', 'hamlet', 'othello', 'cordelia'] },
  { name: 'Denmark', description: 'Something is rotten.', invite_only: false, members: ['desdemona', 'iago', 'hamlet', 'polonius', 'cordelia'] },
  { name: 'Scotland', description: 'Heath and castles.', invite_only: false, members: ['iago', 'shiva', 'othello'] },
  { name: 'core team', description: 'Private planning.', invite_only: true, members: ['desdemona', 'iago', 'hamlet'] },
];

let cachedHash: string | undefined;

export function seedDemoPeople(srv: ServerState): void {
  // One scrypt hash serves every demo account (same public password); seeding stays fast.
  cachedHash ??= hashPassword(DEMO_PASSWORD);
  const ids: Record<string, number> = {};
  for (const u of DEMO_USERS) {
    const row = insertUser(srv, { ...u });
    srv.db.prepare('UPDATE users SET password_hash = ? WHERE id = ?').run(cachedHash, row.id);
    ids[u.email.split('@')[0]!] = row.id;
  }
  // A few people have an uploaded avatar; the others show Zulip's default (the app: initials).
  for (const who of ['iago', 'shiva', 'cordelia']) setUploadedAvatar(srv, ids[who]!);
  const now = seconds(srv.clock);
  const creator = ids.desdemona!;
  for (const c of DEMO_CHANNELS) {
    const rec = srv.db.prepare("INSERT INTO recipients (type) VALUES ('channel')").run();
    const recipientId = Number(rec.lastInsertRowid);
    const ch = srv.db
      .prepare(
        `INSERT INTO channels (name, description, rendered_description, invite_only, history_public_to_subscribers, is_default, date_created, creator_id, recipient_id)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(c.name, c.description, `<p>${c.description}</p>`, c.invite_only ? 1 : 0, c.invite_only ? 0 : 1, c.is_default ? 1 : 0, now, creator, recipientId);
    const channelId = Number(ch.lastInsertRowid);
    srv.db.prepare('UPDATE recipients SET channel_id = ? WHERE id = ?').run(channelId, recipientId);
    const sub = srv.db.prepare('INSERT INTO subscriptions (user_id, channel_id, color) VALUES (?, ?, ?)');
    const colors = ['#76ce90', '#fae589', '#a6c7e5', '#e79ab5', '#bfd56f'];
    for (const m of c.members) sub.run(ids[m], channelId, colors[channelId % colors.length]);
  }
  const group = srv.db.prepare('INSERT INTO user_groups (name, description, creator_id, date_created, settings) VALUES (?, ?, ?, ?, ?)');
  const admins = systemGroupId(srv, 'role:administrators');
  const everyone = systemGroupId(srv, 'role:everyone');
  const members = systemGroupId(srv, 'role:members');
  const settings = JSON.stringify({
    can_add_members_group: admins,
    can_join_group: members,
    can_leave_group: everyone,
    can_manage_group: admins,
    can_mention_group: { direct_members: [], direct_subgroups: [everyone] },
    can_remove_members_group: admins,
  });
  const addMember = srv.db.prepare('INSERT INTO group_members (group_id, user_id) VALUES (?, ?)');
  const players = Number(group.run('players', 'The cast', creator, now, settings).lastInsertRowid);
  for (const m of ['hamlet', 'othello', 'cordelia', 'polonius']) addMember.run(players, ids[m]);
  const leads = Number(group.run('leads', 'Leading roles', creator, now, settings).lastInsertRowid);
  for (const m of ['hamlet', 'othello']) addMember.run(leads, ids[m]);
  const retired = Number(group.run('retired', 'A deactivated group', creator, now, settings).lastInsertRowid);
  srv.db.prepare('UPDATE user_groups SET deactivated = 1 WHERE id = ?').run(retired);
  addMember.run(retired, ids.polonius);
  srv.db.prepare('INSERT INTO group_subgroups (group_id, subgroup_id) VALUES (?, ?)').run(players, leads);
}
