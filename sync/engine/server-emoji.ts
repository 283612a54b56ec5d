/**
 * The Unicode emoji names the server accepts (register's `server_emoji_data_url`, FL 140: a JSON
 * file `{code_to_names: {code: [canonical, ...aliases]}}`). A real Zulip server refuses a reaction
 * whose name it does not know, and its names are not quite any data package's, so when the server
 * has the file the pickers and the typeahead offer its names (the canonical one is sent).
 *
 * Fetched in the background when the session goes live, only when the URL changed since the last
 * fetch (real Zulip's carries a content hash), only from the realm's own origin (the engine's
 * authenticated file fetch), at most `MAX_BYTES`; kept in the engine's settings with the URL it
 * came from, so it is there offline. Anything wrong with the file (not JSON, wrong shape, another
 * origin, an error status) leaves what was stored and is logged: the app's own table stays in use.
 */
import * as z from 'zod';
import type { ApiConnection } from '../api/index.js';
import type { ChangeCollector } from '../db/changes.js';
import type { LocalDb } from '../db/open.js';
import { getRealmValue } from '../db/queries/realm.js';
import { getEngineSetting, setEngineSetting } from '../db/queries/state.js';

const SETTING = 'emoji.server_names';
const MAX_BYTES = 2 * 1024 * 1024;

// Kept as the server wrote it: an odd entry (a code that is no code points, no names) is left out
// where the table is used, rather than the whole table refused.
const codeToNames = z.record(z.string(), z.array(z.string()));
const fileSchema = z.object({ code_to_names: codeToNames });
const stored = z.object({ url: z.string(), code_to_names: codeToNames });

export type ServerEmojiNames = z.output<typeof codeToNames>;

/** The stored table, or null when the server has none (or it was never fetched). */
export function storedServerEmojiNames(db: LocalDb): ServerEmojiNames | null {
  const s = stored.safeParse(getEngineSetting(db, SETTING));
  return s.success ? s.data.code_to_names : null;
}

/** The realm path of the server's table when it is newer than the stored one; undefined: nothing to fetch. */
export function serverEmojiPathToFetch(db: LocalDb, realmUrl: string): { url: string; path: string } | undefined {
  const url = getRealmValue(db, 'server_emoji_data_url');
  if (typeof url !== 'string' || url === '') return undefined;
  const s = stored.safeParse(getEngineSetting(db, SETTING));
  if (s.success && s.data.url === url) return undefined;
  const path = realmPathOf(url, realmUrl);
  return path === undefined ? undefined : { url, path };
}

function realmPathOf(url: string, realmUrl: string): string | undefined {
  try {
    const base = new URL(realmUrl);
    const u = new URL(url, base);
    if (u.origin !== base.origin || !u.pathname.endsWith('.json')) return undefined;
    return `${u.pathname}${u.search}`;
  } catch {
    return undefined;
  }
}

/**
 * Fetch the server's table if it is new and store it; true when something was stored. Throws on
 * a failure to get an answer (the caller logs it; the next time live tries again).
 */
export async function refreshServerEmojiNames(conn: ApiConnection, db: LocalDb, changes: ChangeCollector, signal?: AbortSignal): Promise<boolean> {
  const want = serverEmojiPathToFetch(db, conn.realmUrl);
  if (!want) return false;
  const res = await conn.fetchRealmFile(want.path, { maxResponseBytes: MAX_BYTES, ...(signal ? { signal } : {}) });
  if (res.status !== 200) throw new Error(`the server's emoji names answered HTTP ${res.status}`);
  let json: unknown;
  try {
    json = JSON.parse(res.body.toString('utf8'));
  } catch {
    throw new Error("the server's emoji names are not JSON");
  }
  const parsed = fileSchema.safeParse(json);
  if (!parsed.success) throw new Error(`the server's emoji names have an unexpected shape: ${parsed.error.issues[0]?.message ?? ''}`);
  setEngineSetting(db, SETTING, { url: want.url, code_to_names: parsed.data.code_to_names });
  changes.touched('realm');
  return true;
}
