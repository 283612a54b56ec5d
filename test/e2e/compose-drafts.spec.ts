/**
 * The composer everywhere, drafts kept by the engine, reading that marks read, and the keyboard:
 * a half-typed reply survives switching topics and a reload and goes once sent; a new topic named
 * with the topic input lands at the server; a DM is started with the recipient picker; scrolling
 * an unread topic marks what was seen read and the server agrees; j / k / r and typing send
 * without the mouse. Screenshots of the composer's states, light and dark.
 */
import type { Page } from '@playwright/test';
import type { BrowserHost } from '../../host/browser/server.js';
import { demoUser, expect, markReadOnScroll, messageList, openTopic, screenshot, sidebar, test } from './fixtures.js';

test.use({ sandboxAtStart: true });

/** The engine's drafts, read through the contract as another client of the host would. */
async function engineDrafts(host: BrowserHost): Promise<{ key: string; content: string }[]> {
  const control = host.service.connect(() => undefined);
  try {
    const r = await control.invoke('drafts', {});
    if (!r.ok) throw new Error(`drafts: ${r.error.code}`);
    return r.value as { key: string; content: string }[];
  } finally {
    control.close();
  }
}

async function live(app: Page): Promise<void> {
  await expect(app.getByRole('status').filter({ hasText: 'Live' })).toBeVisible({ timeout: 30_000 });
}

test('a reply draft survives switching topics and a reload, and goes once sent', async ({ app, host }, testInfo) => {
  await openTopic(app, 'general', 'lunch plans');
  await live(app);
  const input = app.getByRole('textbox', { name: 'Message to lunch plans' });
  await input.fill('Half-typed: maybe **tacos**');
  // Saved once typing pauses (debounced), not per keystroke.
  await expect.poll(() => engineDrafts(host)).toEqual([expect.objectContaining({ key: expect.stringMatching(/^channel:\d+:lunch plans$/), content: 'Half-typed: maybe **tacos**' })]);

  await openTopic(app, 'general', 'welcome');
  await expect(app.getByRole('textbox', { name: 'Message to welcome' })).toHaveValue('');
  await openTopic(app, 'general', 'lunch plans');
  await expect(input).toHaveValue('Half-typed: maybe **tacos**');

  // Typed just before leaving: saved on the way out (no wait for the debounce).
  await input.fill('Half-typed: maybe **tacos** or soup');
  await openTopic(app, 'general', 'welcome');
  await openTopic(app, 'general', 'lunch plans');
  await expect(input).toHaveValue('Half-typed: maybe **tacos** or soup');

  await app.reload();
  await expect(input).toHaveValue('Half-typed: maybe **tacos** or soup', { timeout: 30_000 });

  // The preview renders the Markdown here (sanitised), with a note that the server may differ.
  await app.getByRole('button', { name: 'Preview' }).click();
  await expect(app.getByRole('button', { name: 'Preview' })).toHaveAttribute('aria-pressed', 'true');
  await expect(app.getByRole('region', { name: 'Preview' }).locator('strong')).toHaveText('tacos');
  await expect(app.getByText('the server’s rendering may differ')).toBeVisible();
  await screenshot(app, testInfo, '21-composer-preview');
  await app.getByRole('button', { name: 'Preview' }).click();

  // enter_sends is off by default (as in Zulip): Enter adds a line, Ctrl+Enter sends.
  await live(app);
  await input.press('End');
  await input.press('Enter');
  await input.pressSequentially('See you at noon.');
  await expect(input).toHaveValue('Half-typed: maybe **tacos** or soup\nSee you at noon.');
  await screenshot(app, testInfo, '22-composer-draft');
  await input.press('Control+Enter');
  await expect(input).toHaveValue('');
  const sent = messageList(app).locator('li.message', { hasText: 'See you at noon.' });
  await expect(sent.locator('strong')).toHaveText('tacos');
  await expect.poll(() => engineDrafts(host)).toEqual([]);
  const desdemona = await demoUser(host, 'desdemona@example.com');
  await expect.poll(async () => (await desdemona.contentsIn('general', 'lunch plans')).at(-1)).toBe('Half-typed: maybe **tacos** or soup\nSee you at noon.');
  // Nothing comes back after a reload.
  await app.reload();
  await expect(input).toBeVisible({ timeout: 30_000 });
  await live(app);
  await expect(input).toHaveValue('');
});

