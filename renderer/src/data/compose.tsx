/**
 * Composing, app-wide: the engine's drafts (query `drafts`, kept current by the `drafts` area) and
 * which composer is open. By default the open view decides (a topic or a DM conversation: a reply
 * composer; a channel: a new topic in it); `openNewTopic`, `openNewDm` and `openReply` open
 * another one (the keyboard's c, x, r), until it is sent, cancelled or the view changes.
 * `focus()` asks the open composer to take the keyboard focus; `focusNextOpened()` asks it of the
 * next composer that opens (a draft continued from `#drafts`, whose conversation opens first).
 */
import { createSignal, type Accessor } from 'solid-js';
import type { DraftView } from '../../../sync/protocol/commands.js';
import { createAreaQuery, turnedLive } from '../core/area-query-store.js';
import type { Bridge } from '../core/bridge.js';
import type { DraftTo } from './drafts.js';
import { storeContext } from './store-context.js';

/** A composer opened on purpose (not the view's default one). */
export type ComposeMode =
  | { kind: 'topic'; channelId: number | null }
  | { kind: 'dm'; userIds: number[] }
  | { kind: 'reply'; to: DraftTo };

export interface ComposeStore {
  readonly drafts: { readonly list: readonly DraftView[]; readonly loaded: boolean };
  mode: Accessor<ComposeMode | null>;
  openNewTopic(channelId: number | null): void;
  openNewDm(userIds?: number[]): void;
  openReply(to: DraftTo): void;
  /** Back to the view's own composer. */
  close(): void;
  /** Bumped by `focus()`: the open composer focuses its text when it changes. */
  focusRequests: Accessor<number>;
  focus(): void;
  focusNextOpened(): void;
  /** Whether a composer opening now takes the focus (once: the request is used up). */
  claimFocus(): boolean;
  saveDraft(to: DraftTo, content: string): Promise<unknown>;
  deleteDraft(key: string): Promise<unknown>;
  bridge: Bridge;
  dispose(): void;
}

export function createComposeStore(bridge: Bridge): ComposeStore {
  const q = createAreaQuery<DraftView[]>(bridge, {
    fetch: () => bridge.invoke('drafts', {}),
    areas: ['drafts'],
    // Before the first sync there may be no account open yet; once live there is.
    when: turnedLive,
    initial: [],
    key: 'key',
    onError: 'keep',
  });
  const [mode, setMode] = createSignal<ComposeMode | null>(null);
  const [focusRequests, setFocusRequests] = createSignal(0);
  const focus = () => setFocusRequests((n) => n + 1);
  let focusOnOpen = false;
  return {
    drafts: {
      get list() {
        return q.state.data;
      },
      get loaded() {
        return q.state.loaded;
      },
    },
    mode,
    openNewTopic: (channelId) => {
      setMode({ kind: 'topic', channelId });
      focus();
    },
    openNewDm: (userIds = []) => {
      setMode({ kind: 'dm', userIds });
      focus();
    },
    openReply: (to) => {
      setMode({ kind: 'reply', to });
      focus();
    },
    close: () => setMode(null),
    focusRequests,
    focus,
    focusNextOpened: () => (focusOnOpen = true),
    claimFocus: () => {
      const claimed = focusOnOpen;
      focusOnOpen = false;
      return claimed;
    },
    saveDraft: (to, content) => bridge.invoke('saveDraft', { to, content }),
    deleteDraft: (key) => bridge.invoke('deleteDraft', { key }),
    bridge,
    dispose: q.dispose,
  };
}

const ctx = storeContext('Compose', (bridge) => createComposeStore(bridge));
export const ComposeProvider = ctx.Provider;
export const useCompose = ctx.use;
