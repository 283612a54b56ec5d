import { describe, expect, it } from 'vitest';
import { ZulipApiError } from '../../../../sync/api/errors.js';
import {
  addNavigationView,
  deleteNavigationView,
  editNavigationView,
  getNavigationViews,
} from '../../../../sync/api/routes/navigation-views.js';
import { fakeServer, ok } from '../fake-transport.js';

describe('navigation view routes', () => {
  it('getNavigationViews parses the list; a missing name reads as null', async () => {
    const f = fakeServer();
    f.reply(
      ok({
        navigation_views: [
          { fragment: 'narrow/is/alerted', is_pinned: false, name: 'Alert Words' },
          { fragment: 'recent', is_pinned: true, name: null },
          { fragment: 'inbox', is_pinned: true },
        ],
      }),
    );
    const res = await getNavigationViews(f.conn);
    const req = f.only();
    expect(req.method).toBe('GET');
    expect(req.path).toBe('/navigation_views');
    expect(req.query).toEqual({});
    expect(res.navigation_views).toEqual([
      { fragment: 'narrow/is/alerted', is_pinned: false, name: 'Alert Words' },
      { fragment: 'recent', is_pinned: true, name: null },
      { fragment: 'inbox', is_pinned: true, name: null },
    ]);
  });

  it('addNavigationView POSTs fragment and name raw and is_pinned as a JSON bool', async () => {
    const f = fakeServer();
    const res = await addNavigationView(f.conn, { fragment: 'narrow/is/alerted', is_pinned: true, name: 'Alerts & "words"' });
    const req = f.only();
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/navigation_views');
    expect(req.query).toEqual({});
    expect(req.body).toEqual({ fragment: 'narrow/is/alerted', is_pinned: 'true', name: 'Alerts & "words"' });
    expect(res).toEqual({ result: 'success', msg: '' });
  });

  it('addNavigationView for a built-in view: name null or omitted is left out of the body', async () => {
    const f = fakeServer();
    await addNavigationView(f.conn, { fragment: 'inbox', is_pinned: false, name: null });
    await addNavigationView(f.conn, { fragment: 'recent', is_pinned: false });
    expect(f.calls[0]?.body).toEqual({ fragment: 'inbox', is_pinned: 'false' });
    expect(f.calls[1]?.body).toEqual({ fragment: 'recent', is_pinned: 'false' });
  });

  it('addNavigationView: a blank fragment is a BAD_REQUEST api error', async () => {
    const f = fakeServer();
    f.reply({ status: 400, json: { code: 'BAD_REQUEST', msg: 'fragment cannot be blank', result: 'error' } });
    const err = await addNavigationView(f.conn, { fragment: ' ', is_pinned: true }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ZulipApiError);
    expect(err).toMatchObject({ kind: 'api', code: 'BAD_REQUEST', httpStatus: 400 });
  });

  it('editNavigationView PATCHes the fragment path with its slashes kept, other characters escaped', async () => {
    const f = fakeServer();
    await editNavigationView(f.conn, { fragment: 'narrow/channel/12-general chat?x', is_pinned: false, name: 'General' });
    const req = f.only();
    expect(req.method).toBe('PATCH');
    expect(req.path).toBe('/navigation_views/narrow/channel/12-general%20chat%3Fx');
    expect(req.query).toEqual({});
    expect(req.body).toEqual({ is_pinned: 'false', name: 'General' });
  });

  it('editNavigationView sends only the fields given', async () => {
    const f = fakeServer();
    await editNavigationView(f.conn, { fragment: 'narrow/is/alerted', is_pinned: true });
    expect(f.only().path).toBe('/navigation_views/narrow/is/alerted');
    expect(f.only().body).toEqual({ is_pinned: 'true' });
  });

  it('editNavigationView: naming a built-in view is a BAD_REQUEST api error', async () => {
    const f = fakeServer();
    f.reply({ status: 400, json: { code: 'BAD_REQUEST', msg: 'Built-in views cannot have a custom name', result: 'error' } });
    const err = await editNavigationView(f.conn, { fragment: 'inbox', name: 'Mine' }).catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: 'api', code: 'BAD_REQUEST', httpStatus: 400 });
  });

  it('a missing view: the real server 404 BAD_REQUEST classifies as an api error', async () => {
    const f = fakeServer();
    f.reply({ status: 404, json: { code: 'BAD_REQUEST', msg: 'Navigation view does not exist.', result: 'error' } });
    const err = await editNavigationView(f.conn, { fragment: 'narrow/is/gone', is_pinned: true }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ZulipApiError);
    expect(err).toMatchObject({ kind: 'api', code: 'BAD_REQUEST', httpStatus: 404 });
  });

  it("a missing view: the OpenAPI example's 404 NOT_FOUND also classifies as an api error", async () => {
    const f = fakeServer();
    f.reply({ status: 404, json: { code: 'NOT_FOUND', msg: 'Navigation view does not exist.', result: 'error' } });
    const err = await editNavigationView(f.conn, { fragment: 'narrow/is/gone', is_pinned: true }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ZulipApiError);
    expect(err).toMatchObject({ kind: 'api', code: 'NOT_FOUND', httpStatus: 404 });
  });

  it('deleteNavigationView DELETEs the fragment path with no parameters', async () => {
    const f = fakeServer();
    await deleteNavigationView(f.conn, { fragment: 'narrow/is/alerted' });
    const req = f.only();
    expect(req.method).toBe('DELETE');
    expect(req.path).toBe('/navigation_views/narrow/is/alerted');
    expect(req.query).toEqual({});
    expect(req.rawBody).toBeUndefined();
  });

  it('deleteNavigationView: 404 BAD_REQUEST is an api error', async () => {
    const f = fakeServer();
    f.reply({ status: 404, json: { code: 'BAD_REQUEST', msg: 'Navigation view does not exist.', result: 'error' } });
    const err = await deleteNavigationView(f.conn, { fragment: 'x' }).catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: 'api', code: 'BAD_REQUEST', httpStatus: 404 });
  });
});