test('a new topic named with the topic input (suggesting cached topics) lands at the server', async ({ app, host }, testInfo) => {
  await sidebar(app).getByRole('link', { name: 'general', exact: true }).click();
  await expect(app.getByRole('heading', { level: 1, name: 'general' })).toBeVisible();
  await live(app);
  const form = app.getByRole('form', { name: 'New topic' });
  await expect(form.getByRole('combobox', { name: 'Channel' })).toHaveValue(/\d+/);
  const topic = form.getByRole('combobox', { name: 'Topic' });
  await topic.fill('lun');
  const options = form.getByRole('listbox', { name: 'Topic suggestions' }).getByRole('option');
  await expect(options.filter({ hasText: 'lunch plans' })).toBeVisible();
  await screenshot(app, testInfo, '23-new-topic-typeahead');
  await topic.fill('Design review');
  await form.getByRole('textbox', { name: 'Message to a new topic' }).fill('Shall we review the *logo* on Monday?');
  // A new topic's draft is kept under its name.
  await expect.poll(() => engineDrafts(host)).toEqual([expect.objectContaining({ key: expect.stringMatching(/:design review$/) })]);
  await form.getByRole('button', { name: 'Send' }).click();
  // The channel view shows it under its new topic; the composer stays on that topic for more.
  await expect(messageList(app).locator('li.message', { hasText: 'Shall we review the logo on Monday?' }).locator('em')).toHaveText('logo');
  await expect(form.getByRole('textbox', { name: 'Message to a new topic' })).toHaveValue('');
  await expect(topic).toHaveValue('Design review');
  const desdemona = await demoUser(host, 'desdemona@example.com');
  await expect.poll(() => desdemona.contentsIn('general', 'Design review')).toEqual(['Shall we review the *logo* on Monday?']);
  await expect.poll(() => engineDrafts(host)).toEqual([]);
  await expect(sidebar(app).getByRole('list', { name: 'Topics in general' }).getByRole('link', { name: 'Design review', exact: true })).toBeVisible();
});

test('a direct message started with the recipient picker', async ({ app, host }, testInfo) => {
  await openTopic(app, 'general', 'lunch plans');
  await live(app);
  await app.getByRole('button', { name: 'New direct message' }).click();
  const form = app.getByRole('form', { name: 'New direct message' });
  const picker = form.getByRole('combobox', { name: 'Add a person' });
  await expect(picker).toBeFocused();
  await picker.fill('oth');
  await expect(form.getByRole('option', { name: /Othello/ })).toHaveAttribute('aria-selected', 'true');
  await picker.press('Enter');
  await expect(form.getByRole('list', { name: 'People picked' })).toContainText('Othello, the Moor of Venice');
  await picker.fill('ham');
  await picker.press('Enter');
  await expect(form.getByRole('button', { name: 'Remove King Hamlet' })).toBeVisible();
  await form.getByRole('button', { name: 'Remove King Hamlet' }).click();
  await expect(form.getByRole('button', { name: 'Remove King Hamlet' })).toHaveCount(0);
  await form.getByRole('textbox', { name: 'Direct message text' }).fill('Othello, a word about the handkerchief?');
  await screenshot(app, testInfo, '24-dm-picker');
  await form.getByRole('textbox', { name: 'Direct message text' }).press('Control+Enter');
  await expect(app.getByRole('heading', { level: 1, name: 'Direct messages with Othello, the Moor of Venice' })).toBeVisible();
  const sent = messageList(app).locator('li.message', { hasText: 'a word about the handkerchief' });
  await expect(sent).toHaveCount(1);
  await expect.poll(async () => Number(await sent.getAttribute('data-message-id'))).toBeLessThan(2 ** 52);
  const desdemona = await demoUser(host, 'desdemona@example.com');
  expect(await desdemona.raw(Number(await sent.getAttribute('data-message-id')))).toBe('Othello, a word about the handkerchief?');
  // The conversation's own composer replies to it now.
  await expect(app.getByRole('textbox', { name: 'Message to Othello, the Moor of Venice' })).toBeVisible();
});

