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
import { For, Show } from 'solid-js';
import { Button } from '../kit/Button.js';
import { ErrorText } from '../kit/ErrorText.js';
import { MessageContent } from '../shared/MessageContent.js';
import { slashWidgetHint } from '../widgets/widget-data.js';
import { RecipientPicker } from '../shared/RecipientPicker.js';
import { renderPreview } from './preview.js';
import { createComposer, type ComposerProps } from './composer-state.js';
import { ComposerTools, TopicFields } from './ComposerParts.js';
import { TypeaheadTextarea } from './TypeaheadTextarea.js';
import { AttachButton, AttachedFiles } from './Attachments.js';
import { fileDropHandlers } from './attachments.js';
import './compose.css';

export function Composer(props: ComposerProps) {
  const c = createComposer(props);
  const start = c.start;
  return (
    <form
      class="composer"
      aria-label={start.kind === 'reply' ? 'Compose' : start.kind === 'topic' ? 'New topic' : 'New direct message'}
      onSubmit={(e) => {
        e.preventDefault();
        c.send();
      }}
      onFocusOut={(e) => {
        // Leaving the composer altogether (not moving between its fields) saves at once.
        const next = e.relatedTarget;
        if (!(next instanceof Node) || !e.currentTarget.contains(next)) {
          c.flush();
          c.stopTyping();
        }
      }}
    >
      <Show when={start.kind === 'topic'}>
        <TopicFields
          channelId={c.channelId()}
          topic={c.topic()}
          topics={c.channelTopics()}
          onChannel={(id) => (c.setChannelId(id), c.edited())}
          onTopic={(v, picked) => {
            c.setTopic(v);
            c.edited();
            if (picked) c.refs.input()?.focus();
          }}
          onKeyDown={c.fieldKeys}
          topicRef={c.refs.setTopic}
        />
      </Show>
      <Show when={start.kind === 'dm'}>
        <RecipientPicker
          people={c.people()}
          onChange={(ids) => {
            c.setPeople(ids);
            c.edited();
          }}
          onDone={() => c.refs.input()?.focus()}
          onOtherKey={c.fieldKeys}
          ref={c.refs.setPeople}
        />
      </Show>
      <div class="composer-main">
        <Show
          when={c.preview()}
          fallback={
            <TypeaheadTextarea
              ref={c.refs.setInput}
              class="composer-input"
              label={c.textName()}
              placeholder={`Message ${c.label()}`}
              rows={2}
              value={c.text()}
              conversation={c.conversation()}
              onText={(text) => {
                c.setLastSelection(null);
                c.setText(text);
                c.edited();
                c.typed();
              }}
              onKeyDown={c.onKeyDown}
              onFocusOut={(e) => c.setLastSelection({ start: e.currentTarget.selectionStart, end: e.currentTarget.selectionEnd })}
              onPointerDown={() => c.setLastSelection(null)}
              {...fileDropHandlers(c.files)}
            />
          }
        >
          <div class="composer-preview" role="region" aria-label="Preview" tabindex="0" onKeyDown={c.onKeyDown}>
            <Show when={c.text().trim() !== '' || c.files.list().length > 0} fallback={<p class="hint">Nothing to preview.</p>}>
              <Show when={slashWidgetHint(c.text())}>{(hint) => <p class="hint">{hint()}</p>}</Show>
              <MessageContent html={renderPreview(c.text())} />
              <For each={c.files.list().filter((f) => f.src !== undefined)}>{(f) => <img class="composer-preview-image" src={f.src} alt={f.name} />}</For>
            </Show>
          </div>
        </Show>
        <Button type="submit" variant="primary" class="composer-send" disabled={!c.canSend()}>
          Send
        </Button>
      </div>
      <AttachedFiles attachments={c.files} />
      <AttachButton attachments={c.files} />
      <ComposerTools
        preview={c.preview()}
        canSend={c.canSend()}
        enterSends={c.enterSends()}
        onPreview={c.setPreview}
        onSchedule={(at) => c.send(at)}
        onSnippet={c.insertSnippet}
        snippetsOpener={c.setOpenSnippets}
        onCancel={props.onCancel ? c.cancel : undefined}
        onEnterSends={c.toggleEnterSends}
      />
      <ErrorText class="composer-error" message={c.error()} />
    </form>
  );
}