/**
 * The fault workload, for uploads: a seeded batch of files and of messages naming them (and plain
 * messages between), queued offline through the session and drained through the fault proxy to
 * the reference server, which resets connections, drops answers after applying the request,
 * truncates them, answers 500, a gateway's 502/504, and 429 bursts. At the end every file is
 * uploaded exactly once (`GET /attachments`), every message sent exactly once with the links of its
 * own files in order, nothing stuck, no copy left on disk.
 */
import { existsSync, readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededRandom } from '../../../sync/base/seams.js';
import { outboxIntents } from '../../../sync/engine/outbox-intents.js';
import { channelId, startTestServer, type TestServer } from '../../server/harness.js';
import { until } from '../engine/session-helpers.js';
import { serverTopic, sessionEnv, type SessionEnv } from './session-support.js';

const SEED = Number(process.env.FAULT_SEED ?? 20_261_126);
const PLAN = { reset: 0.08, drop: 0.1, error500: 0.06, rate_limit: 0.04, gateway: 0.05, truncate: 0.06 } as const;

let t: TestServer;
let env: SessionEnv;
beforeAll(async () => {
  t = await startTestServer();
  env = await sessionEnv(t);
});
afterAll(async () => {
  await env?.close();
  await t?.close();
});

describe('uploads under injected faults', () => {
  it('files and the messages naming them land exactly once, in order, links by field, nothing stuck', { timeout: 90_000 }, async () => {
    const { s, proxy } = env;
    const intents = outboxIntents(s.db, s.outbox);
    const random = seededRandom(SEED);
    const pick = (n: number) => Math.floor(random() * n);
    const before = ((await t.as('hamlet').get('/attachments')).json.attachments as unknown[]).length;
    const verona = channelId(t, 'Verona');

    await proxy.pause();
    // What each topic should end up with, in order: the text and the names of its files.
    const expected = new Map<string, Array<{ text: string; files: string[] }>>();
    let n = 0;
    for (let m = 0; m < 16; m++) {
      const topic = `fwu topic ${pick(4)}`;
      const files = Array.from({ length: m % 2 === 0 ? 0 : 1 + pick(3) }, () => {
        const name = `fwu-file-${n++}.txt`;
        // Distinct sizes too, as real files mostly are.
        const bytes = Buffer.from(`${name} ${'x'.repeat(pick(2_000))}`);
        const staged = s.stageUpload(bytes);
        return { name, id: intents.uploadFile({ file: staged.file, filename: name, mime_type: 'text/plain', size: staged.size }).upload_id };
      });
      const text = `fwu message ${m}`;
      intents.sendMessage({ to: { type: 'channel', channel_id: verona, topic }, content: text, ...(files.length > 0 ? { uploads: files.map((f) => f.id) } : {}) });
      expected.set(topic, [...(expected.get(topic) ?? []), { text, files: files.map((f) => f.name) }]);
    }
    expect(n).toBeGreaterThanOrEqual(10);

    proxy.setPlan(SEED, PLAN, { retryAfterSeconds: 0.01, burst: 2 });
    await proxy.resume();
    s.nudge('network');
    await until(() => s.outbox.counts().pending === 0, 80_000, 'everything sent');
    proxy.clearPlan();
    const faults = Object.entries(proxy.counts).filter(([k]) => k !== 'pass');
    expect(faults.reduce((sum, [, c]) => sum + c, 0)).toBeGreaterThan(5);

    // Nothing failed, nothing stuck.
    expect(s.outbox.rows(true).filter((r) => r.state !== 'done').map((r) => [r.kind, r.state, r.lastError])).toEqual([]);
    // Every file once.
    const files = ((await t.as('hamlet').get('/attachments')).json.attachments as Array<{ name: string; path_id: string }>).slice(before);
    expect(files.map((f) => f.name).sort()).toEqual(Array.from({ length: n }, (_, i) => `fwu-file-${i}.txt`).sort());
    const url = (name: string) => `/user_uploads/${files.find((f) => f.name === name)!.path_id}`;
    // Every message once, in order, with its own files' links.
    for (const [topic, want] of expected) {
      const got = (await serverTopic(t, topic)).map((m) => m.content);
      expect(got).toEqual(want.map((w) => [w.text, ...w.files.map((f) => `[${f}](${url(f)})`)].join('\n')));
    }
    const dir = s.outbox.files.dir!;
    await until(() => !existsSync(dir) || readdirSync(dir).length === 0, 5_000, 'copies removed');
  });
});
