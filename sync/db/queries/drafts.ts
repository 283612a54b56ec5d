/** The drafts table (migration 0004): the composer's text per conversation; sync/engine/drafts.ts gives it meaning. */
import type { LocalDb } from '../open.js';
import { cachedStatement } from './statements.js';

/** A draft as stored: `target` is JSON (a draft target, checked by the reader). */
export interface DraftRow {
  key: string;
  target: string;
  content: string;
  updated_at: number;
}

/** Newest first. */
export function draftRows(db: LocalDb): DraftRow[] {
  return cachedStatement<[], DraftRow>(db, 'SELECT key, target, content, updated_at FROM drafts ORDER BY updated_at DESC, key').all();
}

export function draftRow(db: LocalDb, key: string): DraftRow | undefined {
  return cachedStatement<[string], DraftRow>(db, 'SELECT key, target, content, updated_at FROM drafts WHERE key = ?').get(key);
}

/** Write a draft, then keep only the newest `keep` drafts. */
export function putDraftRow(db: LocalDb, r: DraftRow, keep: number): void {
  cachedStatement<[string, string, string, number]>(db, 'INSERT OR REPLACE INTO drafts (key, target, content, updated_at) VALUES (?, ?, ?, ?)').run(r.key, r.target, r.content, r.updated_at);
  cachedStatement(db, `DELETE FROM drafts WHERE key NOT IN (SELECT key FROM drafts ORDER BY updated_at DESC LIMIT ${keep})`).run();
}

/** True when a draft was there. */
export function deleteDraftRow(db: LocalDb, key: string): boolean {
  return cachedStatement<[string]>(db, 'DELETE FROM drafts WHERE key = ?').run(key).changes > 0;
}

export function draftCount(db: LocalDb): number {
  return Number(db.prepare<[], unknown>('SELECT count(*) FROM drafts').pluck().get());
}
