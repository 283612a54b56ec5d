/**
 * User groups (tracker "renderer part 3"), against the reference server as its own process:
 *   - iago (administrator), with the server PROCESS stopped, renames a group and adds a member:
 *     both show at once as "not saved yet" and wait in the outbox panel; the server comes back
 *     and they land (checked over REST). Then, online: a permission set to specific users and
 *     groups (the forbidden choices disabled), reactivating a deactivated group, adding it as a
 *     subgroup, a deactivation the server refuses while the group is in use (its words and why),
 *     removing the subgroup and deactivating it.
 *   - hamlet (member) sees a group he cannot manage with its controls disabled and who may; on a
 *     group he could manage he renames it offline while an administrator takes that right away
 *     elsewhere: the server's refusal shows in its words with Retry / Discard, and Discard puts
 *     the name back.
 */
import { expect, test, type Page, type TestInfo } from '@playwright/test';
import { screenshot } from './fixtures.js';
import { openRealWorld, type Rest } from './real-world.js';

test.describe.configure({ timeout: 240_000 });

interface ServerGroup {
  id: number;
  name: string;
  description: string;
  members: number[];
  direct_subgroup_ids: number[];
  deactivated: boolean;
  can_join_group: unknown;
  can_manage_group: unknown;
}

async function groupsOf(rest: Rest): Promise<ServerGroup[]> {
  return (await rest.call('GET', '/user_groups', { include_deactivated_groups: 'true' }))['user_groups'] as ServerGroup[];
}
const byName = (groups: ServerGroup[], name: string) => groups.find((g) => g.name === name);
async function userId(rest: Rest, email: string): Promise<number> {
  const users = (await rest.call('GET', '/users'))['members'] as Array<{ user_id: number; email: string }>;
  return users.find((u) => u.email === email)!.user_id;
}

async function openGroups(page: Page, tab: 'All groups' | 'Your groups' = 'All groups') {
  await page.getByRole('list', { name: 'Manage' }).getByRole('link', { name: 'User groups' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'User groups' })).toBeVisible();
  await page.getByRole('navigation', { name: 'Which groups' }).getByRole('link', { name: tab }).click();
}

async function openGroup(page: Page, name: string, deactivated = false) {
  await openGroups(page);
  if (deactivated) await page.getByRole('checkbox', { name: 'Show deactivated groups' }).check();
  await page.getByRole('list', { name: 'User groups list' }).getByRole('link', { name, exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name, exact: true })).toBeVisible();
}

async function bothThemes(page: Page, testInfo: TestInfo, name: string) {
  await screenshot(page, testInfo, `${name}-light`, { shownDarkToo: true });
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await screenshot(page, testInfo, `${name}-dark`);
  await page.emulateMedia({ colorScheme: 'light' });
}

