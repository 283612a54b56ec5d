/**
 * Alert words (Zulip's zerver/lib/alert_words.py): per-user words or phrases that flag a message
 * `has_alert_word` for that user (narrow `is:alerted`). Compared case-insensitively, kept as typed,
 * listed in the order they were added.
 */
import { emit } from '../events/emit.js';
import type { ServerState } from '../state.js';

/** Zulip's AlertWord.MAX_WORD_LENGTH. */
export const MAX_ALERT_WORD_LENGTH = 100;

export function listAlertWords(srv: ServerState, userId: number): string[] {
  return srv.db.prepare('SELECT word FROM alert_words WHERE user_id = ? ORDER BY id').pluck().all(userId) as string[];
}

/** Zulip's clean_alert_words: stripped, empty ones dropped. */
export const cleanAlertWords = (words: readonly string[]) => words.map((w) => w.trim()).filter((w) => w !== '');

function changed(srv: ServerState, userId: number): string[] {
  const words = listAlertWords(srv, userId);
  emit(srv, [userId], { type: 'alert_words', alert_words: words });
  return words;
}

/** Adds the words the user does not have yet (case-insensitively, first spelling wins); returns the list. */
export function addAlertWords(srv: ServerState, userId: number, words: readonly string[]): string[] {
  const have = new Set(listAlertWords(srv, userId).map((w) => w.toLowerCase()));
  const insert = srv.db.prepare('INSERT INTO alert_words (user_id, word) VALUES (?, ?)');
  for (const w of words) {
    if (have.has(w.toLowerCase())) continue;
    have.add(w.toLowerCase());
    insert.run(userId, w);
  }
  return changed(srv, userId);
}

/** Removes the words matching case-insensitively (unknown ones are ignored); returns the list. */
export function removeAlertWords(srv: ServerState, userId: number, words: readonly string[]): string[] {
  const drop = new Set(words.map((w) => w.toLowerCase()));
  const rows = srv.db.prepare('SELECT id, word FROM alert_words WHERE user_id = ?').all(userId) as Array<{ id: number; word: string }>;
  const del = srv.db.prepare('DELETE FROM alert_words WHERE id = ?');
  for (const r of rows) if (drop.has(r.word.toLowerCase())) del.run(r.id);
  return changed(srv, userId);
}

// Zulip's AlertWordNotificationProcessor: a match counts when it starts at the beginning or after
// one of these characters, and ends at the end or before one of the others.
const BEFORE = new Set([' ', '\n', '(', '"', '.', ',', "'", ';', '[', '*', '`', '>']);
const AFTER = new Set([' ', '\n', ')', '"', '?', ':', '.', ',', "'", ';', ']', '!', '*', '`']);

function contains(content: string, word: string): boolean {
  for (let at = content.indexOf(word); at >= 0; at = content.indexOf(word, at + 1)) {
    const end = at + word.length;
    if ((at === 0 || BEFORE.has(content[at - 1]!)) && (end === content.length || AFTER.has(content[end]!))) return true;
  }
  return false;
}

/**
 * The users among `userIds` whose alert words appear in the raw content (the sender's own words
 * never flag their own message, as in Zulip's clients).
 */
export function usersAlertedBy(srv: ServerState, content: string, userIds: Iterable<number>, senderId: number): Set<number> {
  const wanted = new Set(userIds);
  wanted.delete(senderId);
  const out = new Set<number>();
  if (wanted.size === 0) return out;
  const rows = srv.db.prepare('SELECT user_id, word FROM alert_words').all() as Array<{ user_id: number; word: string }>;
  if (rows.length === 0) return out;
  const lower = content.toLowerCase();
  for (const r of rows) {
    if (out.has(r.user_id) || !wanted.has(r.user_id)) continue;
    if (contains(lower, r.word.toLowerCase())) out.add(r.user_id);
  }
  return out;
}
