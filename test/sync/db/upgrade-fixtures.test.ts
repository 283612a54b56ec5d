/**
 * An account database from every schema version the project has shipped opens with the current
 * code: migrated to the newest version, its queued changes sent once and in order (a send already
 * done stays done), its drafts kept. The fixtures are made by the old code's own migrations
 * (test/fixtures/upgrade/make-fixtures.ts, which regenerates them).
 */
import { copyFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentEngineLogger } from '../../../sync/base/seams.js';
import { MIGRATIONS } from '../../../sync/db/migrations/index.js';
import { accountFileName } from '../../../sync/engine/session.js';
import { EngineService, MemorySecretStore } from '../../../sync/service/index.js';
import { fixtureDrafts, fixtureFontSize, fixtureSends, fixtureTopic, REVS } from '../../fixtures/upgrade/make-fixtures.js';
import { startTestServer, type TestServer } from '../../server/harness.js';
import { quickSleep, tempDir, until } from '../engine/session-helpers.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const fixtures = path.resolve(import.meta.dirname, '../../fixtures/upgrade');

describe('upgrading an account database from every shipped schema version', () => {
  for (const f of REVS) {
    it(`${f.name} (made at ${f.rev}, as ${f.user})`, async () => {
      const dir = tempDir();
      const email = `${f.user}@example.com`;
      const url = new URL(t.url);
      const realmUrl = `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
      copyFileSync(path.join(fixtures, `${f.name}.sqlite`), path.join(dir.dir, accountFileName(realmUrl, email)));
      const base = t.clock.now();
      const started = Date.now();
      const svc = new EngineService({ dataDir: dir.dir, secrets: new MemorySecretStore(), seams: { logger: silentEngineLogger, sleep: quickSleep, clock: { now: () => base + (Date.now() - started) } }, timeoutMs: 3_000 });
      const client = svc.connect(() => undefined);
      const signedIn = await client.invoke('signIn', { realm_url: t.url, email, credentials: { password: 'sandbox' } });
      expect(signedIn.ok, JSON.stringify(signedIn)).toBe(true);
      const s = svc.activeSession!;
      expect(s.recovered).toBeUndefined();
      expect(s.db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.at(-1)!.version);
      await until(() => s.status.state === 'live' && s.outbox.counts().pending === 0, 20_000, 'live with the queue sent');
      expect(s.outbox.counts()).toMatchObject({ pending: 0, failed: 0, conflict: 0 });

      const general = ((await t.as(f.user).get('/users/me/subscriptions')).json.subscriptions as Array<{ stream_id: number; name: string }>).find((c) => c.name === 'general')!.stream_id;
      const r = await t.as(f.user).get('/messages', { anchor: 'newest', num_before: 20, num_after: 0, apply_markdown: false, narrow: [{ operator: 'channel', operand: general }, { operator: 'topic', operand: fixtureTopic(f.name) }] });
      expect((r.json.messages as Array<{ content: string }>).map((m) => m.content)).toEqual(f.version >= 2 ? fixtureSends(f.name) : []);
      if (f.version >= 2) {
        const reg = await t.as(f.user).post('/register', { fetch_event_types: ['user_settings'], client_capabilities: { user_settings_object: true } });
        if (typeof reg.json.queue_id === 'string') await t.as(f.user).delete('/events', { queue_id: reg.json.queue_id });
        expect((reg.json.user_settings as Record<string, unknown>)['web_font_size_px']).toBe(fixtureFontSize(f.version));
      }
      const drafts = await client.invoke('drafts', {});
      expect(drafts.ok && (drafts.value as Array<{ content: string }>).map((d) => d.content).sort()).toEqual([...fixtureDrafts(f.name, f.version)].sort());
      await svc.close();
      dir.cleanup();
    });
  }
});
