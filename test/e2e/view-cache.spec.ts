/**
 * The renderer's view cache (renderer/src/data/view-cache.ts): a view seen before opens with its
 * cached first screen, and the engine's snapshot replaces it; here a message arrived in it while
 * another view was open, so the first screen shown lacks it and the view then shows it. Quick
 * switches between two topics never show one topic's messages under the other's title (every DOM
 * change is recorded in the page and checked); each view gets a message list of its own, kept
 * while other views (a home view too) show and brought back as it was; hovering a link to a view
 * asks the engine for it; the sidebar keeps a channel's topic list, hidden, while another is open.
 */
import type { Page } from '@playwright/test';
import { demoUser, expect, markReadOnScroll, messageList, openTopic, sidebar, test } from './fixtures.js';

test.use({ sandboxAtStart: true });

const ALPHA = 'cache alpha';
const BETA = 'cache beta';

/** Every state of the screen after a DOM change: the view's title and its messages' text. */
const RECORDER = `(() => {
  window.__states = [];
  const record = () => window.__states.push({
    title: document.querySelector('.narrow-title')?.textContent ?? '',
    texts: [...document.querySelectorAll('.message-list .message .message-content')].map((e) => e.textContent.trim()),
  });
  new MutationObserver(record).observe(document.body, { subtree: true, childList: true, characterData: true });
})()`;
type State = { title: string; texts: string[] };
const states = async (app: Page) => (await app.evaluate('window.__states')) as State[];
/** A click on the sidebar's link to a topic of general, without hovering it first (no prefetch). */
const clickTopic = (app: Page, topic: string) =>
  app.getByRole('list', { name: 'Topics in general' }).getByRole('link', { name: topic, exact: true }).dispatchEvent('click');

