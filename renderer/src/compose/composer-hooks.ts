/**
 * The composer's lifetime chores, apart from its markup: saving when the page goes away, taking
 * the quotes meant for its conversation, and starting from the conversation's draft.
 */
import { createEffect, onCleanup, onMount } from 'solid-js';
import { composeIntents, type IntentTo } from './compose-intents.js';
import type { DraftView } from '../../../sync/protocol/commands.js';

/** `flush` when the page is hidden or left; `dispose` with the component. */
export function flushWhenHidden(flush: () => void, dispose: () => void): void {
  const onVisibility = () => {
    if (document.visibilityState === 'hidden') flush();
  };
  document.addEventListener('visibilitychange', onVisibility);
  window.addEventListener('pagehide', flush);
  onCleanup(() => {
    document.removeEventListener('visibilitychange', onVisibility);
    window.removeEventListener('pagehide', flush);
    dispose();
  });
}

/** "Quote and reply" (compose-intents.ts): a quote `matches` accepts goes to `insert`, now and whenever one arrives. */
export function takeQuotes(matches: (to: IntentTo) => boolean, insert: (text: string) => void): void {
  const take = () => {
    const intent = composeIntents.take((i) => matches(i.to));
    if (intent) insert(intent.text);
  };
  onCleanup(composeIntents.subscribe(() => take()));
  onMount(() => take());
}

/**
 * Start from the conversation's draft once the drafts are known (and, for a new topic, the
 * channel's topics: its draft is told apart by its topic not existing yet), unless the user typed first.
 */
export function restoreDraft(opts: {
  ready(): boolean;
  touched(): boolean;
  list(): readonly DraftView[];
  find(list: readonly DraftView[]): DraftView | undefined;
  apply(d: DraftView): void;
}): void {
  let restored = false;
  createEffect(() => {
    if (restored || !opts.ready()) return;
    restored = true;
    if (opts.touched()) return;
    const d = opts.find(opts.list());
    if (d) opts.apply(d);
  });
}
