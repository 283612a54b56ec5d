/**
 * Every operation, grouped by API area, and the table of response schemas by OpenAPI operation
 * ("METHOD /path/{param}") that the example-conformance test walks.
 *
 * Conventions: body and query parameters in an operation's `args` are named exactly as on the
 * wire (the spec's snake_case names, e.g. `include_subscribers`, `num_before`), so server property
 * names pass straight through and each doc comment maps one-to-one to the spec's table. Only path
 * parameters are camelCase ids (`messageId`, `userGroupId`, `streamId` in
 * `/streams/{stream_id}/delete_topic`), and they never appear in the body or query string.
 */
import { alertWordResponses } from './alert-words.js';
import { authResponses } from './auth.js';
import { channelResponses } from './channels.js';
import { eventResponses } from './events.js';
import { inviteResponses } from './invites.js';
import { messageResponses } from './messages.js';
import { navigationViewResponses } from './navigation-views.js';
import { presenceResponses } from './presence.js';
import { pushResponses } from './push.js';
import { realmResponses } from './realm.js';
import { savedSnippetResponses } from './saved-snippets.js';
import { scheduledMessageResponses } from './scheduled-messages.js';
import { serverResponses } from './server.js';
import { settingsResponses } from './settings.js';
import { uploadResponses } from './uploads.js';
import { userGroupResponses } from './user-groups.js';
import { userTopicResponses } from './user-topics.js';
import { userResponses } from './users.js';

export * from './alert-words.js';
export * from './auth.js';
export * from './channels.js';
export * from './events.js';
export * from './invites.js';
export * from './messages.js';
export * from './navigation-views.js';
export * from './presence.js';
export * from './push.js';
export * from './realm.js';
export * from './saved-snippets.js';
export * from './scheduled-messages.js';
export * from './server.js';
export * from './settings.js';
export * from './uploads.js';
export * from './user-groups.js';
export * from './user-topics.js';
export * from './users.js';

export const responseSchemaTable = {
  ...alertWordResponses,
  ...authResponses,
  ...channelResponses,
  ...eventResponses,
  ...inviteResponses,
  ...messageResponses,
  ...navigationViewResponses,
  ...pushResponses,
  ...realmResponses,
  ...savedSnippetResponses,
  ...scheduledMessageResponses,
  ...serverResponses,
  ...settingsResponses,
  ...uploadResponses,
  ...userGroupResponses,
  ...userTopicResponses,
  ...userResponses,
  ...presenceResponses,
} as const;
