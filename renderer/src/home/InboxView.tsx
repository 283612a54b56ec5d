/**
 * The inbox (#inbox), as Zulip web has it: unread conversations, direct messages first, then each
 * channel with its unread topics; channel groups collapse; each row links into its conversation
 * and has a "mark as read" button; muted topics and channels are left out. Arrow keys move
 * between the rows' links. Under it, as under every view, the composer's "New topic" and "New
 * direct message" buttons (and keys c / x) start a conversation, as in Zulip web.
 */
import { ComposeArea } from '../compose/ComposeArea.js';
import { createMemo, createSignal, For, Show } from 'solid-js';
import { bridge } from '../core/bridge.js';
import { errorText } from '../core/errors.js';
import { EmptyState } from '../kit/EmptyState.js';
import { useToasts } from '../kit/toasts.js';
import { topicLabel } from '../kit/format.js';
import { hashOfTarget } from '../data/target.js';
import { useChannels } from '../data/channels.js';
import { UnreadBadge } from '../kit/UnreadBadge.js';
import { useUsers } from '../data/users.js';
import { inboxOf } from './home-reducer.js';
import { onRowKeys } from './row-keys.js';
import { createKeyedStore } from '../kit/keyed-store.js';
import { createRenderMore } from '../kit/render-more.js';
import { useHome } from '../data/home.js';
import './home.css';

function MarkRead(props: { label: string; onMark: () => void }) {
  return (
    <button type="button" class="home-mark" aria-label={props.label} title="Mark as read" onClick={() => props.onMark()}>
      <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true">
        <path d="M3 8.5l3 3 7-7" fill="none" stroke="currentColor" stroke-width="1.8" stroke-linecap="round" stroke-linejoin="round" />
      </svg>
    </button>
  );
}

/** One unread conversation: its link, a mark when it mentions you, its count, and Mark as read. */
function InboxRow(props: { href: string; name: string; emptyTopic?: boolean; mentions: number; count: number; markLabel: string; onMark: () => void }) {
  return (
    <li class="inbox-row">
      <a class="home-link" classList={{ 'empty-topic': props.emptyTopic === true }} href={props.href}>
        <span class="row-name">{props.name}</span>
      </a>
      <Show when={props.mentions > 0}>
        <span class="home-mention" title="Mentions you">@</span>
      </Show>
      <UnreadBadge count={props.count} />
      <MarkRead label={props.markLabel} onMark={() => props.onMark()} />
    </li>
  );
}

/** Rows (conversations and channel headings) rendered at first, and added as the list's end nears the view. */
const INBOX_PAGE = 100;

function Chevron(props: { open: boolean }) {
  return (
    <svg class="home-chevron" classList={{ closed: !props.open }} viewBox="0 0 16 16" width="12" height="12" aria-hidden="true">
      <path d="M4 6l4 4 4-4" fill="none" stroke="currentColor" stroke-width="1.8" stroke-linecap="round" />
    </svg>
  );
}

