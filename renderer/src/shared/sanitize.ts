/**
 * Server HTML → HTML safe to insert: DOMPurify with a strict configuration. No scripts, no event
 * handlers (DOMPurify always drops `on*`), only http(s) / mailto / relative URLs (no `javascript:`,
 * `vbscript:`, `data:` except images), no forms, frames, embeds, SVG or inline styles; of MathML only
 * the presentation elements KaTeX writes (`MATHML_TAGS`, no links, no `annotation-xml`); every
 * link gets `target=_blank` and `rel="noopener noreferrer"` (Electron's main process sends such
 * links to the system browser; `MessageContent.tsx` keeps links to this realm's narrows in
 * the app). Images: the realm's uploads and proxied images load from the host (`images.ts`), any
 * other image becomes text or a link; so for Zulip's inline videos (a `<video>` of our own making,
 * with controls, only for the realm's uploads) and link previews' images (`message_embed`). MessageContent is the one place that inserts HTML, and it inserts only what this
 * returns.
 */
import DOMPurify, { type Config } from 'dompurify';
import { decideImage, EMBED_SRC_ATTR, embedImagesAsData, type ImageContext } from './images.js';

export type { ImageContext } from './images.js';
import { lruMemo, type Memo } from '../kit/lru.js';

/**
 * The MathML KaTeX emits for Zulip's `$$…$$` and ```` ```math ````: MathML Core's presentation
 * elements plus `semantics`/`annotation` (the TeX source, not drawn). Not `maction`, `mglyph` (an
 * image source) or `annotation-xml` (it can hold HTML).
 */
const MATHML_TAGS = ['math', 'semantics', 'annotation', 'mrow', 'mi', 'mn', 'mo', 'ms', 'mtext', 'mspace', 'msup', 'msub', 'msubsup', 'mfrac', 'msqrt', 'mroot', 'mover', 'munder', 'munderover', 'mmultiscripts', 'mprescripts', 'mtable', 'mtr', 'mtd', 'mpadded', 'mphantom', 'mstyle', 'menclose', 'merror'];
const MATHML_ATTRS = ['display', 'displaystyle', 'mathvariant', 'encoding', 'stretchy', 'separator', 'fence', 'lspace', 'rspace', 'accent', 'accentunder', 'largeop', 'movablelimits', 'symmetric', 'minsize', 'maxsize', 'linethickness', 'scriptlevel', 'columnalign', 'rowalign', 'columnspacing', 'rowspacing', 'depth', 'voffset', 'notation'];
const MATHML_NS = 'http://www.w3.org/1998/Math/MathML';

const CONFIG: Config = {
  USE_PROFILES: { html: true },
  FORBID_TAGS: ['style', 'script', 'form', 'input', 'button', 'textarea', 'select', 'option', 'iframe', 'frame', 'frameset', 'object', 'embed', 'link', 'meta', 'base', 'template', 'audio', 'source', 'track'],
  FORBID_ATTR: ['style', 'srcset', 'action', 'formaction', 'ping', 'autofocus', 'tabindex'],
  // DOMPurify's default minus the exotic schemes (tel, xmpp, ...): http(s), mailto, or scheme-less.
  ALLOWED_URI_REGEXP: /^(?:(?:https?|mailto):|[^a-z]|[a-z+.-]+(?:[^a-z+.\-:]|$))/i,
  ALLOW_UNKNOWN_PROTOCOLS: false,
  // Zulip's markup carries data-user-id, data-stream-id, data-code-language: inert, kept.
  ALLOW_DATA_ATTR: true,
  // KaTeX's MathML (Chromium draws MathML Core natively), `aria-hidden` comes with the ARIA default.
  ADD_TAGS: MATHML_TAGS,
  ADD_ATTR: MATHML_ATTRS,
};

const EMOJI_CLASS = /(?:^|\s)emoji-([0-9a-f]{1,6}(?:-[0-9a-f]{1,6})*)(?:\s|$)/;

/**
 * Zulip marks Unicode emoji as `<span class="emoji emoji-1f44d">:thumbs_up:</span>` (the web app
 * draws a sprite); we show the character itself. Text only, so nothing new can enter the DOM.
 */
export function emojiFromClass(className: string): string | undefined {
  const m = EMOJI_CLASS.exec(className);
  if (!m) return undefined;
  const points = m[1]!.split('-').map((h) => parseInt(h, 16));
  if (points.some((p) => !Number.isFinite(p) || p > 0x10ffff || (p >= 0xd800 && p <= 0xdfff))) return undefined;
  return String.fromCodePoint(...points);
}

let instance: ReturnType<typeof DOMPurify> | undefined;

function purifier(): ReturnType<typeof DOMPurify> {
  if (instance) return instance;
  // Our own instance, so the link hook never leaks into anyone else's DOMPurify.
  const p = DOMPurify(window);
  p.addHook('afterSanitizeAttributes', (node) => {
    // MathML Core has no links; DOMPurify would keep an `href` it allows on `<a>`.
    if (node instanceof Element && node.namespaceURI === MATHML_NS) node.removeAttribute('href');
    else if (node instanceof HTMLAnchorElement) {
      node.setAttribute('target', '_blank');
      node.setAttribute('rel', 'noopener noreferrer');
    } else if (node instanceof HTMLSpanElement && node.classList.contains('emoji')) {
      const ch = emojiFromClass(node.className);
      if (ch !== undefined) node.textContent = ch;
    }
  });
  instance = p;
  return p;
}

