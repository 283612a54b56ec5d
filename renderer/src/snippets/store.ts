/**
 * The user's saved snippets (query `savedSnippets`, live area `saved_snippets`) for as long as
 * the calling component lives. A snippet created offline shows at once under a negative local id.
 */
import type * as z from 'zod';
import type { savedSnippetSchema } from '../../../sync/protocol/commands.js';
import { useLiveQuery } from '../core/area-query-store.js';
import type { Bridge } from '../core/bridge.js';

export type SavedSnippet = z.output<typeof savedSnippetSchema>;

export function useSavedSnippets(bridge: Bridge) {
  return useLiveQuery<SavedSnippet[]>(bridge, { fetch: () => bridge.invoke('savedSnippets', {}), areas: ['saved_snippets'], initial: [], key: 'id' });
}
