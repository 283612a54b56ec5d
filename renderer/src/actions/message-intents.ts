/**
 * A keyboard shortcut (keys/) asks one message to open its inline editor (`e`) or its emoji picker
 * (`:`): the message row and its actions bar hear it and do what their own buttons do. Plain
 * TypeScript, as unread-intents.ts; a row mounted later does not replay an older request.
 */
import { createLatest } from '../kit/latest.js';

export interface MessageIntent {
  messageId: number;
  what: 'edit' | 'react';
}

const channel = createLatest<MessageIntent>();

export const messageIntents = {
  request: (e: MessageIntent) => channel.announce(e),
  subscribe: channel.subscribe,
};
