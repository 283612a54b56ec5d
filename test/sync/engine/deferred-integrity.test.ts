/**
 * The integrity check a clean close defers (docs/sync-design.md "Damaged data"): the session
 * opens unchecked and, after its delay, checks in the background and reports damage through
 * `onDamaged`, the path of damage met while open. An unclean end leaves no mark.
 */
import Database from 'better-sqlite3';
import { closeSync, existsSync, openSync, rmSync, statSync, utimesSync, writeSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { silentEngineLogger } from '../../../sync/base/seams.js';
import { AccountSession, databaseFileOf, type AccountSessionOptions } from '../../../sync/engine/session.js';
import { tempDir, until } from './session-helpers.js';

const base = { realmUrl: 'http://127.0.0.1:9', email: 'hamlet@example.com', apiKey: 'k', watchClockJumps: false, seams: { logger: silentEngineLogger } };

/** A session's file with drafts spanning many pages, closed cleanly. */
async function closedCleanly(dataDir: string): Promise<string> {
  const s = AccountSession.open({ ...base, dataDir });
  const row = s.db.prepare("INSERT INTO drafts (key, target, content, updated_at) VALUES (?, '{}', ?, 1)");
  for (let i = 0; i < 200; i++) row.run(`d${i}`, 'x'.repeat(300));
  await s.close();
  return databaseFileOf({ ...base, dataDir });
}

/** Noise over a drafts leaf, the file's size and modification time left as they were. */
function damageUnseen(file: string): void {
  const before = statSync(file);
  const db = new Database(file, { readonly: true });
  const pageSize = Number(db.pragma('page_size', { simple: true }));
  const leaves = db.prepare<[], number>("SELECT pageno FROM dbstat WHERE name = 'drafts' AND pagetype = 'leaf' ORDER BY path").pluck().all();
  db.close();
  const fd = openSync(file, 'r+');
  writeSync(fd, Buffer.alloc(pageSize, 0xa5), 0, pageSize, (leaves[Math.floor(leaves.length / 2)]! - 1) * pageSize);
  closeSync(fd);
  utimesSync(file, before.atime, new Date(Math.round(before.mtimeMs)));
}

function opened(dataDir: string, extra: Partial<AccountSessionOptions>): { s: AccountSession; damage: unknown[] } {
  const damage: unknown[] = [];
  const s = AccountSession.open({ ...base, dataDir, onDamaged: (e) => damage.push(e), ...extra });
  return { s, damage };
}

describe('the deferred integrity check', () => {
  it('after a clean close the session opens unchecked and the scheduled check reports the damage as damage met while open', async () => {
    const dir = tempDir();
    const file = await closedCleanly(dir.dir);
    expect(existsSync(`${file}.clean`)).toBe(true);
    damageUnseen(file);
    const { s, damage } = opened(dir.dir, { integrityCheckDelayMs: 0 });
    expect(s.recovered).toBeUndefined();
    await until(() => damage.length > 0, 10_000, 'the background check');
    expect(damage[0]).toMatchObject({ code: 'SQLITE_CORRUPT' });
    await s.close();
    dir.cleanup();
  });

  it('without the mark (a crash) the same damage is recovered before the session is used', async () => {
    const dir = tempDir();
    const file = await closedCleanly(dir.dir);
    rmSync(`${file}.clean`);
    damageUnseen(file);
    const { s, damage } = opened(dir.dir, {});
    expect(s.recovered?.salvaged['drafts']).toBeLessThan(200);
    expect(damage).toEqual([]);
    await s.close();
    dir.cleanup();
  });
});
