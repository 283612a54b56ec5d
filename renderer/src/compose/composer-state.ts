/**
 * The composer's state and behaviour (Composer.tsx is its markup): what it writes to, the text and
 * its draft, typing notices, quotes and snippets put in at the caret, sending and scheduling, and
 * the keys. Made once per composer, inside its component.
 */
import { insertBlock, type IntentTo } from './compose-intents.js';
import { topicKey } from '../../../common/topic-key.js';
import { createEffect, createMemo, createSignal, on, onMount } from 'solid-js';
import { errorText } from '../core/errors.js';
import { useSettings } from '../data/settings.js';
import { useChannels } from '../data/channels.js';
import { useUsers } from '../data/users.js';
import { canSubmit, keyAction } from './compose-reducer.js';
import { createDraftSaver } from './draft-saver.js';
import { createTypingSender } from './typing-sender.js';
import { draftFor, draftKeyOf, newTopicDraft, type DraftTo } from '../data/drafts.js';
import { useCompose } from '../data/compose.js';
import { insertAtCaret } from '../snippets/snippet-filter.js';
import { flushWhenHidden, restoreDraft, takeQuotes } from './composer-hooks.js';
import type { Conversation } from './text-typeahead.js';
import { createAttachments } from './attachments.js';
import { useOutbox } from '../data/outbox.js';

/** What a composer writes to: a fixed conversation, a new topic, or a new DM. */
export type ComposerStart =
  | { kind: 'reply'; to: DraftTo; label: string }
  | { kind: 'topic'; channelId: number | null }
  | { kind: 'dm'; userIds: number[] };

export interface ComposerProps {
  start: ComposerStart;
  /** Called once the engine has queued a message, with where it went. */
  onSent?: (to: DraftTo) => void;
  /** Offers Cancel (and Escape) closing this composer. */
  onCancel?: () => void;
  /** Take the focus when mounted (a composer opened on purpose). */
  autofocus?: boolean;
}

