/**
 * What becomes of an `<img>` in a message (pure; the sanitiser applies it to the DOM). The page may
 * show images only from its host (CSP `img-src 'self'` and, under Electron, `zulip-upload:`):
 *   - the realm's uploads (`/user_uploads/...`, relative or absolute on the realm's origin, and
 *     Zulip's `/user_uploads/thumbnail/...`), custom emoji (`/user_avatars/<realm>/emoji/...`) and
 *     images of other sites through the realm's image proxy (`/external_content/...`: Zulip
 *     rewrites every image of another site so) load from the host, which fetches them with the
 *     account's credentials and keeps them for offline viewing; so do link previews' images and
 *     inline videos (the sanitiser asks `decideImage` for them too) and people's avatars (`avatarSrc`);
 *   - any other image (straight from another site, `data:`, the realm's `/static`) is not loaded: it
 *     becomes its text (alt, the link's title, or the file name), as a link to it when it was not
 *     inside one already (the sanitiser drops Zulip's preview block of such an image whole: the
 *     message's text has the link), so nothing asks another origin and the CSP never refuses.
 */
import { camoTarget } from '../../../sync/protocol/media-paths.js';
import { avatarPath, realmUploadPath, uploadSrc } from '../../../sync/protocol/uploads.js';

export interface ImageContext {
  /** The open account's realm; null: no image is the realm's. */
  readonly realmUrl: string | null;
  /** Electron's `zulip-upload:` scheme, else the browser-mode host's `/uploads` route. */
  readonly electron: boolean;
  /** Browser mode: the key the host's upload route asks for (the tab's host session). */
  readonly uploadKey?: string;
}

export interface ImageInput {
  readonly src: string;
  readonly alt: string | null;
  /** The `title` of the link around the image (Zulip puts the file name there). */
  readonly linkTitle: string | null;
  readonly insideLink: boolean;
}

export type ImageDecision =
  | { readonly kind: 'upload'; readonly src: string; readonly alt: string }
  /** `href`: make it a link (only http(s), only when not inside a link); `text` '' means drop it. */
  | { readonly kind: 'blocked'; readonly text: string; readonly href: string | undefined };

function fileName(src: string): string {
  try {
    const last = new URL(src, 'https://x.invalid/').pathname.split('/').filter((s) => s !== '').pop() ?? '';
    return decodeURIComponent(last);
  } catch {
    return '';
  }
}

const isWeb = (src: string) => /^https?:\/\//i.test(src.trim());

export function decideImage(img: ImageInput, ctx: ImageContext): ImageDecision {
  const alt = img.alt?.trim() || null;
  const title = img.linkTitle?.trim() || null;
  const path = ctx.realmUrl !== null ? realmUploadPath(img.src, ctx.realmUrl) : undefined;
  if (path !== undefined) return { kind: 'upload', src: uploadSrc(path, ctx.electron, ctx.uploadKey), alt: alt ?? title ?? fileName(camoTarget(path) ?? path) };
  const web = isWeb(img.src);
  const text = alt ?? title ?? (web ? fileName(img.src) || img.src.trim() : '');
  return { kind: 'blocked', text, href: web && !img.insideLink ? img.src.trim() : undefined };
}

/** Where the page loads a person's avatar from (the host), or undefined: none of their own, so initials. */
export function avatarSrc(avatarUrl: string | null | undefined, ctx: ImageContext): string | undefined {
  const path = ctx.realmUrl === null ? undefined : avatarPath(avatarUrl, ctx.realmUrl);
  return path === undefined ? undefined : uploadSrc(path, ctx.electron, ctx.uploadKey);
}

/** The attribute a link preview's image URL moves to before the styles go (the sanitiser reads it back). */
export const EMBED_SRC_ATTR = 'data-embed-src';
const EMBED_IMAGE_TAG = /<a\b[^<>]*\bclass="message_embed_image"[^<>]*>/gi;
const BACKGROUND_URL = /\sstyle="background-image:\s*url\((?:&quot;|&#34;)?(.*?)(?:&quot;|&#34;)?\);?"/i;

/**
 * Zulip gives a link preview's image as `style="background-image: url(&quot;…&quot;)"` on
 * `a.message_embed_image` (older servers escape the URL with backslashes); styles never reach the
 * page, so the URL moves to `data-embed-src` first, for the sanitiser to decide like an `<img>`.
 */
export function embedImagesAsData(html: string): string {
  if (!html.includes('message_embed_image')) return html;
  return html.replace(EMBED_IMAGE_TAG, (tag) =>
    tag.replace(BACKGROUND_URL, (_m, url: string) => ` ${EMBED_SRC_ATTR}="${url.replace(/\\(.)/g, '$1').replace(/"/g, '&quot;')}"`),
  );
}
