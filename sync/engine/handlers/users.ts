/**
 * `realm_user` and `user_group`. A user's name, email or avatar change also rewrites the cached
 * messages that show them (`sender_*`, DM `display_recipient`), because `GET /messages` reports
 * the sender's current details, not those at sending time.
 */
import type { EventOf, User, UserGroup } from '../../api/index.js';
import type { LocalDb } from '../../db/open.js';
import { deleteUserGroup, editUserGroup, putUserGroup } from '../../db/queries/groups.js';
import { rowToMessage, writeMessageRow } from '../../db/queries/messages.js';
import { messageRow } from '../../db/queries/message-columns.js';
import { messagesInvolvingUser } from '../../db/queries/message-rows.js';
import { deleteUser, getUser, putUser } from '../../db/queries/users.js';
import type { ChangeCollector } from '../../db/changes.js';
import type { HandlerContext } from './types.js';

const ROLE_FLAGS: Record<number, Pick<User, 'is_owner' | 'is_admin' | 'is_guest'>> = {
  100: { is_owner: true, is_admin: true, is_guest: false },
  200: { is_owner: false, is_admin: true, is_guest: false },
  300: { is_owner: false, is_admin: false, is_guest: false },
  400: { is_owner: false, is_admin: false, is_guest: false },
  600: { is_owner: false, is_admin: false, is_guest: true },
};

export function onRealmUser(db: LocalDb, e: EventOf<'realm_user'>, _ctx: HandlerContext, changes: ChangeCollector): void {
  changes.touched('users');
  switch (e.op) {
    case 'add':
      putUser(db, e.person, e.person.is_active ?? true);
      return;
    case 'remove':
      deleteUser(db, e.person.user_id);
      return;
    case 'update': {
      const stored = getUser(db, e.person.user_id);
      if (!stored) return;
      const { user_id: _id, new_email, is_active, custom_profile_field, ...fields } = e.person;
      const next: User = { ...stored.user };
      for (const [k, v] of Object.entries(fields)) if (v !== undefined) Object.assign(next, { [k]: v });
      if (new_email !== undefined) next.email = new_email;
      if (typeof next.role === 'number' && ROLE_FLAGS[next.role]) Object.assign(next, ROLE_FLAGS[next.role]);
      if (custom_profile_field) {
        const data = { ...(next.profile_data ?? {}) };
        const key = String(custom_profile_field.id);
        if (custom_profile_field.value === null) delete data[key];
        else data[key] = { value: custom_profile_field.value, ...(custom_profile_field.rendered_value !== undefined ? { rendered_value: custom_profile_field.rendered_value } : {}) };
        next.profile_data = data;
      }
      putUser(db, next, is_active ?? stored.isActive);
      if (new_email !== undefined || fields.full_name !== undefined || fields.avatar_url !== undefined) {
        refreshMessagesOf(db, next, fields.avatar_url !== undefined, changes);
      }
      return;
    }
  }
}

/** Rewrite the sender fields and DM recipient entries naming this user. */
function refreshMessagesOf(db: LocalDb, u: User, avatarChanged: boolean, changes: ChangeCollector): void {
  const rows = messagesInvolvingUser(db, u.user_id);
  for (const r of rows) {
    const m = rowToMessage(r.json, r.flags);
    if (m.sender_id === u.user_id) {
      m.sender_full_name = u.full_name;
      m.sender_email = u.email;
      if (avatarChanged) m.avatar_url = u.avatar_url;
    }
    if (typeof m.display_recipient !== 'string') {
      m.display_recipient = m.display_recipient.map((p) => (p.id === u.user_id ? { ...p, full_name: u.full_name, email: u.email } : p));
    }
    writeMessageRow(db, messageRow(m, r.flags), m.content);
    changes.messageUpdated(r.id);
  }
}

export function onUserGroup(db: LocalDb, e: EventOf<'user_group'>, _ctx: HandlerContext, changes: ChangeCollector): void {
  changes.touched('user_groups');
  const edit = (f: (g: UserGroup) => UserGroup) => editUserGroup(db, 'group_id' in e ? e.group_id : -1, f);
  /** Add ids to, or remove them from, one of the group's id lists (kept sorted and unique). */
  const editIds = (list: 'members' | 'direct_subgroup_ids', ids: readonly number[], add: boolean) =>
    edit((g) => ({ ...g, [list]: add ? [...new Set([...g[list], ...ids])].sort((a, b) => a - b) : g[list].filter((id) => !ids.includes(id)) }));
  switch (e.op) {
    case 'add':
      putUserGroup(db, e.group);
      return;
    case 'update':
      edit((g) => {
        const next = { ...g };
        for (const [k, v] of Object.entries(e.data)) if (v !== undefined) Object.assign(next, { [k]: v });
        return next;
      });
      return;
    case 'add_members':
    case 'remove_members':
      editIds('members', e.user_ids, e.op === 'add_members');
      return;
    case 'add_subgroups':
    case 'remove_subgroups':
      editIds('direct_subgroup_ids', e.direct_subgroup_ids, e.op === 'add_subgroups');
      return;
    case 'remove':
      deleteUserGroup(db, e.group_id);
      return;
  }
}
