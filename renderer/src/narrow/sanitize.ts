/**
 * Server HTML → HTML safe to insert: DOMPurify with a strict configuration. No scripts, no event
 * handlers (DOMPurify always drops `on*`), only http(s) / mailto / relative URLs (no `javascript:`,
 * `vbscript:`, `data:` except images), no forms, frames, embeds, SVG/MathML or inline styles; every
 * link gets `target=_blank` and `rel="noopener noreferrer"` (Electron's main process sends such
 * links to the system browser; `narrow/MessageContent.tsx` keeps links to this realm's narrows in
 * the app). MessageContent is the one place that inserts HTML, and it inserts only what this returns.
 */
import DOMPurify, { type Config } from 'dompurify';
import { lruMemo } from '../kit/lru.js';

const CONFIG: Config = {
  USE_PROFILES: { html: true },
  FORBID_TAGS: ['style', 'script', 'form', 'input', 'button', 'textarea', 'select', 'option', 'iframe', 'frame', 'frameset', 'object', 'embed', 'link', 'meta', 'base', 'template', 'audio', 'video', 'source', 'track'],
  FORBID_ATTR: ['style', 'srcset', 'action', 'formaction', 'ping', 'autofocus', 'tabindex'],
  // DOMPurify's default minus the exotic schemes (tel, xmpp, ...): http(s), mailto, or scheme-less.
  ALLOWED_URI_REGEXP: /^(?:(?:https?|mailto):|[^a-z]|[a-z+.-]+(?:[^a-z+.\-:]|$))/i,
  ALLOW_UNKNOWN_PROTOCOLS: false,
  // Zulip's markup carries data-user-id, data-stream-id, data-code-language: inert, kept.
  ALLOW_DATA_ATTR: true,
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
    if (node instanceof HTMLAnchorElement) {
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

/**
 * Answers kept by input: the configuration and hook never change, so the same HTML always gives the
 * same output, and a row rendered again (a view reopened, a message scrolled back into the window)
 * skips DOMPurify's parse. Bounded: the first screens of a couple of dozen views.
 */
const SANITIZED_KEPT = 500;
const sanitized = lruMemo((html) => purifier().sanitize(html, CONFIG), SANITIZED_KEPT);

/** Sanitise a message's server-rendered HTML. */
export function sanitizeMessageHtml(html: string): string {
  return sanitized(html);
}
