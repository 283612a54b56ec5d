/**
 * Zulip web's keyboard shortcuts on the selected message, with no mouse after opening the topic:
 * K / J / arrows select, Ctrl+S stars, + reacts with thumbs up, : opens the emoji picker, E opens
 * the inline editor, Shift+U marks unread from here, Shift+M mutes and unmutes the topic; each time
 * the server agrees (read back through the sandbox's REST API). Then the views (*, Shift+I, T) and
 * the help dialog (?), screenshotted light and dark.
 */
import type { Page } from '@playwright/test';
import { demoUser, expect, messageList, openTopic, screenshot, sidebar, test } from './fixtures.js';

test.use({ sandboxAtStart: true });

const live = (app: Page) => expect(app.getByRole('status').filter({ hasText: 'Live' })).toBeVisible({ timeout: 30_000 });

test('message actions by keyboard alone: the server sees each', async ({ app, host }, testInfo) => {
  await live(app);
  const desdemona = await demoUser(host, 'desdemona@example.com');
  const hamlet = await demoUser(host, 'hamlet@example.com');
  const first = await hamlet.send('general', 'keys', 'To be, or not to be.');
  const second = await hamlet.send('general', 'keys', 'That is the question.');
  const own = await desdemona.send('general', 'keys', 'Mine to edit.');
  await openTopic(app, 'general', 'keys');
  const list = messageList(app);
  const selected = list.locator('li.message.is-selected');
  const byId = (id: number) => list.locator(`li.message[data-message-id="${id}"]`);
  await expect(byId(own)).toBeVisible();
  // Reading the topic marks Hamlet's two messages read.
  await expect.poll(() => desdemona.unreadIn('general', 'keys'), { timeout: 20_000 }).toEqual([]);

  // k with nothing selected takes the last message on screen; k / j / arrows step.
  await app.keyboard.press('k');
  await expect(selected).toHaveAttribute('data-message-id', String(own));
  await expect(selected).toBeFocused();
  await app.keyboard.press('k');
  await expect(selected).toHaveAttribute('data-message-id', String(second));
  await app.keyboard.press('ArrowDown');
  await expect(selected).toHaveAttribute('data-message-id', String(own));
  await app.keyboard.press('ArrowUp');
  await expect(selected).toHaveAttribute('data-message-id', String(second));

  // Ctrl+S stars it (and again unstars), as the Star button does.
  await app.keyboard.press('Control+s');
  await expect(byId(second).getByRole('img', { name: 'Starred' })).toBeVisible();
  await expect.poll(async () => (await desdemona.message(second)).flags).toContain('starred');

  // + reacts with thumbs up; : opens the picker on its search box, Enter picks the first match.
  await app.keyboard.press('+');
  const reactions = byId(second).getByRole('group', { name: 'Reactions' });
  await expect(reactions.getByRole('button', { name: '+1: 1, you' })).toHaveAttribute('aria-pressed', 'true');
  await expect.poll(async () => (await desdemona.message(second)).reactions.map((r) => r.emoji_code)).toEqual(['1f44d']);
  await app.keyboard.press(':');
  const picker = app.getByRole('dialog', { name: 'Emoji picker' });
  await expect(picker.getByRole('searchbox', { name: 'Search emoji' })).toBeFocused();
  await app.keyboard.type('tada');
  await app.keyboard.press('Enter');
  await expect(picker).toHaveCount(0);
  await expect(reactions.getByRole('button', { name: 'tada: 1, you' })).toBeVisible();
  await expect.poll(async () => (await desdemona.message(second)).reactions.map((r) => r.emoji_name).sort()).toEqual(['+1', 'tada']);
  // + again takes the thumbs up back.
  await app.keyboard.press('+');
  await expect.poll(async () => (await desdemona.message(second)).reactions.map((r) => r.emoji_name)).toEqual(['tada']);

  // j to our own message; e opens its editor; the new text is saved with Enter.
  await app.keyboard.press('j');
  await expect(selected).toHaveAttribute('data-message-id', String(own));
  await app.keyboard.press('e');
  const text = byId(own).getByRole('textbox', { name: 'Message text' });
  await expect(text).toBeFocused();
  // The raw Markdown is asked of the engine: typed before it is in, the keys would be lost (under load).
  await expect(text).toHaveValue('Mine to edit.');
  // Letters typed there are text, never shortcuts.
  await app.keyboard.press('Control+a');
  await app.keyboard.type('Edited by keys: e*+:U');
  await expect(app.getByRole('dialog', { name: 'Emoji picker' })).toHaveCount(0);
  await app.keyboard.press('Enter');
  await expect(text).toHaveCount(0);
  await expect.poll(async () => (await desdemona.message(own)).content).toBe('Edited by keys: e*+:U');

  // Shift+U on the first message: it and every later one are unread again at the server.
  await app.keyboard.press('k');
  await app.keyboard.press('k');
  await expect(selected).toHaveAttribute('data-message-id', String(first));
  await app.keyboard.press('Shift+U');
  await expect.poll(() => desdemona.unreadIn('general', 'keys')).toEqual([first, second, own]);

  // Shift+M mutes the topic, and again unmutes it (back to the channel's default).
  const policy = async () => (await desdemona.userTopics()).find((t) => t.topic_name === 'keys')?.visibility_policy ?? 0;
  const keysRow = sidebar(app).locator('li.topic').filter({ has: app.getByRole('link', { name: 'keys', exact: true }) });
  await app.keyboard.press('Shift+M');
  await expect.poll(policy).toBe(1);
  // The key toggles what the page shows: press again once the page shows it muted (else it mutes twice).
  await expect(keysRow).toHaveClass(/\bmuted\b/);
  await app.keyboard.press('Shift+M');
  await expect.poll(policy).toBe(0);

  // The views: * starred messages (the one starred above), Shift+I the inbox, t recent conversations.
  const heading = app.getByRole('heading', { level: 1 });
  await app.keyboard.press('*');
  await expect(heading).toHaveText('Starred messages');
  await expect(messageList(app).locator(`li.message[data-message-id="${second}"]`)).toBeVisible();
  await app.keyboard.press('Shift+I');
  await expect(heading).toHaveText('Inbox');
  await app.keyboard.press('t');
  await expect(heading).toHaveText('Recent conversations');

  // ? lists them all by section; Escape closes it.
  await app.keyboard.press('?');
  const help = app.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(help).toBeVisible();
  await expect(help.getByRole('table', { name: 'Message actions' }).getByRole('row', { name: /Mute or unmute the topic/ })).toContainText('Shift+M');
  await screenshot(app, testInfo, '97-shortcuts-help', { shownDarkToo: true });
  await app.emulateMedia({ colorScheme: 'dark' });
  await expect(app.locator('html')).toHaveAttribute('data-theme', 'dark');
  await screenshot(app, testInfo, '97-shortcuts-help-dark');
  await app.keyboard.press('Escape');
  await expect(help).toHaveCount(0);
});
