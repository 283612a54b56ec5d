/**
 * The page side of test/chromium/zulip-markdown-cases.test.ts: bundled with the app's own
 * sanitiser and run in Chromium, it renders each case's HTML as MessageContent does (sanitise,
 * then the global times and the reader's mentions), classifies the case by the features its HTML
 * has, and checks per feature that what the server sent survives and shows. It answers, per case,
 * the features found and what went wrong (nothing, when all is well).
 */
import { emojiFromClass, sanitizeMessageHtml, SPOILER_SHOW, toggleSpoiler, type ImageContext } from '../../../renderer/src/shared/sanitize.js';
import { decideImage } from '../../../renderer/src/shared/images.js';
import { showGlobalTimes } from '../../../renderer/src/shared/message-times.js';
import { markMentionsOfMe, MENTION_ME } from '../../../renderer/src/shared/mentions.js';
import { formatGlobalTime } from '../../../renderer/src/kit/format.js';
import { CHECK_CASES, type CaseReport, type CheckCases, type HtmlCase } from './zulip-cases-types.js';

/** The reader: user 10, member of group 5. */
export const READER = { userId: 10, groupIds: [5] } as const;
export const REALM: ImageContext = { realmUrl: 'http://zulip.testserver', electron: false };

/** Features, each found by a selector on the server's HTML. */
const FEATURES: ReadonlyArray<readonly [string, string]> = [
  ['katex', '.katex'],
  ['tex-error', '.tex-error'],
  ['code-block', '.codehilite'],
  ['code-highlight', '.codehilite code span[class]'],
  ['spoiler', '.spoiler-block'],
  ['time', 'time[datetime]'],
  ['time-error', '.timestamp-error'],
  ['inline-image', '.message_inline_image img'],
  ['emoji-unicode', 'span.emoji'],
  ['emoji-image', 'img.emoji'],
  ['mention-user', '.user-mention:not(.channel-wildcard-mention):not(.silent)'],
  ['mention-silent', '.user-mention.silent, .user-group-mention.silent'],
  ['mention-group', '.user-group-mention'],
  ['mention-wildcard', '.channel-wildcard-mention, .topic-mention'],
  ['link', 'a[href]'],
  ['table', 'table'],
  ['blockquote', 'blockquote'],
  ['list', 'ul, ol'],
  ['heading', 'h1, h2, h3, h4, h5, h6'],
  ['embed', '.message_embed'],
];

/** Features whose HTML the app changes on purpose (so the output is not the input). */
const TRANSFORMED = new Set(['katex', 'spoiler', 'time', 'inline-image', 'emoji-unicode', 'emoji-image', 'embed', 'mention-user', 'mention-group', 'mention-wildcard']);

const norm = (s: string | null | undefined) => (s ?? '').replace(/\s+/g, ' ').trim();
const all = (root: ParentNode, sel: string) => [...root.querySelectorAll<HTMLElement>(sel)];
/** Links the app may open: http(s), mailto, and same-realm relative ones (sanitize.ts ALLOWED_URI_REGEXP). */
const SAFE_HREF = /^(?:https?:|mailto:|[^a-z]|[a-z+.-]+(?:[^a-z+.\-:]|$))/i;

/** An element's text as the reader sees it: Zulip's emoji spans as their characters. */
function asShown(e: Element): string {
  const copy = e.cloneNode(true) as Element;
  for (const s of all(copy, 'span.emoji')) s.textContent = emojiFromClass(s.className) ?? s.textContent;
  return norm(copy.textContent);
}

function parse(doc: Document, html: string): HTMLElement {
  const div = doc.createElement('div');
  div.innerHTML = html;
  return div;
}

/** The output with what the app adds to every link and code block taken off again. */
function sameAsSent(input: HTMLElement, output: HTMLElement): boolean {
  const copy = output.cloneNode(true) as HTMLElement;
  for (const a of all(copy, 'a')) {
    a.removeAttribute('target');
    a.removeAttribute('rel');
  }
  for (const pre of all(copy, 'pre')) pre.removeAttribute('tabindex');
  return copy.isEqualNode(input);
}

