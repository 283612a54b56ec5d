/** PLACEHOLDER: replaced by the area's implementation. */
import type { ApiRouter } from './context.js';

export function registerInviteRoutes(_r: ApiRouter): void {}
