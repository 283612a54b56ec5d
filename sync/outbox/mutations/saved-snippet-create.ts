/**
 * `create_saved_snippet`: a snippet created (possibly offline) under a temporary id. A create has
 * no server id to check, so after a lost answer `verify` looks for a snippet with our title and
 * content created no earlier than the intent, and adopts it: the request is never sent twice.
 */
import * as z from 'zod';
import { createSavedSnippet, getSavedSnippets } from '../../api/index.js';
import type { LocalDb } from '../../db/open.js';
import { putSavedSnippet } from '../../db/queries/personal.js';
import type { ChangeCollector } from '../../db/changes.js';
import type { OutboxKind } from '../kinds.js';
import { answer, queuedCommand, seconds } from '../commands.js';
import { enqueuedSchema } from '../../protocol/outbox.js';
import { getSavedSnippets as getLocalSnippets } from '../../db/queries/personal.js';
import { storedSnippetText } from '../normalize.js';
import { SAVED_SNIPPET } from './shared.js';
import { adoptCreatedSnippet, localSnippetId } from './snippet-local.js';

export const snippetCreateArgs = z.lazy(() => z.object({
  /** `tmp-N` from `OutboxStore.newTempId()`. */
  tmp_id: z.string().regex(/^tmp-\d+$/),
  title: z.string().min(1),
  content: z.string().min(1),
}));
export type SnippetCreateArgs = z.output<typeof snippetCreateArgs>;

/**
 * When the user created it (UNIX seconds, local clock) and the highest snippet id the device knew
 * then (`after_id`): a snippet with an id up to that was there before, so it is not ours. Ids grow
 * on the server, so this needs no agreement between the two clocks; the time (with slack for a
 * device clock ahead of the server's) only guards against a cache that missed a recent snippet.
 * Rows queued before `after_id` existed compare times alone.
 */
export const snippetCreateBase = z.lazy(() => z.object({ enqueued_at: z.number().int(), after_id: z.number().int().nonnegative().optional() }));
/** How far ahead of the server's clock the device's may be, when `after_id` says what was there. */
export const SNIPPET_CLOCK_SLACK_S = 3600;
export type SnippetCreateBase = z.output<typeof snippetCreateBase>;

export const savedSnippetCreate: OutboxKind<SnippetCreateArgs, SnippetCreateBase, 'create_saved_snippet'> = {
  kind: 'create_saved_snippet',
  version: 1,
  argsSchema: snippetCreateArgs,
  baseSchema: snippetCreateBase,
  describe: (a) => ({ text: `Save the snippet “${a.title}”`, link: null }),
  // The entity of the snippet it creates, which later rows name by this `tmp-N` id.
  entityKey: (a) => SAVED_SNIPPET.key({ saved_snippet_id: a.tmp_id }),
  createsTempIdIn: 'tmp_id',
  async send(conn, a) {
    const res = await createSavedSnippet(conn, { title: a.title, content: a.content });
    return { createdId: res.saved_snippet_id };
  },
  async verify(conn, a, b) {
    const { saved_snippets } = await getSavedSnippets(conn);
    // The oldest match: if the user made two identical snippets, the other row adopts the newer.
    const found = saved_snippets
      .filter((s) => s.title === storedSnippetText(a.title) && s.content === storedSnippetText(a.content))
      .filter((s) => (b.after_id === undefined ? s.date_created >= b.enqueued_at : s.id > b.after_id && s.date_created >= b.enqueued_at - SNIPPET_CLOCK_SLACK_S))
      .sort((x, y) => x.id - y.id)[0];
    return found ? { status: 'applied', createdId: found.id } : 'not_applied';
  },
  local: { apply: (db, a, b, c) => applyOptimistic(db, a, c, b), areas: ['saved_snippets'], refetch: ['saved_snippets'] },
  landed(db, a, createdId, changes) {
    if (typeof createdId !== 'number') return;
    adoptCreatedSnippet(db, a.tmp_id, createdId);
    changes.touched('saved_snippets');
  },
};

export function applyOptimistic(db: LocalDb, args: SnippetCreateArgs, changes: ChangeCollector, base?: SnippetCreateBase): void {
  const id = localSnippetId(args.tmp_id);
  if (id === undefined) return;
  putSavedSnippet(db, { id, title: args.title, content: args.content, date_created: base?.enqueued_at ?? 0 });
  changes.touched('saved_snippets');
}

/** The contract's command. `snippet_id`: a negative local id until the server's id is known. */
export const savedSnippetCreateCommands = {
  createSavedSnippet: queuedCommand({
    request: z.lazy(() => z.object({ title: z.string().min(1), content: z.string().min(1) })),
    response: enqueuedSchema.extend({ snippet_id: z.number().int() }),
    intent(r, ctx) {
      const tmp = ctx.outbox.newTempId();
      // Snippets made offline have negative local ids: the highest positive one is the server's.
      const afterId = Math.max(0, ...getLocalSnippets(ctx.db).map((s) => s.id));
      const res = ctx.outbox.enqueue(savedSnippetCreate, { tmp_id: tmp, title: r.title, content: r.content }, { enqueued_at: seconds(ctx.outbox.now()), after_id: afterId });
      return { ...answer(res), snippet_id: localSnippetId(tmp) ?? 0 };
    },
  }),
};
