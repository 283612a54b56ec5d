/**
 * Zulip's Markdown extensions as a markdown-it plugin: user, group and wildcard mentions, channel
 * and topic links, `:emoji:`, spoiler and quote fences, Zulip's code-block HTML, image previews.
 * The plugin reads its lookups from, and writes what it found into, the render env (`ZulipEnv`),
 * so one markdown-it instance serves every render.
 */
import type { Env, MarkdownIt, StateCore, StateInline, Token } from 'markdown-it';
import { unicodeEmoji, unicodeEmojiCode } from '../../common/emoji.js';

export interface MentionedUser {
  readonly id: number;
  readonly full_name: string;
}

export interface NamedThing {
  readonly id: number;
  readonly name: string;
}

export interface ZulipEnv {
  // Lookups (supplied by the caller).
  readonly user: (name: string | null, id: number | null) => MentionedUser | undefined;
  readonly group: (name: string) => NamedThing | undefined;
  readonly channel: (name: string) => NamedThing | undefined;
  readonly emptyTopicName: string;
  /** The realm's URL: a link to it with a fragment becomes the bare fragment, as Zulip writes it. */
  readonly realmUrl?: string;
  /** The image URL of the realm's active custom emoji called `name`. */
  readonly customEmoji?: (name: string) => string | undefined;
  /**
   * Where an image link's preview loads from: the link for the realm's own uploads, the realm's
   * image proxy for another site's (Zulip's camo); undefined: no preview. Default: the link.
   */
  readonly imageSrc?: (href: string) => string | undefined;
  /** A link to one of the realm's uploads (only those get a video preview). */
  readonly isUpload?: (href: string) => boolean;
  // Findings.
  readonly mentionedUserIds: Set<number>;
  readonly mentionedGroupIds: Set<number>;
  streamWildcard: boolean;
  topicWildcard: boolean;
  readonly links: string[];
  hasImage: boolean;
}

/** The key of the Zulip state inside markdown-it's env. */
export const ZULIP = Symbol('zulip');

export function zulipEnv(env: Env | undefined): ZulipEnv {
  const z = env?.[ZULIP];
  if (!z) throw new Error('zulipSyntax: render without a Zulip env');
  return z as ZulipEnv;
}

export const escapeHtml = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/** Zulip's URL-hash component encoding (`.` and `%` swapped so hashes survive browsers). */
export function encodeHashComponent(s: string): string {
  return encodeURIComponent(s)
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/\./g, '%2E')
    .replace(/%/g, '.');
}

export const channelHash = (c: NamedThing): string => `#narrow/channel/${c.id}-${encodeHashComponent(c.name.replace(/ /g, '-'))}`;

const STREAM_WILDCARDS = new Set(['all', 'everyone', 'stream', 'channel']);
const IMAGE_EXT = /\.(bmp|gif|jpe|jpeg|jpg|png|webp)(\?.*)?$/i;
/** What Zulip's `is_video` takes for a video (`mimetypes.guess_type`: video/mp4, video/webm). */
const VIDEO_EXT = /\.(mp4|webm)(\?.*)?$/i;
const USER_MENTION = /^@(_?)\*\*([^*]+)\*\*/;
const GROUP_MENTION = /^@(_?)\*([^*]+)\*/;
const CHANNEL_LINK = /^#\*\*([^*>]+)\*\*/;
const TOPIC_LINK = /^#\*\*([^*>]+)>([^*]*)\*\*/;
const EMOJI_SYNTAX = /^:([\w+-]+):/;

