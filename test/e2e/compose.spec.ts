/**
 * Writing: a message sent from the composer shows at once (its local echo, marked "sending") and
 * ends as the server's message without a marker; editing it inline shows the new text, and the
 * server's copy has changed too (read back through the sandbox's REST API).
 */
import { demoUser, expect, markReadOnScroll, messageList, openTopic, screenshot, test } from './fixtures.js';

test.use({ sandboxAtStart: true });

test('send from the composer, then edit the message inline', async ({ app, host }, testInfo) => {
  await openTopic(app, 'general', 'lunch plans');
  await expect(app.getByRole('status').filter({ hasText: 'Live' })).toBeVisible({ timeout: 30_000 });
  const list = messageList(app);
  const input = app.getByRole('textbox', { name: 'Message to lunch plans' });
  const send = app.getByRole('button', { name: 'Send', exact: true });
  await expect(send).toBeDisabled();

  // Shift+Enter is a new line; with enter_sends off (Zulip's default) Ctrl+Enter sends.
  await input.fill('Pizza on **Friday**?');
  await expect(send).toBeEnabled();
  await input.press('Shift+Enter');
  await input.pressSequentially('Or curry.');
  await expect(input).toHaveValue('Pizza on **Friday**?\nOr curry.');
  await input.press('Control+Enter');
  await expect(input).toHaveValue('');
  await expect(send).toBeDisabled();

  const sent = list.locator('li.message', { hasText: 'Or curry.' });
  await expect(sent).toHaveCount(1);
  // The echo is replaced by the server's message: rendered Markdown, a server id, no marker.
  await expect(sent.locator('strong')).toHaveText('Friday');
  await expect.poll(async () => Number(await sent.getAttribute('data-message-id'))).toBeLessThan(2 ** 52);
  const id = Number(await sent.getAttribute('data-message-id'));
  // Found by id from here on: while the editor is open the text is in a textarea, not the item's text.
  const mine = list.locator(`li.message[data-message-id="${id}"]`);
  await expect(mine.locator('.marker-pending')).toHaveCount(0);
  await expect(mine.locator('.sender')).toHaveText('Desdemona');
  await expect(app.getByRole('status', { name: 'Outbox' })).toHaveCount(0);
  await screenshot(app, testInfo, '09-composer-sent');

  const desdemona = await demoUser(host, 'desdemona@example.com');
  expect(await desdemona.raw(id)).toBe('Pizza on **Friday**?\nOr curry.');

  // Edit: the raw Markdown comes back into the editor; Save queues the edit.
  await mine.getByRole('button', { name: 'Edit message' }).click();
  const editor = mine.getByRole('textbox', { name: 'Message text' });
  await expect(editor).toHaveValue('Pizza on **Friday**?\nOr curry.');
  await expect(mine.getByRole('button', { name: 'Save' })).toBeDisabled(); // nothing changed yet
  await editor.fill('Pizza on **Saturday** instead.');
  await mine.getByRole('button', { name: 'Save' }).click();
  await expect(editor).toHaveCount(0);
  await expect(mine.locator('strong')).toHaveText('Saturday');
  await expect(mine.locator('.marker-pending')).toHaveCount(0);
  await expect(mine.getByText('edited', { exact: true })).toBeVisible();
  await expect.poll(() => desdemona.raw(id)).toBe('Pizza on **Saturday** instead.');
  await screenshot(app, testInfo, '10-edited');

  // Cancel leaves the message as it is; other users' messages offer no Edit.
  await mine.getByRole('button', { name: 'Edit message' }).click();
  await mine.getByRole('button', { name: 'Cancel' }).click();
  await expect(mine.getByRole('textbox')).toHaveCount(0);
  await expect(list.locator('li.message', { hasText: 'I will bring the curry.' }).getByRole('button', { name: 'Edit message' })).toHaveCount(0);
});

// An edit started from a text someone changed meanwhile (here: the same user in another client)
// meets the newer text on the server; the same words changed both ways cannot merge.
test('an edit that conflicts with a newer one is marked; Keep mine or Take theirs settles it', async ({ app, host }, testInfo) => {
  await openTopic(app, 'general', 'lunch plans');
  await expect(app.getByRole('status').filter({ hasText: 'Live' })).toBeVisible({ timeout: 30_000 });
  const desdemona = await demoUser(host, 'desdemona@example.com');
  const id = await desdemona.send('general', 'lunch plans', 'We meet at noon.');
  const mine = messageList(app).locator(`li.message[data-message-id="${id}"]`);
  await expect(mine).toContainText('We meet at noon.');

  await mine.getByRole('button', { name: 'Edit message' }).click();
  const editor = mine.getByRole('textbox', { name: 'Message text' });
  await expect(editor).toHaveValue('We meet at noon.');
  await desdemona.edit(id, 'We meet at one.');
  await editor.fill('We meet at two.');
  await mine.getByRole('button', { name: 'Save' }).click();

  const banner = mine.locator('.local-conflict');
  await expect(banner).toContainText('Edited elsewhere meanwhile');
  await expect(app.getByRole('status', { name: 'Outbox' })).toHaveText('1 conflict');
  await screenshot(app, testInfo, '11-edit-conflict');
  expect(await desdemona.raw(id)).toBe('We meet at one.');

  await banner.getByRole('button', { name: 'Keep mine' }).click();
  await expect(banner).toHaveCount(0);
  await expect.poll(() => desdemona.raw(id)).toBe('We meet at two.');
  await expect(mine).toContainText('We meet at two.');
  await expect(mine.locator('.marker-pending')).toHaveCount(0);
  await expect(app.getByRole('status', { name: 'Outbox' })).toHaveCount(0);

  // Again, settled the other way: the server's text stays and the user's is kept as a draft.
  await mine.getByRole('button', { name: 'Edit message' }).click();
  await expect(editor).toHaveValue('We meet at two.');
  await desdemona.edit(id, 'We meet at three.');
  await editor.fill('We meet at four.');
  await mine.getByRole('button', { name: 'Save' }).click();
  await banner.getByRole('button', { name: 'Take theirs' }).click();
  await expect(banner).toHaveCount(0);
  await expect(mine.locator('.message-content')).toHaveText('We meet at three.');
  await expect(mine.locator('.draft-text')).toHaveText('We meet at four.');
  expect(await desdemona.raw(id)).toBe('We meet at three.');
  await mine.getByRole('button', { name: 'Dismiss' }).click();
  await expect(mine.locator('.draft-text')).toHaveCount(0);
});

