/**
 * A conversation run's heading text, in a search's results with the topic's matches marked: as the
 * server marked them when the view fetched the message online (`match_subject`, shared/highlight.ts
 * `serverMarkedRuns`), else by the device's rule (common/search.ts), as the message's content is.
 */
import { For, Show } from 'solid-js';
import type { LocalMessage } from '../../../sync/protocol/messages.js';
import { splitMatches } from '../../../common/search.js';
import { serverMarkedRuns } from '../shared/highlight.js';

/** `matcher`: the view's search (common/search.ts `searchMatcher`), null when it searches nothing. */
export function RecipientLabel(props: { label: string; message: LocalMessage; matcher: RegExp | null }) {
  const runs = () => {
    const m = props.message;
    if (m.topic === '' || !props.label.endsWith(m.topic)) return null;
    if (m.match_subject !== undefined) return serverMarkedRuns(m.match_subject, m.topic);
    return props.matcher === null ? null : splitMatches(m.topic, props.matcher);
  };
  return (
    <Show when={runs()} fallback={props.label}>
      {(r) => (
        <>
          {props.label.slice(0, props.label.length - props.message.topic.length)}
          <For each={r()}>{(run) => (run.match ? <mark class="search-match">{run.text}</mark> : run.text)}</For>
        </>
      )}
    </Show>
  );
}
