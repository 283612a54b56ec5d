/** Every area's routes: the API's (below /api/v1) on one router, the few outside it on another. */
import { Router } from '../http/router.js';
import { registerAlertWordRoutes } from './alert-words.js';
import { registerChannelRoutes } from './channels.js';
import type { PublicCtx } from './context.js';
import { registerEventRoutes } from './events.js';
import { registerInviteRoutes } from './invites.js';
import { registerMessageEditRoutes } from './message-edit.js';
import { registerMediaRoutes } from './media.js';
import { registerMessageRoutes } from './messages.js';
import { registerNavigationViewRoutes } from './navigation-views.js';
import { registerPresenceRoutes } from './presence.js';
import { registerPushRoutes } from './push.js';
import { registerRealmEmojiFileRoutes, registerRealmRoutes } from './realm.js';
import { registerSavedSnippetRoutes } from './saved-snippets.js';
import { registerScheduledMessageRoutes } from './scheduled-messages.js';
import { registerServerSettingsRoutes } from './server-settings.js';
import { registerSettingsRoutes } from './settings.js';
import { registerSubmessageRoutes } from './submessages.js';
import { registerUploadFileRoutes, registerUploadRoutes } from './uploads.js';
import { registerUserGroupRoutes } from './user-groups.js';
import { registerUserTopicRoutes } from './user-topics.js';
import { registerUserRoutes } from './users.js';

export function buildRouter(): Router<PublicCtx> {
  const r = new Router<PublicCtx>();
  registerServerSettingsRoutes(r);
  registerEventRoutes(r);
  registerMessageRoutes(r);
  registerMessageEditRoutes(r);
  registerUploadRoutes(r);
  registerScheduledMessageRoutes(r);
  registerSettingsRoutes(r);
  registerChannelRoutes(r);
  registerUserRoutes(r);
  registerAlertWordRoutes(r);
  registerUserGroupRoutes(r);
  registerUserTopicRoutes(r);
  registerInviteRoutes(r);
  registerPushRoutes(r);
  registerPresenceRoutes(r);
  registerNavigationViewRoutes(r);
  registerSavedSnippetRoutes(r);
  registerRealmRoutes(r);
  registerSubmessageRoutes(r);
  return r;
}

/** Routes matched on the full path from the server's root: serving uploaded files, custom emoji, avatars and the image proxy. */
export function buildRootRouter(): Router<PublicCtx> {
  const r = new Router<PublicCtx>();
  registerUploadFileRoutes(r);
  registerRealmEmojiFileRoutes(r);
  registerMediaRoutes(r);
  return r;
}
