/**
 * Compose intents: what other features ask of the composer, without importing it. The message
 * actions post a `quote` intent ("Quote and reply": the text to insert, the conversation it answers);
 * the composer consumes it. The composer uses exactly this:
 *
 *   import { composeIntents, insertBlock } from './compose-intents.js';
 *   // when mounted for a conversation, and whenever an intent arrives:
 *   const off = composeIntents.subscribe(() => {
 *     const intent = composeIntents.take((i) => sameConversation(i.to, myTo));
 *     if (intent) { const r = insertBlock(text(), caret(), intent.text); setText(r.text); focusAt(r.caret); }
 *   });
 *   onCleanup(off);
 *
 * An intent waits (the last one only) until a composer takes it, so "Quote and reply" from a view
 * without a composer (the combined feed) can open the conversation first and the composer there
 * finds the quote when it mounts. Plain TypeScript (no Solid), unit-tested.
 */
import { createLatest } from '../kit/latest.js';

/** The conversation a quote answers (the composer's own `ComposeTo` shape). */
export type IntentTo = { type: 'channel'; channelId: number; topic: string } | { type: 'direct'; userIds: number[] };

export interface QuoteIntent {
  kind: 'quote';
  to: IntentTo;
  /** Markdown to insert as a block. */
  text: string;
  /** The quoted message. */
  messageId: number;
}

export type ComposeIntent = QuoteIntent;

export interface ComposeIntents {
  /** Post an intent (replacing one not taken yet) and tell the listeners. */
  request(intent: ComposeIntent): void;
  /** The waiting intent, removed, if `accept` wants it (default: any). */
  take(accept?: (i: ComposeIntent) => boolean): ComposeIntent | null;
  /** The waiting intent, left in place. */
  peek(): ComposeIntent | null;
  /** Hear new intents; returns the unsubscribe function. */
  subscribe(listener: (i: ComposeIntent) => void): () => void;
}

export function createComposeIntents(): ComposeIntents {
  const pending = createLatest<ComposeIntent>();
  return {
    request: pending.announce,
    take(accept) {
      const i = pending.latest();
      if (i === null || (accept && !accept(i))) return null;
      pending.clear();
      return i;
    },
    peek: pending.latest,
    subscribe: pending.subscribe,
  };
}

/** The app's one channel of compose intents. */
export const composeIntents: ComposeIntents = createComposeIntents();

/** Whether two conversations are the same (topics compare without case, as the server does). */
export function sameConversation(a: IntentTo, b: IntentTo): boolean {
  if (a.type === 'channel' && b.type === 'channel') return a.channelId === b.channelId && a.topic.toLowerCase() === b.topic.toLowerCase();
  if (a.type === 'direct' && b.type === 'direct') {
    const x = [...a.userIds].sort((p, q) => p - q);
    const y = [...b.userIds].sort((p, q) => p - q);
    return x.length === y.length && x.every((id, i) => id === y[i]);
  }
  return false;
}

/**
 * `block` inserted at `caret` in `text` on lines of its own (a blank line apart from text before
 * and after, as Zulip inserts a quote), with the caret after it.
 */
export function insertBlock(text: string, caret: number, block: string): { text: string; caret: number } {
  const at = Math.max(0, Math.min(caret, text.length));
  const before = text.slice(0, at);
  const after = text.slice(at);
  const lead = before === '' ? '' : before.endsWith('\n\n') ? '' : before.endsWith('\n') ? '\n' : '\n\n';
  const trail = after === '' ? '\n' : after.startsWith('\n\n') ? '' : after.startsWith('\n') ? '\n' : '\n\n';
  const head = `${before}${lead}${block}${trail}`;
  return { text: `${head}${after}`, caret: head.length };
}
