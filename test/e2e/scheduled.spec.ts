/**
 * #scheduled against the real server process, as King Hamlet (his demo data: a message scheduled
 * for Denmark › castle and a direct message to Othello). Online: the direct message's recipients
 * are changed with the composer's picker → the server agrees (GET /scheduled_messages); "Send now"
 * asks, then the message is in its conversation and gone from the server's scheduled list. A
 * failed one is sent now too. Offline (the server PROCESS stopped): "Send now" waits in the outbox
 * ("sending now") and lands once the server is back, exactly once.
 */
import type { Page } from '@playwright/test';
import { expect, lightAndDark, messageList, openTopic, sidebar, test } from './fixtures.js';
import { openRealWorld, type Rest } from './real-world.js';

type Scheduled = { scheduled_message_id: number; type: string; to: number | number[]; topic?: string; content: string; failed: boolean };

const serverScheduled = async (rest: Rest) => (await rest.call('GET', '/scheduled_messages'))['scheduled_messages'] as Scheduled[];

async function userId(rest: Rest, email: string): Promise<number> {
  const members = (await rest.call('GET', '/users'))['members'] as Array<{ user_id: number; email: string }>;
  const u = members.find((m) => m.email === email);
  if (!u) throw new Error(`no user ${email}`);
  return u.user_id;
}