test('an administrator manages groups: offline rename and member land; permissions, subgroups, deactivate and reactivate', async ({ page }, testInfo) => {
  const world = await openRealWorld(page, 'iago@example.com');
  try {
    const iago = await world.rest('iago@example.com');
    const iagoId = await userId(iago, 'iago@example.com');
    const othelloId = await userId(iago, 'othello@example.com');

    await openGroups(page, 'Your groups');
    // Iago is in no named group.
    await expect(page.getByText('You are not in any user group.')).toBeVisible();
    await openGroups(page);
    const list = page.getByRole('list', { name: 'User groups list' });
    await expect(list.getByRole('link')).toHaveText(['leads', 'players']);
    await page.getByRole('checkbox', { name: 'Show deactivated groups' }).check();
    await expect(list.getByRole('link')).toHaveText(['leads', 'players', 'retired']);
    await bothThemes(page, testInfo, '80-groups-list');

    // Offline: rename players and add Iago to it.
    await openGroup(page, 'players');
    await world.stopServer();
    await page.getByRole('textbox', { name: 'Group name' }).fill('the cast');
    await page.getByRole('button', { name: 'Save name and description' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'the cast' })).toBeVisible();
    await page.getByRole('combobox', { name: 'Add a member to the cast' }).selectOption({ label: 'Iago' });
    await page.getByRole('button', { name: 'Add member' }).click();
    await expect(page.getByRole('list', { name: 'Members' })).toContainText('Iago');
    const pending = page.getByRole('list', { name: 'Changes not saved yet' });
    await expect(pending.getByRole('listitem')).toHaveText([/^Rename a user group to “the cast”/, /^Add Iago to “the cast”/]);
    await expect(page.locator('.group-heading .badge-pending')).toHaveText('not saved yet');
    await expect(page.getByRole('status', { name: 'Outbox' })).toHaveText('2 pending');
    await page.getByRole('button', { name: 'Open the outbox' }).click();
    const panel = page.getByRole('dialog', { name: 'Outbox' });
    const rows = panel.getByRole('list', { name: 'Queued changes' }).getByRole('listitem');
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(0)).toHaveAccessibleName(/^Rename a user group to “the cast”: /);
    await expect(rows.nth(1)).toHaveAccessibleName(/^Add Iago to “the cast”: /);
    await bothThemes(page, testInfo, '81-groups-offline-pending');
    await panel.getByRole('button', { name: 'Close the outbox' }).click();
    // Server still has the old name.
    await world.startServer();
    await expect(page.getByRole('status', { name: 'Outbox' })).toHaveCount(0, { timeout: 60_000 });
    await expect(pending).toHaveCount(0);
    const landed = byName(await groupsOf(iago), 'the cast');
    expect(landed?.members).toContain(iagoId);
    expect(byName(await groupsOf(iago), 'players')).toBeUndefined();

    // A permission: the forbidden choices are offered disabled; specific users and groups are saved.
    const administer = page.getByRole('combobox', { name: 'Who can administer this group' });
    await expect(administer.getByRole('option', { name: 'Everyone including guests (not allowed here)' })).toBeDisabled();
    await expect(administer.getByRole('option', { name: 'Everyone on the internet (not allowed here)' })).toBeDisabled();
    const mention = page.getByRole('combobox', { name: 'Who can mention this group' });
    await expect(mention.getByRole('option', { name: 'Owners (not allowed here)' })).toBeDisabled();
    const join = page.getByRole('combobox', { name: 'Who can join this group' });
    await join.selectOption({ label: 'Specific users and groups' });
    await page.getByRole('combobox', { name: 'Add a person to: Who can join this group' }).selectOption({ label: 'Othello, the Moor of Venice' });
    await page.getByRole('button', { name: 'Add the person to: Who can join this group' }).click();
    await expect(page.getByRole('list', { name: 'Who can join this group: chosen' })).toContainText('Everyone except guests');
    await expect(page.getByRole('list', { name: 'Who can join this group: chosen' })).toContainText('Othello, the Moor of Venice');
    await bothThemes(page, testInfo, '82-group-page');
    await page.getByRole('button', { name: 'Save: Who can join this group' }).click();
    await expect(page.getByText('Now: Everyone except guests, Othello, the Moor of Venice')).toBeVisible();
    const membersGroup = (await groupsOf(iago)).find((g) => g.name === 'role:members')!.id;
    await expect.poll(async () => byName(await groupsOf(iago), 'the cast')?.can_join_group, { timeout: 30_000 }).toEqual({ direct_members: [othelloId], direct_subgroups: [membersGroup] });

    // Reactivate retired (queued), then make it a subgroup of leads.
    await openGroup(page, 'retired', true);
    await page.getByRole('button', { name: 'Reactivate group' }).click();
    await expect(page.getByRole('button', { name: 'Deactivate group' })).toBeVisible();
    await expect.poll(async () => byName(await groupsOf(iago), 'retired')?.deactivated, { timeout: 30_000 }).toBe(false);
    const retiredId = byName(await groupsOf(iago), 'retired')!.id;
    await openGroup(page, 'leads');
    await page.getByRole('combobox', { name: 'Add a subgroup to leads' }).selectOption({ label: 'retired' });
    await page.getByRole('button', { name: 'Add subgroup' }).click();
    await expect(page.getByRole('list', { name: 'Subgroups' }).getByRole('link', { name: 'retired' })).toBeVisible();
    await expect.poll(async () => byName(await groupsOf(iago), 'leads')?.direct_subgroup_ids, { timeout: 30_000 }).toEqual([retiredId]);

    // Deactivating it now is refused: the server's words, and why.
    await openGroup(page, 'retired');
    await page.getByRole('button', { name: 'Deactivate group' }).click();
    const dialog = page.getByRole('dialog', { name: 'Deactivate retired' });
    await dialog.getByRole('button', { name: 'Deactivate', exact: true }).click();
    await expect(dialog.getByRole('alert')).toContainText('The server refused: Cannot deactivate user group in use.');
    await expect(dialog.getByRole('alert')).toContainText('It is a subgroup of leads.');
    await bothThemes(page, testInfo, '83-group-deactivate-refused');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(byName(await groupsOf(iago), 'retired')?.deactivated).toBe(false);

    // Out of leads, then deactivated.
    await openGroup(page, 'leads');
    await page.getByRole('button', { name: 'Remove the subgroup retired from leads' }).click();
    await expect(page.getByText('No subgroups.')).toBeVisible();
    await expect.poll(async () => byName(await groupsOf(iago), 'leads')?.direct_subgroup_ids, { timeout: 30_000 }).toEqual([]);
    await openGroup(page, 'retired');
    await page.getByRole('button', { name: 'Deactivate group' }).click();
    await page.getByRole('dialog', { name: 'Deactivate retired' }).getByRole('button', { name: 'Deactivate', exact: true }).click();
    await expect(page.getByRole('button', { name: 'Reactivate group' })).toBeVisible();
    await expect(page.locator('.group-heading .badge', { hasText: 'deactivated' })).toBeVisible();
    expect(byName(await groupsOf(iago), 'retired')?.deactivated).toBe(true);
    expect(world.problems()).toEqual([]);
  } finally {
    await world.close();
  }
});