export function createComposer(props: ComposerProps) {
  const compose = useCompose();
  const settings = useSettings();
  const channels = useChannels();
  const users = useUsers();
  const start = props.start;

  const [text, setText] = createSignal('');
  const [topic, setTopic] = createSignal('');
  const [channelId, setChannelId] = createSignal<number | null>(start.kind === 'topic' ? start.channelId : null);
  const [people, setPeople] = createSignal<number[]>(start.kind === 'dm' ? [...start.userIds] : []);
  const [preview, setPreview] = createSignal(false);
  const [error, setError] = createSignal<string | null>(null);
  const outbox = useOutbox();
  const files = createAttachments({ bridge: compose.bridge, discard: (id) => outbox.discard(id), onError: setError });
  let touched = false;
  let input: HTMLTextAreaElement | undefined;
  let topicInput: HTMLInputElement | undefined;
  let peopleInput: HTMLInputElement | undefined;

  const selfId = () => users.state.ownUserId;
  const enterSends = () => settings.raw()?.enter_sends === true;

  /** Where the text goes now; null while a new DM has nobody or a new topic no channel. */
  const to = createMemo<DraftTo | null>(() => {
    if (start.kind === 'reply') return start.to;
    if (start.kind === 'topic') {
      const c = channelId();
      return c === null ? null : { type: 'channel', channel_id: c, topic: topic().trim() };
    }
    const ids = people();
    return ids.length === 0 ? null : { type: 'direct', user_ids: [...ids].sort((a, b) => a - b) };
  });

  /** Where the text goes, for the typeahead's wildcards and order (a new topic's channel before it is named). */
  const conversation = (): Conversation => {
    if (start.kind === 'dm') return { kind: 'dm' };
    const t = to();
    if (t?.type === 'direct') return { kind: 'dm' };
    return t ? { kind: 'channel', channelId: t.channel_id, topic: t.topic } : null;
  };

  /** Where the text is kept as a draft: `to`, and a new DM with nobody picked yet has its own (`dm:`). */
  const draftTo = (): DraftTo | null => to() ?? (start.kind === 'dm' ? { type: 'direct', user_ids: [] } : null);

  const saver = createDraftSaver({
    save: (t, content) => compose.saveDraft(t, content),
    remove: (key) => compose.deleteDraft(key),
    keyOf: (t) => draftKeyOf(t, selfId()),
  });
  const edited = () => {
    touched = true;
    saver.change(draftTo(), text());
  };
  const flush = () => saver.flush();

  const typing = createTypingSender<DraftTo>({
    send: (t, op) => compose.bridge.invoke('setTyping', { to: t, op }),
    keyOf: (t) => draftKeyOf(t, selfId()),
    idleStop: true,
  });
  /** Where typing is told: a named conversation, and only while there is text. */
  const typed = () => {
    const t = to();
    typing.typed(t === null || (t.type === 'channel' && t.topic === '') || text().trim() === '' ? null : t);
  };
  /** Put `r.text` in and the caret at `r.caret` (a quote, a snippet). */
  const putText = (r: { text: string; caret: number }) => {
    setText(r.text);
    edited();
    queueMicrotask(() => {
      input?.focus();
      input?.setSelectionRange(r.caret, r.caret);
    });
  };
  // A quote for this conversation (a reply composer only) lands at the caret.
  takeQuotes(
    (i: IntentTo) => {
      const t = to();
      if (t === null || start.kind !== 'reply') return false;
      if (i.type === 'channel') return t.type === 'channel' && t.channel_id === i.channelId && topicKey(t.topic) === topicKey(i.topic);
      return t.type === 'direct' && draftKeyOf(t, selfId()) === draftKeyOf({ type: 'direct', user_ids: i.userIds }, selfId());
    },
    (quote) => putText(insertBlock(text(), input?.selectionStart ?? text().length, quote)),
  );
  flushWhenHidden(flush, () => {
    saver.dispose();
    typing.dispose();
  });

  const channelTopics = () => channels.byId(channelId() ?? -1)?.topics.map((t) => t.topic) ?? [];
  restoreDraft({
    ready: () => compose.drafts.loaded && (start.kind !== 'topic' || channels.state.loaded),
    touched: () => touched,
    list: () => compose.drafts.list,
    find: (list) => {
      const target = draftTo();
      return start.kind === 'topic' ? (channelId() === null ? undefined : newTopicDraft(list, channelId() ?? 0, channelTopics())) : target === null ? undefined : draftFor(list, target, selfId());
    },
    apply: (d) => {
      if (d.to.type === 'channel' && start.kind === 'topic') setTopic(d.to.topic);
      setText(d.content);
      saver.adopt(d.to, d.content);
    },
  });

  const focusFirst = () => {
    if (start.kind === 'topic' && topic() === '' && topicInput) topicInput.focus();
    else if (start.kind === 'dm' && people().length === 0 && peopleInput) peopleInput.focus();
    else {
      if (preview()) setPreview(false);
      input?.focus();
    }
  };
  onMount(() => {
    if (compose.claimFocus() || props.autofocus === true) focusFirst();
  });
  createEffect(on(compose.focusRequests, () => queueMicrotask(focusFirst), { defer: true }));

  const missing = (): string | null => {
    if (start.kind === 'topic' && channelId() === null) return 'Pick a channel.';
    if (start.kind === 'topic' && topic().trim() === '') return 'Name the topic.';
    if (start.kind === 'dm' && people().length === 0) return 'Add at least one person.';
    return null;
  };
  const canSend = () => (canSubmit(text()) || files.list().length > 0) && to() !== null && missing() === null;

  /** Send now, or with `at` (UNIX seconds) schedule it (scheduled/): either way the composer clears. */
  const send = (at?: number) => {
    const content = text();
    const target = to();
    if (target === null || (!canSubmit(content) && files.list().length === 0)) return;
    const why = missing();
    if (why !== null) return setError(why);
    if (at !== undefined && files.list().length > 0) return setError('A message with files can be sent now, not scheduled.');
    const attached = files.take();
    const uploads = attached.length > 0 ? { uploads: attached.map((a) => a.uploadId) } : {};
    saver.sent(target);
    typing.stop();
    setText('');
    setError(null);
    setPreview(false);
    const dest = target.type === 'channel' ? { type: 'channel' as const, channel_id: target.channel_id, topic: target.topic } : { type: 'direct' as const, user_ids: target.user_ids };
    const queued = at === undefined ? compose.bridge.invoke('sendMessage', { to: dest, content, ...uploads }) : compose.bridge.invoke('createScheduledMessage', { to: dest, content, scheduled_delivery_timestamp: at });
    queued.then(
      () => props.onSent?.(target),
      (e: unknown) => {
        // Nothing was queued: give the text back unless the user started another one meanwhile.
        if (text() === '') {
          setText(content);
          edited();
        }
        files.restore(attached);
        setError(errorText(e));
      },
    );
  };

  let lastSelection: { start: number; end: number } | null = null;
  // A saved snippet (snippets/) goes in at the caret, replacing a selection.
  const insertSnippet = (snippet: string) => {
    if (preview()) setPreview(false);
    // Where the caret was when the text lost focus (the picker took it; giving focus back may move
    // the caret), else where it is.
    const sel = lastSelection ?? { start: input?.selectionStart ?? text().length, end: input?.selectionEnd ?? text().length };
    lastSelection = null;
    putText(insertAtCaret(text(), Math.min(sel.start, text().length), Math.min(sel.end, text().length), snippet));
  };

  const cancel = () => {
    flush();
    props.onCancel?.();
  };
  let openSnippets: (() => void) | undefined;
  /** Escape in any field: close (or leave) the composer. */
  const escape = (e: KeyboardEvent) => {
    e.preventDefault();
    if (props.onCancel) cancel();
    else (e.currentTarget as HTMLElement).blur();
  };
  const onKeyDown = (e: KeyboardEvent) => {
    lastSelection = null;
    // Zulip's shortcut for the saved snippets menu.
    if ((e.ctrlKey || e.metaKey) && e.key === "'" && openSnippets) {
      e.preventDefault();
      openSnippets();
      return;
    }
    if (e.key === 'Escape') return escape(e);
    if (keyAction(e, enterSends()) !== 'submit') return;
    e.preventDefault();
    send();
  };
  const fieldKeys = (e: KeyboardEvent) => {
    if (e.key === 'Escape') escape(e);
  };

  const label = () => (start.kind === 'reply' ? start.label : start.kind === 'topic' ? 'a new topic' : 'the people picked');
  const textName = () => (start.kind === 'reply' ? `Message to ${start.label}` : start.kind === 'topic' ? 'Message to a new topic' : 'Direct message text');

  const toggleEnterSends = (on: boolean) => {
    compose.bridge.invoke('updateSettings', { settings: { enter_sends: on } }).then(
      () => settings.refresh(),
      (e: unknown) => setError(errorText(e)),
    );
  };
  return {
    start,
    text,
    setText,
    topic,
    setTopic,
    channelId,
    setChannelId,
    people,
    setPeople,
    preview,
    setPreview,
    error,
    edited,
    flush,
    typed,
    stopTyping: () => typing.stop(),
    channelTopics,
    conversation,
    canSend,
    send,
    insertSnippet,
    cancel,
    onKeyDown,
    fieldKeys,
    label,
    textName,
    enterSends,
    toggleEnterSends,
    files,
    setOpenSnippets: (open: () => void) => (openSnippets = open),
    refs: {
      input: () => input,
      setInput: (el: HTMLTextAreaElement) => (input = el),
      setTopic: (el: HTMLInputElement) => (topicInput = el),
      setPeople: (el: HTMLInputElement) => (peopleInput = el),
    },
    /** Where the caret was when the text lost focus (null: ask the textarea). */
    setLastSelection: (sel: { start: number; end: number } | null) => (lastSelection = sel),
  };
}
