/** Message ingest: derived columns, search text, idempotency, change reports, reads. */
import { beforeEach, describe, expect, it } from 'vitest';
import { HAS_ROW } from '../../../sync/db/flags.js';
import { openLocalDb, type LocalDb } from '../../../sync/db/open.js';
import { htmlToText } from '../../../sync/db/queries/message-columns.js';
import { deleteMessages, getStoredMessages, newestStoredMessageId, storedMessageOf, upsertMessages } from '../../../sync/db/queries/messages.js';
import { ChangeCollector } from '../../../sync/db/changes.js';
import * as eg from '../../support/eg.js';

let db: LocalDb;
beforeEach(() => {
  db = openLocalDb(':memory:');
});

const row = (id: number) => db.prepare('SELECT * FROM messages WHERE id = ?').get(id) as Record<string, unknown>;
const search = (q: string) => db.prepare('SELECT rowid FROM messages_fts WHERE messages_fts MATCH ? ORDER BY rowid').pluck().all(q);

describe('upsertMessages', () => {
  it('derives the narrow columns the way the server does', () => {
    upsertMessages(
      db,
      [
        eg.streamMessage({ id: 1, flags: ['read', 'starred', 'mentioned', 'wildcard_mentioned'], content: '<p><a href="https://x.org">x</a></p>' }),
        eg.streamMessage({ id: 2, content: '<div class="message_inline_image"><a href="/user_uploads/2/ab/c.png"><img src="/user_uploads/2/ab/c.png"></a></div>' }),
        eg.dmMessage({ id: 3, participants: [12, 10, 7], reactions: [{ emoji_name: 'smile', emoji_code: '1f604', reaction_type: 'unicode_emoji', user_id: 7 }] }),
        eg.streamMessage({ id: 4, topic: '' }),
      ],
      new ChangeCollector(),
    );
    expect(row(1)).toMatchObject({ type: 'stream', channel_id: 5, topic: 'castle', dm_key: null, flags: 1 | 2 | 4 | HAS_ROW, has_link: 1, has_image: 0 });
    expect(row(2)).toMatchObject({ has_link: 1, has_image: 1, has_attachment: 1 });
    expect(row(3)).toMatchObject({ type: 'private', channel_id: null, dm_key: '7,10,12', has_reaction: 1 });
    expect(row(4)).toMatchObject({ topic: '' });
    expect(JSON.parse(row(1).json as string)).not.toHaveProperty('flags');
  });

  it('gives back the message as fetched, flags restored', () => {
    const m = eg.streamMessage({ id: 7, flags: ['read', 'starred'], edit_history: [{ user_id: 11, timestamp: 5, prev_topic: 'a', topic: 'castle' }] });
    upsertMessages(db, [m], new ChangeCollector());
    expect(getStoredMessages(db, [7, 8])).toEqual([m]);
  });

  it('is idempotent and reports added, then only real changes', () => {
    const first = new ChangeCollector();
    expect(upsertMessages(db, [eg.streamMessage({ id: 1 }), eg.streamMessage({ id: 2 })], first)).toEqual({ added: [1, 2], updated: [] });
    expect([...first.added]).toEqual([1, 2]);
    const again = new ChangeCollector();
    expect(upsertMessages(db, [eg.streamMessage({ id: 1 }), eg.streamMessage({ id: 2, flags: ['read'] })], again)).toEqual({ added: [], updated: [2] });
    expect([...again.updated]).toEqual([2]);
    expect(again.areas.has('unread')).toBe(true);
    expect(db.prepare('SELECT count(*) FROM messages').pluck().get()).toBe(2);
  });

  it('indexes the visible text of the rendered HTML and the topic', () => {
    upsertMessages(db, [eg.streamMessage({ id: 1, content: '<p>Caf&eacute; &amp; <strong>crème</strong> brûlée</p>', topic: 'Desserts' })], new ChangeCollector());
    upsertMessages(db, [eg.streamMessage({ id: 2, content: '<p>a <a href="https://strong.example">link</a></p>' })], new ChangeCollector());
    expect(search('creme')).toEqual([1]);
    expect(search('topic:desserts')).toEqual([1]);
    expect(search('strong')).toEqual([]);
    upsertMessages(db, [eg.streamMessage({ id: 1, content: '<p>edited</p>', topic: 'Desserts' })], new ChangeCollector());
    expect(search('creme')).toEqual([]);
    expect(search('edited')).toEqual([1]);
  });

  it('deletes messages and their search entries; unknown ids are ignored', () => {
    upsertMessages(db, [eg.streamMessage({ id: 1 }), eg.streamMessage({ id: 2 })], new ChangeCollector());
    const changes = new ChangeCollector();
    expect(deleteMessages(db, [2, 99], changes)).toEqual([2]);
    expect([...changes.removed]).toEqual([2]);
    expect(search('message')).toEqual([1]);
    expect(newestStoredMessageId(db)).toBe(1);
  });
});

describe('storedMessageOf', () => {
  it('keeps a parsed message per database: two organisations with the same id each get their own hit', () => {
    const other = openLocalDb(':memory:');
    const ours = JSON.stringify(eg.streamMessage({ id: 40, content: '<p>ours</p>' }));
    const theirs = JSON.stringify(eg.streamMessage({ id: 40, content: '<p>theirs</p>' }));
    const first = storedMessageOf(db, 40, ours);
    const firstTheirs = storedMessageOf(other, 40, theirs);
    expect(first.content).toBe('<p>ours</p>');
    expect(firstTheirs.content).toBe('<p>theirs</p>');
    // Hits: the very objects parsed before, neither evicted by the other database's entry.
    expect(storedMessageOf(db, 40, ours)).toBe(first);
    expect(storedMessageOf(other, 40, theirs)).toBe(firstTheirs);
    // A changed row (different text) is parsed afresh.
    const edited = JSON.stringify(eg.streamMessage({ id: 40, content: '<p>edited</p>' }));
    expect(storedMessageOf(db, 40, edited).content).toBe('<p>edited</p>');
    other.close();
  });
});

describe('htmlToText', () => {
  it('drops tags and decodes entities', () => {
    expect(htmlToText('<p>a&lt;b&gt; &#39;c&#x27; &quot;</p>').trim()).toBe(`a<b> 'c' "`);
  });
});
