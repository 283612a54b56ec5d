/**
 * The client (`sync/api`) against the reference server on loopback, for the operations real
 * clients use beyond the spec: a channel's topics, alert words, custom emoji, linkifiers and the
 * temporary URL of an upload.
 */
import { describe, expect, it } from 'vitest';
import {
  addAlertWords,
  getAlertWords,
  getCustomEmoji,
  getFileTemporaryUrl,
  getLinkifiers,
  getStreams,
  getStreamTopics,
  removeAlertWords,
  sendMessage,
  type ApiError,
} from '../../sync/api/index.js';
import { apiSuite, connect, t } from './support.js';

apiSuite();

describe('sync/api against the reference server: topics, alert words, realm data, uploads', () => {
  it('getStreamTopics: newest first, one entry per topic whatever its case, errors typed', async () => {
    const hamlet = connect('hamlet');
    const verona = (await getStreams(hamlet)).streams.find((s) => s.name === 'Verona')!.stream_id;
    await sendMessage(hamlet, { type: 'channel', to: verona, topic: 'ÄPFEL', content: 'one' });
    const last = await sendMessage(hamlet, { type: 'channel', to: verona, topic: 'Äpfel', content: 'two' });
    const { topics } = await getStreamTopics(hamlet, { streamId: verona });
    expect(topics[0]).toEqual({ name: 'Äpfel', max_id: last.id });
    expect(topics.filter((x) => x.name.toLowerCase() === 'äpfel')).toHaveLength(1);
    const err = (await getStreamTopics(hamlet, { streamId: 987_654 }).catch((e: unknown) => e)) as ApiError;
    expect(err).toMatchObject({ kind: 'api', code: 'BAD_REQUEST' });
  });

  it('alert words round-trip', async () => {
    const cordelia = connect('cordelia');
    expect((await getAlertWords(cordelia)).alert_words).toEqual([]);
    expect((await addAlertWords(cordelia, { alert_words: ['storm', 'Heath'] })).alert_words).toEqual(['storm', 'Heath']);
    expect((await removeAlertWords(cordelia, { alert_words: ['heath'] })).alert_words).toEqual(['storm']);
  });

  it('custom emoji and linkifiers parse', async () => {
    const hamlet = connect('hamlet');
    // The demo realm's two, by id, parsed as RealmEmoji (still_url and author_id filled).
    expect((await getCustomEmoji(hamlet)).emoji).toMatchObject({
      '1': { id: '1', name: 'shipit', source_url: '/user_avatars/2/emoji/images/1.png', still_url: null, deactivated: false },
      '2': { id: '2', name: 'party_parrot', deactivated: false },
    });
    expect((await getLinkifiers(hamlet)).linkifiers).toEqual([]);
  });

  it('getFileTemporaryUrl: the URL it answers serves the file without credentials', async () => {
    const hamlet = connect('hamlet');
    const fd = new FormData();
    fd.append('file', new Blob(['to be']), 'hamlet act 3.txt');
    const up = await fetch(`${t.url}/api/v1/user_uploads`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`hamlet@example.com:${t.server.apiKey('hamlet@example.com')}`).toString('base64')}` },
      body: fd,
    });
    const url = ((await up.json()) as { url: string }).url;
    const temp = await getFileTemporaryUrl(hamlet, { url: `${t.url}${url}` });
    const res = await fetch(`${t.url}${temp.url}`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('to be');
  });
});
