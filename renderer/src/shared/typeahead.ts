/**
 * Pure: the suggestions of the composer's typeaheads: a channel's cached topics for the topic
 * input, and people for the DM recipient picker. Matching ignores case; names that start with the
 * query come first (then the rest in their given order: topics newest first, people by name).
 */
import type { UserSummary } from '../../../sync/protocol/commands.js';

export const MAX_SUGGESTIONS = 8;

function ranked<T>(items: readonly T[], query: string, texts: (t: T) => string[], max: number): T[] {
  const q = query.trim().toLowerCase();
  const starts: T[] = [];
  const contains: T[] = [];
  for (const item of items) {
    const ts = texts(item).map((t) => t.toLowerCase());
    if (q === '' || ts.some((t) => t.startsWith(q) || t.split(/\s+/).some((w) => w.startsWith(q)))) starts.push(item);
    else if (ts.some((t) => t.includes(q))) contains.push(item);
    if (starts.length >= max) break;
  }
  return [...starts, ...contains].slice(0, max);
}

/** Topics of the channel matching what is typed (the exact name itself is not suggested again). */
export function topicSuggestions(topics: readonly string[], query: string, max = MAX_SUGGESTIONS): string[] {
  const q = query.trim().toLowerCase();
  return ranked(
    topics.filter((t) => t !== '' && t.toLowerCase() !== q),
    query,
    (t) => [t],
    max,
  );
}

/** People to add to a DM: active, not already picked, matching by name or address. */
export function peopleSuggestions(users: readonly UserSummary[], query: string, picked: readonly number[], max = MAX_SUGGESTIONS): UserSummary[] {
  const taken = new Set(picked);
  const pool = users.filter((u) => u.is_active && !taken.has(u.user_id)).sort((a, b) => a.full_name.localeCompare(b.full_name));
  return ranked(pool, query, (u) => [u.full_name, u.email], max);
}

/** The option highlighted after an arrow key, wrapping around; -1 for none. */
export function moveHighlight(current: number, count: number, step: 1 | -1): number {
  if (count === 0) return -1;
  if (current < 0) return step === 1 ? 0 : count - 1;
  return (current + step + count) % count;
}
