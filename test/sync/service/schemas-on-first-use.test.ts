/**
 * The API, protocol and outbox schemas are built on first use, not when the engine service is
 * imported (a cold start parses few of them before the first page: bench/cold-start.bench.ts).
 *
 * zod's composite builders are counted as the app's modules call them (zod's own internals call
 * theirs directly, uncounted). A schema built at import builds nothing when first parsed; one built
 * on first use does, and still parses.
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';

let built = 0;
vi.mock('zod', async (importOriginal) => {
  const mod = await importOriginal<typeof import('zod')>();
  const counted = <A extends unknown[], R>(f: (...a: A) => R) => (...a: A): R => {
    built++;
    return f(...a);
  };
  // The app imports zod as a namespace (`import * as z from 'zod'`): its builders are the module's own exports.
  const { object, looseObject, union, discriminatedUnion, array, record } = mod;
  return { ...mod, object: counted(object), looseObject: counted(looseObject), union: counted(union), discriminatedUnion: counted(discriminatedUnion), array: counted(array), record: counted(record) };
});

type Api = typeof import('../../../sync/api/index.js');
type Protocol = typeof import('../../../sync/protocol/index.js');
type Flags = typeof import('../../../sync/outbox/mutations/message-flags.js');
let api: Api;
let protocol: Protocol;
let flags: Flags;

beforeAll(async () => {
  // The engine service first, as the app imports it; the others are modules it already loaded.
  await import('../../../sync/service/index.js');
  api = await import('../../../sync/api/index.js');
  protocol = await import('../../../sync/protocol/index.js');
  flags = await import('../../../sync/outbox/mutations/message-flags.js');
});

/** How many schemas `parse` built. */
function builtBy(parse: () => unknown): number {
  const before = built;
  parse();
  return built - before;
}

describe('schemas on first use', () => {
  it('the engine service import builds some schemas (the count sees them)', () => {
    expect(built).toBeGreaterThan(0);
  });

  it('an API response schema is built when first parsed', () => {
    const body = { result: 'success', msg: '', messages: [], anchor: 1, found_anchor: true, found_oldest: true, found_newest: true, history_limited: false };
    let ok = false;
    expect(builtBy(() => (ok = api.getMessagesResponse.safeParse(body).success))).toBeGreaterThan(0);
    expect(ok).toBe(true);
  });

  it('an event schema is built when the first event of its type is parsed', () => {
    const raw = { id: 3, type: 'typing', op: 'start', message_type: 'direct', sender: { user_id: 1 }, recipients: [{ user_id: 2 }] };
    let type = '';
    expect(builtBy(() => (type = api.parseEvent(raw).type))).toBeGreaterThan(0);
    expect(type).toBe('typing');
  });

  it('a protocol schema is built when first parsed', () => {
    const summary = { channel_id: 1, name: 'general', is_subscribed: true, is_muted: false, pin_to_top: false, color: null, unread_count: 0, topics: [] };
    let ok = false;
    expect(builtBy(() => (ok = protocol.channelSummarySchema.safeParse(summary).success))).toBeGreaterThan(0);
    expect(ok).toBe(true);
  });

  it('an outbox mutation schema is built when first parsed, once', () => {
    const args = { messages: [10], op: 'add', flag: 'read' };
    let ok = false;
    expect(builtBy(() => (ok = flags.messageFlagsArgs.safeParse(args).success))).toBeGreaterThan(0);
    expect(ok).toBe(true);
    expect(builtBy(() => flags.messageFlagsArgs.parse(args))).toBe(0);
  });
});
