/** What every event handler receives, and what handlers hand back to the session. */
import type { EventOf } from '../../api/index.js';

export interface HandlerLogger {
  warn(message: string, details?: unknown): void;
}

/** What the session learns from a batch besides the store changes. */
export interface ApplyOutput {
  /** Our own sends coming back: `local_message_id` (the outbox's `local_id`) → server message id. */
  readonly localEchoes: Array<{ local_message_id: string; message_id: number }>;
  /** Not persisted: for the session's typing tracker, in order. */
  readonly typing: Array<EventOf<'typing'> | EventOf<'typing_edit_message'>>;
  /** The last `restart` seen (re-check the feature level). */
  restart: EventOf<'restart'> | undefined;
  /** Unknown or malformed events skipped (logged). */
  skipped: number;
}

export interface ApplyContext {
  readonly selfUserId: number;
  readonly logger?: HandlerLogger;
}

export interface HandlerContext extends ApplyContext {
  readonly logger: HandlerLogger;
  readonly out: ApplyOutput;
}

export function emptyOutput(): ApplyOutput {
  return { localEchoes: [], typing: [], restart: undefined, skipped: 0 };
}
