/**
 * The composer: a reply under a topic or a DM conversation, a new topic (channel and a topic input
 * suggesting the channel's cached topics), or a new direct message (a recipient picker). The user's
 * `enter_sends` decides whether Enter or Ctrl/Cmd+Enter sends (Shift+Enter is always a new line).
 *
 * Drafts belong to the engine: what is typed is saved debounced (draft-saver.ts) and on blur, on
 * leaving the conversation and when the page is hidden; a composer opening on a conversation
 * starts from its draft. The text is cleared as soon as the engine has queued the message (which
 * deletes the draft; a send that fails later keeps its text in the outbox row); a refusal puts the
 * text back. Preview renders the Markdown on this device, sanitised like the server's HTML.
 *
 * Others are told we type (typing-sender.ts, as Zulip web does) only while the text is not empty
 * and goes to a named conversation (a topic with a name, or people): `stop` after the realm's
 * idle period, on send, and on leaving the composer.
 */
import { composeIntents, insertBlock, type IntentTo } from '../actions/compose-intents.js';
import { topicKey } from '../../../common/topic-key.js';
import { createEffect, createMemo, createSignal, For, on, onCleanup, onMount, Show } from 'solid-js';
import { errorText } from '../core/errors.js';
import { Button } from '../kit/Button.js';
import { MessageContent } from '../narrow/MessageContent.js';
import { topicLabel } from '../narrow/format.js';
import { useSettings } from '../settings/store.js';
import { useChannels } from '../sidebar/store.js';
import { useUsers } from '../users/store.js';
import { canSubmit, keyAction, sendHint } from './compose-reducer.js';
import { createDraftSaver } from './draft-saver.js';
import { createTypingSender } from './typing-sender.js';
import { draftFor, draftKeyOf, newTopicDraft, type DraftTo } from './drafts.js';
import { renderPreview } from './preview.js';
import { useCompose } from './store.js';
import { RecipientPicker } from './RecipientPicker.js';
import { Typeahead } from './Typeahead.js';
import { topicSuggestions } from './typeahead.js';
import { ScheduleButton } from '../scheduled/ScheduleButton.js';
import { SnippetsButton } from '../snippets/SnippetsButton.js';
import { insertAtCaret } from '../snippets/snippet-filter.js';
import './compose.css';

/** What a composer writes to: a fixed conversation, a new topic, or a new DM. */
export type ComposerStart =
  | { kind: 'reply'; to: DraftTo; label: string }
  | { kind: 'topic'; channelId: number | null }
  | { kind: 'dm'; userIds: number[] };

const isMac = () => typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);

