/**
 * Scheduled messages and saved snippets (tracker "renderer part 3"): schedule from the composer in
 * the user's time zone → listed in #scheduled and on the server; edit its text and time → the
 * server agrees; delete → gone there. Snippets: create and edit in the manager, insert at the
 * caret, send. Offline: a snippet created and one deleted, and a message scheduled, while the
 * session is stopped wait as "not sent yet" and land once it starts.
 */
import type { Page } from '@playwright/test';
import { demoUser, expect, messageList, openTopic, screenshot, sidebar, test } from './fixtures.js';

test.use({ sandboxAtStart: true });

/** UNIX seconds of a New York wall time in January (EST, UTC−5). */
const nyJanuary = (day: number, hour: number, minute: number) => Date.UTC(2030, 0, day, hour + 5, minute) / 1000;

async function openScheduled(app: Page) {
  await sidebar(app).getByRole('link', { name: 'Scheduled messages' }).click();
  await expect(app.getByRole('heading', { level: 1, name: 'Scheduled messages' })).toBeVisible();
}

test('schedule from the composer, then edit and delete it in #scheduled', async ({ app, host }, testInfo) => {
  await expect(app.getByRole('status').filter({ hasText: 'Live' })).toBeVisible({ timeout: 30_000 });
  const desdemona = await demoUser(host, 'desdemona@example.com');
  // The user's own zone and 24-hour setting, set in another client, decide what is shown and picked.
  await desdemona.updateSettings({ timezone: 'America/New_York', twenty_four_hour_time: 'true' });
  await openScheduled(app);
  await expect(app.getByText('Times are in America/New_York.')).toBeVisible();
  await expect(app.getByText('No scheduled messages.')).toBeVisible();

  await openTopic(app, 'general', 'lunch plans');
  const input = app.getByRole('textbox', { name: 'Message to lunch plans' });
  await input.fill('Remember the **lunch** vote.');
  await app.getByRole('button', { name: 'Schedule', exact: true }).click();
  const dialog = app.getByRole('dialog', { name: 'Schedule message' });
  await dialog.getByLabel(/Delivery time/).fill('2020-01-15T09:30');
  await dialog.getByRole('button', { name: 'Schedule message' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Pick a time at least a minute from now.');
  await dialog.getByLabel(/Delivery time \(America\/New_York\)/).fill('2030-01-15T09:30');
  await dialog.getByRole('button', { name: 'Schedule message' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(input).toHaveValue('');
  // Scheduled, not sent.
  await expect(messageList(app).locator('li.message', { hasText: 'Remember the lunch vote.' })).toHaveCount(0);

  await expect.poll(async () => (await desdemona.scheduledMessages()).map((m) => [m.content, m.topic, m.scheduled_delivery_timestamp])).toEqual([['Remember the **lunch** vote.', 'lunch plans', nyJanuary(15, 9, 30)]]);

  await openScheduled(app);
  const item = app.getByRole('listitem', { name: 'Scheduled: #general › lunch plans' });
  await expect(item.locator('strong')).toHaveText('lunch');
  await expect(item.locator('time')).toContainText('09:30');
  await expect(item.locator('time')).toContainText('Jan 15, 2030');
  await expect(item.locator('.badge')).toHaveCount(0);
  await screenshot(app, testInfo, '60-scheduled-light');
  await app.emulateMedia({ colorScheme: 'dark' });
  await expect(app.locator('html')).toHaveAttribute('data-theme', 'dark');
  await screenshot(app, testInfo, '60-scheduled-dark');
  await app.emulateMedia({ colorScheme: 'light' });

  await item.getByRole('button', { name: 'Edit scheduled message to #general › lunch plans' }).click();
  const edit = app.getByRole('dialog', { name: 'Edit scheduled message' });
  await expect(edit.getByLabel(/Delivery time/)).toHaveValue('2030-01-15T09:30');
  await edit.getByRole('textbox', { name: 'Message', exact: true }).fill('Remember the lunch vote, at six.');
  await edit.getByLabel(/Delivery time/).fill('2030-01-16T18:45');
  await screenshot(app, testInfo, '60-scheduled-edit');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(edit).toHaveCount(0);
  await expect(item).toContainText('Remember the lunch vote, at six.');
  await expect(item.locator('time')).toContainText('18:45');
  await expect.poll(async () => (await desdemona.scheduledMessages()).map((m) => [m.content, m.scheduled_delivery_timestamp])).toEqual([['Remember the lunch vote, at six.', nyJanuary(16, 18, 45)]]);

  await item.getByRole('button', { name: 'Delete scheduled message to #general › lunch plans' }).click();
  const confirm = app.getByRole('dialog', { name: 'Delete scheduled message' });
  await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(app.getByText('No scheduled messages.')).toBeVisible();
  await expect.poll(async () => (await desdemona.scheduledMessages()).length).toBe(0);
});

test('saved snippets: create, edit, insert at the caret and send', async ({ app, host }, testInfo) => {
  await openTopic(app, 'general', 'lunch plans');
  await expect(app.getByRole('status').filter({ hasText: 'Live' })).toBeVisible({ timeout: 30_000 });
  const desdemona = await demoUser(host, 'desdemona@example.com');

  await app.getByRole('button', { name: 'Snippets', exact: true }).click();
  const picker = app.getByRole('dialog', { name: 'Insert a saved snippet' });
  await expect(picker.getByRole('button', { name: 'Insert Release reminder' })).toBeVisible();
  await picker.getByRole('button', { name: 'Manage snippets' }).click();
  const manager = app.getByRole('dialog', { name: 'Saved snippets' });
  await manager.getByRole('textbox', { name: 'Title' }).fill('Greeting');
  await manager.getByRole('textbox', { name: 'Text' }).fill('Hello from the snippet!');
  await manager.getByRole('button', { name: 'Create snippet' }).click();
  await expect(manager.getByRole('button', { name: 'Edit Greeting' })).toBeVisible();
  await expect.poll(async () => (await desdemona.savedSnippets()).find((s) => s.title === 'Greeting')?.content).toBe('Hello from the snippet!');

  await manager.getByRole('button', { name: 'Edit Greeting' }).click();
  await expect(manager.getByRole('textbox', { name: 'Text' })).toHaveValue('Hello from the snippet!');
  await manager.getByRole('textbox', { name: 'Text' }).fill('Hello from the edited snippet!');
  await screenshot(app, testInfo, '61-snippets-light');
  await app.emulateMedia({ colorScheme: 'dark' });
  await expect(app.locator('html')).toHaveAttribute('data-theme', 'dark');
  await screenshot(app, testInfo, '61-snippets-dark');
  await app.emulateMedia({ colorScheme: 'light' });
  await manager.getByRole('button', { name: 'Save snippet' }).click();
  await expect(manager.getByText('Hello from the edited snippet!')).toBeVisible();
  await expect.poll(async () => (await desdemona.savedSnippets()).find((s) => s.title === 'Greeting')?.content).toBe('Hello from the edited snippet!');
  await manager.getByRole('button', { name: 'Close' }).click();

  // Inserted where the caret is (between two words), then sent like any text.
  const input = app.getByRole('textbox', { name: 'Message to lunch plans' });
  await input.fill('Intro: — end');
  await input.focus();
  await input.evaluate((el) => (el as unknown as { setSelectionRange(a: number, b: number): void }).setSelectionRange(6, 6));
  // Zulip's Ctrl+' opens the picker from the text, its search focused; typing filters by title.
  await app.keyboard.press("Control+'");
  await expect(picker.getByRole('searchbox', { name: 'Search snippets' })).toBeFocused();
  await app.keyboard.type('greet');
  await expect(picker.getByRole('listitem')).toHaveCount(1);
  await picker.getByRole('button', { name: 'Insert Greeting' }).click();
  await expect(picker).toHaveCount(0);
  await expect(input).toHaveValue('Intro: Hello from the edited snippet! — end');
  await expect(input).toBeFocused();
  await input.press('Control+Enter');
  await expect(input).toHaveValue('');
  await expect.poll(async () => (await desdemona.contentsIn('general', 'lunch plans')).at(-1)).toBe('Intro: Hello from the edited snippet! — end');
});

test('offline: snippets and a scheduled message wait as not sent yet, then land once', async ({ app, host }, testInfo) => {
  await openTopic(app, 'general', 'lunch plans');
  await expect(app.getByRole('status').filter({ hasText: 'Live' })).toBeVisible({ timeout: 30_000 });
  const desdemona = await demoUser(host, 'desdemona@example.com');
  const control = host.service.connect(() => undefined);
  try {
    expect(await control.invoke('stop', {})).toEqual({ ok: true, value: { ok: true } });
    await expect(app.getByRole('status').filter({ hasText: 'Stopped' })).toBeVisible();

    await app.getByRole('button', { name: 'Snippets', exact: true }).click();
    await app.getByRole('dialog', { name: 'Insert a saved snippet' }).getByRole('button', { name: 'Manage snippets' }).click();
    const manager = app.getByRole('dialog', { name: 'Saved snippets' });
    await manager.getByRole('textbox', { name: 'Title' }).fill('Written offline');
    await manager.getByRole('textbox', { name: 'Text' }).fill('Made on the train.');
    await manager.getByRole('button', { name: 'Create snippet' }).click();
    const row = manager.getByRole('listitem').filter({ hasText: 'Written offline' });
    await expect(row.locator('.badge')).toHaveText('not sent yet');
    await manager.getByRole('button', { name: 'Delete Release reminder' }).click();
    await manager.getByRole('button', { name: 'Confirm deleting Release reminder' }).click();
    await expect(manager.getByText('Release reminder')).toHaveCount(0);
    await screenshot(app, testInfo, '61-snippets-offline');
    await manager.getByRole('button', { name: 'Close' }).click();

    const input = app.getByRole('textbox', { name: 'Message to lunch plans' });
    await input.fill('Scheduled without a connection.');
    await app.getByRole('button', { name: 'Schedule', exact: true }).click();
    const dialog = app.getByRole('dialog', { name: 'Schedule message' });
    await dialog.getByRole('button', { name: 'Tomorrow at 9:00' }).click();
    await dialog.getByRole('button', { name: 'Schedule message' }).click();
    await expect(input).toHaveValue('');
    await openScheduled(app);
    const item = app.getByRole('listitem', { name: 'Scheduled: #general › lunch plans' });
    await expect(item).toContainText('Scheduled without a connection.');
    await expect(item.locator('.badge')).toHaveText('not sent yet');
    await screenshot(app, testInfo, '60-scheduled-offline');
    // Nothing reached the server meanwhile.
    expect((await desdemona.scheduledMessages()).length).toBe(0);
    expect((await desdemona.savedSnippets()).map((s) => s.title)).toEqual(['Release reminder']);

    expect(await control.invoke('start', {})).toEqual({ ok: true, value: { ok: true } });
    await expect(item.locator('.badge')).toHaveCount(0, { timeout: 30_000 });
    await expect.poll(async () => (await desdemona.scheduledMessages()).map((m) => m.content)).toEqual(['Scheduled without a connection.']);
    await expect.poll(async () => (await desdemona.savedSnippets()).map((s) => s.title)).toEqual(['Written offline']);
    await expect(app.getByRole('status', { name: 'Outbox' })).toHaveCount(0);
  } finally {
    control.close();
  }
});

// A message the server could not send at its time (here: its sender left the private channel
// before then) is marked failed; editing it needs a new time (the spec's rule), and moving it to
// a channel the user is in with a new time makes it a pending scheduled message again.
test('a failed scheduled message is marked; it is edited only with a new time', async ({ app, host }, testInfo) => {
  await expect(app.getByRole('status').filter({ hasText: 'Live' })).toBeVisible({ timeout: 30_000 });
  const desdemona = await demoUser(host, 'desdemona@example.com');
  await desdemona.schedule('core team', 'planning', 'The secret plan.', Math.floor(Date.now() / 1000) + 2);
  await desdemona.unsubscribe('core team');
  await expect.poll(async () => (await desdemona.scheduledMessages()).map((m) => m.failed), { timeout: 20_000 }).toEqual([true]);

  await openScheduled(app);
  const item = app.getByRole('listitem').filter({ hasText: 'The secret plan.' });
  await expect(item.locator('.badge')).toHaveText('failed');
  await expect(item).toContainText('Could not be sent at the scheduled time');
  await screenshot(app, testInfo, '60-scheduled-failed');

  await item.getByRole('button', { name: /^Edit scheduled message/ }).click();
  const edit = app.getByRole('dialog', { name: 'Edit scheduled message' });
  await expect(edit.getByLabel(/Delivery time/)).toHaveValue('');
  await edit.getByRole('combobox', { name: 'Channel' }).selectOption({ label: 'general' });
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(edit.getByRole('alert')).toHaveText('Pick a date and a time.');
  await edit.getByLabel(/Delivery time/).fill('2031-03-02T10:00');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(edit).toHaveCount(0);
  const moved = app.getByRole('listitem', { name: 'Scheduled: #general › planning' });
  await expect(moved.locator('.badge')).toHaveCount(0);
  await expect.poll(async () => (await desdemona.scheduledMessages()).map((m) => [m.failed, m.topic, m.content])).toEqual([[false, 'planning', 'The secret plan.']]);
});
