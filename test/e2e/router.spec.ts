/**
 * The router: the place is the URL fragment, as in Zulip web. Clicking channels and topics updates
 * it; Back, Forward and a reload keep the place (non-ASCII topics included); links to this realm's
 * narrows inside messages (Zulip's `/#narrow/...` and full realm URLs) navigate in place while
 * other links still open outside; views the app does not have show a placeholder, not a crash; a
 * channel's URL opened before its list loads gives its new-topic composer that channel.
 */
import { demoUser, expect, messageList, openSandbox, openTopic, screenshot, sidebar, test } from './fixtures.js';

test.use({ sandboxAtStart: true });

const heading = (app: import('@playwright/test').Page, name: string) => app.getByRole('heading', { level: 1, name, exact: true });

test('Back, Forward and reload keep the place; the URL follows the sidebar', async ({ app, host }, testInfo) => {
  await expect(app.getByRole('status').filter({ hasText: 'Live' })).toBeVisible({ timeout: 30_000 });
  await openTopic(app, 'general', 'lunch plans');
  await expect(app).toHaveURL(/#narrow\/channel\/\d+-general\/topic\/lunch\.20plans$/);
  const hamlet = await demoUser(host, 'hamlet@example.com');
  const topic = 'café ☕ 日本 v1.2 (beta)';
  await hamlet.send('general', topic, 'Non-ASCII topics survive the URL.');
  const topicLink = sidebar(app).getByRole('list', { name: 'Topics in general' }).getByRole('link', { name: topic, exact: true });
  // The new topic goes to the top of the list: wait for it before clicking (rows move).
  await expect(sidebar(app).getByRole('list', { name: 'Topics in general' }).getByRole('link').first()).toHaveText(topic);
  await topicLink.click();
  await expect(heading(app, `general › ${topic}`)).toBeVisible();
  // Zulip's encoding: % written as ".", and "." "(" ")" escaped.
  await expect(app).toHaveURL(/\/topic\/caf\.C3\.A9\.20\.E2\.98\.95\.20\.E6\.97\.A5\.E6\.9C\.AC\.20v1\.2E2\.20\.28beta\.29$/);
  await expect(messageList(app).getByText('Non-ASCII topics survive the URL.')).toBeVisible();
  await sidebar(app).getByRole('link', { name: 'Verona', exact: true }).click();
  await expect(heading(app, 'Verona')).toBeVisible();

  await app.goBack();
  await expect(heading(app, `general › ${topic}`)).toBeVisible();
  await app.goBack();
  await expect(heading(app, 'general › lunch plans')).toBeVisible();
  await expect(messageList(app).getByText('I will bring the curry.')).toBeVisible();
  await app.goForward();
  await expect(heading(app, `general › ${topic}`)).toBeVisible();

  await app.reload();
  await expect(heading(app, `general › ${topic}`)).toBeVisible({ timeout: 30_000 });
  await expect(messageList(app).getByText('Non-ASCII topics survive the URL.')).toBeVisible();
  await expect(sidebar(app).getByRole('link', { name: topic, exact: true })).toHaveAttribute('aria-current', 'page');

  // The views across conversations: a heading over each conversation links to it.
  await sidebar(app).getByRole('link', { name: 'Combined feed', exact: true }).click();
  await expect(heading(app, 'Combined feed')).toBeVisible();
  await expect(app).toHaveURL(/#feed$/);
  await messageList(app).getByRole('link', { name: `general › ${topic}`, exact: true }).last().click();
  await expect(heading(app, `general › ${topic}`)).toBeVisible();

  // A view the app does not have: a placeholder that says so, and the app still works.
  await app.goto(`${host.origin}/#reminders`);
  await expect(app.getByRole('heading', { name: 'Reminders: not built yet' })).toBeVisible();
  await screenshot(app, testInfo, '18-router-not-built', { shownDarkToo: true });
  await app.emulateMedia({ colorScheme: 'dark' });
  await expect(app.locator('html')).toHaveAttribute('data-theme', 'dark');
  await screenshot(app, testInfo, '18-router-not-built-dark');
  await app.emulateMedia({ colorScheme: 'light' });
  await app.goto(`${host.origin}/#narrow/color/red`);
  await expect(app.getByRole('heading', { name: 'This view is not built yet' })).toBeVisible();
  await app.goBack();
  await expect(app.getByRole('heading', { name: 'Reminders: not built yet' })).toBeVisible();
  await sidebar(app).getByRole('link', { name: 'Mentions', exact: true }).click();
  await expect(heading(app, 'Mentions')).toBeVisible();
  await expect(app).toHaveURL(/#narrow\/is\/mentioned$/);
});

test('links to this realm inside messages navigate in the app; other links still open outside', async ({ app, host }, testInfo) => {
  await expect(app.getByRole('status').filter({ hasText: 'Live' })).toBeVisible({ timeout: 30_000 });
  await openTopic(app, 'general', 'lunch plans');
  const iago = await demoUser(host, 'iago@example.com');
  const target = await iago.send('general', 'lunch plans', 'The table is booked.');
  const realm = host.sandboxUrl();
  if (realm === undefined) throw new Error('no sandbox');
  const lunchHash = String(await app.evaluate('location.hash'));
  await iago.send(
    'Verona',
    'links',
    `See [the booking](${realm}/${lunchHash}/near/${target}), #**general>lunch plans**, and [the docs](https://example.com/docs).`,
  );
  await app.evaluate('window.__samePage = 1');

  await sidebar(app).getByRole('link', { name: 'Verona', exact: true }).click();
  const veronaTopics = sidebar(app).getByRole('list', { name: 'Topics in Verona' });
  await expect(veronaTopics.getByRole('link').first()).toHaveText('links');
  await veronaTopics.getByRole('link', { name: 'links', exact: true }).click();
  const msg = messageList(app).locator('li.message', { hasText: 'See the booking' });
  await expect(msg).toBeVisible();
  // External links keep opening outside the app.
  await expect(msg.getByRole('link', { name: 'the docs' })).toHaveAttribute('target', '_blank');

  // A full realm URL with near: the topic opens at that message, marked.
  const pages = app.context().pages().length;
  await msg.getByRole('link', { name: 'the booking' }).click();
  await expect(heading(app, 'general › lunch plans')).toBeVisible();
  await expect(app).toHaveURL(new RegExp(`/topic/lunch\\.20plans/near/${target}$`));
  const anchored = messageList(app).locator(`li.message[data-message-id="${target}"]`);
  await expect(anchored).toHaveClass(/is-anchor/);
  await expect(anchored).toBeInViewport();
  await screenshot(app, testInfo, '19-router-link-near', { shownDarkToo: true });
  await app.emulateMedia({ colorScheme: 'dark' });
  await expect(app.locator('html')).toHaveAttribute('data-theme', 'dark');
  await screenshot(app, testInfo, '19-router-link-near-dark');
  await app.emulateMedia({ colorScheme: 'light' });

  // Back, then Zulip's own topic link (`/#narrow/...`).
  await app.goBack();
  await expect(heading(app, 'Verona › links')).toBeVisible();
  await msg.getByRole('link', { name: '#general > lunch plans' }).click();
  await expect(heading(app, 'general › lunch plans')).toBeVisible();
  await expect(app).toHaveURL(/#narrow\/channel\/\d+-general\/topic\/lunch\.20plans$/);

  // All in place: no new window, no reload.
  expect(app.context().pages()).toHaveLength(pages);
  expect(await app.evaluate('window.__samePage')).toBe(1);
});

test.describe('opened on a channel’s URL before the account is open', () => {
  test.use({ sandboxAtStart: false });

  test('the new-topic composer’s channel is the channel in view: on that first load, on reload and on navigation', async ({ app, host }) => {
    // The sandbox's general is channel 1 (its first); the private "core team" sorts first in the list.
    await app.goto(`${host.origin}/#narrow/channel/1-general`);
    await openSandbox(app);
    await expect(heading(app, 'general')).toBeVisible({ timeout: 30_000 });
    expect(await (await demoUser(host, 'hamlet@example.com')).channelId('general')).toBe(1);
    const channel = app.getByRole('combobox', { name: 'Channel' });
    const chosen = channel.locator('option:checked');
    await expect(channel).toHaveValue('1');
    await expect(chosen).toHaveText('general');

    await app.reload();
    await expect(heading(app, 'general')).toBeVisible({ timeout: 30_000 });
    await expect(channel).toHaveValue('1');
    await expect(chosen).toHaveText('general');

    await sidebar(app).getByRole('link', { name: 'Verona', exact: true }).click();
    await expect(heading(app, 'Verona')).toBeVisible();
    await expect(chosen).toHaveText('Verona');
    await app.goBack();
    await expect(heading(app, 'general')).toBeVisible();
    await expect(chosen).toHaveText('general');
  });
});