// Not connected (the session stopped through the contract, as a user's "work offline" would): the
// message waits in the outbox with its marker and the header's badge, and goes once started again.
test('a message written while not connected waits as pending, then goes when the session starts', async ({ app, host }, testInfo) => {
  // Reading would queue read flags of its own as the send scrolls unread messages into view.
  await markReadOnScroll(host, 'never');
  await openTopic(app, 'general', 'lunch plans');
  await expect(app.getByRole('status').filter({ hasText: 'Live' })).toBeVisible({ timeout: 30_000 });
  const control = host.service.connect(() => undefined);
  try {
    expect(await control.invoke('stop', {})).toEqual({ ok: true, value: { ok: true } });
    await expect(app.getByRole('status').filter({ hasText: 'Stopped' })).toBeVisible();

    const input = app.getByRole('textbox', { name: 'Message to lunch plans' });
    await input.fill('Written on the train.');
    await input.press('Control+Enter');
    const echo = messageList(app).locator('li.message', { hasText: 'Written on the train.' });
    await expect(echo.locator('.marker-pending')).toHaveText('sending');
    await expect(echo.getByRole('button', { name: 'Edit message' })).toHaveCount(0);
    await expect(app.getByRole('status', { name: 'Outbox' })).toHaveText('1 pending');
    await screenshot(app, testInfo, '12-offline-pending');

    expect(await control.invoke('start', {})).toEqual({ ok: true, value: { ok: true } });
    await expect(echo.locator('.marker-pending')).toHaveCount(0);
    await expect(app.getByRole('status', { name: 'Outbox' })).toHaveCount(0);
    await expect.poll(async () => Number(await echo.getAttribute('data-message-id'))).toBeLessThan(2 ** 52);
    const desdemona = await demoUser(host, 'desdemona@example.com');
    expect(await desdemona.raw(Number(await echo.getAttribute('data-message-id')))).toBe('Written on the train.');
  } finally {
    control.close();
  }
});

// The server refuses an edit made while not connected (the organisation turned editing off
// meanwhile): the message is marked failed with Retry / Discard. Retry once editing is back
// saves it; Discard drops another such edit and shows the server's text again.
test('a refused edit is marked failed; Retry saves it once allowed, Discard drops it', async ({ app, host }, testInfo) => {
  await openTopic(app, 'general', 'lunch plans');
  await expect(app.getByRole('status').filter({ hasText: 'Live' })).toBeVisible({ timeout: 30_000 });
  const desdemona = await demoUser(host, 'desdemona@example.com');
  const id = await desdemona.send('general', 'lunch plans', 'Version one.');
  const mine = messageList(app).locator(`li.message[data-message-id="${id}"]`);
  await expect(mine).toContainText('Version one.');
  const control = host.service.connect(() => undefined);

  /** Open the editor while live, then edit with the session stopped and editing turned off on the server. */
  const refusedEdit = async (text: string) => {
    await mine.getByRole('button', { name: 'Edit message' }).click();
    const editor = mine.getByRole('textbox', { name: 'Message text' });
    await expect(editor).not.toHaveValue('Loading the message text…');
    expect(await control.invoke('stop', {})).toMatchObject({ ok: true });
    await desdemona.updateRealm({ allow_message_editing: 'false' });
    await editor.fill(text);
    await mine.getByRole('button', { name: 'Save' }).click();
    await expect(mine.locator('.marker-pending')).toHaveText('saving');
    expect(await control.invoke('start', {})).toMatchObject({ ok: true });
    await expect(mine.locator('.local-failed')).toContainText('Edit not saved');
    await expect(app.getByRole('status', { name: 'Outbox' })).toHaveText('1 failed');
  };

  try {
    await refusedEdit('Version two.');
    await screenshot(app, testInfo, '13-edit-failed');
    expect(await desdemona.raw(id)).toBe('Version one.');
    await desdemona.updateRealm({ allow_message_editing: 'true' });
    await mine.getByRole('button', { name: 'Retry' }).click();
    await expect(mine.locator('.local-failed')).toHaveCount(0);
    await expect.poll(() => desdemona.raw(id)).toBe('Version two.');
    await expect(mine).toContainText('Version two.');

    await refusedEdit('Version three.');
    await mine.getByRole('button', { name: 'Discard' }).click();
    await expect(mine.locator('.local-failed')).toHaveCount(0);
    await expect(mine).toContainText('Version two.');
    await expect(app.getByRole('status', { name: 'Outbox' })).toHaveCount(0);
    expect(await desdemona.raw(id)).toBe('Version two.');
  } finally {
    control.close();
  }
});