test('scrolling a topic with unread messages marks what was seen read, and the server agrees', async ({ app, host }) => {
  const desdemona = await demoUser(host, 'desdemona@example.com');
  const othello = await demoUser(host, 'othello@example.com');
  await live(app);
  const ids: number[] = [];
  for (let i = 1; i <= 30; i++) ids.push(await othello.send('general', 'long read', `Paragraph ${i} of the long read.\n\n${'Some more words. '.repeat(6)}`));
  const row = sidebar(app).getByRole('list', { name: 'Topics in general' }).locator('li.topic', { has: app.getByRole('link', { name: 'long read', exact: true }) });
  await sidebar(app).getByRole('link', { name: 'general', exact: true }).click();
  await expect(row.locator('.unread')).toHaveText('30 unread');
  expect(await desdemona.unreadIn('general', 'long read')).toHaveLength(30);

  await row.getByRole('link', { name: 'long read', exact: true }).click();
  const list = messageList(app);
  // The view opens at the first unread message, as Zulip's do.
  await expect(list.getByText('Paragraph 1 of the long read.')).toBeInViewport();
  // The oldest, on screen, are read; the newest, not seen yet, stay unread.
  await expect.poll(async () => (await desdemona.unreadIn('general', 'long read')).length).toBeLessThan(30);
  const left = await desdemona.unreadIn('general', 'long read');
  expect(left.length).toBeGreaterThan(0);
  expect(left).toContain(ids[29]);
  expect(left).not.toContain(ids[0]);
  await expect(row.locator('.unread')).toHaveText(`${left.length} unread`);

  // Scroll down through the rest as a reader does (a wheel's steps), to the end: all read, here
  // and at the server; the count goes.
  const scroller = app.locator('.message-scroll');
  const atEnd = () => scroller.evaluate((el) => el.scrollTop + el.clientHeight >= el.scrollHeight - 2);
  for (let i = 0; i < 80 && !(await atEnd()); i++) {
    await scroller.hover();
    await app.mouse.wheel(0, 150);
    await app.waitForTimeout(60);
  }
  await expect(list.getByText('Paragraph 30 of the long read.')).toBeInViewport();
  await expect.poll(() => desdemona.unreadIn('general', 'long read'), { timeout: 20_000 }).toEqual([]);
  await expect(row.locator('.unread')).toHaveCount(0);
});

