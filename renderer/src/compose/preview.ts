/**
 * The composer's preview: the draft's Markdown rendered on this device with markdown-it (no raw
 * HTML, bare links linked, single newlines kept as breaks as Zulip does). The result is shown only
 * through shared/MessageContent.tsx, which sanitises it like any server HTML. The server's own
 * rendering may differ (mentions, channel links, emoji, spoilers, link previews are Zulip's).
 */
import MarkdownIt from 'markdown-it';

let md: ReturnType<typeof MarkdownIt> | undefined;

export function renderPreview(markdown: string): string {
  md ??= new MarkdownIt({ html: false, linkify: true, breaks: true, typographer: false });
  return md.render(markdown);
}
