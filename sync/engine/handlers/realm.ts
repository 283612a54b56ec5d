/**
 * `realm` settings changes. Events name properties without the `realm_` prefix register uses, so
 * they are stored under the register name (`allow_message_editing` -> `realm_allow_message_editing`).
 */
import type { EventOf } from '../../api/index.js';
import type { LocalDb } from '../../db/open.js';
import { setRealmValue } from '../../db/queries/realm.js';
import type { ChangeCollector } from '../../db/changes.js';
import type { HandlerContext } from './types.js';

export function onRealm(db: LocalDb, e: EventOf<'realm'>, ctx: HandlerContext, changes: ChangeCollector): void {
  switch (e.op) {
    case 'update':
      setRealmValue(db, `realm_${e.property}`, e.value);
      break;
    case 'update_dict':
      for (const [k, v] of Object.entries(e.data)) if (v !== undefined) setRealmValue(db, `realm_${k}`, v);
      break;
    case 'deactivated':
      // Nothing to store: the next request fails with REALM_DEACTIVATED and the session stops.
      ctx.logger.warn('realm deactivated');
      break;
  }
  changes.touched('realm');
}

/** `realm_emoji` op `update` carries the whole set of custom emoji: stored as register's `realm_emoji`. */
export function onRealmEmoji(db: LocalDb, e: EventOf<'realm_emoji'>, changes: ChangeCollector): void {
  if (e.realm_emoji !== undefined) setRealmValue(db, 'realm_emoji', e.realm_emoji);
  changes.touched('realm');
}