test('keyboard only: j / k select, r replies, Enter sends; ? lists the shortcuts; c and x open composers', async ({ app, host }, testInfo) => {
  const desdemona = await demoUser(host, 'desdemona@example.com');
  await openTopic(app, 'general', 'lunch plans');
  await live(app);
  // The user's enter_sends, turned on from the composer (a queued settings change).
  const enterSends = app.getByRole('checkbox', { name: 'Enter sends' });
  await enterSends.check();
  await expect(enterSends).toBeChecked();
  await expect(app.getByText('Enter sends, Shift+Enter adds a line')).toBeVisible();
  await app.locator('body').click({ position: { x: 5, y: 5 } });
  await app.keyboard.press('Escape');

  const list = messageList(app);
  const selected = list.locator('li.message.is-selected');
  await app.keyboard.press('j');
  await expect(selected).toHaveCount(1);
  await expect(selected).toBeFocused();
  const first = Number(await selected.getAttribute('data-message-id'));
  await app.keyboard.press('j');
  await expect.poll(async () => Number(await selected.getAttribute('data-message-id'))).toBeGreaterThan(first);
  await app.keyboard.press('k');
  await expect.poll(async () => Number(await selected.getAttribute('data-message-id'))).toBe(first);
  await app.keyboard.press('End');
  await expect(selected).toContainText('I will bring the curry.');
  await screenshot(app, testInfo, '25-selected-message');

  await app.keyboard.press('r');
  const input = app.getByRole('textbox', { name: 'Message to lunch plans' });
  await expect(input).toBeFocused();
  await app.keyboard.type('Typed without a mouse.');
  await app.keyboard.press('Enter');
  await expect(input).toHaveValue('');
  await expect(list.locator('li.message', { hasText: 'Typed without a mouse.' })).toHaveCount(1);
  await expect.poll(async () => (await desdemona.contentsIn('general', 'lunch plans')).at(-1)).toBe('Typed without a mouse.');

  // Letters typed in the composer are text, never shortcuts.
  await input.pressSequentially('jkcx?');
  await expect(input).toHaveValue('jkcx?');
  await expect(app.getByRole('dialog', { name: 'Keyboard shortcuts' })).toHaveCount(0);
  await input.fill('');
  await app.keyboard.press('Escape');
  await expect(input).not.toBeFocused();

  // ? lists the shortcuts in a modal dialog; Escape closes it.
  await app.keyboard.press('?');
  const help = app.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(help).toBeVisible();
  await expect(help.getByRole('row', { name: /Reply to the selected message/ })).toBeVisible();
  await screenshot(app, testInfo, '26-shortcuts');
  await app.keyboard.press('Escape');
  await expect(help).toHaveCount(0);

  // / focuses the search; Escape leaves it.
  await app.keyboard.press('/');
  await expect(app.getByRole('combobox', { name: 'Search messages' })).toBeFocused();
  await app.keyboard.press('Escape');
  await app.keyboard.press('Control+k');
  await expect(app.getByRole('combobox', { name: 'Search messages' })).toBeFocused();
  await app.keyboard.press('Escape');

  // c: a new topic in this channel (its name first); Escape closes it, x: a new DM.
  await app.keyboard.press('c');
  const newTopic = app.getByRole('form', { name: 'New topic' });
  await expect(newTopic.getByRole('combobox', { name: 'Topic' })).toBeFocused();
  await app.keyboard.press('Escape');
  await expect(newTopic).toHaveCount(0);
  await app.keyboard.press('x');
  await expect(app.getByRole('form', { name: 'New direct message' }).getByRole('combobox', { name: 'Add a person' })).toBeFocused();
  await app.keyboard.press('Escape');
  await expect(app.getByRole('form', { name: 'New direct message' })).toHaveCount(0);

  // n: the next unread topic in the sidebar's order (the demo realm has some), p: back to the
  // previous one (kept unread meanwhile: reading here must not mark them).
  await markReadOnScroll(host, 'never');
  await app.keyboard.press('n');
  const heading = app.getByRole('heading', { level: 1 });
  await expect(heading).toHaveText(/ › (?!lunch plans$)/);
  const next = await heading.textContent();
  await app.keyboard.press('n');
  await expect(heading).not.toHaveText(next ?? '');
  await app.keyboard.press('p');
  await expect(heading).toHaveText(next ?? '');
});

test('composer states in the dark theme', async ({ app, host }, testInfo) => {
  const desdemona = await demoUser(host, 'desdemona@example.com');
  await openTopic(app, 'general', 'lunch plans');
  await live(app);
  await desdemona.updateSettings({ color_scheme: '2' });
  await expect(app.locator('html')).toHaveAttribute('data-theme', 'dark');
  const input = app.getByRole('textbox', { name: 'Message to lunch plans' });
  await input.fill('A draft in the **dark**.');
  await screenshot(app, testInfo, '22-composer-draft-dark');
  await app.getByRole('button', { name: 'Preview' }).click();
  await screenshot(app, testInfo, '21-composer-preview-dark');
  await app.getByRole('button', { name: 'Preview' }).click();
  await input.press('Escape');
  await app.keyboard.press('j');
  await expect(messageList(app).locator('li.message.is-selected')).toBeFocused();
  await screenshot(app, testInfo, '25-selected-message-dark');
  await app.keyboard.press('c');
  const topic = app.getByRole('form', { name: 'New topic' }).getByRole('combobox', { name: 'Topic' });
  await topic.fill('lun');
  await screenshot(app, testInfo, '23-new-topic-typeahead-dark');
  await app.keyboard.press('Escape');
  await app.keyboard.press('Escape');
  await app.keyboard.press('x');
  const picker = app.getByRole('form', { name: 'New direct message' }).getByRole('combobox', { name: 'Add a person' });
  await picker.fill('i');
  await screenshot(app, testInfo, '24-dm-picker-dark');
  await app.keyboard.press('Escape');
  await app.keyboard.press('Escape');
  await app.locator('body').click({ position: { x: 5, y: 5 } });
  await app.keyboard.press('?');
  await expect(app.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible();
  await screenshot(app, testInfo, '26-shortcuts-dark');
});
