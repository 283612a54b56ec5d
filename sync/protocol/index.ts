/**
 * The engine ↔ UI contract, environment-neutral (zod only): status and progress, commands and
 * queries with their request / response schemas, the pushed engine events, and the live-view
 * schemas (messages and narrow views). The renderer imports only this.
 */
export * from './areas.js';
export * from './status.js';
export * from './commands.js';
export * from './messages.js';
export * from './views.js';
export * from './accounts.js';
export * from './rpc.js';
export * from './outbox.js';
export * from './uploads.js';