test('a member: disabled controls say who may; a rename refused by the server shows its words, Discard restores', async ({ page }, testInfo) => {
  let leadsId = 0;
  let adminsId = 0;
  let hamletId = 0;
  const world = await openRealWorld(page, 'hamlet@example.com', async (rest) => {
    // Hamlet may manage leads (besides the administrators).
    const iago = await rest('iago@example.com');
    const groups = await groupsOf(iago);
    leadsId = byName(groups, 'leads')!.id;
    adminsId = groups.find((g) => g.name === 'role:administrators')!.id;
    hamletId = await userId(iago, 'hamlet@example.com');
    await iago.call('PATCH', `/user_groups/${leadsId}`, { can_manage_group: JSON.stringify({ new: { direct_members: [hamletId], direct_subgroups: [adminsId] } }) });
  });
  try {
    await openGroups(page, 'Your groups');
    await expect(page.getByRole('list', { name: 'User groups list' }).getByRole('link')).toHaveText(['leads', 'players']);
    await openGroup(page, 'players');
    const why = 'Only Administrators (and Owners, who manage every group) can manage this group.';
    await expect(page.getByText(why)).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Group name' })).toBeDisabled();
    await expect(page.getByRole('textbox', { name: 'Group name' })).toHaveAccessibleDescription(why);
    await expect(page.getByRole('button', { name: 'Deactivate group' })).toBeDisabled();
    await expect(page.getByRole('combobox', { name: 'Who can administer this group' })).toBeDisabled();
    await expect(page.getByRole('button', { name: 'Remove Othello, the Moor of Venice from players' })).toBeDisabled();
    // Hamlet may leave (everyone may) and join again (members may), though he may not add others.
    await expect(page.getByRole('combobox', { name: 'Add a member to players' })).toBeDisabled();
    await page.getByRole('button', { name: 'Leave players' }).click();
    await expect(page.getByRole('list', { name: 'Members' })).not.toContainText('King Hamlet');
    const rest = await world.rest('iago@example.com');
    const playersId = byName(await groupsOf(rest), 'players')!.id;
    await expect.poll(async () => (await groupsOf(rest)).find((g) => g.id === playersId)?.members.includes(hamletId), { timeout: 30_000 }).toBe(false);
    await page.getByRole('button', { name: 'Join players' }).click();
    await expect(page.getByRole('list', { name: 'Members' })).toContainText('King Hamlet');
    await expect.poll(async () => (await groupsOf(rest)).find((g) => g.id === playersId)?.members.includes(hamletId), { timeout: 30_000 }).toBe(true);

    // Leads he may manage: renamed offline, while an administrator takes that right away elsewhere.
    await openGroup(page, 'leads');
    await expect(page.getByRole('textbox', { name: 'Group name' })).toBeEnabled();
    await world.stopServer();
    await page.getByRole('textbox', { name: 'Group name' }).fill('leading roles');
    await page.getByRole('button', { name: 'Save name and description' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'leading roles' })).toBeVisible();
    await expect(page.locator('.group-heading .badge-pending')).toHaveText('not saved yet');
    await world.whileAway(async (rest) => {
      const iago = await rest('iago@example.com');
      await iago.call('PATCH', `/user_groups/${leadsId}`, { can_manage_group: JSON.stringify({ new: adminsId }) });
    });
    await world.startServer();
    const failed = page.getByRole('list', { name: 'Changes not saved yet' }).getByRole('listitem');
    await expect(failed.getByRole('alert')).toHaveText('The server refused: Insufficient permission', { timeout: 60_000 });
    await expect(page.locator('.group-heading .badge-failed')).toHaveText('change failed');
    await expect(failed.getByRole('button', { name: 'Retry: Rename a user group to “leading roles”' })).toBeVisible();
    // What the server now says is shown too: the controls are disabled, with who may.
    await expect(page.getByText(why)).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Group name' })).toBeDisabled();
    await bothThemes(page, testInfo, '84-group-refused');
    await failed.getByRole('button', { name: 'Discard: Rename a user group to “leading roles”' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'leads' })).toBeVisible({ timeout: 30_000 });
    await expect(page.getByRole('list', { name: 'Changes not saved yet' })).toHaveCount(0);
    const hamlet = await world.rest('hamlet@example.com');
    expect(byName(await groupsOf(hamlet), 'leads')?.can_manage_group).toBe(adminsId);
    expect(byName(await groupsOf(hamlet), 'leading roles')).toBeUndefined();
    expect(world.problems()).toEqual([]);
  } finally {
    await world.close();
  }
});
