/** The sidebar's views from the user's navigation views, their markers, and the intents with the server's rules. */
import { describe, expect, it } from 'vitest';
import type { OutboxRowView } from '../../../sync/protocol/outbox.js';
import { addIntent, deleteIntent, pinIntent, refusalText, renameIntent, sidebarViews, type StoredView } from '../../../renderer/src/navviews/nav-views.js';
import { outboxRow } from '../fixtures.js';

const row = (target: string, state: OutboxRowView['state'], message = ''): OutboxRowView =>
  outboxRow({ outbox_id: 1, kind: 'add_navigation_view', target, state, last_error: state === 'failed' ? { kind: 'api', code: 'BAD_REQUEST', message, details: null } : null });

const labels = (vs: { label: string }[]) => vs.map((v) => v.label);

describe('the sidebar’s views', () => {
  it('with no navigation views: the built-in defaults (scheduled under More views)', () => {
    const { pinned, more } = sidebarViews([], []);
    expect(labels(pinned)).toEqual(['Inbox', 'Recent conversations', 'Combined feed', 'Starred messages', 'Mentions']);
    expect(labels(more)).toEqual(['Scheduled messages']);
    expect(pinned[0]).toMatchObject({ fragment: 'inbox', href: '#inbox', builtIn: true, count: 'total', pending: null });
  });

  it('follows the user’s list: a built-in unpinned or pinned, custom views after the built-in ones, unknown built-ins named', () => {
    const stored: StoredView[] = [
      { fragment: 'narrow/channel/12-Denmark', is_pinned: true, name: 'Danes' },
      { fragment: 'recent', is_pinned: false, name: null },
      { fragment: 'scheduled', is_pinned: true, name: null },
      { fragment: 'narrow/is/alerted', is_pinned: false, name: null },
      { fragment: 'narrow/is/dm', is_pinned: false, name: 'All DMs' },
    ];
    const { pinned, more } = sidebarViews(stored, []);
    expect(labels(pinned)).toEqual(['Inbox', 'Combined feed', 'Starred messages', 'Mentions', 'Scheduled messages', 'Danes']);
    expect(labels(more)).toEqual(['Recent conversations', 'Alerted messages', 'All DMs']);
    expect(pinned.find((v) => v.label === 'Danes')).toMatchObject({ builtIn: false, href: '#narrow/channel/12-Denmark' });
  });

  it('marks a view with an unfinished outbox row “not saved yet”, a failed one with the server’s words', () => {
    const stored: StoredView[] = [{ fragment: 'narrow/is/dm', is_pinned: true, name: 'DMs' }];
    const rows = [row('navigation_view:narrow/is/dm', 'queued'), row('navigation_view:recent', 'failed', 'Navigation view already exists.'), row('navigation_view:feed', 'done')];
    const { pinned } = sidebarViews(stored, rows);
    expect(pinned.find((v) => v.label === 'DMs')).toMatchObject({ pending: 'not saved yet', error: null });
    expect(pinned.find((v) => v.label === 'Recent conversations')).toMatchObject({ pending: 'change failed', error: 'Navigation view already exists.' });
    expect(pinned.find((v) => v.label === 'Combined feed')).toMatchObject({ pending: null });
  });
});

describe('intents, checked with the server’s rules', () => {
  const stored: StoredView[] = [
    { fragment: 'recent', is_pinned: false, name: null },
    { fragment: 'narrow/channel/12-Denmark', is_pinned: true, name: 'Danes' },
  ];

  it('pinning a built-in never changed adds it without a name; otherwise it is an edit', () => {
    expect(pinIntent('inbox', false, stored)).toEqual({ op: 'addNavigationView', request: { fragment: 'inbox', is_pinned: false, name: null } });
    expect(pinIntent('recent', true, stored)).toEqual({ op: 'editNavigationView', request: { fragment: 'recent', is_pinned: true } });
  });

  it('adds a custom view pinned under its name (fragment without # and trimmed)', () => {
    expect(addIntent(' #narrow/channel/13-Verona ', ' Verona folk ', stored)).toEqual({ op: 'addNavigationView', request: { fragment: 'narrow/channel/13-Verona', is_pinned: true, name: 'Verona folk' } });
  });

  it('refuses in the server’s words: a blank fragment, a named built-in, a custom view without a name, a name or fragment in use', () => {
    expect(addIntent('  ', 'x', stored)).toEqual({ error: 'fragment cannot be blank' });
    expect(addIntent('#', 'x', stored)).toEqual({ error: 'fragment cannot be blank' });
    expect(addIntent('narrow/is/starred', 'My stars', stored)).toEqual({ error: 'Built-in views cannot have a custom name' });
    expect(addIntent('narrow/channel/13-Verona', ' ', stored)).toEqual({ error: 'Custom views must have a valid name.' });
    expect(addIntent('narrow/channel/13-Verona', 'Danes', stored)).toEqual({ error: 'Navigation view already exists.' });
    expect(addIntent('narrow/channel/12-Denmark', 'Other', stored)).toEqual({ error: 'Navigation view already exists.' });
    expect(refusalText('fragment cannot be blank')).toBe('Fragment cannot be blank.');
    expect(refusalText('Navigation view already exists.')).toBe('Navigation view already exists.');
  });

  it('adding a built-in view without a name pins it', () => {
    expect(addIntent('#recent', '', stored)).toEqual({ op: 'editNavigationView', request: { fragment: 'recent', is_pinned: true } });
  });

  it('renames custom views only; deletes custom views only', () => {
    expect(renameIntent('narrow/channel/12-Denmark', ' Great Danes ', stored)).toEqual({ op: 'editNavigationView', request: { fragment: 'narrow/channel/12-Denmark', name: 'Great Danes' } });
    expect(renameIntent('narrow/channel/12-Denmark', 'Danes', stored)).toMatchObject({ op: 'editNavigationView' });
    expect(renameIntent('recent', 'Latest', stored)).toEqual({ error: 'Built-in views cannot have a custom name' });
    expect(renameIntent('narrow/channel/12-Denmark', '  ', stored)).toEqual({ error: 'name cannot be blank' });
    expect(deleteIntent('narrow/channel/12-Denmark')).toEqual({ op: 'removeNavigationView', request: { fragment: 'narrow/channel/12-Denmark' } });
    expect(deleteIntent('inbox')).toEqual({ error: expect.stringContaining('unpin') });
  });
});
