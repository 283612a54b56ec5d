/**
 * The emoji the pickers, the typeahead and reaction chips offer: the Unicode set under the names
 * the server accepts (engine query `serverEmojiNames`), and the realm's custom emoji (engine query
 * `realmEmoji`); both answered offline from the store and kept current by their area. Their images load like uploads: from the
 * host, which fetches them with the account's credentials and keeps them for offline
 * (sync/protocol/uploads.ts). Outside the provider (component tests) there are none.
 */
import { createContext, createMemo, useContext, type JSX } from 'solid-js';
import { QUERY_AREAS, type RealmEmojiView } from '../../../sync/protocol/commands.js';
import { realmUploadPath, uploadSrc } from '../../../sync/protocol/uploads.js';
import { useLiveQuery } from '../core/area-query-store.js';
import { bridge as defaultBridge, type Bridge } from '../core/bridge.js';
import { hostSession } from '../core/host-session.js';
import { useAccounts } from '../data/accounts.js';
import { customEmojiEntries, EMOJI, withServerNames, type EmojiEntry } from './emoji.js';

export interface RealmEmojiStore {
  /** The Unicode emoji with the names this server accepts (engine query `serverEmojiNames`; the app's own table when it has none). */
  unicode(): readonly EmojiEntry[];
  /** Every emoji offered: the Unicode ones, then the realm's. */
  all(): readonly EmojiEntry[];
  /** Active custom emoji as picker entries (code = id, `url` = the image path on the realm), by name. */
  entries(): readonly EmojiEntry[];
  /** Where the page loads an emoji's image from (undefined: not an image this realm serves). */
  imageSrc(sourceUrl: string): string | undefined;
  /** Any custom emoji (deactivated ones too: old reactions) by id. */
  byId(id: string): RealmEmojiView | undefined;
}

const NONE: RealmEmojiStore = { unicode: () => EMOJI, all: () => EMOJI, entries: () => [], imageSrc: () => undefined, byId: () => undefined };

const Ctx = createContext<RealmEmojiStore>();

export function RealmEmojiProvider(props: { bridge?: Bridge; children: JSX.Element }) {
  const bridge = props.bridge ?? defaultBridge;
  const accounts = useAccounts();
  const q = useLiveQuery<RealmEmojiView[]>(bridge, { fetch: () => bridge.invoke('realmEmoji', {}), areas: [...QUERY_AREAS.realmEmoji, 'accounts'], initial: [] });
  const names = useLiveQuery<Record<string, string[]> | null>(bridge, { fetch: () => bridge.invoke('serverEmojiNames', {}), areas: [...QUERY_AREAS.serverEmojiNames, 'accounts'], initial: null });
  const unicode = createMemo(() => withServerNames(EMOJI, names.data));
  const entries = createMemo(() => customEmojiEntries(q.data));
  const all = createMemo(() => [...unicode(), ...entries()]);
  const ids = createMemo(() => new Map(q.data.map((e) => [e.id, e])));
  const store: RealmEmojiStore = {
    unicode,
    all,
    entries,
    byId: (id) => ids().get(id),
    imageSrc: (sourceUrl) => {
      const realm = accounts.active()?.realm_url;
      const path = realm === undefined ? undefined : realmUploadPath(sourceUrl, realm);
      return path === undefined ? undefined : uploadSrc(path, typeof window.zulip?.invoke === 'function', hostSession()?.uploads);
    },
  };
  return <Ctx.Provider value={store}>{props.children}</Ctx.Provider>;
}

export function useRealmEmoji(): RealmEmojiStore {
  return useContext(Ctx) ?? NONE;
}
