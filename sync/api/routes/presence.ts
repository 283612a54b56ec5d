/** Presence and status: OpenAPI update-presence (POST /users/me/presence) and update-status (POST /users/me/status). */
import * as z from 'zod';
import { operation, responseTable } from '../operation.js';
import { emptySuccess, int, success } from '../schemas/envelope.js';
import { modernPresence } from '../schemas/register.js';

/** The answer with `last_update_id` passed: the modern format, only rows newer than it (absent for `ping_only`). */
export const updatePresenceResponse = z.lazy(() => success({
  presences: z.record(z.string(), modernPresence).optional(),
  presence_last_update_id: int.optional(),
  server_timestamp: z.number().optional(),
}));

export interface UpdatePresenceArgs {
  status: 'active' | 'idle';
  /** The newest `presence_last_update_id` the client holds (-1: everything). */
  last_update_id: number;
  /** The user interacted with the client since the previous report. */
  new_user_input: boolean;
  ping_only?: boolean;
}

/** POST /users/me/presence: report this client's status and fetch the realm's newer presences. */
export const updatePresence = operation({
  method: 'POST',
  path: '/users/me/presence',
  schema: updatePresenceResponse,
  request: (args: UpdatePresenceArgs) => ({ params: { ...args } }),
});

/** POST /users/me/status: only the fields passed change; the empty string clears one. */
export const updateStatus = operation({
  method: 'POST',
  path: '/users/me/status',
  schema: emptySuccess,
  request: (args: { status_text?: string; emoji_name?: string; emoji_code?: string; reaction_type?: string }) => ({ params: { ...args } }),
});

/** Response schemas by OpenAPI operation, for the example-conformance test. */
export const presenceResponses = responseTable(updatePresence, updateStatus);
