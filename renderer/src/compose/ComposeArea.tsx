/**
 * The writing area under a view: the composer the view implies (a reply under a topic or a DM
 * conversation, a new topic in a channel view) or the one opened on purpose (keys c / x / r, the
 * buttons here), and buttons to start a new topic or a new direct message. A composer opened on
 * purpose closes when sent (the app then shows the conversation it went to), on Cancel or Escape,
 * and when the view changes; its text is a draft meanwhile, so nothing is lost.
 */
import { createEffect, createMemo, on, Show } from 'solid-js';
import { Button } from '../kit/Button.js';
import { useShown } from '../kit/kept-views.js';
import { topicLabel } from '../kit/format.js';
import { useNarrow } from '../data/narrow.js';
import { hashOfTarget, type NarrowTarget } from '../data/target.js';
import { useRouter } from '../router/router.js';
import { useChannels } from '../data/channels.js';
import { useUsers } from '../data/users.js';
import { Composer } from './Composer.js';
import type { ComposerStart } from './composer-state.js';
import { conversationHash, type DraftTo } from '../data/drafts.js';
import { useCompose, type ComposeMode } from '../data/compose.js';

/** The composer a view implies, if any. */
export function defaultStart(t: NarrowTarget | undefined, label: (to: DraftTo) => string): ComposerStart | null {
  if (t?.kind === 'topic') {
    const to: DraftTo = { type: 'channel', channel_id: t.channelId, topic: t.topic };
    return { kind: 'reply', to, label: label(to) };
  }
  if (t?.kind === 'dm') {
    const to: DraftTo = { type: 'direct', user_ids: t.userIds };
    return { kind: 'reply', to, label: label(to) };
  }
  if (t?.kind === 'channel') return { kind: 'topic', channelId: t.channelId };
  return null;
}

/** One composer's identity: another one gets a fresh component (a half-typed text never goes elsewhere). */
export function startKey(s: ComposerStart): string {
  if (s.kind === 'reply') return s.to.type === 'channel' ? `r:c:${s.to.channel_id}:${s.to.topic.toLowerCase()}` : `r:d:${[...s.to.user_ids].sort((a, b) => a - b).join(',')}`;
  if (s.kind === 'topic') return `t:${s.channelId ?? ''}`;
  return `d:${s.userIds.join(',')}`;
}

function startOfMode(m: ComposeMode, label: (to: DraftTo) => string): ComposerStart {
  if (m.kind === 'reply') return { kind: 'reply', to: m.to, label: label(m.to) };
  return m;
}

/** The compose area, only while its screen is in the document (a kept screen's would answer the compose store too). */
export function ComposeArea() {
  const shown = useShown();
  return (
    <Show when={shown()}>
      <ShownComposeArea />
    </Show>
  );
}

function ShownComposeArea() {
  const compose = useCompose();
  const narrow = useNarrow();
  const router = useRouter();
  const channels = useChannels();
  const users = useUsers();
  const target = () => narrow.state.view?.target;

  const label = (to: DraftTo): string => {
    if (to.type === 'channel') return topicLabel(to.topic);
    const others = to.user_ids.filter((id) => id !== users.state.ownUserId);
    const ids = others.length > 0 ? others : to.user_ids;
    return ids.map((id) => (id === users.state.ownUserId ? 'yourself' : (users.byId().get(id)?.full_name ?? `user ${id}`))).join(', ');
  };

  // Another view closes a composer opened on purpose (its text stays a draft).
  createEffect(on(() => (target() ? hashOfTarget({ ...target()!, near: undefined }) : ''), () => compose.close(), { defer: true }));

  const explicit = createMemo(() => {
    const m = compose.mode();
    return m === null ? null : startOfMode(m, label);
  });
  const current = createMemo(() => explicit() ?? defaultStart(target(), label), null, { equals: (a, b) => a === b || (a !== null && b !== null && startKey(a) === startKey(b)) });

  /** After a send from a composer opened on purpose: show the conversation it went to. */
  const onSent = (to: DraftTo) => {
    if (compose.mode() === null) return;
    compose.close();
    const hash = conversationHash(to, { selfId: users.state.ownUserId, channelName: (id) => channels.byId(id)?.name, userName: (id) => users.byId().get(id)?.full_name });
    if (hash !== null) router.navigate(hash);
  };

  const channelOfView = () => {
    const t = target();
    return t?.kind === 'channel' || t?.kind === 'topic' ? t.channelId : null;
  };

  return (
    <div class="compose-area">
      <Show when={current()} keyed>
        {(s) => <Composer start={s} onSent={onSent} onCancel={explicit() !== null ? () => compose.close() : undefined} autofocus={explicit() !== null} />}
      </Show>
      <div class="compose-buttons">
        <Show when={current()?.kind !== 'topic'}>
          <Button variant="quiet" size="small" aria-keyshortcuts="c" onClick={() => compose.openNewTopic(channelOfView())}>
            New topic
          </Button>
        </Show>
        <Show when={current()?.kind !== 'dm'}>
          <Button variant="quiet" size="small" aria-keyshortcuts="x" onClick={() => compose.openNewDm()}>
            New direct message
          </Button>
        </Show>
      </div>
    </div>
  );
}