/** Zulip's mention patterns must follow start, whitespace, or one of `'"(,:<`. */
const mayStartHere = (src: string, pos: number) => pos === 0 || /[\s'"(,:<]/.test(src[pos - 1]!);

function pushHtml(state: StateInline, html: string): void {
  const t = state.push('zulip_html', '', 0);
  t.content = html;
}

function mention(state: StateInline, silent: boolean): boolean {
  const src = state.src;
  if (src.charCodeAt(state.pos) !== 0x40 /* @ */ || !mayStartHere(src, state.pos)) return false;
  const rest = src.slice(state.pos, state.posMax);
  const env = zulipEnv(state.env);
  const um = USER_MENTION.exec(rest);
  if (um) {
    const isSilent = um[1] === '_';
    const body = um[2]!;
    const html = userMentionHtml(env, body, isSilent);
    if (html === undefined) return false;
    if (!silent) pushHtml(state, html);
    state.pos += um[0].length;
    return true;
  }
  const gm = GROUP_MENTION.exec(rest);
  if (gm) {
    const isSilent = gm[1] === '_';
    const g = env.group(gm[2]!);
    if (!g) return false;
    if (!silent) {
      if (!isSilent) env.mentionedGroupIds.add(g.id);
      const cls = isSilent ? 'user-group-mention silent' : 'user-group-mention';
      pushHtml(state, `<span class="${cls}" data-user-group-id="${g.id}">${isSilent ? '' : '@'}${escapeHtml(g.name)}</span>`);
    }
    state.pos += gm[0].length;
    return true;
  }
  return false;
}

function userMentionHtml(env: ZulipEnv, body: string, isSilent: boolean): string | undefined {
  const at = isSilent ? '' : '@';
  const lower = body.toLowerCase();
  if (STREAM_WILDCARDS.has(lower)) {
    if (!isSilent) env.streamWildcard = true;
    const cls = isSilent ? 'user-mention channel-wildcard-mention silent' : 'user-mention channel-wildcard-mention';
    return `<span class="${cls}" data-user-id="*">${at}${escapeHtml(body)}</span>`;
  }
  if (lower === 'topic') {
    if (!isSilent) env.topicWildcard = true;
    return `<span class="${isSilent ? 'topic-mention silent' : 'topic-mention'}">${at}${escapeHtml(body)}</span>`;
  }
  let name: string | null = body;
  let id: number | null = null;
  const bar = body.lastIndexOf('|');
  if (bar >= 0) {
    const idText = body.slice(bar + 1);
    if (!/^\d+$/.test(idText)) return undefined;
    id = Number(idText);
    name = bar === 0 ? null : body.slice(0, bar);
  }
  const u = env.user(name, id);
  if (!u) return undefined;
  if (!isSilent) env.mentionedUserIds.add(u.id);
  return `<span class="${isSilent ? 'user-mention silent' : 'user-mention'}" data-user-id="${u.id}">${at}${escapeHtml(u.full_name)}</span>`;
}

function channelLink(state: StateInline, silent: boolean): boolean {
  if (state.src.charCodeAt(state.pos) !== 0x23 /* # */) return false;
  const rest = state.src.slice(state.pos, state.posMax);
  const env = zulipEnv(state.env);
  const tm = TOPIC_LINK.exec(rest);
  const cm = tm ? null : CHANNEL_LINK.exec(rest);
  const m = tm ?? cm;
  if (!m) return false;
  const ch = env.channel(m[1]!);
  if (!ch) return false;
  if (!silent) {
    if (tm) {
      const topic = tm[2]!;
      const shown = topic === '' ? `<em>${escapeHtml(env.emptyTopicName)}</em>` : escapeHtml(topic);
      const href = `/${channelHash(ch)}/topic/${encodeHashComponent(topic)}`;
      pushHtml(state, `<a class="stream-topic" data-stream-id="${ch.id}" href="${escapeHtml(href)}">#${escapeHtml(ch.name)} &gt; ${shown}</a>`);
    } else {
      pushHtml(state, `<a class="stream" data-stream-id="${ch.id}" href="/${escapeHtml(channelHash(ch))}">#${escapeHtml(ch.name)}</a>`);
    }
  }
  state.pos += m[0].length;
  return true;
}

function emojiSpan(name: string, code: string): string {
  const label = escapeHtml(name.replace(/_/g, ' '));
  return `<span aria-label="${label}" class="emoji emoji-${code}" role="img" title="${label}">:${escapeHtml(name)}:</span>`;
}

function emoji(state: StateInline, silent: boolean): boolean {
  if (state.src.charCodeAt(state.pos) !== 0x3a /* : */) return false;
  const m = EMOJI_SYNTAX.exec(state.src.slice(state.pos, state.posMax));
  if (!m) return false;
  const name = m[1]!;
  // A custom emoji wins over a Unicode one of the same name, as in Zulip.
  const custom = zulipEnv(state.env).customEmoji?.(name);
  const code = custom === undefined ? unicodeEmojiCode(name) : undefined;
  if (custom === undefined && code === undefined) return false;
  if (!silent) {
    const label = escapeHtml(name.replace(/_/g, ' '));
    pushHtml(
      state,
      custom !== undefined
        ? `<img alt=":${escapeHtml(name)}:" class="emoji" src="${escapeHtml(custom)}" title="${label}">`
        : emojiSpan(name, code!),
    );
  }
  state.pos += m[0].length;
  return true;
}

/** Inline code as Zulip has it: between equal runs of backticks, its spaces kept (CommonMark trims one each side). */
function inlineCode(state: StateInline, silent: boolean): boolean {
  const src = state.src;
  if (src.charCodeAt(state.pos) !== 0x60 /* ` */ || (state.pos > 0 && src.charCodeAt(state.pos - 1) === 0x60)) return false;
  let open = state.pos;
  while (open < state.posMax && src.charCodeAt(open) === 0x60) open++;
  const run = open - state.pos;
  const close = new RegExp(`(?<!\`)\`{${run}}(?!\`)`, 'g');
  close.lastIndex = open;
  const m = close.exec(src.slice(0, state.posMax));
  if (m === null) {
    if (!silent) state.pending += src.slice(state.pos, open);
    state.pos = open;
    return true;
  }
  if (!silent) {
    const t = state.push('code_inline', 'code', 0);
    t.markup = '`'.repeat(run);
    t.content = src.slice(open, m.index).replace(/\n/g, ' ');
  }
  state.pos = m.index + run;
  return true;
}

/** `***x***` nests as Zulip nests it: strong outside, emphasis inside. */
function strongOutside(state: StateCore): void {
  for (const tok of state.tokens) {
    if (tok.type !== 'inline' || !tok.children) continue;
    // The delimiters leave empty text tokens between the tags.
    const c = (tok.children = tok.children.filter((x) => x.type !== 'text' || x.content !== ''));
    for (let i = 0; i + 1 < c.length; i++) {
      if (c[i]!.type !== 'em_open' || c[i + 1]!.type !== 'strong_open') continue;
      const close = c.findIndex((x, j) => j > i + 1 && x.type === 'strong_close' && x.level === c[i + 1]!.level);
      if (close < 0 || c[close + 1]?.type !== 'em_close') continue;
      [c[i], c[i + 1], c[close], c[close + 1]] = [c[i + 1]!, c[i]!, c[close + 1]!, c[close]!];
    }
  }
}

/** Zulip has no `_emphasis_` nor `__strong__`: underscores are text. */
function underscores(state: StateInline, silent: boolean): boolean {
  if (state.src.charCodeAt(state.pos) !== 0x5f /* _ */) return false;
  let end = state.pos;
  while (end < state.posMax && state.src.charCodeAt(end) === 0x5f) end++;
  if (!silent) state.pending += state.src.slice(state.pos, end);
  state.pos = end;
  return true;
}

const TIME_SYNTAX = /^<time:([^>]+)>/;

/**
 * Zulip's global times: `<time:2017-11-28T11:01:00Z>` (any date the parser reads; a bare number is
 * UNIX seconds) becomes `<time datetime="2017-11-28T11:01:00Z">…</time>` with the text as written,
 * which clients show in each reader's zone; an unreadable one says so, as Zulip does.
 */
function globalTime(state: StateInline, silent: boolean): boolean {
  if (state.src.charCodeAt(state.pos) !== 0x3c /* < */) return false;
  const m = TIME_SYNTAX.exec(state.src.slice(state.pos, state.posMax));
  if (!m) return false;
  if (!silent) {
    const text = m[1]!.trim();
    const ms = parseGlobalTime(text);
    pushHtml(
      state,
      Number.isFinite(ms) ? `<time datetime="${new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z')}">${escapeHtml(text)}</time>` : `<span class="timestamp-error">Invalid time format: ${escapeHtml(text)}</span>`,
    );
  }
  state.pos += m[0].length;
  return true;
}

let emojiNames: ReadonlyMap<string, string> | undefined;
let graphemes: Intl.Segmenter | undefined;
const PICTOGRAPHIC = /\p{Extended_Pictographic}|\u20e3/u;

/**
 * Unicode emoji typed as characters become the same spans as `:name:` does, as Zulip renders them:
 * each grapheme that is a whole emoji of the set (its code without U+FE0F); a sequence the set
 * does not have (a newer ZWJ sequence, a skin tone) stays text, whole.
 */
function unicodeEmojiSpans(state: StateCore): void {
  emojiNames ??= new Map(unicodeEmoji().map((e) => [e.code, e.names[0]!]));
  graphemes ??= new Intl.Segmenter('en', { granularity: 'grapheme' });
  for (const tok of state.tokens) {
    if (tok.type !== 'inline' || !tok.children) continue;
    tok.children = tok.children.flatMap((c) => {
      if (c.type !== 'text' || !PICTOGRAPHIC.test(c.content)) return [c];
      const out: Token[] = [];
      let text = '';
      const flush = () => {
        if (text === '') return;
        const t = new state.Token('text', '', 0);
        t.content = text;
        out.push(t);
        text = '';
      };
      for (const { segment } of graphemes!.segment(c.content)) {
        const code = [...segment].filter((ch) => ch !== '\ufe0f').map((ch) => ch.codePointAt(0)!.toString(16).padStart(4, '0')).join('-');
        const name = PICTOGRAPHIC.test(segment) ? emojiNames!.get(code) : undefined;
        if (name === undefined) {
          text += segment;
          continue;
        }
        flush();
        const t = new state.Token('zulip_html', '', 0);
        t.content = emojiSpan(name, code);
        out.push(t);
      }
      flush();
      return out;
    });
  }
}

/** Zone abbreviations people write, as UTC offsets. */
const ZONES: Readonly<Record<string, string>> = { UTC: '+0000', GMT: '+0000', IST: '+0530', CET: '+0100', CEST: '+0200', BST: '+0100', EST: '-0500', EDT: '-0400', CST: '-0600', CDT: '-0500', MST: '-0700', MDT: '-0600', PST: '-0800', PDT: '-0700', JST: '+0900' };

/**
 * Milliseconds of a global time as Zulip's parser reads it (dateutil): a bare number is UNIX
 * seconds; "Jun 5th 2017, 10:30PM" and "31 Dec 2017 5:30 am IST" are read too; without a zone it is UTC.
 */
export function parseGlobalTime(text: string): number {
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const s = text
    .replace(/(\d)(?:st|nd|rd|th)\b/gi, '$1')
    .replace(/(\d)\s*([ap]m)\b/gi, '$1 $2')
    .replace(/\b([A-Z]{3,4})$/, (z) => ZONES[z] ?? z);
  const zoned = /(?:Z|[+-]\d{2}:?\d{2}|UTC|GMT)$/i.test(s);
  for (const candidate of zoned ? [s] : [`${s} UTC`, `${s}Z`, s]) {
    const ms = Date.parse(candidate);
    if (Number.isFinite(ms)) return ms;
  }
  return NaN;
}

/** Mentions inside quotes do not notify (Zulip rewrites them to silent mentions). */
export function silenceQuotedMentions(src: string, wholeText = false): string {
  const silence = (line: string) => line.replace(/@(?!_)(\*)/g, '@_$1');
  if (wholeText) return silence(src);
  return src
    .split('\n')
    .map((line) => (/^ {0,3}>/.test(line) ? silence(line) : line))
    .join('\n');
}

/** Image links (FL < 437 renders `![alt](url)` as a link) get Zulip's inline preview after the paragraph. */
function linksAndPreviews(state: StateCore): void {
  const env = zulipEnv(state.env);
  const out: Token[] = [];
  let pending: Array<{ href: string; title: string; src: string; video: boolean }> = [];
  const preview = (href: string, title: string) => {
    if (VIDEO_EXT.test(href) && env.isUpload?.(href) === true) pending.push({ href, title, src: href, video: true });
    if (!IMAGE_EXT.test(href)) return;
    const src = env.imageSrc ? env.imageSrc(href) : href;
    if (src !== undefined) pending.push({ href, title, src, video: false });
  };
  // Zulip previews no image inside a quote.
  let quoted = 0;
  for (const tok of state.tokens) {
    out.push(tok);
    if (tok.type === 'blockquote_open') quoted++;
    else if (tok.type === 'blockquote_close') quoted--;
    if (tok.type === 'inline' && tok.children) {
      for (let i = 0; i < tok.children.length; i++) {
        const c = tok.children[i]!;
        if (c.type === 'image') {
          // Render as a plain link to the image, then preview it.
          const src = String(c.attrGet('src') ?? '');
          const text = c.children?.map((x) => x.content).join('') || src;
          const open = new state.Token('link_open', 'a', 1);
          open.attrs = [['href', src]];
          const body = new state.Token('text', '', 0);
          body.content = text;
          const close = new state.Token('link_close', 'a', -1);
          tok.children.splice(i, 1, open, body, close);
          i += 2;
          env.links.push(src);
          preview(src, text);
        } else if (c.type === 'link_open') {
          let href = String(c.attrGet('href') ?? '');
          if (env.realmUrl && href.startsWith(`${env.realmUrl}/#`)) {
            href = href.slice(env.realmUrl.length + 1);
            c.attrSet('href', href);
          }
          // `[](url)` and `[  ](url)` show the URL, as in Zulip.
          const next = tok.children[i + 1];
          if (next?.type === 'link_close' || (next?.type === 'text' && next.content.trim() === '' && tok.children[i + 2]?.type === 'link_close')) {
            const text = new state.Token('text', '', 0);
            text.content = href;
            tok.children.splice(i + 1, next.type === 'text' ? 1 : 0, text);
          }
          env.links.push(href);
          const label = tok.children[i + 1];
          preview(href, label?.type === 'text' ? label.content : href);
        }
      }
    }
    if (quoted > 0) pending = [];
    if ((tok.type === 'paragraph_close' || tok.type === 'heading_close') && pending.length > 0) {
      const html = new state.Token('zulip_html_block', '', 0);
      html.content = pending
        .map((p) =>
          p.video
            ? `<div class="message_inline_image message_inline_video"><a href="${escapeHtml(p.href)}" title="${escapeHtml(p.title)}"><video preload="metadata" src="${escapeHtml(p.src)}"></video></a></div>`
            : `<div class="message_inline_image"><a href="${escapeHtml(p.href)}" title="${escapeHtml(p.title)}"><img src="${escapeHtml(p.src)}"></a></div>`,
        )
        .join('');
      out.push(html);
      env.hasImage ||= pending.some((p) => !p.video);
      pending = [];
    }
  }
  state.tokens = out;
}

const LANGUAGE_NAMES: Readonly<Record<string, string>> = {
  py: 'Python',
  python: 'Python',
  js: 'JavaScript',
  javascript: 'JavaScript',
  ts: 'TypeScript',
  typescript: 'TypeScript',
  sh: 'Bash',
  bash: 'Bash',
  json: 'JSON',
  html: 'HTML',
  css: 'CSS',
  sql: 'SQL',
  rust: 'Rust',
  go: 'Go',
  java: 'Java',
  c: 'C',
  cpp: 'C++',
  text: 'Text',
};

function codeBlockHtml(code: string, lang: string): string {
  const shown = lang === '' ? '' : (LANGUAGE_NAMES[lang.toLowerCase()] ?? lang);
  const attr = shown === '' ? '' : ` data-code-language="${escapeHtml(shown)}"`;
  // As Zulip: no trailing whitespace on a line, and the code ends with a line break.
  const text = code.replace(/[ \t]+$/gm, '').replace(/\n*$/, '\n');
  return `<div class="codehilite"${attr}><pre><span></span><code>${escapeHtml(text)}</code></pre></div>\n`;
}

export function zulipSyntax(md: MarkdownIt): void {
  md.inline.ruler.before('emphasis', 'zulip_mention', mention);
  md.inline.ruler.before('emphasis', 'zulip_channel_link', channelLink);
  md.inline.ruler.before('emphasis', 'zulip_emoji', emoji);
  md.inline.ruler.before('emphasis', 'zulip_underscores', underscores);
  md.inline.ruler.before('backticks', 'zulip_inline_code', inlineCode);
  md.core.ruler.push('zulip_strong_outside', strongOutside);
  // Zulip writes strikethrough as <del>, and has no reference-style links.
  md.renderer.rules.s_open = () => '<del>';
  md.renderer.rules.s_close = () => '</del>';
  md.disable('reference');
  // Before autolinks, which would take `<time:…>` for a URL of scheme `time`.
  md.inline.ruler.before('autolink', 'zulip_time', globalTime);
  md.core.ruler.push('zulip_links', linksAndPreviews);
  md.core.ruler.push('zulip_unicode_emoji', unicodeEmojiSpans);
  md.renderer.rules.zulip_html = (tokens, idx) => tokens[idx]!.content;
  md.renderer.rules.zulip_html_block = (tokens, idx) => `${tokens[idx]!.content}\n`;
  md.renderer.rules.code_block = (tokens, idx) => codeBlockHtml(tokens[idx]!.content, '');
  md.renderer.rules.fence = (tokens, idx, _options, env) => {
    const tok = tokens[idx]!;
    const info = tok.info.trim();
    const [word = '', ...restWords] = info.split(/\s+/);
    const kind = word.toLowerCase();
    if (kind === 'spoiler') {
      const header = restWords.join(' ');
      const headerHtml = header === '' ? '' : md.render(header, env);
      return (
        `<div class="spoiler-block"><div class="spoiler-header">\n${headerHtml}</div>` +
        `<div class="spoiler-content" aria-hidden="true">\n${md.render(tok.content, env)}</div></div>\n`
      );
    }
    if (kind === 'quote') return `<blockquote>\n${md.render(silenceQuotedMentions(tok.content, true), env)}</blockquote>\n`;
    return codeBlockHtml(tok.content, word);
  };
}