export const SPOILER_SHOW = 'Show spoiler';
export const SPOILER_HIDE = 'Hide spoiler';

/**
 * A Zulip spoiler: its header (or "Spoiler" when empty) and a real button that shows or hides the
 * content (`toggleSpoiler`, from MessageContent's click handler). Hidden content is `hidden`, so
 * neither the eye nor a screen reader meets it.
 */
function settleSpoiler(block: Element): void {
  const doc = block.ownerDocument;
  const header = block.querySelector(':scope > .spoiler-header');
  const content = block.querySelector(':scope > .spoiler-content');
  if (header === null || content === null) return;
  if (header.textContent?.trim() === '' && header.querySelector('img') === null) {
    const p = doc.createElement('p');
    p.textContent = 'Spoiler';
    header.replaceChildren(p);
  }
  const button = doc.createElement('button');
  button.type = 'button';
  button.className = 'small spoiler-toggle';
  header.append(button);
  toggleSpoiler(button, false);
}

/** Show (`open`) or hide a spoiler by its button; the button says what it will do. */
export function toggleSpoiler(button: HTMLElement, open: boolean): void {
  const content = button.closest('.spoiler-block')?.querySelector(':scope > .spoiler-content');
  button.setAttribute('aria-expanded', String(open));
  button.textContent = open ? SPOILER_HIDE : SPOILER_SHOW;
  content?.toggleAttribute('hidden', !open);
  if (open) content?.removeAttribute('aria-hidden');
  else content?.setAttribute('aria-hidden', 'true');
}

const NO_REALM: ImageContext = { realmUrl: null, electron: false };

const STYLE_ATTR = /\sstyle\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/gi;

