/** PLACEHOLDER: replaced by the scheduled-messages model. */
import type { ServerState } from '../state.js';

export function deliverDueScheduledMessages(_srv: ServerState): number {
  return 0;
}
