/** Widgets' submessages: POST /submessage (Zulip's process_submessage; see model/widgets.ts). */
import { processSubmessage } from '../model/widgets.js';
import { route, type ApiRouter } from './context.js';

export function registerSubmessageRoutes(r: ApiRouter): void {
  route(r, 'POST', '/submessage', (ctx) => {
    const messageId = ctx.params.reqInt('message_id');
    const msgType = ctx.params.reqStr('msg_type');
    const content = ctx.params.reqStr('content');
    processSubmessage(ctx.srv, ctx.user, messageId, msgType, content);
  });
}
