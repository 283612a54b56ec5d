/** Shared helpers for session tests against the reference server (loopback only). */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AccountSession, type AccountSessionOptions } from '../../../sync/engine/session.js';
import { silentEngineLogger, SleepAborted, type Sleep } from '../../../sync/base/seams.js';
import type { TestServer } from '../../server/harness.js';

export function tempDir(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(path.join(tmpdir(), 'zod-session-'));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Real sleeps shortened 50x, so backoff keeps its shape but tests stay quick. */
export const quickSleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, Math.min(ms / 50, 500));
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(new SleepAborted());
      },
      { once: true },
    );
  });

export function openSession(t: { url: string; server: TestServer['server'] }, dataDir: string, who = 'hamlet', extra: Partial<AccountSessionOptions> = {}): AccountSession {
  const email = `${who}@example.com`;
  return AccountSession.open({
    realmUrl: t.url,
    email,
    apiKey: t.server.apiKey(email),
    dataDir,
    watchClockJumps: false,
    timeoutMs: 5_000,
    ...extra,
    seams: { logger: silentEngineLogger, sleep: quickSleep, ...extra.seams },
  });
}

/** Wait until `cond` holds (polling every 10 ms), or fail after `ms`. */
export async function until(cond: () => boolean, ms = 10_000, what = 'condition'): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