export function checkCase(c: HtmlCase): CaseReport {
  // An inert document: nothing in it loads, as in DOMPurify's own.
  const doc = document.implementation.createHTMLDocument('');
  const input = parse(doc, c.html);
  const output = parse(doc, sanitizeMessageHtml(c.html, REALM));
  showGlobalTimes(output, false);
  markMentionsOfMe(output, READER.userId, new Set(READER.groupIds));
  const features = FEATURES.filter(([, sel]) => input.querySelector(sel) !== null).map(([f]) => f);
  const failures: string[] = [];
  const fail = (what: string) => failures.push(what);
  const has = (f: string) => features.includes(f);

  // Never anything active or styled, whatever the case.
  if (output.querySelector('script, iframe, object, embed, form, style, [style]') !== null) fail('active or styled markup survived');
  // Images load from the host only: a path on the page's origin (or, under Electron, zulip-upload:).
  for (const img of all(output, 'img')) {
    const src = img.getAttribute('src') ?? '';
    if (!(src.startsWith('/') && !src.startsWith('//'))) fail(`an image loads from elsewhere than the host: ${src}`);
  }

  if (has('katex')) {
    const ins = all(input, '.katex');
    const outs = all(output, '.katex');
    if (outs.length !== ins.length) fail(`katex: ${outs.length} formulas shown of ${ins.length}`);
    ins.forEach((k, i) => {
      const o = outs[i];
      const math = o?.querySelector('math');
      if (!math || math.namespaceURI !== 'http://www.w3.org/1998/Math/MathML') return fail(`katex ${i}: no MathML`);
      const want = k.querySelector('math')!;
      if (norm(math.textContent) !== norm(want.textContent)) fail(`katex ${i}: MathML text differs`);
      if (math.getAttribute('display') !== want.getAttribute('display')) fail(`katex ${i}: display mode lost`);
      if (math.querySelectorAll('*').length !== want.querySelectorAll('*').length) fail(`katex ${i}: MathML elements lost`);
      if (norm(o!.querySelector('annotation')?.textContent) !== norm(want.querySelector('annotation')?.textContent)) fail(`katex ${i}: TeX source lost`);
    });
  }
  if (has('tex-error') && norm(output.querySelector('.tex-error')?.textContent) !== norm(input.querySelector('.tex-error')?.textContent)) fail('tex-error text lost');

  if (has('code-block')) {
    const ins = all(input, '.codehilite');
    const outs = all(output, '.codehilite');
    if (outs.length !== ins.length) fail(`code: ${outs.length} blocks of ${ins.length}`);
    ins.forEach((b, i) => {
      const o = outs[i];
      if (!o) return;
      if (o.querySelector('pre')?.getAttribute('tabindex') !== '0') fail(`code ${i}: not focusable for scrolling`);
      if (o.querySelector('code')?.textContent !== b.querySelector('code')?.textContent) fail(`code ${i}: text differs`);
      if (o.dataset['codeLanguage'] !== b.dataset['codeLanguage']) fail(`code ${i}: language lost`);
      const classes = (e: Element) => all(e, 'code span[class]').map((s) => s.className).join(' ');
      if (classes(o) !== classes(b)) fail(`code ${i}: highlighting classes differ`);
    });
  }

  if (has('spoiler')) {
    const ins = all(input, '.spoiler-block');
    const outs = all(output, '.spoiler-block');
    if (outs.length !== ins.length) fail(`spoiler: ${outs.length} of ${ins.length}`);
    ins.forEach((s, i) => {
      const o = outs[i];
      const button = o?.querySelector<HTMLElement>(':scope > .spoiler-header > button.spoiler-toggle');
      const content = o?.querySelector<HTMLElement>(':scope > .spoiler-content');
      if (!button || !content) return fail(`spoiler ${i}: no button or content`);
      if (button.getAttribute('aria-expanded') !== 'false' || button.textContent !== SPOILER_SHOW) fail(`spoiler ${i}: not collapsed`);
      if (!content.hidden || content.getAttribute('aria-hidden') !== 'true') fail(`spoiler ${i}: content shown before a click`);
      const header = asShown(s.querySelector('.spoiler-header')!) || 'Spoiler';
      const shownHeader = norm(button.previousElementSibling?.textContent);
      if (shownHeader !== header) fail(`spoiler ${i}: header "${shownHeader}" instead of "${header}"`);
      toggleSpoiler(button, true);
      if (content.hidden || content.hasAttribute('aria-hidden') || button.getAttribute('aria-expanded') !== 'true') fail(`spoiler ${i}: does not open`);
      const paragraphs = (e: Element) => all(e, ':scope > .spoiler-content > p').map(asShown);
      if (paragraphs(o!).join('|') !== paragraphs(s).join('|')) fail(`spoiler ${i}: content differs`);
    });
  }

  if (has('time')) {
    const ins = all(input, 'time[datetime]');
    const outs = all(output, 'time[datetime]');
    if (outs.length !== ins.length) fail(`time: ${outs.length} of ${ins.length}`);
    ins.forEach((t, i) => {
      const o = outs[i];
      const when = t.getAttribute('datetime')!;
      if (o?.getAttribute('datetime') !== when) return fail(`time ${i}: datetime lost`);
      if (o.textContent !== formatGlobalTime(when, undefined, undefined, false)) fail(`time ${i}: not shown in the reader's zone (${o.textContent})`);
      if (!o.title.includes(norm(t.textContent))) fail(`time ${i}: original text lost`);
    });
  }
  if (has('time-error') && norm(output.querySelector('.timestamp-error')?.textContent) !== norm(input.querySelector('.timestamp-error')?.textContent)) fail('time error text lost');

  if (has('inline-image')) {
    for (const img of all(input, '.message_inline_image img')) {
      const link = img.closest('a');
      const d = decideImage({ src: img.getAttribute('src') ?? '', alt: img.getAttribute('alt'), linkTitle: link?.getAttribute('title') ?? null, insideLink: link !== null }, REALM);
      if (d.kind === 'upload') {
        const shown = output.querySelector(`img[data-upload][src="${CSS.escape(d.src)}"]`);
        if (!shown) fail(`inline image ${d.src}: not shown`);
        else if (shown.getAttribute('alt') !== d.alt) fail(`inline image ${d.src}: no accessible name`);
        if (link && output.querySelector(`a[href="${CSS.escape(link.getAttribute('href') ?? '')}"] img`) === null) fail('inline image: its link to the full size lost');
      } else {
        if (output.querySelector(`img[src="${CSS.escape(img.getAttribute('src') ?? '')}"]`) !== null) fail('an image of another site is loaded');
        // The message's text links the image: that link stays, the preview goes.
        const href = link?.getAttribute('href') ?? '';
        if (href !== '' && input.querySelectorAll(`a[href="${CSS.escape(href)}"]`).length > 1 && output.querySelector(`a[href="${CSS.escape(href)}"]`) === null) fail(`inline image: the link to ${href} lost`);
      }
    }
  }

  if (has('emoji-unicode')) {
    const ins = all(input, 'span.emoji');
    const outs = all(output, 'span.emoji');
    if (outs.length !== ins.length) fail(`emoji: ${outs.length} of ${ins.length}`);
    ins.forEach((e, i) => {
      const o = outs[i];
      if (!o) return;
      if (o.textContent !== (emojiFromClass(e.className) ?? e.textContent)) fail(`emoji ${i}: shows "${o.textContent}"`);
      if (o.getAttribute('role') !== 'img' || o.getAttribute('aria-label') !== e.getAttribute('aria-label') || o.title !== e.title) fail(`emoji ${i}: name lost`);
    });
  }
  if (has('emoji-image')) {
    for (const e of all(input, 'img.emoji')) {
      const d = decideImage({ src: e.getAttribute('src') ?? '', alt: e.getAttribute('alt'), linkTitle: null, insideLink: false }, REALM);
      if (d.kind === 'upload') {
        const o = output.querySelector(`img.emoji[src="${CSS.escape(d.src)}"]`);
        if (!o || o.getAttribute('alt') !== e.getAttribute('alt') || o.getAttribute('title') !== e.getAttribute('title')) fail(`realm emoji ${e.getAttribute('alt')}: not shown as an image with its name`);
      } else if (!norm(output.textContent).includes(d.text)) fail(`emoji image ${e.getAttribute('alt')}: its name is not shown`);
    }
  }

  const mentionSel = '.user-mention, .user-group-mention, .topic-mention';
  if (output.querySelectorAll(mentionSel).length !== input.querySelectorAll(mentionSel).length) fail('mentions lost');
  all(input, mentionSel).forEach((m, i) => {
    const o = all(output, mentionSel)[i];
    if (!o) return;
    if (norm(o.textContent) !== norm(m.textContent) || o.dataset['userId'] !== m.dataset['userId'] || o.dataset['userGroupId'] !== m.dataset['userGroupId']) fail(`mention ${i}: differs`);
    for (const cls of m.classList) if (!o.classList.contains(cls)) fail(`mention ${i}: class ${cls} lost`);
    const silent = m.classList.contains('silent');
    const mine =
      !silent &&
      (m.classList.contains('topic-mention') || m.dataset['userId'] === '*' || m.dataset['userId'] === String(READER.userId) || READER.groupIds.some((g) => m.dataset['userGroupId'] === String(g)));
    if (o.classList.contains(MENTION_ME) !== mine) fail(`mention ${i}: ${mine ? 'not marked' : 'marked'} as mentioning the reader`);
  });

  if (has('link')) {
    const isPreview = (a: Element) => a.closest('.message_inline_image, .message_embed') !== null;
    const ins = all(input, 'a[href]').filter((a) => !isPreview(a));
    const outs = all(output, 'a').filter((a) => !isPreview(a));
    if (outs.length !== ins.length) fail(`links: ${outs.length} of ${ins.length}`);
    ins.forEach((a, i) => {
      const o = outs[i];
      if (!o) return;
      const href = a.getAttribute('href')!;
      if (norm(o.textContent) !== norm(a.textContent)) fail(`link ${i}: text differs`);
      if (SAFE_HREF.test(href)) {
        if (o.getAttribute('href') !== href) fail(`link ${i}: href ${o.getAttribute('href')} instead of ${href}`);
        if (o.getAttribute('target') !== '_blank' || o.getAttribute('rel') !== 'noopener noreferrer') fail(`link ${i}: not opened outside safely`);
      } else if (o.hasAttribute('href')) fail(`link ${i}: unsafe href ${href} kept`);
    });
  }

  for (const [f, sel] of [
    ['table', 'table, th, td'],
    ['blockquote', 'blockquote'],
    ['list', 'ul, ol, li'],
    ['heading', 'h1, h2, h3, h4, h5, h6'],
  ] as const) {
    if (!has(f)) continue;
    const ins = all(input, sel);
    const outs = all(output, sel);
    if (outs.length !== ins.length) fail(`${f}: ${outs.length} elements of ${ins.length}`);
    if (f !== 'blockquote' && ins.some((e, i) => outs[i]?.tagName !== e.tagName || norm(outs[i]?.textContent) !== norm(e.textContent))) {
      if (!features.some((x) => TRANSFORMED.has(x))) fail(`${f}: text differs`);
    }
    if (f === 'list' && ins.some((e, i) => outs[i]?.getAttribute('start') !== e.getAttribute('start'))) fail('list: numbering lost');
  }

  if (has('embed')) {
    const ins = all(input, '.message_embed');
    const outs = all(output, '.message_embed');
    if (outs.length !== ins.length) fail(`embed: ${outs.length} of ${ins.length}`);
    ins.forEach((e, i) => {
      const o = outs[i];
      const title = e.querySelector('.message_embed_title a');
      const shownTitle = o?.querySelector('.message_embed_title a');
      if (!shownTitle || shownTitle.getAttribute('href') !== title?.getAttribute('href') || norm(shownTitle.textContent) !== norm(title.textContent)) fail(`embed ${i}: title link lost`);
      if (norm(o?.querySelector('.message_embed_description')?.textContent) !== norm(e.querySelector('.message_embed_description')?.textContent)) fail(`embed ${i}: description lost`);
    });
  }

  const unchanged = sameAsSent(input, output);
  if (!features.some((f) => TRANSFORMED.has(f)) && !unchanged && (!has('link') || all(input, 'a[href]').every((a) => SAFE_HREF.test(a.getAttribute('href')!)))) {
    fail(`changed: ${output.innerHTML.slice(0, 300)}`);
  }
  return { name: c.name, features, unchanged, failures };
}

const checkCases: CheckCases = (cases) => cases.map(checkCase);
Object.assign(globalThis, { [CHECK_CASES]: checkCases });
