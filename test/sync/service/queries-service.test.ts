/**
 * The new read operations through the engine service (the contract both hosts carry): requests
 * parsed before the engine sees them, an unknown channel refused, answers inside the response
 * schemas, and the `channel_topics` area pushed when a channel's list lands.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentEngineLogger } from '../../../sync/base/seams.js';
import { QUERY_AREAS, queries, type EngineEvent } from '../../../sync/protocol/index.js';
import { EngineService, MemorySecretStore } from '../../../sync/service/index.js';
import { channelId, startTestServer, type TestServer } from '../../server/harness.js';
import { quickSleep, until } from '../engine/session-helpers.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
});

describe('engine service: channelTopics, dmConversations, unreadCounts', () => {
  it('answers within the contract, refuses bad requests, and pushes the channel_topics area', async () => {
    const sandbox = {
      start: async () => ({ realmUrl: t.url, email: 'hamlet@example.com', apiKey: t.server.apiKey('hamlet@example.com'), port: Number(new URL(t.url).port) }),
      close: async () => undefined,
    };
    const svc = new EngineService({ dataDir: ':memory:', secrets: new MemorySecretStore(), sandbox, seams: { logger: silentEngineLogger, sleep: quickSleep }, timeoutMs: 5_000 });
    const events: EngineEvent[] = [];
    const client = svc.connect((e) => events.push(e));
    expect((await client.invoke('openSandbox', {})).ok).toBe(true);
    await until(() => svc.activeSession?.status.state === 'live', 10_000, 'live');

    for (const bad of [{}, { channel_id: 'Verona' }, { channel_id: -1 }, { channel_id: 1.5 }]) {
      const r = await client.invoke('channelTopics', bad);
      expect(r.ok === false && r.error.code).toBe('INVALID_REQUEST');
    }
    const unknown = await client.invoke('channelTopics', { channel_id: 99_999 });
    expect(unknown).toEqual({ ok: false, error: { code: 'INVALID_REQUEST', message: 'unknown channel 99999' } });

    const verona = channelId(t, 'Verona');
    const first = await client.invoke('channelTopics', { channel_id: verona });
    expect(first.ok).toBe(true);
    await until(() => events.some((e) => e.type === 'areas' && e.areas.includes('channel_topics')), 10_000, 'the channel_topics area');
    const second = await client.invoke('channelTopics', { channel_id: verona });
    expect(second.ok && queries.channelTopics.response.parse(second.value).complete).toBe(true);
    expect(QUERY_AREAS.channelTopics).toContain('channel_topics');

    const dms = await client.invoke('dmConversations', {});
    expect(dms.ok && queries.dmConversations.response.parse(dms.value).length).toBeGreaterThan(0);
    const counts = await client.invoke('unreadCounts', {});
    expect(counts.ok && queries.unreadCounts.response.parse(counts.value).total).toBeGreaterThan(0);
    await svc.close();
  });
});
