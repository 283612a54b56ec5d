/**
 * A message's server-rendered HTML, sanitised. The only place in the renderer that inserts HTML:
 * everything else is text through Solid's templates. A click on a link into the app (a Zulip
 * narrow of this realm: `#narrow/...`, `/#narrow/...` or the realm URL with a fragment) navigates
 * in place; every other link keeps opening outside (the sanitiser gives it target=_blank). A
 * spoiler's button (the sanitiser adds it) shows and hides its content. `highlight`: the words of
 * the search the message is shown for, marked in its text (shared/highlight.ts). Global times show
 * in the reader's zone (shared/message-times.ts). A click on an uploaded image opens the image
 * viewer (Lightbox.tsx) on the view's images; a link to another file of the realm downloads it,
 * with a "Keep offline" button beside it (file-links.ts).
 */
import { createEffect, createMemo } from 'solid-js';
import { useAccounts } from '../data/accounts.js';
import { useStatus } from '../data/status.js';
import { internalHash } from '../router/links.js';
import { useRouter } from '../router/router.js';
import { applyKatexStyles, sanitizeMessageHtml, toggleSpoiler, type ImageContext } from './sanitize.js';
// KaTeX's stylesheet and fonts (bundled: the page loads nothing from another origin).
import 'katex/dist/katex.min.css';
import { decideImage } from './images.js';
import { lightbox } from './lightbox.js';
import { markSearchMatches } from './highlight.js';
import { showGlobalTimes } from './message-times.js';
import { markMentionsOfMe } from './mentions.js';
import { useUsers } from '../data/users.js';
import { useSettings } from '../data/settings.js';
import { decorateFileLinks, onFileClick } from './file-links.js';
import { useImageContext } from './AvatarImage.js';

export function MessageContent(props: { html: string; highlight?: string | null }) {
  const router = useRouter();
  const settings = useSettings();
  const users = useUsers();
  const accounts = useAccounts();
  const status = useStatus();
  const imageContext = useImageContext();
  const html = createMemo(() => sanitizeMessageHtml(props.html, imageContext()));
  // `error` does not bubble: listen in the capture phase, once, on the container.
  const setUp = (el: HTMLDivElement) => {
    el.addEventListener('error', (e) => onImageError(e, status.isLive()), true);
    // After the content is set (user effects run after the render's): mark the search's words.
    createEffect(() => {
      html();
      applyKatexStyles(el);
      showGlobalTimes(el, settings.display().twentyFourHour);
      markMentionsOfMe(el, users.state.ownUserId, users.myGroupIds());
      markSearchMatches(el, props.highlight ?? null);
      decorateFileLinks(el, imageContext());
    });
  };
  const onClick = (e: MouseEvent) => {
    if (e.button !== 0 || !(e.target instanceof Element)) return;
    const spoiler = e.target.closest<HTMLElement>('button.spoiler-toggle');
    if (spoiler !== null) {
      toggleSpoiler(spoiler, spoiler.getAttribute('aria-expanded') !== 'true');
      return;
    }
    const img = e.target.closest<HTMLImageElement>('img[data-upload]');
    if (img !== null) {
      e.preventDefault();
      openLightbox(img, imageContext());
      return;
    }
    if (onFileClick(e.target, imageContext(), e)) return;
    const a = e.target.closest('a');
    if (a === null) return;
    const hash = internalHash(a.getAttribute('href') ?? '', { realmUrl: accounts.active()?.realm_url ?? null, pageUrl: window.location.href });
    if (hash === null) return;
    e.preventDefault();
    router.navigate(hash);
  };
  return <div ref={setUp} class="message-content" innerHTML={html()} onClick={onClick} />;
}

export const IMAGE_MISSING = 'Image not available offline';
/** Online, the realm could not give it (its image proxy could not reach the other site, say). */
export const IMAGE_UNAVAILABLE = 'Image not available';

/**
 * Open the image viewer on `img` with every upload image of its view (in page order): each at full
 * size when its link names the upload itself (Zulip links a preview to the original), else as shown.
 */
function openLightbox(img: HTMLImageElement, ctx: ImageContext): void {
  const root = img.closest('.message-list') ?? img.closest('.message-content') ?? img;
  const all = [...root.querySelectorAll<HTMLImageElement>('img[data-upload]')];
  const images = all.map((i) => {
    const href = i.closest('a')?.getAttribute('href') ?? '';
    const full = href === '' ? undefined : decideImage({ src: href, alt: i.alt, linkTitle: null, insideLink: false }, ctx);
    return { src: full?.kind === 'upload' ? full.src : i.src, alt: i.alt || 'Image' };
  });
  lightbox.open(images, all.indexOf(img));
}

export const VIDEO_MISSING = 'Video not available offline';
export const VIDEO_UNAVAILABLE = 'Video not available';

/** The host had no copy to give: a placeholder that says why (offline: not on this device). */
function onImageError(e: Event, live: boolean): void {
  const img = e.target;
  // A link preview's image is decoration: it just goes.
  if (img instanceof HTMLImageElement && img.hasAttribute('data-embed')) return void img.closest('a')?.remove();
  const video = img instanceof HTMLVideoElement;
  if (!video && !(img instanceof HTMLImageElement && img.hasAttribute('data-upload'))) return;
  const words = video ? (live ? VIDEO_UNAVAILABLE : VIDEO_MISSING) : live ? IMAGE_UNAVAILABLE : IMAGE_MISSING;
  const ph = document.createElement('span');
  ph.className = 'image-missing';
  ph.setAttribute('role', 'img');
  ph.setAttribute('aria-label', words);
  ph.title = video ? (img.getAttribute('aria-label') ?? '') : img.alt;
  ph.textContent = words;
  img.replaceWith(ph);
}