export function InboxView() {
  const home = useHome();
  const channels = useChannels();
  const users = useUsers();
  const toasts = useToasts();
  const [collapsed, setCollapsed] = createSignal<ReadonlySet<string>>(new Set());
  // Rows keep their DOM across unread changes: only a changed count or a new topic renders.
  const inbox = createKeyedStore(createMemo(() => inboxOf(home.plainUnread(), channels.plain(), home.plainDms(), users.state.ownUserId)));
  const empty = () => inbox.dms.length === 0 && inbox.channels.length === 0;
  const toggle = (key: string) => {
    const next = new Set(collapsed());
    if (!next.delete(key)) next.add(key);
    setCollapsed(next);
  };
  const userName = (id: number) => users.byId().get(id)?.full_name;
  const mark = (what: string, p: Promise<unknown>) => void p.catch((e: unknown) => toasts.show(`Could not mark ${what} as read. ${errorText(e)}`, 'error'));
  const dmCount = () => inbox.dms.reduce((n, d) => n + d.count, 0);
  // A large organisation's Inbox holds thousands of unread topics: rows render a page at a time,
  // in reading order (direct messages, then each open channel's heading and topics).
  const more = createRenderMore(INBOX_PAGE);
  const budget = createMemo(() => {
    let left = more.count();
    const dms = collapsed().has('dms') ? 0 : Math.min(inbox.dms.length, left);
    left -= dms;
    const topics: number[] = [];
    for (const c of inbox.channels) {
      if (left <= 0) break;
      left -= 1;
      const n = collapsed().has(c.key) ? 0 : Math.min(c.topics.length, left);
      topics.push(n);
      left -= n;
    }
    // Every row fits: the open groups' rows and every channel heading.
    const rows = (collapsed().has('dms') ? 0 : inbox.dms.length) + inbox.channels.reduce((n, c) => n + 1 + (collapsed().has(c.key) ? 0 : c.topics.length), 0);
    return { dms, topics, all: rows <= more.count() };
  });
  return (
    <section class="narrow home" aria-label="Inbox">
      <header class="narrow-header">
        <h1 class="narrow-title">Inbox</h1>
      </header>
      <div class="home-body">
        <Show when={home.unreadLoaded() && channels.state.loaded} fallback={<EmptyState title="Loading…" role="status" />}>
          <Show when={!empty()} fallback={<EmptyState title="You have no unread messages" role="status">New messages will show up here.</EmptyState>}>
            <div class="inbox" onKeyDown={onRowKeys}>
              <Show when={inbox.dms.length > 0}>
                <div class="inbox-group">
                  <div class="inbox-group-head">
                    <button type="button" class="home-toggle" aria-expanded={!collapsed().has('dms')} onClick={() => toggle('dms')}>
                      <Chevron open={!collapsed().has('dms')} />
                      <span class="inbox-group-name">Direct messages</span>
                    </button>
                    <UnreadBadge count={dmCount()} />
                  </div>
                  <Show when={!collapsed().has('dms')}>
                    <ul class="inbox-rows" aria-label="Unread direct messages">
                      <For each={inbox.dms.slice(0, budget().dms)}>
                        {(d) => (
                          <InboxRow
                            href={hashOfTarget(d.target, userName)}
                            name={d.names}
                            mentions={d.mentions}
                            count={d.count}
                            markLabel={`Mark the conversation with ${d.names} as read`}
                            onMark={() => {
                              const t = d.target;
                              if (t.kind === 'dm') mark(`the conversation with ${d.names}`, bridge.invoke('updateMessageFlagsForNarrow', { narrow: [{ operator: 'dm', operand: [...t.userIds] }] }));
                            }}
                          />
                        )}
                      </For>
                    </ul>
                  </Show>
                </div>
              </Show>
              <For each={inbox.channels.slice(0, budget().topics.length)}>
                {(c, i) => {
                  const key = c.key;
                  return (
                    <div class="inbox-group">
                      <div class="inbox-group-head">
                        <button type="button" class="home-toggle" aria-expanded={!collapsed().has(key)} aria-label={`${collapsed().has(key) ? 'Expand' : 'Collapse'} ${c.name}`} onClick={() => toggle(key)}>
                          <Chevron open={!collapsed().has(key)} />
                        </button>
                        <span class="swatch" aria-hidden="true" style={c.color ? { 'background-color': c.color } : undefined} />
                        <a class="home-link inbox-group-name" href={hashOfTarget({ kind: 'channel', channelId: c.channelId, channelName: c.name })}>
                          {c.name}
                        </a>
                        <UnreadBadge count={c.count} />
                        <MarkRead label={`Mark all messages in ${c.name} as read`} onMark={() => mark(c.name, bridge.invoke('updateMessageFlagsForNarrow', { narrow: [{ operator: 'channel', operand: c.channelId }] }))} />
                      </div>
                      <Show when={!collapsed().has(key)}>
                        <ul class="inbox-rows" aria-label={`Unread topics in ${c.name}`}>
                          <For each={c.topics.slice(0, budget().topics[i()] ?? 0)}>
                            {(t) => (
                              <InboxRow
                                href={hashOfTarget({ kind: 'topic', channelId: c.channelId, channelName: c.name, topic: t.topic })}
                                name={topicLabel(t.topic)}
                                emptyTopic={t.topic === ''}
                                mentions={t.mentions}
                                count={t.count}
                                markLabel={`Mark ${c.name} › ${topicLabel(t.topic)} as read`}
                                onMark={() => mark(`${c.name} › ${topicLabel(t.topic)}`, bridge.invoke('markTopicAsRead', { channel_id: c.channelId, topic: t.topic }))}
                              />
                            )}
                          </For>
                        </ul>
                      </Show>
                    </div>
                  );
                }}
              </For>
              <Show when={!budget().all}>
                <div class="inbox-more" ref={more.sentinel} aria-hidden="true" />
              </Show>
            </div>
          </Show>
        </Show>
      </div>
      <ComposeArea />
    </section>
  );
}