/** The inline style properties KaTeX's HTML uses for its layout, and their safe values. */
const KATEX_LENGTH = /^-?(?:\d+\.?\d*|\.\d+)(?:em|ex|px|pt|%)?$/;
const KATEX_COLOUR = /^(?:#[0-9a-f]{3,8}|[a-z]{3,20})$/i;
const KATEX_PROPS: Readonly<Record<string, RegExp>> = Object.fromEntries([
  ...['height', 'width', 'min-width', 'max-width', 'vertical-align', 'top', 'bottom', 'left', 'right', 'margin-left', 'margin-right', 'margin-top', 'margin-bottom', 'padding-left', 'padding-right', 'border-top-width', 'border-bottom-width', 'border-left-width', 'border-right-width'].map((p) => [p, KATEX_LENGTH] as const),
  ['color', KATEX_COLOUR],
  ['background-color', KATEX_COLOUR],
]);

/** The declarations of a style attribute that are KaTeX layout with safe values (`prop:value;…`); '' when none. */
export function safeKatexStyle(style: string): string {
  const kept: string[] = [];
  for (const decl of style.split(';')) {
    const at = decl.indexOf(':');
    if (at < 0) continue;
    const prop = decl.slice(0, at).trim().toLowerCase();
    const value = decl.slice(at + 1).trim();
    if (KATEX_PROPS[prop]?.test(value) === true) kept.push(`${prop}:${value}`);
  }
  return kept.join(';');
}

/**
 * The HTML with each tag's `style` attribute replaced, before DOMPurify parses it, by
 * `data-katex-style` holding only its KaTeX layout declarations (safeKatexStyle): the parser's inert
 * document keeps the page's CSP and would log every inline style it meets (KaTeX writes dozens per
 * formula), and the page may not apply inline styles at all. What survives is applied through the
 * CSSOM inside KaTeX's HTML only (applyKatexStyles); anything this misses, DOMPurify still strips.
 */
export function withoutStyles(html: string): string {
  if (!html.includes('style')) return html;
  return html.replace(/<[a-z][^<>]*>/gi, (tag) =>
    tag.replace(STYLE_ATTR, (_m, dq?: string, sq?: string, bare?: string) => {
      const kept = safeKatexStyle(dq ?? sq ?? bare ?? '');
      return kept === '' ? '' : ` data-katex-style="${kept}"`;
    }),
  );
}

/** Apply the carried KaTeX layout styles under `root` (CSSOM: allowed by the page's CSP, unlike style attributes). */
export function applyKatexStyles(root: ParentNode): void {
  for (const el of root.querySelectorAll<HTMLElement>('.katex-html [data-katex-style]')) {
    for (const decl of safeKatexStyle(el.dataset['katexStyle'] ?? '').split(';')) {
      const at = decl.indexOf(':');
      if (at > 0) el.style.setProperty(decl.slice(0, at), decl.slice(at + 1));
    }
  }
}

/** What `sanitizeMessageHtml` answers, computed. */
function sanitizeUncached(html: string, images: ImageContext): string {
  const body = purifier().sanitize(withoutStyles(embedImagesAsData(html)), { ...CONFIG, RETURN_DOM: true });
  if (!(body instanceof HTMLElement)) return '';
  // A code block scrolls sideways: it takes keyboard focus (ours, set after the server's tabindex was dropped).
  for (const pre of body.querySelectorAll('pre')) pre.setAttribute('tabindex', '0');
  // KaTeX's layout styles are kept only inside its HTML (applied there by applyKatexStyles).
  for (const el of body.querySelectorAll('[data-katex-style]')) if (el.closest('.katex-html') === null) el.removeAttribute('data-katex-style');
  for (const block of body.querySelectorAll('.spoiler-block')) settleSpoiler(block);
  for (const img of [...body.querySelectorAll('img')]) {
    const link = img.closest('a');
    const d = decideImage({ src: img.getAttribute('src') ?? '', alt: img.getAttribute('alt'), linkTitle: link?.getAttribute('title') ?? null, insideLink: link !== null }, images);
    if (d.kind === 'upload') {
      img.setAttribute('src', d.src);
      img.setAttribute('alt', d.alt);
      img.setAttribute('loading', 'lazy');
      // MessageContent swaps a failed one for its placeholder.
      img.setAttribute('data-upload', '');
      continue;
    }
    // Zulip's preview of a link the message's text already has: without its image it is a duplicate.
    const preview = img.closest('.message_inline_image');
    if (preview !== null) {
      preview.remove();
      continue;
    }
    const doc = img.ownerDocument;
    if (d.href !== undefined) {
      const a = doc.createElement('a');
      a.setAttribute('href', d.href);
      a.setAttribute('target', '_blank');
      a.setAttribute('rel', 'noopener noreferrer');
      a.textContent = d.text;
      img.replaceWith(a);
    } else if (d.text !== '') img.replaceWith(doc.createTextNode(d.text));
    else img.remove();
  }
  for (const video of [...body.querySelectorAll('video')]) settleVideo(video, images);
  for (const a of [...body.querySelectorAll('a.message_embed_image')]) settleEmbedImage(a, images);
  return body.innerHTML;
}

/**
 * Zulip's inline video (`div.message_inline_video > a > video`): a video of the realm's uploads
 * becomes a `<video>` of our own (from the host, with controls, loading only its metadata, named
 * by the link's title), out of its link so a click plays it; any other video goes, and with it
 * Zulip's preview block (the message's text has the link).
 */
function settleVideo(video: HTMLVideoElement, ctx: ImageContext): void {
  const link = video.closest('a');
  const d = decideImage({ src: video.getAttribute('src') ?? '', alt: null, linkTitle: link?.getAttribute('title') ?? null, insideLink: true }, ctx);
  if (d.kind !== 'upload') {
    (video.closest('.message_inline_video') ?? video).remove();
    return;
  }
  const own = video.ownerDocument.createElement('video');
  own.setAttribute('src', d.src);
  own.setAttribute('controls', '');
  own.setAttribute('preload', 'metadata');
  own.setAttribute('aria-label', d.alt || 'Video');
  (link ?? video).replaceWith(own);
}

/**
 * A link preview's image (`a.message_embed_image`, its URL moved to `data-embed-src`): an `<img>` in
 * the link when the host can give it (a proxied image, a realm upload), else the empty link goes.
 */
function settleEmbedImage(a: Element, ctx: ImageContext): void {
  const src = a.getAttribute(EMBED_SRC_ATTR);
  a.removeAttribute(EMBED_SRC_ATTR);
  const d = src === null ? undefined : decideImage({ src, alt: '', linkTitle: null, insideLink: true }, ctx);
  if (d?.kind !== 'upload') {
    a.remove();
    return;
  }
  const img = a.ownerDocument.createElement('img');
  img.setAttribute('src', d.src);
  img.setAttribute('alt', '');
  img.setAttribute('loading', 'lazy');
  // MessageContent drops it when the host cannot give it (offline, not kept).
  img.setAttribute('data-embed', '');
  a.setAttribute('tabindex', '-1');
  a.setAttribute('aria-hidden', 'true');
  a.append(img);
}

/**
 * Answers kept by input (per image context: the realm and host decide the image URLs): the
 * configuration and hook never change, so the same HTML always gives the same output, and a row
 * rendered again (a view reopened, a message scrolled back into the window) skips DOMPurify's
 * parse. Bounded: the first screens of a couple of dozen views.
 */
const SANITIZED_KEPT = 500;
const memos = new Map<string, Memo<string>>();

/**
 * Sanitise a message's server-rendered HTML. The images are settled in DOMPurify's inert document
 * (nothing there loads), so the page never asks for an image it is not allowed to show.
 */
export function sanitizeMessageHtml(html: string, images: ImageContext = NO_REALM): string {
  const key = `${images.realmUrl ?? ''}|${String(images.electron)}|${images.uploadKey ?? ''}`;
  let memo = memos.get(key);
  if (!memo) {
    memo = lruMemo((h) => sanitizeUncached(h, images), SANITIZED_KEPT);
    memos.set(key, memo);
  }
  return memo(html);
}
