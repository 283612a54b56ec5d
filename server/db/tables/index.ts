/** Every table of the reference server, in creation order. */
import { ddl as channels } from './channels.js';
import { ddl as groups } from './groups.js';
import { ddl as messages } from './messages.js';
import { ddl as personal } from './personal.js';
import { ddl as realm } from './realm.js';
import { ddl as realmEmoji } from './realm-emoji.js';
import { ddl as scheduling } from './scheduling.js';
import { ddl as uploads } from './uploads.js';
import { ddl as users } from './users.js';

/** Bump with a step in `../migrations.ts` whenever a table here changes. */
export const SCHEMA_VERSION = 6;
export const allTables = [realm, users, groups, channels, messages, uploads, personal, scheduling, realmEmoji];
