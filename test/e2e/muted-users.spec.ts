/**
 * Muting a person while the reference server PROCESS is stopped (issue #21 item 3): from a
 * message's menu; their messages show at once as "Muted user" with Zulip's notice and a "Show
 * message" button, other people's stay; the mute waits in the outbox, survives a reload offline,
 * and lands once when the server is back. Unmuting from the menu shows the messages again.
 */
import { expect, test } from '@playwright/test';
import { lightAndDark, messageList, openTopic } from './fixtures.js';
import { openRealWorld } from './real-world.js';

test('offline: mute a person from their message; hidden at once and after a reload; muted once when the server is back', async ({ page }, testInfo) => {
  test.setTimeout(150_000);
  const ids: Record<string, number> = {};
  const world = await openRealWorld(page, 'hamlet@example.com', async (rest) => {
    const hamlet = await rest('hamlet@example.com');
    const othello = await rest('othello@example.com');
    const iago = await rest('iago@example.com');
    ids['othelloUser'] = (await othello.call('GET', '/users/me'))['user_id'] as number;
    ids['othello'] = (await othello.call('POST', '/messages', { type: 'stream', to: 'Verona', topic: 'quiet please', content: 'Othello goes on and on.' }))['id'] as number;
    ids['iago'] = (await iago.call('POST', '/messages', { type: 'stream', to: 'Verona', topic: 'quiet please', content: 'Iago answers briefly.' }))['id'] as number;
    await hamlet.call('PATCH', '/settings', { web_mark_read_on_scroll_policy: '3' });
  });
  try {
    await openTopic(page, 'Verona', 'quiet please');
    const othellos = messageList(page).locator(`li.message[data-message-id="${ids['othello']}"]`);
    const iagos = messageList(page).locator(`li.message[data-message-id="${ids['iago']}"]`);
    await expect(othellos).toContainText('Othello goes on and on.');

    await world.stopServer();
    await othellos.hover();
    await othellos.getByRole('button', { name: 'More message actions' }).click();
    await page.getByRole('menuitem', { name: 'Mute the sender' }).click();

    // Hidden at once: no name, no content, Zulip's notice; the others' messages untouched.
    await expect(othellos).toContainText('Muted user');
    await expect(othellos).toContainText('This message was hidden because you have muted the sender.');
    await expect(othellos).not.toContainText('Othello goes on and on.');
    await expect(iagos).toContainText('Iago answers briefly.');
    await expect(page.getByRole('status', { name: 'Outbox' })).toHaveText('1 pending');
    await lightAndDark(page, testInfo, '114-muted-user');

    // Still hidden after a reload with the server down.
    await page.reload();
    await expect(othellos).toContainText('This message was hidden because you have muted the sender.', { timeout: 30_000 });
    // "Show message" shows this one message.
    await othellos.getByRole('button', { name: 'Show message' }).click();
    await expect(othellos).toContainText('Othello goes on and on.');

    await world.startServer();
    await expect(page.getByRole('status', { name: 'Outbox' })).toHaveCount(0, { timeout: 30_000 });
    const hamlet = await world.rest('hamlet@example.com');
    const muted = (await hamlet.call('POST', '/register', { fetch_event_types: JSON.stringify(['muted_users']) }))['muted_users'] as Array<{ id: number }>;
    expect(muted.map((m) => m.id)).toEqual([ids['othelloUser']]);

    // Unmute from the menu: the messages show again (online: it lands at once).
    await othellos.hover();
    await othellos.getByRole('button', { name: 'More message actions' }).click();
    await page.getByRole('menuitem', { name: 'Unmute the sender' }).click();
    await expect(othellos).toContainText('Othello goes on and on.');
    await expect(othellos).not.toContainText('Muted user');
    expect(world.problems()).toEqual([]);
  } finally {
    await world.close();
  }
});