test('a cached view is replaced by the engine’s answer; quick switches never show another view’s messages; hover prefetches', async ({ app, host }) => {
  await expect(app.getByRole('status').filter({ hasText: 'Live' })).toBeVisible({ timeout: 30_000 });
  await markReadOnScroll(host, 'never');
  const hamlet = await demoUser(host, 'hamlet@example.com');
  for (const n of [1, 2, 3]) {
    await hamlet.send('general', ALPHA, `[alpha] ${n}`);
    await hamlet.send('general', BETA, `[beta] ${n}`);
  }
  const list = messageList(app);
  await openTopic(app, 'general', ALPHA);
  await expect(list.getByText('[alpha] 3')).toBeVisible();
  // Alpha's list, marked: kept while other views show, it is the one that comes back.
  await app.evaluate(`document.querySelector('.message-scroll').dataset.list = 'alpha'`);
  await clickTopic(app, BETA);
  await expect(list.getByText('[beta] 3')).toBeVisible();
  // The pointer leaves the sidebar: a link moving under it would be hovered, and prefetched.
  await app.mouse.move(1, 1);

  // A message arrives in alpha while beta is open; once the engine has it, back to alpha.
  const late = await hamlet.send('general', ALPHA, '[alpha] 4');
  const control = host.service.connect(() => undefined);
  try {
    await expect
      .poll(async () => {
        const r = await control.invoke('openNarrow', { narrow: [{ operator: 'channel', operand: 'general' }, { operator: 'topic', operand: ALPHA }], anchor: 'newest', before: 10, after: 0 });
        if (!r.ok) return false;
        const v = r.value as { view_id: string; snapshot: { messages: { id: number }[] } };
        await control.invoke('closeNarrow', { view_id: v.view_id });
        return v.snapshot.messages.some((m) => m.id === late);
      }, { timeout: 20_000 })
      .toBe(true);
  } finally {
    control.close();
  }
  await app.evaluate(RECORDER);
  // Each view has a list of its own (never beta's rows laid out again for alpha), kept while
  // others show: alpha's own list comes back, the one message new since brought into it.
  await expect(app.locator('.message-scroll[data-list]')).toHaveCount(0);
  await app.evaluate(`document.querySelector('.message-scroll').dataset.list = 'beta'`);
  await clickTopic(app, ALPHA);
  await expect(list.getByText('[alpha] 4')).toBeVisible();
  await expect(app.locator('.message-scroll')).toHaveCount(1);
  await expect(app.locator('.message-scroll[data-list="alpha"]')).toHaveCount(1);
  // And through a visit to a home view: the message view and its lists are kept too.
  await app.getByRole('navigation', { name: 'Channels' }).getByRole('link', { name: /^Inbox/ }).dispatchEvent('click');
  await expect(app.locator('.message-scroll')).toHaveCount(0);
  await app.evaluate(`document.querySelector('section.home').dataset.kept = 'inbox'`);
  await clickTopic(app, ALPHA);
  await expect(app.locator('.message-scroll[data-list="alpha"]')).toBeVisible();
  await expect(list.getByText('[alpha] 4')).toBeInViewport();
  // The Inbox is kept as well (not built again), its composer made afresh only while it shows.
  await app.getByRole('navigation', { name: 'Channels' }).getByRole('link', { name: /^Inbox/ }).dispatchEvent('click');
  await expect(app.locator('section.home[data-kept="inbox"]')).toBeVisible();
  await expect(app.getByRole('button', { name: 'New topic' })).toHaveCount(1);
  await clickTopic(app, ALPHA);
  await expect(app.locator('.message-scroll[data-list="alpha"]')).toBeVisible();
  const alpha = (await states(app)).filter((s) => s.title === `general › ${ALPHA}` && s.texts.length > 0);
  // The first screen shown was the cached one (without the new message); the snapshot replaced it.
  expect(alpha[0]?.texts).toEqual(['[alpha] 1', '[alpha] 2', '[alpha] 3']);
  expect(alpha.at(-1)?.texts).toEqual(['[alpha] 1', '[alpha] 2', '[alpha] 3', '[alpha] 4']);

  // Quick switches, one click per frame, then settled on beta.
  await app.evaluate(RECORDER);
  await app.evaluate(`(async () => {
    const link = (t) => [...document.querySelectorAll('a')].find((a) => a.textContent.trim() === t && a.closest('[aria-label="Topics in general"]'));
    for (let i = 0; i < 8; i++) {
      link(i % 2 === 0 ? ${JSON.stringify(BETA)} : ${JSON.stringify(ALPHA)}).click();
      await new Promise((r) => requestAnimationFrame(r));
    }
  })()`);
  await clickTopic(app, BETA);
  await expect(app.getByRole('heading', { level: 1, name: `general › ${BETA}` })).toBeVisible();
  await expect(list.getByText('[beta] 3')).toBeVisible();
  const seen = await states(app);
  const wrongSeen = seen.filter((s) => (s.title === `general › ${ALPHA}` && s.texts.some((t) => t.startsWith('[beta]'))) || (s.title === `general › ${BETA}` && s.texts.some((t) => t.startsWith('[alpha]'))));

  // Hovering a link to a view not cached asks the engine for it ahead of any click (prefetch).
  await app.evaluate(`(() => {
    window.__asked = 0;
    const send = WebSocket.prototype.send;
    WebSocket.prototype.send = function (d) { if (String(d).includes('"openNarrow"')) window.__asked++; return send.call(this, d); };
  })()`);
  await sidebar(app).getByRole('link', { name: 'Denmark', exact: true }).hover();
  await expect.poll(() => app.evaluate('window.__asked')).toBeGreaterThan(0);
  await expect(app.getByRole('heading', { level: 1, name: `general › ${BETA}` })).toBeVisible();
  expect(seen.some((s) => s.title === `general › ${ALPHA}` && s.texts.length > 0)).toBe(true);
  expect(wrongSeen).toEqual([]);

  // The sidebar keeps the topic list of a channel opened lately, hidden while another channel is
  // open: going back to general shows the same list, not one built again.
  await app.evaluate(`document.querySelector('[aria-label="Topics in general"]').dataset.kept = 'general'`);
  await sidebar(app).getByRole('link', { name: 'Denmark', exact: true }).click();
  await expect(app.getByRole('heading', { level: 1, name: /Denmark/ })).toBeVisible();
  await expect(sidebar(app).getByRole('list', { name: 'Topics in general' })).toHaveCount(0);
  await expect(sidebar(app).getByRole('list', { name: 'Topics in Denmark' })).toBeVisible();
  await sidebar(app).getByRole('link', { name: 'general', exact: true }).click();
  await expect(app.locator('[aria-label="Topics in general"][data-kept="general"]')).toBeVisible();
});
