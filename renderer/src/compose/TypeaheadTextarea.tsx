/**
 * A message's textarea with Zulip's composebox typeahead (text-typeahead.ts decides what opens,
 * the order and what a choice puts in): `@` people, groups and wildcards, `@_` silent mentions,
 * `:` emoji, `#` channels and then `#**channel>` topics. Used by the composer and the inline editor.
 *
 * Keyboard only, as Zulip: while the list is open the first option is highlighted, Down / Up move,
 * Enter or Tab takes the highlighted one (Enter keeps its send / new-line meaning while the list is
 * closed), `>` takes a channel and goes on to its topics, Escape closes the list (with topics
 * offered it closes the channel link, keeping the words typed) without closing the composer.
 * The textarea stays a textbox (a textarea may take no other role) with `aria-autocomplete="list"`,
 * `aria-controls` naming the listbox and `aria-activedescendant` the highlighted option.
 */
import { createMemo, createSignal, createUniqueId, For, Show } from 'solid-js';
import { topicKey } from '../../../common/topic-key.js';
import { emojiChar, emojiLabel } from '../shared/emoji.js';
import { useChannels } from '../data/channels.js';
import { useCompose } from '../data/compose.js';
import { useHome } from '../data/home.js';
import { useNarrow } from '../data/narrow.js';
import { useUsers } from '../data/users.js';
import { topicLabel } from '../kit/format.js';
import { useRealmEmoji } from '../shared/realm-emoji.js';
import { PersonAvatar } from '../shared/AvatarImage.js';
import { moveHighlight } from '../shared/typeahead.js';
import { TypeaheadOption } from '../shared/Typeahead.js';
import {
  applyChoice,
  channelSuggestions,
  emojiSuggestions,
  escapeTopic,
  findTrigger,
  mentionSuggestions,
  mentionText,
  topicJump,
  topicSuggestions,
  type ChannelInfo,
  type Choice,
  type Conversation,
  type GroupInfo,
  type Trigger,
} from './text-typeahead.js';
import '../shared/shared.css';
import './text-typeahead.css';

interface Option {
  choice: Choice;
  label: string;
  detail?: string;
  glyph?: string;
  /** A custom emoji's image (where the page loads it from). */
  image?: string | undefined;
  /** A person: their avatar (initials where none) before the name. */
  person?: { readonly id: number; readonly name: string; readonly avatarUrl: string | null };
}

const LIST_NAMES: Record<Trigger['kind'], string> = { mention: 'People and groups', emoji: 'Emoji', channel: 'Channels', topic: 'Topics' };

