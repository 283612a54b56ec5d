/**
 * Every case of Zulip's own Markdown test file (test/fixtures/zulip/markdown_test_cases.json: the
 * exact HTML a real Zulip server sends for each) rendered through the app's sanitiser, checked
 * feature by feature: KaTeX, code highlighting, spoilers (collapsed until clicked), global times
 * (in the reader's zone), inline images (the realm's shown, other sites' not loaded), emoji, links,
 * tables, quotes, lists. The file has no mentions, realm emoji, uploads or link embeds, so a few
 * cases of our own in Zulip's HTML format (SUPPLEMENT) cover those.
 *
 * The sanitiser needs a real DOM (DOMPurify) and vitest runs in Node here, so the page side
 * (test/renderer/shared/zulip-cases-page.ts, with the renderer's modules) is bundled with esbuild
 * and run in the Chromium the e2e tests use. The counts are printed and kept in
 * test-results/zulip-markdown-cases.json.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser } from '@playwright/test';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHECK_CASES, type CaseReport, type CheckCases, type HtmlCase } from '../renderer/shared/zulip-cases-types.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

interface ZulipCase {
  readonly name: string;
  readonly input: string;
  readonly expected_output: string;
}
const FILE = JSON.parse(readFileSync(path.join(ROOT, 'test/fixtures/zulip/markdown_test_cases.json'), 'utf8')) as { regular_tests: ZulipCase[]; linkify_tests: unknown[] };

/** Ours, in Zulip's HTML format (zerver/lib/markdown), for what the file lacks. The reader is user 10, in group 5. */
const SUPPLEMENT: HtmlCase[] = [
  { name: 'ours:user_mentions', html: '<p>hi <span class="user-mention" data-user-id="10">@King Hamlet</span> and <span class="user-mention" data-user-id="11">@Iago</span></p>' },
  { name: 'ours:silent_mentions', html: '<p><span class="user-mention silent" data-user-id="10">King Hamlet</span> <span class="user-group-mention silent" data-user-group-id="5">support</span></p>' },
  { name: 'ours:group_mentions', html: '<p><span class="user-group-mention" data-user-group-id="5">@support</span> <span class="user-group-mention" data-user-group-id="6">@design</span></p>' },
  { name: 'ours:wildcard_mentions', html: '<p><span class="user-mention channel-wildcard-mention" data-user-id="*">@all</span> <span class="topic-mention">@topic</span></p>' },
  { name: 'ours:quoted_mention', html: '<blockquote>\n<p><span class="user-mention silent" data-user-id="10">King Hamlet</span> said</p>\n</blockquote>' },
  { name: 'ours:realm_emoji', html: '<p><img alt=":green_tick:" class="emoji" src="/user_avatars/2/emoji/images/1.png" title="green tick"></p>' },
  {
    name: 'ours:uploaded_image',
    html: '<p><a href="/user_uploads/2/ab/cd/pic.png">pic.png</a></p>\n<div class="message_inline_image"><a href="/user_uploads/2/ab/cd/pic.png" title="pic.png"><img data-original-dimensions="640x480" src="/user_uploads/thumbnail/2/ab/cd/pic.png/840x560.webp"></a></div>',
  },
  {
    name: 'ours:link_embed',
    html:
      '<p><a href="https://www.example.com/page">https://www.example.com/page</a></p>\n<div class="message_embed"><a class="message_embed_image" href="https://www.example.com/page" style="background-image: url(&quot;https://www.example.com/og.png&quot;)"></a>' +
      '<div class="data-container"><div class="message_embed_title"><a href="https://www.example.com/page" title="Example page">Example page</a></div><div class="message_embed_description">What the page says about itself.</div></div></div>',
  },
];

let browser: Browser;
let reports: CaseReport[];

beforeAll(async () => {
  const bundle = await build({ entryPoints: [path.join(ROOT, 'test/renderer/shared/zulip-cases-page.ts')], bundle: true, format: 'iife', platform: 'browser', write: false, logLevel: 'silent' });
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.setContent('<!doctype html><html><head><meta charset="utf-8"></head><body></body></html>');
  await page.addScriptTag({ content: bundle.outputFiles[0]!.text });
  const cases: HtmlCase[] = [...FILE.regular_tests.map((c) => ({ name: c.name, html: c.expected_output })), ...SUPPLEMENT];
  reports = await page.evaluate(([name, cs]) => (globalThis as unknown as Record<string, CheckCases>)[name]!(cs), [CHECK_CASES, cases] as const);
  expect(errors).toEqual([]);
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

/** Cases per feature, Zulip's and ours apart. */
function counts(rs: readonly CaseReport[]): Record<string, { zulip: number; ours: number }> {
  const out: Record<string, { zulip: number; ours: number }> = {};
  for (const r of rs) {
    for (const f of r.features.length > 0 ? r.features : ['plain']) {
      const c = (out[f] ??= { zulip: 0, ours: 0 });
      if (r.name.startsWith('ours:')) c.ours++;
      else c.zulip++;
    }
  }
  return out;
}

describe("Zulip's Markdown test cases through the app's sanitiser", () => {
  it('every case is checked, none skipped, and every feature survives and shows', () => {
    expect(FILE.regular_tests).toHaveLength(175);
    expect(reports).toHaveLength(175 + SUPPLEMENT.length);
    const perFeature = counts(reports);
    const summary = {
      cases: FILE.regular_tests.length,
      supplement: SUPPLEMENT.length,
      skipped: [] as string[],
      unchangedByTheSanitiser: reports.filter((r) => r.unchanged).length,
      perFeature,
    };
    mkdirSync(path.join(ROOT, 'test-results'), { recursive: true });
    writeFileSync(path.join(ROOT, 'test-results/zulip-markdown-cases.json'), `${JSON.stringify(summary, null, 2)}\n`);
    console.log(`Zulip Markdown cases: ${JSON.stringify(summary)}`);
    // Each feature the issue names is met by at least one case (else the check proves nothing for it).
    for (const f of ['katex', 'code-highlight', 'spoiler', 'time', 'inline-image', 'emoji-unicode', 'emoji-image', 'mention-user', 'mention-group', 'mention-wildcard', 'mention-silent', 'link', 'table', 'blockquote', 'list', 'embed']) {
      expect((perFeature[f]?.zulip ?? 0) + (perFeature[f]?.ours ?? 0), f).toBeGreaterThan(0);
    }
    expect(reports.filter((r) => r.failures.length > 0).map((r) => `${r.name}: ${r.failures.join('; ')}`)).toEqual([]);
  });
});
