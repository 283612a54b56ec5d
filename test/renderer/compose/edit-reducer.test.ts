/** The inline editor's transitions: raw text loaded or refused, content and move changes, what Save sends. */
import { describe, expect, it } from 'vitest';
import { moveFields } from '../../../renderer/src/shared/move-form.js';
import { canSave, contentSaved, editMove, editText, editUploads, rawFailed, rawLoaded, saveFailed, saveRequests, saving, startEdit, topicOrChannelChanged } from '../../../renderer/src/compose/edit-reducer.js';

const own = { content: true, move: null };
const withMove = (content: boolean) => ({ content, move: moveFields({ channelId: 3, topic: 'lunch' }, 'change_later') });

describe('editing the content', () => {
  it('files attached make an edit even with the text unchanged, and go with it', () => {
    const s1 = rawLoaded(startEdit(42, own), 'notes');
    const s2 = editUploads(s1, [-3]);
    expect(canSave(s2)).toBe(true);
    expect(saveRequests(s2).edit).toEqual({ message_id: 42, content: 'notes', base_raw_content: 'notes', uploads: [-3] });
    expect(contentSaved(s2).uploads).toEqual([]);
  });

  it('files attached while the text is still being read are kept for when it arrives; none go with a topic-only edit', () => {
    const loading = editUploads(startEdit(42, own), [-5]);
    expect(loading.uploads).toEqual([-5]);
    expect(canSave(loading)).toBe(false);
    const ready = rawLoaded(loading, 'notes');
    expect(saveRequests(ready).edit).toEqual({ message_id: 42, content: 'notes', base_raw_content: 'notes', uploads: [-5] });
    // The text could not be read: the topic alone is edited, and names no file.
    const topicOnly = rawFailed(editUploads(startEdit(42, withMove(true)), [-6]), 'offline');
    expect(editUploads(topicOnly, [-6, -7]).uploads).toEqual([-6]);
    expect(saveRequests(editMove(topicOnly, { topic: 'dinner' })).edit).toBeNull();
    // No content to edit at all: nothing is attached.
    expect(editUploads(startEdit(42, withMove(false)), [-8]).uploads).toEqual([]);
  });

  it('loads the raw text, then saves only a changed, non-empty text', () => {
    const s0 = startEdit(42, own);
    expect(s0).toMatchObject({ messageId: 42, phase: 'loading', base: null });
    expect(canSave(s0)).toBe(false);
    expect(editText(s0, 'typed too early')).toBe(s0);
    const s1 = rawLoaded(s0, 'hello **world**');
    expect(s1).toMatchObject({ phase: 'ready', base: 'hello **world**', text: 'hello **world**' });
    expect(canSave(s1)).toBe(false); // unchanged
    expect(canSave(editText(s1, '   '))).toBe(false);
    const s2 = editText(s1, 'hello there');
    expect(canSave(s2)).toBe(true);
    expect(saveRequests(s2)).toEqual({ edit: { message_id: 42, content: 'hello there', base_raw_content: 'hello **world**' }, move: null });
    const s3 = saving(s2);
    expect(s3).toMatchObject({ phase: 'saving', base: 'hello **world**', text: 'hello there' });
    expect(editText(s3, 'changed while saving')).toBe(s3);
  });

  it('a refused save goes back to the form with the reason; a failed load without a move says why and stops', () => {
    const s = saving(editText(rawLoaded(startEdit(1, own), 'a'), 'b'));
    expect(saveFailed(s, 'Check what you entered: deadline passed')).toMatchObject({ phase: 'ready', text: 'b', error: 'Check what you entered: deadline passed' });
    expect(rawFailed(startEdit(1, own), 'The original text is not on this device')).toMatchObject({ phase: 'error', error: 'The original text is not on this device' });
  });

  it('late answers do not move an editor that is past them', () => {
    const ready = rawLoaded(startEdit(1, own), 'a');
    expect(rawLoaded(ready, 'other')).toBe(ready);
    expect(rawFailed(ready, 'late')).toBe(ready);
    expect(saveFailed(ready, 'late')).toBe(ready);
    expect(saving(ready)).toBe(ready); // nothing to save
  });
});

describe('moving from the editor', () => {
  it('someone else’s message: no content to load, the topic alone can change', () => {
    const s0 = startEdit(7, withMove(false));
    expect(s0.phase).toBe('ready');
    expect(canSave(s0)).toBe(false);
    const s1 = editMove(s0, { topic: 'dinner' });
    expect(topicOrChannelChanged(s1)).toBe(true);
    expect(canSave(s1)).toBe(true);
    expect(saveRequests(s1)).toEqual({
      edit: null,
      move: { message_id: 7, topic: 'dinner', propagate_mode: 'change_later', send_notification_to_old_thread: false, send_notification_to_new_thread: true },
    });
  });

  it('the raw text refused offline: the reason is kept, and a move still saves', () => {
    const s = rawFailed(startEdit(7, withMove(true)), 'The original text of this message is not on this device');
    expect(s).toMatchObject({ phase: 'ready', rawError: 'The original text of this message is not on this device', error: null });
    expect(editText(s, 'x')).toBe(s);
    expect(canSave(editMove(s, { channelId: 4 }))).toBe(true);
    expect(saveRequests(editMove(s, { channelId: 4 })).edit).toBeNull();
  });

  it('content and topic together: both requests, the edit first; once the edit is queued it no longer counts', () => {
    const s = editMove(editText(rawLoaded(startEdit(7, withMove(true)), 'a'), 'b'), { topic: 'x', propagate: 'change_all' });
    const r = saveRequests(s);
    expect(r.edit).toEqual({ message_id: 7, content: 'b', base_raw_content: 'a' });
    expect(r.move).toMatchObject({ topic: 'x', propagate_mode: 'change_all' });
    expect(saveRequests(contentSaved(s)).edit).toBeNull();
    // An emptied text is never saved, whatever else changed.
    expect(canSave(editText(s, ' '))).toBe(false);
  });

  it('move fields cannot change while saving', () => {
    const s = saving(editMove(startEdit(7, withMove(false)), { topic: 'x' }));
    expect(editMove(s, { topic: 'y' })).toBe(s);
  });
});