export function TypeaheadTextarea(props: {
  label: string;
  value: string;
  conversation: Conversation;
  onText(text: string): void;
  onKeyDown(e: KeyboardEvent): void;
  class?: string;
  placeholder?: string;
  rows?: number;
  readOnly?: boolean;
  ref?(el: HTMLTextAreaElement): void;
  onFocusOut?(e: FocusEvent & { currentTarget: HTMLTextAreaElement }): void;
  onPointerDown?(): void;
  /** Files pasted or dropped (the composer attaches them). */
  onPaste?(e: ClipboardEvent): void;
  onDragOver?(e: DragEvent): void;
  onDrop?(e: DragEvent): void;
}) {
  const id = createUniqueId();
  const users = useUsers();
  const emoji = useRealmEmoji();
  const channels = useChannels();
  const home = useHome();
  const narrow = useNarrow();
  const compose = useCompose();
  let el: HTMLTextAreaElement | undefined;
  const [trigger, setTrigger] = createSignal<Trigger | null>(null);
  const [active, setActive] = createSignal(0);

  // What the stores do not hold is asked for the first time it is needed (groups and the channel's
  // subscribers on a mention, every readable channel on `#`, a channel's topics on `#**channel>`).
  const [groups, setGroups] = createSignal<readonly GroupInfo[]>([]);
  const [subscribers, setSubscribers] = createSignal<{ channelId: number; ids: ReadonlySet<number> } | null>(null);
  const asked = new Set<string>();
  const askOnce = (key: string, run: () => Promise<void>) => {
    if (asked.has(key)) return;
    asked.add(key);
    run().catch(() => undefined); // Offline or refused: the order just goes without it.
  };
  // Every channel one may read (Zulip offers unsubscribed public ones too), and a channel's full topic list.
  const [readable, setReadable] = createSignal<readonly ChannelInfo[]>([]);
  const [topicsOf, setTopicsOf] = createSignal<ReadonlyMap<number, readonly { topic: string }[]>>(new Map());
  const channelList = (): ChannelInfo[] => {
    const subscribed = channels.state.channels;
    const known = new Set(subscribed.map((c) => c.channel_id));
    const rest = readable().filter((c) => !known.has(c.channel_id));
    return [...subscribed, ...rest].map((c) => ({ ...c, topics: topicsOf().get(c.channel_id) ?? c.topics }));
  };
  const loadChannelData = (t: Trigger) => {
    askOnce('channels', async () => {
      const all = await compose.bridge.invoke('allChannels', {});
      setReadable(all.filter((c) => !c.is_archived && (c.subscribed || !c.invite_only)).map((c) => ({ channel_id: c.channel_id, name: c.name, subscribed: c.subscribed, is_muted: false, pin_to_top: false, topics: [] })));
    });
    const c = t.kind === 'topic' ? channelList().find((x) => x.name === t.channel) : undefined;
    if (c) {
      askOnce(`topics:${c.channel_id}`, async () => {
        const r = await compose.bridge.invoke('channelTopics', { channel_id: c.channel_id });
        setTopicsOf((m) => new Map(m).set(c.channel_id, r.topics));
      });
    }
  };
  const loadMentionData = () => {
    askOnce('groups', async () => {
      setGroups((await compose.bridge.invoke('userGroups', { include_deactivated: false })).groups);
    });
    const c = props.conversation;
    if (c?.kind === 'channel') {
      askOnce(`subs:${c.channelId}`, async () => {
        const r = await compose.bridge.invoke('channelSubscribers', { channel_id: c.channelId });
        setSubscribers({ channelId: c.channelId, ids: new Set(r.user_ids) });
      });
    }
  };

  // Zulip leaves muted people out of the typeahead. One list while the people do not change: the
  // matching folds each list's names once (text-typeahead.ts), not on every keystroke.

  /** Who sent the newest messages in this topic and channel (the view's messages), and recent DM partners. */
  const peopleContext = () => {
    const c = props.conversation;
    const topicSenders = new Map<number, number>();
    const channelSenders = new Map<number, number>();
    if (c?.kind === 'channel') {
      for (const m of narrow.state.view?.messages ?? []) {
        if (m.channel_id !== c.channelId) continue;
        channelSenders.set(m.sender_id, Math.max(m.id, channelSenders.get(m.sender_id) ?? 0));
        if (topicKey(m.topic) === topicKey(c.topic)) topicSenders.set(m.sender_id, Math.max(m.id, topicSenders.get(m.sender_id) ?? 0));
      }
    }
    const dmPartners = new Map<number, number>();
    for (const d of home.dms()) for (const p of d.participants) dmPartners.set(p.user_id, Math.max(d.max_message_id, dmPartners.get(p.user_id) ?? 0));
    const subs = subscribers();
    return {
      users: users.unmuted(),
      groups: groups(),
      conversation: c,
      subscribers: c?.kind === 'channel' && subs?.channelId === c.channelId ? subs.ids : undefined,
      topicSenders,
      channelSenders,
      dmPartners,
    };
  };

  const options = createMemo<Option[]>(() => {
    const t = trigger();
    if (t === null) return [];
    if (t.kind === 'mention') {
      return mentionSuggestions(peopleContext(), t.query, t.silent).map((i) => ({
        choice: { type: 'mention', text: mentionText(i, users.state.users) },
        label: i.type === 'user' ? i.user.full_name : i.type === 'group' ? i.group.name : i.name,
        detail: i.type === 'user' ? i.user.email : i.type === 'group' ? i.group.description || 'User group' : i.detail,
        ...(i.type === 'user' ? { person: { id: i.user.user_id, name: i.user.full_name, avatarUrl: i.user.avatar_url } } : {}),
      }));
    }
    if (t.kind === 'emoji') {
      return emojiSuggestions(t.query, emoji.all()).map((entry) => ({
        choice: { type: 'emoji', entry },
        label: emojiLabel(entry.names[0] ?? ''),
        ...(entry.url === undefined ? { glyph: emojiChar(entry.code) ?? undefined } : { image: emoji.imageSrc(entry.url) }),
      }));
    }
    const current = props.conversation?.kind === 'channel' ? props.conversation.channelId : null;
    if (t.kind === 'channel') return channelSuggestions(channelList(), t.query, current).map((c) => ({ choice: { type: 'channel', name: c.name }, label: c.name }));
    const channel = channelList().find((c) => c.name === t.channel);
    return topicSuggestions(channel, t.query).map((i) =>
      i.type === 'channel-link' ? { choice: i, label: i.channel, detail: '(link to channel)' } : { choice: i, label: topicLabel(i.topic), detail: i.isNew ? 'New' : undefined },
    );
  });
  const open = () => options().length > 0;
  const silent = () => {
    const t = trigger();
    return t?.kind === 'mention' && t.silent;
  };

  /** Look at the text around the caret again (after typing, moving the caret, a choice). */
  const look = () => {
    if (!el || el.readOnly) return setTrigger(null);
    const t = findTrigger(el.value, el.selectionStart);
    if (t?.kind === 'mention') loadMentionData();
    else if (t !== null && t.kind !== 'emoji') loadChannelData(t);
    setTrigger(t);
    setActive(0);
  };
  const write = (r: { text: string; caret: number }) => {
    props.onText(r.text);
    if (el) {
      el.value = r.text;
      el.setSelectionRange(r.caret, r.caret);
    }
  };
  const put = (r: { text: string; caret: number }) => {
    write(r);
    look();
  };
  const choose = (o: Option | undefined) => {
    const t = trigger();
    if (!o || !t || !el) return;
    put(applyChoice(el.value, el.selectionStart, t, o.choice));
  };

  const onKeyDown = (e: KeyboardEvent) => {
    const t = trigger();
    if (!open() || t === null || e.isComposing) return props.onKeyDown(e);
    const plain = !e.ctrlKey && !e.metaKey && !e.altKey;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      setActive((a) => moveHighlight(a, options().length, e.key === 'ArrowDown' ? 1 : -1));
    } else if (plain && !e.shiftKey && (e.key === 'Enter' || e.key === 'Tab')) {
      e.preventDefault();
      choose(options()[active()]);
    } else if (plain && e.key === '>' && t.kind === 'channel') {
      e.preventDefault();
      choose(options()[active()]);
    } else if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      if (t.kind === 'topic' && el) write(escapeTopic(el.value, el.selectionStart, t));
      setTrigger(null);
    } else props.onKeyDown(e);
  };

  return (
    <div class="text-typeahead">
      <textarea
        ref={(e) => {
          el = e;
          props.ref?.(e);
        }}
        class={props.class}
        aria-label={props.label}
        aria-autocomplete="list"
        aria-controls={`${id}-list`}
        aria-activedescendant={open() ? `${id}-opt-${active()}` : undefined}
        placeholder={props.placeholder}
        rows={props.rows}
        readOnly={props.readOnly}
        value={props.value}
        onInput={(e) => {
          const jump = topicJump(e.currentTarget.value, e.currentTarget.selectionStart);
          if (jump) put(jump);
          else {
            props.onText(e.currentTarget.value);
            look();
          }
        }}
        onKeyDown={onKeyDown}
        onKeyUp={(e) => {
          if (['ArrowLeft', 'ArrowRight', 'Home', 'End'].includes(e.key)) look();
        }}
        onClick={look}
        onBlur={() => setTrigger(null)}
        onFocusOut={(e) => props.onFocusOut?.(e)}
        onPointerDown={() => props.onPointerDown?.()}
        onPaste={(e) => props.onPaste?.(e)}
        onDragOver={(e) => props.onDragOver?.(e)}
        onDrop={(e) => props.onDrop?.(e)}
      />
      <div class="typeahead-list text-typeahead-list" hidden={!open()}>
        <ul id={`${id}-list`} role="listbox" aria-label={`${LIST_NAMES[trigger()?.kind ?? 'mention']} suggestions`}>
          <For each={options()}>
            {(o, i) => (
              <TypeaheadOption id={`${id}-opt-${i()}`} active={active() === i()} onPick={() => choose(o)} label={o.label} detail={o.detail}>
                <Show when={o.person}>
                  {(p) => <PersonAvatar class="typeahead-avatar" userId={p().id} name={p().name} url={p().avatarUrl} />}
                </Show>
                <Show when={o.glyph}>
                  <span class="typeahead-glyph" aria-hidden="true">
                    {o.glyph}
                  </span>
                </Show>
                <Show when={o.image}>{(src) => <img class="typeahead-glyph emoji-img" src={src()} alt="" />}</Show>
              </TypeaheadOption>
            )}
          </For>
        </ul>
        <Show when={silent()}>
          <p class="hint typeahead-footer">This silent mention won’t trigger notifications.</p>
        </Show>
      </div>
    </div>
  );
}
