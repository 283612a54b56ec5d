/** PLACEHOLDER: replaced by the demo content seed. */
import type { ServerState } from '../state.js';

export function seedDemoContent(_srv: ServerState, _opts: { extraMessages: number }): void {}
