/**
 * The user's way out of a content-edit conflict (docs/sync-design.md "Conflicts and the three-way
 * merge": keep mine, take theirs with ours kept as a draft, or an edited merge). Pure: it turns
 * the conflict row's details into what to do;
 * `applyResolution` then changes the row, in one transaction. No path loses what the user typed:
 * every choice either resends a text or hands ours back to be saved as a draft.
 */
import * as z from 'zod';
import type { OutboxStore, OutboxRow } from '../store.js';
import type { ContentEditArgs, ContentEditBase } from './message-content-edit.js';

/** What `update_message_content` keeps in `last_error` when the changes overlap. */
export const contentConflictDetails = z.lazy(() => z.object({
  message_id: z.number().int().positive(),
  base: z.string(),
  ours: z.string(),
  theirs: z.string(),
  theirs_sha256: z.string(),
}));
export type ContentConflictDetails = z.infer<typeof contentConflictDetails>;

export type ConflictChoice = { readonly choice: 'keep_mine' } | { readonly choice: 'take_theirs' } | { readonly choice: 'edited'; readonly text: string };

export type ConflictResolution =
  /** Send `args` as an edit of the text the server has now (`base` is theirs). */
  | { readonly action: 'resend'; readonly args: ContentEditArgs; readonly base: ContentEditBase }
  /** Drop the edit; `draft` is the user's text, to be saved as a draft. */
  | { readonly action: 'discard'; readonly draft: string };

/** The details of a conflict row (undefined when its last error is not a content conflict). */
export function parseConflictDetails(lastError: unknown): ContentConflictDetails | undefined {
  const r = contentConflictDetails.safeParse(lastError);
  return r.success ? r.data : undefined;
}

export function resolveConflict(choice: ConflictChoice, d: ContentConflictDetails): ConflictResolution {
  // The new base is theirs: the user has now seen it, and its hash is what the server checks.
  const base: ContentEditBase = { raw_content: d.theirs, sha256: d.theirs_sha256 };
  switch (choice.choice) {
    case 'keep_mine':
      return { action: 'resend', args: { message_id: d.message_id, content: d.ours }, base };
    case 'take_theirs':
      return { action: 'discard', draft: d.ours };
    case 'edited':
      return { action: 'resend', args: { message_id: d.message_id, content: choice.text }, base };
  }
}

/**
 * Carry out a resolution on the conflict row: resend goes back to `queued` with the new args and
 * base (retry, then edit: the state machine only edits queued or failed rows); discard drops it.
 * Saving the draft is the caller's (drafts are not the outbox's).
 */
export function applyResolution(store: OutboxStore, rowId: number, r: ConflictResolution): OutboxRow {
  return store.db.transaction((): OutboxRow => {
    if (r.action === 'discard') return store.discard(rowId);
    store.retry(rowId);
    return store.edit(rowId, r.args, r.base);
  })();
}
