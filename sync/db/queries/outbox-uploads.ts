/**
 * Reads of queued uploads (sync/outbox/mutations/upload-file.ts) and of what landed ones became.
 * The kind name is a parameter: this layer does not know the kinds.
 */
import type { LocalDb } from '../open.js';
import type { OutboxDbRow } from './outbox.js';
import { cachedStatement } from './statements.js';

/** The upload row that creates `tmp` (any state), if there is one. */
export function uploadRowOf(db: LocalDb, kind: string, tmp: string): OutboxDbRow | undefined {
  return cachedStatement<[string, string], OutboxDbRow>(db, "SELECT * FROM outbox WHERE kind = ? AND json_extract(args, '$.upload') = ? ORDER BY id LIMIT 1").get(kind, tmp);
}

/** The file-copy ids that live upload rows name (what a sweep of the copies keeps). */
export function liveUploadFileIds(db: LocalDb, kind: string): string[] {
  return cachedStatement<[string], string>(db, "SELECT json_extract(args, '$.file') FROM outbox WHERE kind = ? AND state NOT IN ('done', 'discarded')")
    .pluck()
    .all(kind)
    .filter((v): v is string => typeof v === 'string');
}

/** The server URLs temporary ids landed as that are upload URLs: files already claimed by an upload row. */
export function landedUploadUrls(db: LocalDb): Set<string> {
  const urls = cachedStatement<[], unknown>(db, "SELECT server_id FROM outbox_temp_ids WHERE server_id LIKE '/user_uploads/%'").pluck().all();
  return new Set(urls.filter((v): v is string => typeof v === 'string'));
}
