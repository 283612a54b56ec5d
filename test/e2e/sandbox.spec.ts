/** The sandbox: channels listed, a channel and a topic opened, the demo conversation shown. */
import { expect, messageList, openSandbox, screenshot, sidebar, test } from './fixtures.js';

test('open the sandbox, then a channel and a topic with the demo messages', async ({ app }, testInfo) => {
  await openSandbox(app);
  const nav = sidebar(app);
  for (const name of ['general', 'Verona', 'Denmark', 'core team']) {
    await expect(nav.getByRole('link', { name, exact: true })).toBeVisible();
  }
  // Only subscribed channels are listed (desdemona is not in Scotland).
  await expect(nav.getByRole('link', { name: 'Scotland', exact: true })).toHaveCount(0);
  await expect(app.getByRole('status').filter({ hasText: 'Live' })).toBeVisible({ timeout: 30_000 });
  await screenshot(app, testInfo, '03-channels');

  // The channel narrow: every topic of general, each run headed by its topic.
  await nav.getByRole('link', { name: 'general', exact: true }).click();
  await expect(app.getByRole('heading', { level: 1, name: 'general' })).toBeVisible();
  const list = messageList(app);
  await expect(list.getByText('Anyone up for lunch at the Sagittary?')).toBeVisible();
  await expect(list.getByText('Count me in 👍')).toBeVisible(); // Zulip's emoji span, as the character
  await expect(list.getByText('To post, or not to post: that is the question.')).toBeVisible();
  const topics = nav.getByRole('list', { name: 'Topics in general' });
  for (const t of ['welcome', 'lunch plans', 'release schedule', 'general chat']) {
    await expect(topics.getByRole('link', { name: t, exact: true })).toBeVisible();
  }
  await screenshot(app, testInfo, '04-channel-general');

  // The topic narrow: only that topic, with sender names, initials and times.
  await topics.getByRole('link', { name: 'welcome', exact: true }).click();
  await expect(app.getByRole('heading', { level: 1, name: 'general › welcome' })).toBeVisible();
  await expect(list.getByText('Glad to be here.', { exact: false })).toBeVisible();
  await expect(list.getByText('Anyone up for lunch at the Sagittary?')).toHaveCount(0);
  const hamlet = list.locator('li.message', { hasText: 'To post, or not to post' });
  await expect(hamlet.locator('.sender')).toHaveText('King Hamlet');
  // The initials are drawn from the avatar button's data (its name is the user card's).
  await expect(hamlet.locator('.avatar')).toHaveAttribute('data-initials', 'KH');
  await expect(hamlet.locator('time')).toHaveAttribute('datetime', /^\d{4}-\d\d-\d\dT/);
  // Server HTML is rendered (bold, channel links), sanitised.
  await expect(list.locator('li.message strong', { hasText: 'Sandbox' })).toBeVisible();
  await expect(list.locator('a.stream', { hasText: '#Verona' })).toHaveAttribute('rel', 'noopener noreferrer');
  await screenshot(app, testInfo, '05-topic-welcome');

  // The moved marker comes from the cached message state (edited is covered by live.spec.ts).
  await nav.getByRole('link', { name: 'Denmark', exact: true }).click();
  await nav.getByRole('list', { name: 'Topics in Denmark' }).getByRole('link', { name: 'something is rotten', exact: true }).click();
  await expect(list.locator('li.message', { hasText: 'Something is rotten in the state of Denmark.' }).getByText('moved', { exact: true })).toBeVisible();
});
