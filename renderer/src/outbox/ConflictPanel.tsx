/**
 * A conflicting edit, settled in place: a sentence saying what happened, the user's version and
 * the server's ("Their version"), each marked word by word against the text both started from,
 * and three ways out: Keep mine, Take theirs, or Edit a merge (a textarea starting from the
 * three-way merge of the base and both versions: both sides' changes where they do not overlap,
 * conflict markers where they do; Save, once no marker is left, sends the merged text as the edit).
 */
import { createSignal, For, Show } from 'solid-js';
import { canSaveMerge, conflictOf, wordDiff, type Conflict } from './conflict-reducer.js';
import type { Marker } from '../data/outbox-reducer.js';
import { useOutbox } from '../data/outbox.js';
import { Button } from '../kit/Button.js';
import { hasConflictMarkers } from '../../../common/merge-markers.js';

type ConflictMarker = Extract<Marker, { status: 'conflict' }>;

/** One side's text, with its changes from the base marked (the raw text when too long to compare). */
function Version(props: { title: string; base: string; text: string; side: 'ours' | 'theirs' }) {
  const diff = () => wordDiff(props.base, props.text);
  return (
    <section class={`conflict-version conflict-${props.side}`} aria-label={props.title}>
      <h3 class="conflict-heading">{props.title}</h3>
      <pre class="conflict-text">
        <Show when={diff()} fallback={props.text}>
          {(d) => (
            <For each={d()}>
              {(s) => (s.kind === 'same' ? s.text : s.kind === 'added' ? <ins class="diff-added">{s.text}</ins> : <del class="diff-removed">{s.text}</del>)}
            </For>
          )}
        </Show>
      </pre>
    </section>
  );
}

export function ConflictPanel(props: { marker: ConflictMarker; messageId: number; busy: boolean; act: (f: (id: number) => Promise<unknown>) => void }) {
  const outbox = useOutbox();
  const conflict = (): Conflict | null => conflictOf(outbox.state.rows, props.marker.outboxId);
  // null: not merging; otherwise the text being merged.
  const [merge, setMerge] = createSignal<string | null>(null);
  const titleId = `conflict-title-${props.messageId}`;

  const save = (e: SubmitEvent) => {
    e.preventDefault();
    const text = merge();
    if (text === null || !canSaveMerge(text)) return;
    props.act((id) => outbox.merge(id, text));
  };

  return (
    <div class="local-banner local-conflict" role="group" aria-labelledby={titleId} title={props.marker.reason ?? undefined}>
      <span class="local-title" id={titleId} role="alert">
        {props.marker.label}
      </span>
      <span class="local-detail">{props.marker.detail}</span>
      <Show when={conflict()}>
        {(c) => (
          <div class="conflict-versions">
            <Version title="Your version" side="ours" base={c().base} text={c().ours} />
            <Version title="Their version" side="theirs" base={c().base} text={c().theirs} />
          </div>
        )}
      </Show>
      <Show
        when={merge() !== null}
        fallback={
          <div class="conflict-actions">
            <Button size="small" disabled={props.busy} onClick={() => props.act((id) => outbox.resolve(id, 'keep_mine', props.messageId))}>
              Keep mine
            </Button>
            <Button variant="quiet" size="small" disabled={props.busy} onClick={() => props.act((id) => outbox.resolve(id, 'take_theirs', props.messageId))}>
              Take theirs
            </Button>
            <Show when={conflict()}>
              {(c) => (
                <Button variant="quiet" size="small" disabled={props.busy} onClick={() => setMerge(c().merged)}>
                  Edit a merge
                </Button>
              )}
            </Show>
          </div>
        }
      >
        <form class="conflict-merge" aria-label="Merge the two versions" onSubmit={save}>
          <textarea
            class="editor-input"
            aria-label="Merged text"
            rows={Math.min(12, Math.max(3, (merge() ?? '').split('\n').length))}
            value={merge() ?? ''}
            ref={(el) => queueMicrotask(() => el.focus())}
            onInput={(e) => setMerge(e.currentTarget.value)}
          />
          <Show when={hasConflictMarkers(merge() ?? '')}>
            <p class="hint" role="status">
              Where both changed the same words, both versions are shown between the marker lines: keep what you want, then remove the marker lines to save.
            </p>
          </Show>
          <div class="editor-actions">
            <Button type="submit" variant="primary" size="small" disabled={props.busy || !canSaveMerge(merge() ?? '')}>
              Save merge
            </Button>
            <Button variant="quiet" size="small" disabled={props.busy} onClick={() => setMerge(null)}>
              Cancel
            </Button>
          </div>
        </form>
      </Show>
    </div>
  );
}
