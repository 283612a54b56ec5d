/**
 * Typing notices both ways, against the sandbox server: another user typing in the open topic
 * shows "King Hamlet is typing…" under the list until they stop; our own inline editor tells the
 * others (othello's event queue over REST) a `typing_edit_message` start on open and a stop on
 * Cancel; our composer tells them `typing` start while we type and stop when we leave it.
 */
import type { Page } from '@playwright/test';
import { demoUser, expect, messageList, openTopic, screenshot, test } from './fixtures.js';

test.use({ sandboxAtStart: true });

const live = (app: Page) => expect(app.getByRole('status').filter({ hasText: 'Live' })).toBeVisible({ timeout: 30_000 });

test('who is typing in the open topic; our editor and composer tell the others', async ({ app, host }, testInfo) => {
  await live(app);
  const hamlet = await demoUser(host, 'hamlet@example.com');
  const desdemona = await demoUser(host, 'desdemona@example.com');
  const othello = await demoUser(host, 'othello@example.com');
  await hamlet.send('general', 'rehearsal', 'Who brings the skull?');
  const mine = await desdemona.send('general', 'rehearsal', 'I shall bring the handkerchief.');
  await openTopic(app, 'general', 'rehearsal');
  await expect(messageList(app)).toContainText('I shall bring the handkerchief.');

  // Another user types here: the line says so, politely, and goes on stop.
  const line = app.getByRole('status', { name: 'Who is typing' });
  await expect(line).toHaveAttribute('aria-live', 'polite');
  await hamlet.typing('general', 'rehearsal', 'start');
  await expect(line).toHaveText('King Hamlet is typing…');
  await screenshot(app, testInfo, '50-typing');
  await app.emulateMedia({ colorScheme: 'dark' });
  await expect(app.locator('html')).toHaveAttribute('data-theme', 'dark');
  await screenshot(app, testInfo, '50-typing-dark');
  await app.emulateMedia({ colorScheme: 'light' });
  // Typing elsewhere is not shown here.
  await othello.typing('general', 'elsewhere', 'start');
  await hamlet.typing('general', 'rehearsal', 'stop');
  await expect(line).toHaveText('');

  // Our editor: othello's queue hears start on open, stop on Cancel.
  const general = await othello.channelId('general');
  const q = await othello.eventQueue(['typing_edit_message', 'typing']);
  const item = messageList(app).locator(`li.message[data-message-id="${mine}"]`);
  await item.hover();
  await item.getByRole('button', { name: 'Edit message' }).click();
  const editor = item.getByRole('form', { name: 'Edit message' });
  await expect(editor.getByRole('textbox', { name: 'Message text' })).toHaveValue('I shall bring the handkerchief.');
  const seen: Array<Record<string, unknown>> = [];
  const edits = async () => {
    seen.push(...(await q.events()));
    return seen.filter((e) => e.type === 'typing_edit_message').map((e) => `${String(e.op)} ${String(e.message_id)}`);
  };
  await expect.poll(edits).toEqual([`start ${mine}`]);
  await editor.getByRole('button', { name: 'Cancel' }).click();
  await expect(editor).toHaveCount(0);
  await expect.poll(edits).toEqual([`start ${mine}`, `stop ${mine}`]);

  // Our composer: start while we type in the topic, stop when we leave the composer.
  const typings = async () => {
    seen.push(...(await q.events()));
    return seen.filter((e) => e.type === 'typing').map((e) => `${String(e.op)} ${String(e.stream_id)} ${String(e.topic)}`);
  };
  const compose = app.getByRole('textbox', { name: /^Message to / });
  await compose.click();
  await compose.pressSequentially('On my way');
  await expect.poll(typings).toEqual([`start ${general} rehearsal`]);
  await app.getByRole('heading', { level: 1 }).click();
  await expect.poll(typings).toEqual([`start ${general} rehearsal`, `stop ${general} rehearsal`]);
});