async function openScheduled(page: Page) {
  await sidebar(page).getByRole('link', { name: 'Scheduled messages' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Scheduled messages' })).toBeVisible();
}

const DM_ITEM = 'Scheduled: Direct message to Othello, the Moor of Venice';
const CASTLE_ITEM = 'Scheduled: #Denmark › castle';

test('change a scheduled direct message’s recipients; send a scheduled message now', async ({ page }, testInfo) => {
  test.setTimeout(180_000);
  const world = await openRealWorld(page, 'hamlet@example.com');
  try {
    const hamlet = await world.rest('hamlet@example.com');
    const othello = await userId(hamlet, 'othello@example.com');
    const cordelia = await userId(hamlet, 'cordelia@example.com');
    const desdemona = await userId(hamlet, 'desdemona@example.com');
    await openScheduled(page);

    // The direct message's recipients: Othello out, Cordelia and Desdemona in.
    const dm = page.getByRole('listitem', { name: DM_ITEM });
    await dm.getByRole('button', { name: `Edit scheduled message to Direct message to Othello, the Moor of Venice` }).click();
    const edit = page.getByRole('dialog', { name: 'Edit scheduled message' });
    const picked = edit.getByRole('list', { name: 'People picked' });
    await expect(picked).toHaveText(/Othello, the Moor of Venice/);
    await edit.getByRole('button', { name: 'Remove Othello, the Moor of Venice' }).click();
    // Nobody picked is refused in words, before anything is queued.
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect(edit.getByRole('alert')).toHaveText('Add at least one person.');
    const picker = edit.getByRole('combobox', { name: 'Add a person' });
    await picker.fill('cord');
    await picker.press('Enter');
    await picker.fill('desd');
    await picker.press('Enter');
    await expect(picked).toContainText('Cordelia');
    await expect(picked).toContainText('Desdemona');
    await lightAndDark(page, testInfo, '63-scheduled-recipients');
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect(edit).toHaveCount(0);
    const moved = page.getByRole('listitem', { name: /^Scheduled: Direct message to / }).filter({ hasText: 'Did you find the handkerchief?' });
    await expect(moved).toHaveAttribute('aria-label', /Cordelia.*Desdemona|Desdemona.*Cordelia/);
    await expect
      .poll(async () => (await serverScheduled(hamlet)).filter((m) => m.type === 'private').map((m) => [m.to, m.content]), { timeout: 30_000 })
      .toEqual([[[cordelia, desdemona].sort((a, b) => a - b), 'Did you find the handkerchief?']]);
    expect((await serverScheduled(hamlet)).some((m) => Array.isArray(m.to) && m.to.includes(othello))).toBe(false);

    // Send now: asks first (with the text), then the message is in Denmark › castle and no longer scheduled.
    const castle = page.getByRole('listitem', { name: CASTLE_ITEM });
    await castle.getByRole('button', { name: 'Send now: scheduled message to #Denmark › castle' }).click();
    const confirm = page.getByRole('dialog', { name: 'Send scheduled message now' });
    await expect(confirm).toContainText('Reminder: the masons start today.');
    await lightAndDark(page, testInfo, '64-scheduled-send-now');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(confirm).toHaveCount(0);
    expect((await serverScheduled(hamlet)).map((m) => m.content)).toContain('Reminder: the masons start today.');
    await castle.getByRole('button', { name: 'Send now: scheduled message to #Denmark › castle' }).click();
    await confirm.getByRole('button', { name: 'Send now' }).click();
    await expect(page.getByRole('listitem', { name: CASTLE_ITEM })).toHaveCount(0, { timeout: 30_000 });
    await expect.poll(async () => (await serverScheduled(hamlet)).map((m) => m.content)).toEqual(['Did you find the handkerchief?']);
    await openTopic(page, 'Denmark', 'castle');
    await expect(messageList(page).locator('li.message', { hasText: 'Reminder: the masons start today.' })).toHaveCount(1, { timeout: 30_000 });
    const denmark = ((await hamlet.call('GET', '/streams'))['streams'] as Array<{ stream_id: number; name: string }>).find((s) => s.name === 'Denmark')?.stream_id;
    const sent = await hamlet.messages([{ operator: 'channel', operand: denmark }, { operator: 'topic', operand: 'castle' }]);
    expect(sent.filter((m) => m.content === 'Reminder: the masons start today.')).toHaveLength(1);
    expect(world.problems()).toEqual([]);
  } finally {
    await world.close();
  }
});

test('offline: send now waits in the outbox as “sending now”, then lands once when the server is back', async ({ page }) => {
  test.setTimeout(180_000);
  const world = await openRealWorld(page, 'hamlet@example.com');
  try {
    const hamlet = await world.rest('hamlet@example.com');
    const othello = await userId(hamlet, 'othello@example.com');
    await openScheduled(page);
    const dm = page.getByRole('listitem', { name: DM_ITEM });
    await expect(dm).toBeVisible();

    await world.stopServer();
    await dm.getByRole('button', { name: 'Send now: scheduled message to Direct message to Othello, the Moor of Venice' }).click();
    await page.getByRole('dialog', { name: 'Send scheduled message now' }).getByRole('button', { name: 'Send now' }).click();
    await expect(dm.locator('.badge')).toHaveText('sending now');
    // Not offered twice while it waits.
    await expect(dm.getByRole('button', { name: /^Send now/ })).toHaveCount(0);
    await page.getByRole('button', { name: 'Open the outbox' }).click();
    const panel = page.getByRole('dialog', { name: 'Outbox' });
    await expect(panel.getByRole('list', { name: 'Queued changes' }).getByRole('listitem').filter({ hasText: 'Send a scheduled message now' })).toHaveCount(1);
    await panel.getByRole('button', { name: 'Close the outbox' }).click();

    await world.startServer();
    await expect(dm).toHaveCount(0, { timeout: 30_000 });
    await expect.poll(async () => (await serverScheduled(hamlet)).map((m) => m.content), { timeout: 30_000 }).toEqual(['Reminder: the masons start today.']);
    const sent = await hamlet.messages([{ operator: 'dm', operand: [othello] }]);
    expect(sent.filter((m) => m.content === 'Did you find the handkerchief?')).toHaveLength(1);
    expect(world.problems()).toEqual([]);
  } finally {
    await world.close();
  }
});

// A message the server could not send (Hamlet left the private channel before its time) is sent
// now once he is back in it: no new time is needed for that.
test('a failed scheduled message is sent now', async ({ page }) => {
  test.setTimeout(180_000);
  const world = await openRealWorld(page, 'hamlet@example.com');
  try {
    const hamlet = await world.rest('hamlet@example.com');
    const iago = await world.rest('iago@example.com');
    const hamletId = await userId(hamlet, 'hamlet@example.com');
    const core = ((await iago.call('GET', '/streams'))['streams'] as Array<{ stream_id: number; name: string }>).find((s) => s.name === 'core team')?.stream_id;
    await hamlet.call('POST', '/scheduled_messages', { type: 'stream', to: String(core), topic: 'planning', content: 'The secret plan.', scheduled_delivery_timestamp: String(Math.floor(Date.now() / 1000) + 2) });
    await hamlet.call('DELETE', '/users/me/subscriptions', { subscriptions: JSON.stringify(['core team']) });
    await expect.poll(async () => (await serverScheduled(hamlet)).find((m) => m.content === 'The secret plan.')?.failed, { timeout: 30_000 }).toBe(true);
    await iago.call('POST', '/users/me/subscriptions', { subscriptions: JSON.stringify([{ name: 'core team' }]), principals: JSON.stringify([hamletId]) });

    await openScheduled(page);
    const item = page.getByRole('listitem').filter({ hasText: 'The secret plan.' });
    await expect(item.locator('.badge')).toHaveText('failed');
    await item.getByRole('button', { name: /^Send now/ }).click();
    await page.getByRole('dialog', { name: 'Send scheduled message now' }).getByRole('button', { name: 'Send now' }).click();
    await expect(item).toHaveCount(0, { timeout: 30_000 });
    await expect.poll(async () => (await serverScheduled(hamlet)).some((m) => m.content === 'The secret plan.')).toBe(false);
    const sent = await hamlet.messages([{ operator: 'channel', operand: core }, { operator: 'topic', operand: 'planning' }]);
    expect(sent.filter((m) => m.content === 'The secret plan.')).toHaveLength(1);
    expect(world.problems()).toEqual([]);
  } finally {
    await world.close();
  }
});
