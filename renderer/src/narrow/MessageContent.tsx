/**
 * A message's server-rendered HTML, sanitised. The only place in the renderer that inserts HTML:
 * everything else is text through Solid's templates.
 */
import { sanitizeMessageHtml } from './sanitize.js';

export function MessageContent(props: { html: string }) {
  return <div class="message-content" innerHTML={sanitizeMessageHtml(props.html)} />;
}
