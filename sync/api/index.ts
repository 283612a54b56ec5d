/**
 * `sync/api`: a typed client for the Zulip-compatible team-chat API (feature level 420), usable on
 * its own. One `ApiConnection` per account; one function per operation (see routes/index.ts);
 * every failure is one member of the `ApiError` union.
 */
export * from './core.js';
export * from './encoding.js';
export * from './errors.js';
export * from './error-details.js';
export * from './rate-limit.js';
export * from './transport.js';
export * from './classify.js';
export * from '../../common/topic-key.js';
export * from './routes/index.js';
export * from './schemas/envelope.js';
export * from './schemas/message.js';
export * from './schemas/narrow.js';
export * from './schemas/events.js';
export * from './schemas/register.js';
export * from './schemas/users.js';
export * from './schemas/channels.js';
export * from './schemas/groups.js';
export * from './schemas/user-topics.js';
export * from './schemas/user-settings.js';
export * from './schemas/snippets.js';
export * from './schemas/navigation-views.js';
export * from './schemas/scheduled-messages.js';
export * from './schemas/realm-data.js';
