/**
 * "King Hamlet is typing…" under the message list of the conversation being viewed (a topic or a
 * DM), from the engine's `typingInConversation` (live area `typing`). Nobody tells the page when a
 * notice expires, so while someone is typing the list is asked again every couple of seconds.
 * Polite live region: a screen reader hears it without being interrupted.
 */
import { createEffect, createMemo, onCleanup, Show } from 'solid-js';
import { createAreaQuery } from '../core/area-query-store.js';
import { afterPaint } from '../kit/after-paint.js';
import { bridge as defaultBridge, type Bridge } from '../core/bridge.js';
import { typingText } from '../compose/typing-sender.js';
import { useUsers } from '../data/users.js';
import type { NarrowTarget } from '../data/target.js';
import type { DraftTo } from '../data/drafts.js';

/** How often the typists are asked again while someone types (the engine expires them). */
const TYPING_POLL_MS = 2000;

/** The conversation a view shows, if it is one (a topic or a DM). */
export function typingConversation(t: NarrowTarget): DraftTo | null {
  if (t.kind === 'topic') return { type: 'channel', channel_id: t.channelId, topic: t.topic };
  if (t.kind === 'dm') return { type: 'direct', user_ids: [...t.userIds] };
  return null;
}

function Typists(props: { to: DraftTo; bridge: Bridge }) {
  const users = useUsers();
  const q = createAreaQuery(props.bridge, {
    fetch: () => props.bridge.invoke('typingInConversation', { to: props.to }),
    areas: ['typing'],
    initial: { user_ids: [] as number[] },
    onError: 'reset',
    // Nobody is shown typing as a view opens: the engine is asked once the view is painted.
    start: (fetch) => afterPaint(fetch, TYPING_POLL_MS),
  });
  createEffect(() => {
    if (q.state.data.user_ids.length === 0) return;
    const t = window.setInterval(() => void q.refresh(), TYPING_POLL_MS);
    onCleanup(() => window.clearInterval(t));
  });
  onCleanup(q.dispose);
  const text = () => typingText(q.state.data.user_ids.map((id) => users.byId().get(id)?.full_name ?? 'Someone'));
  return (
    <p class="typing-line" role="status" aria-live="polite" aria-label="Who is typing">
      {text() ?? ''}
    </p>
  );
}

export function TypingLine(props: { target: NarrowTarget; bridge?: Bridge }) {
  // The store updates the target in place: remount per conversation, by its key.
  const key = createMemo(() => {
    const to = typingConversation(props.target);
    return to === null ? null : JSON.stringify(to);
  });
  return (
    <Show when={key()} keyed>
      {(k) => <Typists to={JSON.parse(k) as DraftTo} bridge={props.bridge ?? defaultBridge} />}
    </Show>
  );
}
