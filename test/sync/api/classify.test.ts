import * as z from 'zod';
import { describe, expect, it } from 'vitest';
import { classifyResponse } from '../../../sync/api/classify.js';
import { success } from '../../../sync/api/schemas/envelope.js';

const ctx = { method: 'PATCH', path: '/messages/1' };
const schema = success({ id: z.number().int() });
const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  classifyResponse(ctx, { status, headers, body: JSON.stringify(body) }, schema, 1_000_000);

describe('error classification', () => {
  it('parses a success body and keeps ignored_parameters_unsupported', () => {
    const r = json(200, { result: 'success', msg: '', id: 5, ignored_parameters_unsupported: ['message_id'] });
    expect(r).toEqual({ ok: true, data: { result: 'success', msg: '', id: 5, ignored_parameters_unsupported: ['message_id'] } });
  });

  it('a success body missing a required field is malformed, naming the field', () => {
    const r = json(200, { result: 'success', msg: '' });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.kind).toBe('malformed');
    expect(r.error.kind === 'malformed' && r.error.problems.join()).toContain('id');
  });

  it('MOVE_MESSAGES_TIME_LIMIT_EXCEEDED carries its three fields', () => {
    const r = json(400, {
      result: 'error', msg: 'x', code: 'MOVE_MESSAGES_TIME_LIMIT_EXCEEDED',
      first_message_id_allowed_to_move: 123, total_messages_in_topic: 5, total_messages_allowed_to_move: 2,
    });
    expect(!r.ok && r.error).toMatchObject({
      kind: 'api', httpStatus: 400, code: 'MOVE_MESSAGES_TIME_LIMIT_EXCEEDED',
      details: { code: 'MOVE_MESSAGES_TIME_LIMIT_EXCEEDED', first_message_id_allowed_to_move: 123, total_messages_in_topic: 5, total_messages_allowed_to_move: 2 },
    });
  });

  it('MOVE_MESSAGES_TIME_LIMIT_EXCEEDED accepts a null first id', () => {
    const r = json(400, { result: 'error', msg: 'x', code: 'MOVE_MESSAGES_TIME_LIMIT_EXCEEDED', first_message_id_allowed_to_move: null, total_messages_in_topic: 5, total_messages_allowed_to_move: 0 });
    expect(!r.ok && r.error.kind === 'api' && r.error.details).toMatchObject({ first_message_id_allowed_to_move: null });
  });

  it('INVITATION_FAILED carries its four fields', () => {
    const r = json(400, {
      result: 'error', msg: 'Some of those addresses are already using Zulip', code: 'INVITATION_FAILED',
      errors: [['hamlet@example.com', 'Already has an account.', false]],
      sent_invitations: true, license_limit_reached: false, daily_limit_reached: false,
    });
    expect(!r.ok && r.error).toMatchObject({
      kind: 'api',
      details: { errors: [['hamlet@example.com', 'Already has an account.', false]], sent_invitations: true, license_limit_reached: false, daily_limit_reached: false },
    });
  });

  it('STREAM_DOES_NOT_EXIST carries stream_id; EXPECTATION_MISMATCH carries field_name', () => {
    const a = json(400, { result: 'error', msg: 'x', code: 'STREAM_DOES_NOT_EXIST', stream_id: 9 });
    expect(!a.ok && a.error).toMatchObject({ kind: 'api', details: { code: 'STREAM_DOES_NOT_EXIST', stream_id: 9 } });
    const b = json(400, { result: 'error', msg: 'x', code: 'EXPECTATION_MISMATCH', field_name: 'prev_content_sha256' });
    expect(!b.ok && b.error).toMatchObject({ kind: 'api', details: { code: 'EXPECTATION_MISMATCH', field_name: 'prev_content_sha256' } });
  });

  it('extra fields of the wrong type leave details undefined but keep the raw extras', () => {
    const r = json(400, { result: 'error', msg: 'x', code: 'EXPECTATION_MISMATCH', field_name: 7 });
    expect(!r.ok && r.error).toMatchObject({ kind: 'api', code: 'EXPECTATION_MISMATCH', details: undefined, extra: { field_name: 7 } });
  });

  it('an envelope without a code (405) defaults to BAD_REQUEST', () => {
    const r = json(405, { result: 'error', msg: 'Method Not Allowed', allowed_methods: ['GET'] });
    expect(!r.ok && r.error).toMatchObject({ kind: 'api', httpStatus: 405, code: 'BAD_REQUEST', extra: { allowed_methods: ['GET'] } });
  });

  it('result "error" with HTTP 200 is still an api error', () => {
    const r = json(200, { result: 'error', msg: 'odd', code: 'BAD_REQUEST' });
    expect(!r.ok && r.error.kind).toBe('api');
  });

  it('429 uses the fractional Retry-After header, else the body field', () => {
    const h = json(429, { result: 'error', msg: 'slow down', code: 'RATE_LIMIT_HIT', 'retry-after': 2 }, { 'retry-after': '0.25' });
    expect(!h.ok && h.error).toMatchObject({ kind: 'rate_limited', retryAfterMs: 250 });
    const b = json(429, { result: 'error', msg: 'slow down', code: 'RATE_LIMIT_HIT', 'retry-after': 28.7068 });
    expect(!b.ok && b.error).toMatchObject({ kind: 'rate_limited', retryAfterMs: 28707 });
  });

  it('RATE_LIMIT_HIT on another status is still rate limited', () => {
    const r = json(400, { result: 'error', msg: 'x', code: 'RATE_LIMIT_HIT', 'retry-after': 1 });
    expect(!r.ok && r.error.kind).toBe('rate_limited');
  });

  it('401 is unauthorized with its code and WWW-Authenticate', () => {
    const r = json(401, { result: 'error', msg: 'Invalid API key', code: 'INVALID_API_KEY' }, { 'www-authenticate': 'Basic realm="zulip"' });
    expect(!r.ok && r.error).toMatchObject({ kind: 'unauthorized', code: 'INVALID_API_KEY', wwwAuthenticate: 'Basic realm="zulip"' });
  });

  it('5xx is a server error, keeping a JSON code when there is one', () => {
    const r = json(502, { result: 'error', msg: 'x', code: 'FAILED_TO_CONNECT_BOUNCER' });
    expect(!r.ok && r.error).toMatchObject({ kind: 'server', httpStatus: 502, code: 'FAILED_TO_CONNECT_BOUNCER' });
    expect(!r.ok && r.error.transient).toBe(true);
  });

  it('a non-JSON error answer is a server error; a non-JSON 2xx is malformed (it probably succeeded)', () => {
    for (const status of [400, 404, 413]) {
      const r = classifyResponse(ctx, { status, headers: {}, body: '<html>proxy</html>' }, schema, 0);
      expect(!r.ok && r.error).toMatchObject({ kind: 'server', httpStatus: status, bodySnippet: '<html>proxy</html>', mayHaveApplied: false });
    }
    for (const body of ['<html>welcome to the hotel wifi</html>', '{"result":"success","msg":"","id":', '']) {
      const r = classifyResponse(ctx, { status: 200, headers: {}, body }, schema, 0);
      expect(!r.ok && r.error).toMatchObject({ kind: 'malformed', httpStatus: 200 });
    }
  });

  it('whether a 5xx may have been applied: a gateway (502/504) or anything but the app envelope may; the app envelope may not', () => {
    const html = (status: number) => classifyResponse(ctx, { status, headers: {}, body: '<html>Bad Gateway</html>' }, schema, 0);
    const applied = (r: ReturnType<typeof json>) => !r.ok && r.error.kind === 'server' && r.error.mayHaveApplied;
    for (const status of [500, 502, 503, 504]) expect(applied(html(status)), String(status)).toBe(true);
    // A gateway may answer with JSON of its own: still not the app's word.
    expect(applied(json(502, { result: 'error', msg: 'upstream', code: 'FAILED_TO_CONNECT_BOUNCER' }))).toBe(true);
    expect(applied(json(504, { message: 'Endpoint request timed out' }))).toBe(true);
    expect(applied(json(500, { unexpected: true }))).toBe(true);
    // The app's own envelope: it says it did not do it.
    expect(applied(json(503, { result: 'error', msg: 'restarting', code: 'SERVER_NOT_READY' }, { 'retry-after': '2' }))).toBe(false);
    expect(applied(json(500, { result: 'error', msg: 'Internal server error' }))).toBe(false);
  });

  it('a JSON body that is not an object is malformed', () => {
    const r = classifyResponse(ctx, { status: 200, headers: {}, body: '[1,2]' }, schema, 0);
    expect(!r.ok && r.error.kind).toBe('malformed');
  });

  it('only network, timeout, server and rate-limit errors are transient', () => {
    const api = json(400, { result: 'error', msg: 'x', code: 'BAD_REQUEST' });
    const unauth = json(401, { result: 'error', msg: 'x', code: 'UNAUTHORIZED' });
    const malformed = json(200, { result: 'success', msg: '' });
    for (const r of [api, unauth, malformed]) expect(!r.ok && r.error.transient).toBe(false);
  });
});
