/**
 * Invitations and creating users (`#invite`), both online-only. As desdemona (owner, allowed to
 * create users) in the sandbox: two addresses invited, one already a user, so the refusal is shown
 * for that address while the other invitation is verified over REST (GET /invites) with the
 * options chosen; a user created, confirmed by id and name, found over REST (GET /users), and a
 * second try refused in the server's words. As hamlet (member) against a server process: the
 * roles offered stop at member, a forced "administrator" is refused in the server's words and
 * nothing is invited, there is no create-user form; with the server stopped the screen says it
 * needs a connection and Send is disabled. As iago (administrator without can_create_users): the
 * create-user form is there and its refusal is the server's words.
 */
import type { Page } from '@playwright/test';
import { expect, lightAndDark, sidebar, test } from './fixtures.js';
import { openRealWorld, restAs, statusOf } from './real-world.js';

type Invite = { email: string; invited_as: number; expiry_date: number | null; notify_referrer_on_join: boolean };

async function openInvite(page: Page) {
  await sidebar(page).getByRole('link', { name: 'Invite users' }).click();
  const view = page.getByRole('region', { name: 'Invite users' });
  await expect(view.getByRole('heading', { level: 1, name: 'Invite users' })).toBeVisible();
  return view;
}

test.describe('as the owner, in the sandbox', () => {
  test.use({ sandboxAtStart: true });

  test('invite two addresses, one already a user: that one refused by address, the other invited (GET /invites)', async ({ app, host }, testInfo) => {
    await expect(statusOf(app)).toContainText('Live', { timeout: 30_000 });
    const view = await openInvite(app);
    // The organization's default channels are pre-selected; others are not.
    const channels = view.getByRole('list', { name: 'Channels to subscribe them to' });
    await expect(channels.getByRole('checkbox', { name: /#general/ })).toBeChecked();
    await expect(channels.getByRole('checkbox', { name: /#Verona/ })).toBeChecked();
    await expect(channels.getByRole('checkbox', { name: /#Denmark/ })).not.toBeChecked();
    // An owner may invite as any role.
    await expect(view.getByLabel('Invite as').locator('option')).toHaveText(['Guest', 'Member', 'Moderator', 'Organization administrator', 'Organization owner']);

    await view.getByRole('textbox', { name: /^Emails/ }).fill('hamlet@example.com,\nnewcomer@example.com');
    await view.getByLabel('Invite as').selectOption({ label: 'Moderator' });
    await view.getByLabel('Invitation expires after').selectOption({ label: 'Never expires' });
    await view.getByRole('list', { name: 'Groups to add them to' }).getByRole('checkbox', { name: 'leads' }).check();
    await view.getByRole('checkbox', { name: 'Send me a direct message when they join' }).uncheck();
    await view.getByRole('checkbox', { name: /Send a custom welcome message/ }).check();
    await view.getByRole('textbox', { name: 'Custom welcome message' }).fill('Welcome to Verona!');
    await view.getByRole('button', { name: 'Send 2 invitations' }).click();

    const refused = view.getByRole('list', { name: 'Addresses not invited' });
    await expect(refused.getByRole('listitem')).toHaveText(['hamlet@example.com: Already has an account.']);
    await expect(view.getByRole('alert')).toContainText('Invited: newcomer@example.com');
    await expect(view.getByRole('alert')).toContainText('already using Zulip');
    // The refused address stays in the box, the invited one goes.
    await expect(view.getByRole('textbox', { name: /^Emails/ })).toHaveValue('hamlet@example.com');
    await lightAndDark(app, testInfo, '85-invite-partly-refused');

    const rest = await restAs(host.sandboxUrl()!, 'desdemona@example.com');
    const invites = (await rest.call('GET', '/invites'))['invites'] as Invite[];
    expect(invites.find((i) => i.email === 'newcomer@example.com')).toMatchObject({ invited_as: 300, expiry_date: null, notify_referrer_on_join: false });
    expect(invites.some((i) => i.email === 'hamlet@example.com')).toBe(false);
  });

  test('create a user as desdemona: confirmed with id and name, found over REST; the same email again is refused in the server’s words', async ({ app, host }, testInfo) => {
    await expect(statusOf(app)).toContainText('Live', { timeout: 30_000 });
    const view = await openInvite(app);
    const form = view.getByRole('form', { name: 'Create a user' });
    await form.getByRole('textbox', { name: 'New user’s email' }).fill('made-in-app@example.com');
    await form.getByRole('textbox', { name: 'Full name' }).fill('Made In App');
    await form.getByLabel('New user’s password').fill('a-long-enough-password');
    await form.getByRole('button', { name: 'Create user' }).click();
    const confirmed = form.getByRole('status').filter({ hasText: 'Created' });
    await expect(confirmed).toHaveText(/^Created Made In App <made-in-app@example\.com> \(user id \d+\)\.$/);
    const id = Number(/user id (\d+)/.exec((await confirmed.textContent()) ?? '')?.[1]);

    const rest = await restAs(host.sandboxUrl()!, 'desdemona@example.com');
    const members = (await rest.call('GET', '/users'))['members'] as Array<{ user_id: number; email: string; full_name: string }>;
    expect(members.find((u) => u.email === 'made-in-app@example.com')).toMatchObject({ user_id: id, full_name: 'Made In App' });
    await lightAndDark(app, testInfo, '86-create-user');

    await form.getByRole('textbox', { name: 'New user’s email' }).fill('made-in-app@example.com');
    await form.getByRole('textbox', { name: 'Full name' }).fill('Made Twice');
    await form.getByLabel('New user’s password').fill('a-long-enough-password');
    await form.getByRole('button', { name: 'Create user' }).click();
    await expect(form.getByRole('alert')).toHaveText('The server refused: Email is already in use.');
  });
});

test('hamlet (member): roles up to member, a forced administrator refused by the server, no create-user; offline says so and Send is disabled', async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  const world = await openRealWorld(page, 'hamlet@example.com');
  try {
    const view = await openInvite(page);
    const role = view.getByLabel('Invite as');
    await expect(role.locator('option')).toHaveText(['Guest', 'Member']);
    await expect(view.getByRole('form', { name: 'Create a user' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Create user' })).toHaveCount(0);
    await expect(view.getByRole('checkbox', { name: /custom welcome message/ })).toHaveCount(0);

    // Forced past the choices the screen offers: the server has the last word.
    await role.evaluate((select) => {
      const o = select.ownerDocument.createElement('option');
      o.value = '200';
      o.textContent = 'Organization administrator';
      select.append(o);
    });
    await role.selectOption('200');
    await view.getByRole('textbox', { name: /^Emails/ }).fill('forced-admin@example.com');
    await view.getByRole('button', { name: 'Send invitation' }).click();
    await expect(view.getByRole('alert')).toHaveText('The server refused: Must be an organization administrator');
    const iago = await world.rest('iago@example.com');
    const invites = (await iago.call('GET', '/invites'))['invites'] as Invite[];
    expect(invites.some((i) => i.email === 'forced-admin@example.com')).toBe(false);

    // Offline: said up front, nothing can be sent.
    await world.stopServer();
    await expect(view.getByRole('status').filter({ hasText: 'needs a connection' })).toContainText('Inviting people needs a connection to the server');
    await expect(view.getByRole('button', { name: 'Send invitation' })).toBeDisabled();
    await lightAndDark(page, testInfo, '87-invite-offline');
    expect(world.problems()).toEqual([]);
  } finally {
    await world.close();
  }
});

test('iago (administrator the server does not let create users): the form is offered, the refusal is the server’s words, no user made', async ({ page }) => {
  test.setTimeout(120_000);
  const world = await openRealWorld(page, 'iago@example.com');
  try {
    const view = await openInvite(page);
    await expect(view.getByLabel('Invite as').locator('option')).toHaveText(['Guest', 'Member', 'Moderator', 'Organization administrator']);
    const form = view.getByRole('form', { name: 'Create a user' });
    await form.getByRole('textbox', { name: 'New user’s email' }).fill('by-iago@example.com');
    await form.getByRole('textbox', { name: 'Full name' }).fill('By Iago');
    await form.getByLabel('New user’s password').fill('a-long-enough-password');
    await form.getByRole('button', { name: 'Create user' }).click();
    await expect(form.getByRole('alert')).toHaveText('The server refused: User not authorized to create users');
    const rest = await world.rest('iago@example.com');
    const members = (await rest.call('GET', '/users'))['members'] as Array<{ email: string }>;
    expect(members.some((u) => u.email === 'by-iago@example.com')).toBe(false);
    expect(world.problems()).toEqual([]);
  } finally {
    await world.close();
  }
});
