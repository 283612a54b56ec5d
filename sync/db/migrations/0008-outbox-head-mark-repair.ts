/**
 * 0008: the outbox head mark for databases that skipped 0005.
 *
 * 0005 (the head mark) and 0006 (topic keys) were written on two branches. Main shipped 0006
 * first, alone, for a while: a database made then says version 6 and has no `is_head` column, no
 * head indexes and no head triggers, so every later app skipped 0005 and then failed on its first
 * outbox query ("no such index: outbox_waiting_heads"; test/sync/db/upgrade-fixtures.test.ts,
 * fixture `v6-without-0005`). Such a database gets 0005's step now; any other already has it and
 * is left alone.
 */
import { migration as m0005 } from './0005-outbox-head-mark.js';
import type { Migration } from './types.js';

export const migration: Migration = {
  version: 8,
  name: 'outbox-head-mark-repair',
  up(db) {
    const columns = db.prepare<[], string>("SELECT name FROM pragma_table_info('outbox')").pluck().all();
    if (columns.includes('is_head')) return;
    if (typeof m0005.up === 'string') db.exec(m0005.up);
    else m0005.up(db);
  },
};
