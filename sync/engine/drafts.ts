/**
 * Drafts: the composer's text per conversation, owned by the engine in a durable table so what
 * the user typed survives switching away, a reload, a restart or a crash. One draft per
 * conversation (a channel's topic, a channel's not-yet-named new topic, a DM group); saving an
 * empty text deletes it. A send deletes the draft of its conversation in the transaction that
 * queues the send; a "take theirs" in an edit conflict keeps the user's text as a draft. A new DM
 * whose people are not picked yet has a draft too (no people, key `dm:`).
 */
import * as z from 'zod';
import type { LocalDb } from '../db/open.js';
import { deleteDraftRow, draftRow, draftRows, putDraftRow, type DraftRow } from '../db/queries/drafts.js';
import { topicKey } from '../../common/topic-key.js';
import { getStoredMessage } from '../db/queries/messages.js';
import { getAccount } from '../db/queries/state.js';
import { ChangeCollector } from '../db/changes.js';

export const draftTarget = z.discriminatedUnion('type', [
  z.object({ type: z.literal('channel'), channel_id: z.number().int().positive(), topic: z.string() }),
  // Empty: a new DM whose people are not picked yet (one such draft, key `dm:`), as Zulip web keeps it.
  z.object({ type: z.literal('direct'), user_ids: z.array(z.number().int().positive()) }),
]);
export type DraftTarget = z.output<typeof draftTarget>;

export interface Draft {
  readonly key: string;
  readonly to: DraftTarget;
  readonly content: string;
  /** UNIX ms. */
  readonly updated_at: number;
}

/** Drafts kept per account at most (the oldest go first): a bound on a table written as one types. */
export const MAX_DRAFTS = 1000;
/** Characters kept per draft (far above any server's message limit; a paste of a book is cut). */
export const MAX_DRAFT_CHARS = 1_000_000;

/**
 * The conversation's key: topics compare as the server compares them (topicKey); a DM group is its users, sorted,
 * without the signed-in user (as Zulip names a conversation), unless that leaves no one.
 */
export function draftKey(to: DraftTarget, selfId?: number): string {
  if (to.type === 'channel') return `channel:${to.channel_id}:${topicKey(to.topic)}`;
  const others = [...new Set(to.user_ids)].filter((u) => u !== selfId);
  return `dm:${(others.length > 0 ? others : [...new Set(to.user_ids)]).sort((a, b) => a - b).join(',')}`;
}

const selfOf = (db: LocalDb): number | undefined => getAccount(db)?.user_id ?? undefined;

function fromRow(r: DraftRow): Draft | undefined {
  const to = draftTarget.safeParse(JSON.parse(r.target));
  return to.success ? { key: r.key, to: to.data, content: r.content, updated_at: r.updated_at } : undefined;
}

export function listDrafts(db: LocalDb): Draft[] {
  return draftRows(db).flatMap((r) => fromRow(r) ?? []);
}

export function getDraft(db: LocalDb, key: string): Draft | undefined {
  const r = draftRow(db, key);
  return r && fromRow(r);
}

/** Save (or, for blank text, delete) the draft of `to`. Returns its key. */
export function saveDraft(db: LocalDb, to: DraftTarget, content: string, now: number, changes: ChangeCollector): string {
  const key = draftKey(to, selfOf(db));
  if (content.trim() === '') {
    deleteDraft(db, key, changes);
    return key;
  }
  const text = content.length > MAX_DRAFT_CHARS ? content.slice(0, MAX_DRAFT_CHARS) : content;
  const had = getDraft(db, key);
  if (had?.content === text) return key;
  putDraftRow(db, { key, target: JSON.stringify(to), content: text, updated_at: now }, MAX_DRAFTS);
  changes.touched('drafts');
  return key;
}

/** Delete the draft of a conversation (a send to it). */
export function deleteDraftOf(db: LocalDb, to: DraftTarget, changes: ChangeCollector): boolean {
  return deleteDraft(db, draftKey(to, selfOf(db)), changes);
}

export function deleteDraft(db: LocalDb, key: string, changes: ChangeCollector): boolean {
  const gone = deleteDraftRow(db, key);
  if (gone) changes.touched('drafts');
  return gone;
}

/**
 * Keep `text` as a draft of `to` without losing what the composer holds there already: it is
 * added after the existing draft (a blank line between) unless already part of it.
 */
export function keepAsDraft(db: LocalDb, to: DraftTarget, text: string, now: number, changes: ChangeCollector): string {
  const had = getDraft(db, draftKey(to, selfOf(db)))?.content ?? '';
  const content = had.trim() === '' ? text : had.includes(text) ? had : `${had.trimEnd()}\n\n${text}`;
  return saveDraft(db, to, content, now, changes);
}

/** The session's drafts: each change commits, then the `drafts` area is announced. */
export class SessionDrafts {
  constructor(
    private readonly db: LocalDb,
    private readonly now: () => number,
    private readonly emit: (changes: ChangeCollector) => void,
  ) {}

  list(): Draft[] {
    return listDrafts(this.db);
  }

  save(to: DraftTarget, content: string): string {
    return this.write((c) => saveDraft(this.db, to, content, this.now(), c));
  }

  delete(key: string): boolean {
    return this.write((c) => deleteDraft(this.db, key, c));
  }

  keep(to: DraftTarget, text: string): string {
    return this.write((c) => keepAsDraft(this.db, to, text, this.now(), c));
  }

  private write<T>(f: (c: ChangeCollector) => T): T {
    const changes = new ChangeCollector();
    const out = this.db.transaction(() => f(changes))();
    if (!changes.empty) this.emit(changes);
    return out;
  }
}

/** The conversation a cached message belongs to, as a draft target. */
export function conversationOf(db: LocalDb, messageId: number): DraftTarget | undefined {
  const m = getStoredMessage(db, messageId);
  if (!m) return undefined;
  if (m.type === 'stream') return m.stream_id === undefined ? undefined : { type: 'channel', channel_id: m.stream_id, topic: m.subject };
  const ids = Array.isArray(m.display_recipient) ? m.display_recipient.map((u) => u.id) : [];
  return ids.length > 0 ? { type: 'direct', user_ids: ids } : undefined;
}
