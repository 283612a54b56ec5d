/**
 * User groups. System groups (role:*) have rows too, but their membership is derived from user
 * roles (see model/groups.ts); only user-defined groups use the member tables.
 */
export const ddl = `
CREATE TABLE user_groups (
  id               INTEGER PRIMARY KEY,
  name             TEXT NOT NULL UNIQUE,
  description      TEXT NOT NULL DEFAULT '',
  is_system_group  INTEGER NOT NULL DEFAULT 0,
  deactivated      INTEGER NOT NULL DEFAULT 0,
  creator_id       INTEGER,
  date_created     INTEGER,
  settings         TEXT NOT NULL DEFAULT '{}'  -- JSON: can_*_group -> group-setting value
);
CREATE TABLE group_members (
  group_id INTEGER NOT NULL REFERENCES user_groups(id),
  user_id  INTEGER NOT NULL REFERENCES users(id),
  PRIMARY KEY (group_id, user_id)
) WITHOUT ROWID;
CREATE TABLE group_subgroups (
  group_id    INTEGER NOT NULL REFERENCES user_groups(id),
  subgroup_id INTEGER NOT NULL REFERENCES user_groups(id),
  PRIMARY KEY (group_id, subgroup_id)
) WITHOUT ROWID;
`;