export function Composer(props: {
  start: ComposerStart;
  /** Called once the engine has queued a message, with where it went. */
  onSent?: (to: DraftTo) => void;
  /** Offers Cancel (and Escape) closing this composer. */
  onCancel?: () => void;
  /** Take the focus when mounted (a composer opened on purpose). */
  autofocus?: boolean;
}) {
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
  let touched = false;
  let restored = false;
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

  const saver = createDraftSaver({
    save: (t, content) => compose.saveDraft(t, content),
    remove: (key) => compose.deleteDraft(key),
    keyOf: (t) => draftKeyOf(t, selfId()),
  });
  const edited = () => {
    touched = true;
    saver.change(to(), text());
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

  // "Quote and reply" (actions/compose-intents.ts): a quote for this conversation lands at the caret.
  const sameConversation = (i: IntentTo): boolean => {
    const t = to();
    if (t === null || start.kind !== 'reply') return false;
    if (i.type === 'channel') return t.type === 'channel' && t.channel_id === i.channelId && topicKey(t.topic) === topicKey(i.topic);
    return t.type === 'direct' && draftKeyOf(t, selfId()) === draftKeyOf({ type: 'direct', user_ids: i.userIds }, selfId());
  };
  const takeQuote = () => {
    const intent = composeIntents.take((i) => sameConversation(i.to));
    if (!intent) return;
    const r = insertBlock(text(), input?.selectionStart ?? text().length, intent.text);
    setText(r.text);
    edited();
    queueMicrotask(() => {
      input?.focus();
      input?.setSelectionRange(r.caret, r.caret);
    });
  };
  onCleanup(composeIntents.subscribe(() => takeQuote()));
  onMount(() => takeQuote());
  const onVisibility = () => {
    if (document.visibilityState === 'hidden') flush();
  };
  document.addEventListener('visibilitychange', onVisibility);
  window.addEventListener('pagehide', flush);
  onCleanup(() => {
    document.removeEventListener('visibilitychange', onVisibility);
    window.removeEventListener('pagehide', flush);
    saver.dispose();
    typing.dispose();
  });

  const channelTopics = () => channels.byId(channelId() ?? -1)?.topics.map((t) => t.topic) ?? [];

  // Start from the conversation's draft, once the drafts are known (unless the user typed first).
  createEffect(() => {
    if (restored || !compose.drafts.loaded) return;
    // A new topic's draft is told apart by its topic not existing yet: that needs the topics.
    if (start.kind === 'topic' && !channels.state.loaded) return;
    restored = true;
    if (touched) return;
    const list = compose.drafts.list;
    const target = to();
    const d = start.kind === 'topic' ? (channelId() === null ? undefined : newTopicDraft(list, channelId() ?? 0, channelTopics())) : target === null ? undefined : draftFor(list, target, selfId());
    if (!d) return;
    if (d.to.type === 'channel' && start.kind === 'topic') setTopic(d.to.topic);
    setText(d.content);
    saver.adopt(d.to, d.content);
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
    if (props.autofocus === true) focusFirst();
  });
  createEffect(on(compose.focusRequests, () => queueMicrotask(focusFirst), { defer: true }));

  const missing = (): string | null => {
    if (start.kind === 'topic' && channelId() === null) return 'Pick a channel.';
    if (start.kind === 'topic' && topic().trim() === '') return 'Name the topic.';
    if (start.kind === 'dm' && people().length === 0) return 'Add at least one person.';
    return null;
  };
  const canSend = () => canSubmit(text()) && to() !== null && missing() === null;

  /** Send now, or with `at` (UNIX seconds) schedule it (scheduled/): either way the composer clears. */
  const send = (at?: number) => {
    const content = text();
    const target = to();
    if (target === null || !canSubmit(content)) return;
    const why = missing();
    if (why !== null) {
      setError(why);
      return;
    }
    saver.sent(target);
    typing.stop();
    setText('');
    setError(null);
    setPreview(false);
    const dest = target.type === 'channel' ? { type: 'channel' as const, channel_id: target.channel_id, topic: target.topic } : { type: 'direct' as const, user_ids: target.user_ids };
    const queued = at === undefined ? compose.bridge.invoke('sendMessage', { to: dest, content }) : compose.bridge.invoke('createScheduledMessage', { to: dest, content, scheduled_delivery_timestamp: at });
    queued.then(
      () => props.onSent?.(target),
      (e: unknown) => {
        // Nothing was queued: give the text back unless the user started another one meanwhile.
        if (text() === '') {
          setText(content);
          edited();
        }
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
    const r = insertAtCaret(text(), Math.min(sel.start, text().length), Math.min(sel.end, text().length), snippet);
    setText(r.text);
    edited();
    queueMicrotask(() => {
      input?.focus();
      input?.setSelectionRange(r.caret, r.caret);
    });
  };

  const cancel = () => {
    flush();
    props.onCancel?.();
  };

  let openSnippets: (() => void) | undefined;
  const onKeyDown = (e: KeyboardEvent) => {
    lastSelection = null;
    // Zulip's shortcut for the saved snippets menu.
    if ((e.ctrlKey || e.metaKey) && e.key === "'" && openSnippets) {
      e.preventDefault();
      openSnippets();
      return;
    }
    if (e.key === 'Escape') {
      e.preventDefault();
      if (props.onCancel) cancel();
      else (e.currentTarget as HTMLElement).blur();
      return;
    }
    if (keyAction(e, enterSends()) !== 'submit') return;
    e.preventDefault();
    send();
  };
  /** Escape in a recipient field: like in the text. */
  const fieldKeys = (e: KeyboardEvent) => {
    if (e.key === 'Escape') {
      e.preventDefault();
      if (props.onCancel) cancel();
      else (e.currentTarget as HTMLElement).blur();
    }
  };

  const label = () => (start.kind === 'reply' ? start.label : start.kind === 'topic' ? 'a new topic' : 'the people picked');
  const textName = () => (start.kind === 'reply' ? `Message to ${start.label}` : start.kind === 'topic' ? 'Message to a new topic' : 'Direct message text');

  const toggleEnterSends = (on: boolean) => {
    compose.bridge.invoke('updateSettings', { settings: { enter_sends: on } }).then(
      () => settings.refresh(),
      (e: unknown) => setError(errorText(e)),
    );
  };

  return (
    <form
      class="composer"
      aria-label={start.kind === 'reply' ? 'Compose' : start.kind === 'topic' ? 'New topic' : 'New direct message'}
      onSubmit={(e) => {
        e.preventDefault();
        send();
      }}
      onFocusOut={(e) => {
        // Leaving the composer altogether (not moving between its fields) saves at once.
        const next = e.relatedTarget;
        if (!(next instanceof Node) || !e.currentTarget.contains(next)) {
          flush();
          typing.stop();
        }
      }}
    >
      <Show when={start.kind === 'topic'}>
        <div class="composer-to">
          <select
            class="composer-channel"
            aria-label="Channel"
            value={channelId() === null ? '' : String(channelId())}
            onChange={(e) => {
              const v = e.currentTarget.value;
              setChannelId(v === '' ? null : Number(v));
              edited();
            }}
            onKeyDown={fieldKeys}
          >
            <Show when={channelId() === null}>
              <option value="">Pick a channel</option>
            </Show>
            <For each={channels.state.channels}>{(c) => <option value={String(c.channel_id)}>{c.name}</option>}</For>
          </select>
          <span class="composer-sep" aria-hidden="true">
            ›
          </span>
          <Typeahead
            class="composer-topic"
            label="Topic"
            placeholder="Topic"
            value={topic()}
            ref={(el) => (topicInput = el)}
            suggestions={topicSuggestions(channelTopics(), topic()).map((t) => ({ key: t, label: topicLabel(t) }))}
            onInput={(v) => {
              setTopic(v);
              edited();
            }}
            onPick={(s) => {
              setTopic(s.key);
              edited();
              input?.focus();
            }}
            onKeyDown={fieldKeys}
          />
        </div>
      </Show>
      <Show when={start.kind === 'dm'}>
        <RecipientPicker
          people={people()}
          onChange={(ids) => {
            setPeople(ids);
            edited();
          }}
          onDone={() => input?.focus()}
          onOtherKey={fieldKeys}
          ref={(el) => (peopleInput = el)}
        />
      </Show>
      <div class="composer-main">
        <Show
          when={preview()}
          fallback={
            <textarea
              ref={input}
              class="composer-input"
              aria-label={textName()}
              placeholder={`Message ${label()}`}
              rows={2}
              value={text()}
              onInput={(e) => {
                lastSelection = null;
                setText(e.currentTarget.value);
                edited();
                typed();
              }}
              onKeyDown={onKeyDown}
              onFocusOut={(e) => (lastSelection = { start: e.currentTarget.selectionStart, end: e.currentTarget.selectionEnd })}
              onPointerDown={() => (lastSelection = null)}
            />
          }
        >
          <div class="composer-preview" role="region" aria-label="Preview" tabindex="0" onKeyDown={onKeyDown}>
            <Show when={text().trim() !== ''} fallback={<p class="hint">Nothing to preview.</p>}>
              <MessageContent html={renderPreview(text())} />
            </Show>
          </div>
        </Show>
        <Button type="submit" variant="primary" class="composer-send" disabled={!canSend()}>
          Send
        </Button>
      </div>
      <div class="composer-tools">
        <Button variant="quiet" size="small" aria-pressed={preview()} onClick={() => setPreview(!preview())}>
          Preview
        </Button>
        <ScheduleButton disabled={!canSend()} onSchedule={(at) => send(at)} />
        <SnippetsButton onInsert={insertSnippet} opener={(open) => (openSnippets = open)} />
        <Show when={props.onCancel}>
          <Button variant="quiet" size="small" onClick={cancel}>
            Cancel
          </Button>
        </Show>
        <label class="composer-enter">
          <input type="checkbox" checked={enterSends()} onChange={(e) => toggleEnterSends(e.currentTarget.checked)} />
          Enter sends
        </label>
        <span class="hint composer-hint">{preview() ? 'Rendered on this device: the server’s rendering may differ.' : sendHint(enterSends(), isMac())}</span>
      </div>
      <Show when={error()}>
        <p class="error composer-error" role="alert">
          {error()}
        </p>
      </Show>
    </form>
  );
}
