/** Every migration, in order. Add `NNNN-name.ts` files here; never edit or reorder landed ones. */
import { migration as m0001 } from './0001-initial.js';
import { migration as m0002 } from './0002-outbox.js';
import { migration as m0003 } from './0003-outbox-heads.js';
import { migration as m0004 } from './0004-drafts-raw.js';
import { migration as m0005 } from './0005-outbox-head-mark.js';
import { migration as m0006 } from './0006-topic-keys-unreads.js';
import { migration as m0007 } from './0007-outbox-kind-names.js';
import { migration as m0008 } from './0008-outbox-head-mark-repair.js';
import { migration as m0009 } from './0009-unread-summary.js';
import { migration as m0010 } from './0010-summary-pause.js';
import type { Migration } from './types.js';

export const MIGRATIONS: readonly Migration[] = [m0001, m0002, m0003, m0004, m0005, m0006, m0007, m0008, m0009, m0010];
