/**
 * A composer's files: the "Attach files" button (a file picker), and the list of attached files,
 * each with its state as the outbox says (waiting for the connection, uploading with a progress
 * bar, uploaded, refused), an image shown from its local copy, and a button removing it.
 */
import { For, Show } from 'solid-js';
import { Button } from '../kit/Button.js';
import { useOutbox } from '../data/outbox.js';
import type { Attached, Attachments } from './attachments.js';

const sizeText = (n: number) => (n < 1024 ? `${n} B` : n < 1024 * 1024 ? `${Math.round(n / 1024)} KB` : `${(n / 1024 / 1024).toFixed(1)} MB`);

export function AttachButton(props: { attachments: Attachments }) {
  let input: HTMLInputElement | undefined;
  return (
    <>
      <Button variant="quiet" size="small" class="composer-attach" onClick={() => input?.click()}>
        Attach files
      </Button>
      <input
        ref={(el) => (input = el)}
        type="file"
        multiple
        hidden
        aria-label="Files to attach"
        onChange={(e) => {
          const files = [...(e.currentTarget.files ?? [])];
          e.currentTarget.value = '';
          void props.attachments.add(files);
        }}
      />
    </>
  );
}

function AttachedFile(props: { file: Attached; onRemove(): void }) {
  const outbox = useOutbox();
  const row = () => outbox.state.rows.find((r) => r.outbox_id === props.file.outboxId);
  const progressOf = () => (row()?.state === 'sending' ? outbox.uploadProgress(props.file.uploadId) : undefined);
  // The list holds unfinished rows: one seen there and gone since has landed.
  let seen = false;
  const status = () => {
    const r = row();
    if (!r) return seen ? 'Uploaded' : 'Waiting to upload';
    seen = true;
    // The bar carries how far it went; the status (a live region) says only that it is uploading.
    if (r.state === 'sending' || r.state === 'verifying' || r.state === 'unknown') return 'Uploading…';
    if (r.state === 'failed') return `Not uploaded: ${r.last_error?.message ?? 'refused'}`;
    return 'Waiting to upload';
  };
  return (
    <li class="composer-file">
      <Show when={props.file.src}>{(src) => <img class="composer-file-image" src={src()} alt={props.file.name} />}</Show>
      <span class="composer-file-name">{props.file.name}</span>
      <span class="hint">{sizeText(props.file.size)}</span>
      <span class="hint composer-file-status" role="status">
        {status()}
      </span>
      <Show when={status() === 'Uploading…'}>
        {/* Determinate once the engine reports bytes sent; until then (and while verifying) indeterminate. */}
        <Show when={progressOf()?.total ? progressOf() : undefined} fallback={<progress class="composer-file-progress" aria-label={`Uploading ${props.file.name}`} />}>
          {(p) => <progress class="composer-file-progress" aria-label={`Uploading ${props.file.name}`} value={p().sent} max={p().total} />}
        </Show>
      </Show>
      <Button variant="quiet" size="small" aria-label={`Remove ${props.file.name}`} onClick={() => props.onRemove()}>
        ×
      </Button>
    </li>
  );
}

export function AttachedFiles(props: { attachments: Attachments }) {
  return (
    <Show when={props.attachments.list().length > 0 || props.attachments.staging() > 0}>
      <ul class="composer-files" aria-label="Attached files">
        <For each={props.attachments.list()}>{(f) => <AttachedFile file={f} onRemove={() => props.attachments.remove(f)} />}</For>
        <Show when={props.attachments.staging() > 0}>
          <li class="composer-file hint">Attaching…</li>
        </Show>
      </ul>
    </Show>
  );
}
