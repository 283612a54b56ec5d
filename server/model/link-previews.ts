/**
 * Link previews as Zulip makes them when the realm's `inline_url_embed_preview` is on: after a
 * message is sent (never while sending), the first link to another site's page is fetched (bounded
 * in time and size: outbound.ts), its OpenGraph title, description and image read, and a
 * `message_embed` block added to the message's HTML, the image through the realm's image proxy.
 * Everyone who has the message gets an `update_message` event with `rendering_only: true` (no
 * edit: no history, no edit time), as Zulip's `do_update_embedded_data` sends it.
 */
import { atomically, emit } from '../events/emit.js';
import { escapeHtml } from '../markdown/zulip-syntax.js';
import type { ServerState } from '../state.js';
import { camoPath } from './media.js';
import { fetchOutbound } from './outbound.js';

/** A page's head is near its start: Zulip's preview reads no more than this. */
const PAGE_MAX_BYTES = 1024 * 1024;
/** Image and video links get Zulip's inline previews instead. */
const MEDIA_LINK = /\.(bmp|gif|jpe|jpeg|jpg|png|webp|mp4|webm)(\?.*)?$/i;

export interface PagePreview {
  readonly title: string | undefined;
  readonly description: string | undefined;
  readonly image: string | undefined;
}

const ENTITIES: Readonly<Record<string, string>> = { amp: '&', quot: '"', apos: "'", lt: '<', gt: '>', '#39': "'" };
const decode = (s: string) => s.replace(/&(amp|quot|apos|lt|gt|#39);/g, (_m, n: string) => ENTITIES[n] ?? '').trim();

/** The OpenGraph tags of a page (`og:title` / `og:description` / `og:image`, else `<title>` / the description meta). */
export function readPreview(html: string, pageUrl: string): PagePreview {
  const meta = new Map<string, string>();
  for (const tag of html.match(/<meta\b[^>]*>/gi) ?? []) {
    const name = /\b(?:property|name)\s*=\s*["']([^"']+)["']/i.exec(tag)?.[1]?.toLowerCase();
    const content = /\bcontent\s*=\s*"([^"]*)"|\bcontent\s*=\s*'([^']*)'/i.exec(tag);
    if (name !== undefined && content && !meta.has(name)) meta.set(name, decode(content[1] ?? content[2] ?? ''));
  }
  const title = meta.get('og:title') || decode(/<title[^>]*>([^<]*)<\/title>/i.exec(html)?.[1] ?? '') || undefined;
  const description = meta.get('og:description') || meta.get('description') || undefined;
  let image: string | undefined;
  try {
    const raw = meta.get('og:image');
    image = raw ? new URL(raw, pageUrl).href : undefined;
  } catch {
    image = undefined;
  }
  return { title, description, image: image && /^https?:/.test(image) ? image : undefined };
}

/** Zulip's `message_embed` markup for `url`. */
export function embedHtml(srv: ServerState, url: string, p: PagePreview): string {
  const href = escapeHtml(url);
  const image = p.image === undefined ? '' : `<a class="message_embed_image" href="${href}" style="background-image: url(&quot;${escapeHtml(camoPath(srv, p.image))}&quot;)"></a>`;
  const title = p.title === undefined ? '' : `<div class="message_embed_title"><a href="${href}" title="${escapeHtml(p.title)}">${escapeHtml(p.title)}</a></div>`;
  const description = p.description === undefined ? '' : `<div class="message_embed_description">${escapeHtml(p.description)}</div>`;
  return `<div class="message_embed">${image}<div class="data-container">${title}${description}</div></div>`;
}

/** The link a message's preview is made for: the first http(s) link off the realm that is not an image or a video. */
export function previewableLink(srv: ServerState, links: readonly string[]): string | undefined {
  return links.find((l) => /^https?:\/\//i.test(l) && !l.startsWith(`${srv.config.realmUrl}/`) && !MEDIA_LINK.test(l));
}

/** Fetch `url`'s preview and add it to message `id` (the returned promise never rejects; tests await it). */
export async function addLinkPreview(srv: ServerState, id: number, url: string): Promise<void> {
  let preview: PagePreview;
  try {
    const page = await fetchOutbound(url, { maxBytes: PAGE_MAX_BYTES, timeoutMs: srv.config.outboundTimeoutMs, accept: 'text/html' });
    if (page.status !== 200 || page.contentType !== 'text/html') return;
    preview = readPreview(page.body.toString('utf8'), url);
  } catch (e) {
    srv.log.info(`link preview of ${url}: ${e instanceof Error ? e.message : String(e)}`);
    return;
  }
  if ((preview.title === undefined && preview.description === undefined) || srv.lifecycle.closing) return;
  try {
    atomically(srv, () => {
      const row = srv.db.prepare('SELECT content, rendered_content FROM messages WHERE id = ?').get(id) as { content: string; rendered_content: string } | undefined;
      if (!row || row.rendered_content.includes('class="message_embed"')) return;
      const rendered = `${row.rendered_content}\n${embedHtml(srv, url, preview)}`;
      srv.db.prepare('UPDATE messages SET rendered_content = ? WHERE id = ?').run(rendered, id);
      const holders = srv.db.prepare('SELECT user_id FROM user_messages WHERE message_id = ?').pluck().all(id) as number[];
      emit(srv, holders, { type: 'update_message', user_id: null, rendering_only: true, message_id: id, message_ids: [id], flags: [], edit_timestamp: Math.floor(srv.clock.now() / 1000), content: row.content, rendered_content: rendered });
    });
  } catch (e) {
    // The server closed meanwhile, or the message is gone: no preview.
    srv.log.info(`link preview of message ${id}: ${e instanceof Error ? e.message : String(e)}`);
  }
}

const pending = new WeakMap<ServerState, Set<Promise<void>>>();

/** After the send's transaction: the preview of the message's first previewable link, if the realm wants them. */
export function scheduleLinkPreview(srv: ServerState, id: number, links: readonly string[]): void {
  const url = previewableLink(srv, links);
  if (url === undefined) return;
  const set = pending.get(srv) ?? new Set();
  pending.set(srv, set);
  const p: Promise<void> = new Promise<void>((resolve) => setTimeout(resolve, 0)).then(() => addLinkPreview(srv, id, url));
  set.add(p);
  void p.finally(() => set.delete(p));
}

/** Resolves when every preview begun so far is done (tests). */
export async function linkPreviewsSettled(srv: ServerState): Promise<void> {
  await Promise.all([...(pending.get(srv) ?? [])]);
}
