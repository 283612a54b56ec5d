/**
 * A message's actions and a topic's: star and unstar, add and remove a reaction (the server agrees
 * each time, read back through the sandbox's REST API), view the source, the edit history after
 * two edits and a move; from the sidebar's topic menu: mute (the sidebar follows at once), resolve,
 * rename with "all messages". Screenshots light and dark of the bar, the menus, the picker, the
 * dialogs and the inline editor with its move fields.
 */
import type { Locator, Page } from '@playwright/test';
import { demoUser, expect, markReadOnScroll, messageList, openTopic, screenshot, sidebar, test } from './fixtures.js';

test.use({ sandboxAtStart: true });

const live = (app: Page) => expect(app.getByRole('status').filter({ hasText: 'Live' })).toBeVisible({ timeout: 30_000 });
const byId = (app: Page, id: number) => messageList(app).locator(`li.message[data-message-id="${id}"]`);

/** Open a message's "More message actions" menu (hovering shows the bar). */
async function openMenu(item: Locator): Promise<Locator> {
  await item.hover();
  await item.getByRole('button', { name: 'More message actions' }).click();
  return item.page().getByRole('menu', { name: 'More message actions' });
}

async function dark(app: Page, testInfo: Parameters<typeof screenshot>[1], name: string): Promise<void> {
  await app.emulateMedia({ colorScheme: 'dark' });
  await expect(app.locator('html')).toHaveAttribute('data-theme', 'dark');
  await screenshot(app, testInfo, name);
  await app.emulateMedia({ colorScheme: 'light' });
  await expect(app.locator('html')).not.toHaveAttribute('data-theme', 'dark');
}

test('star and unstar a message, add and remove a reaction: the server agrees', async ({ app, host }, testInfo) => {
  await live(app);
  const desdemona = await demoUser(host, 'desdemona@example.com');
  const hamlet = await demoUser(host, 'hamlet@example.com');
  const id = await hamlet.send('general', 'actions', 'Shall we rehearse at noon?');
  await hamlet.react(id, 'octopus');
  await openTopic(app, 'general', 'actions');
  const item = byId(app, id);
  await expect(item).toContainText('Shall we rehearse at noon?');

  // Star from the hover bar: the message shows a star, and the server has the flag.
  await item.hover();
  await screenshot(app, testInfo, '21-message-actions-bar');
  await item.getByRole('button', { name: 'Star message' }).click();
  await expect(item.getByRole('img', { name: 'Starred' })).toBeVisible();
  await expect.poll(async () => (await desdemona.message(id)).flags).toContain('starred');
  // Unstar from the menu.
  const menu = await openMenu(item);
  await expect(menu.getByRole('menuitem', { name: 'Quote and reply' })).toBeFocused();
  await screenshot(app, testInfo, '22-message-actions-menu');
  await dark(app, testInfo, '22-message-actions-menu-dark');
  await menu.getByRole('menuitem', { name: 'Unstar message' }).click();
  await expect(menu).toHaveCount(0);
  await expect(item.getByRole('img', { name: 'Starred' })).toHaveCount(0);
  await expect.poll(async () => (await desdemona.message(id)).flags).not.toContain('starred');

  // Hamlet's reaction is there: count 1, his name in the label, not ours.
  const reactions = item.getByRole('group', { name: 'Reactions' });
  const octopus = reactions.getByRole('button', { name: 'octopus: 1, King Hamlet' });
  await expect(octopus).toHaveAttribute('aria-pressed', 'false');
  // Add ours with the picker: search, pick.
  await item.hover();
  await item.getByRole('button', { name: 'Add emoji reaction' }).click();
  const picker = app.getByRole('dialog', { name: 'Emoji picker' });
  await expect(picker.getByRole('searchbox', { name: 'Search emoji' })).toBeFocused();
  await picker.getByRole('searchbox', { name: 'Search emoji' }).fill('tad');
  // Names starting with it first (tada), then names containing it (stadium).
  await expect(picker.getByRole('button')).toHaveCount(2);
  await expect(picker.getByRole('button').first()).toHaveAccessibleName('tada');
  await screenshot(app, testInfo, '23-emoji-picker', { shownDarkToo: true });
  await dark(app, testInfo, '23-emoji-picker-dark');
  await picker.getByRole('button', { name: 'tada' }).click();
  await expect(picker).toHaveCount(0);
  const tada = reactions.getByRole('button', { name: 'tada: 1, you' });
  await expect(tada).toHaveAttribute('aria-pressed', 'true');
  await expect.poll(async () => (await desdemona.message(id)).reactions.map((r) => r.emoji_name).sort()).toEqual(['octopus', 'tada']);
  // Clicking Hamlet's chip adds ours to it (count 2); clicking ours again removes it.
  await octopus.click();
  await expect(reactions.getByRole('button', { name: 'octopus: 2, you and King Hamlet' })).toHaveAttribute('aria-pressed', 'true');
  await expect.poll(async () => (await desdemona.message(id)).reactions.length).toBe(3);
  await screenshot(app, testInfo, '24-reactions');
  await tada.click();
  await expect(reactions.getByRole('button', { name: /^tada/ })).toHaveCount(0);
  await expect.poll(async () => (await desdemona.message(id)).reactions.map((r) => r.emoji_name).sort()).toEqual(['octopus', 'octopus']);
  // Picking an emoji one already reacted with removes it (the picker marks it as chosen).
  await reactions.getByRole('button', { name: 'Add reaction' }).click();
  await picker.getByRole('searchbox', { name: 'Search emoji' }).fill('octopus');
  await expect(picker.getByRole('button', { name: 'octopus' })).toHaveAttribute('aria-pressed', 'true');
  await picker.getByRole('button', { name: 'octopus' }).click();
  await expect(reactions.getByRole('button', { name: 'octopus: 1, King Hamlet' })).toBeVisible();
  await expect.poll(async () => (await desdemona.message(id)).reactions.map((r) => r.user_id)).toHaveLength(1);
});

test('mute and follow a topic from the sidebar: the sidebar follows at once, the server agrees', async ({ app, host }, testInfo) => {
  await live(app);
  const desdemona = await demoUser(host, 'desdemona@example.com');
  const nav = sidebar(app);
  await nav.getByRole('link', { name: 'general', exact: true }).click();
  const row = nav.getByRole('list', { name: 'Topics in general' }).locator('li.topic', { has: app.getByRole('link', { name: 'lunch plans', exact: true }) });
  const button = row.getByRole('button', { name: 'Actions for topic lunch plans' });
  await button.click();
  const menu = app.getByRole('menu', { name: 'Actions for topic lunch plans' });
  await expect(menu.getByRole('menuitemradio', { name: 'Default' })).toHaveAttribute('aria-checked', 'true');
  await screenshot(app, testInfo, '25-topic-menu');
  await dark(app, testInfo, '25-topic-menu-dark');
  await menu.getByRole('menuitemradio', { name: 'Mute' }).click();
  await expect(menu).toHaveCount(0);
  await expect(button).toBeFocused();
  await expect(row).toHaveClass(/\bmuted\b/);
  const policy = async () => (await desdemona.userTopics()).find((t) => t.topic_name === 'lunch plans')?.visibility_policy ?? 0;
  await expect.poll(policy).toBe(1);

  // With the keyboard: Enter opens the menu on its first item; Down twice is Follow (Mute, Default, Follow).
  await button.press('Enter');
  await expect(menu.getByRole('menuitemradio', { name: 'Mute' })).toBeFocused();
  await expect(menu.getByRole('menuitemradio', { name: 'Mute' })).toHaveAttribute('aria-checked', 'true');
  await app.keyboard.press('ArrowDown');
  await app.keyboard.press('ArrowDown');
  await expect(menu.getByRole('menuitemradio', { name: 'Follow' })).toBeFocused();
  await app.keyboard.press('Enter');
  await expect(row).not.toHaveClass(/\bmuted\b/);
  await expect.poll(policy).toBe(3);
  // Escape closes without choosing.
  await button.press('Enter');
  await expect(menu.getByRole('menuitemradio', { name: 'Follow' })).toHaveAttribute('aria-checked', 'true');
  await app.keyboard.press('Escape');
  await expect(menu).toHaveCount(0);
  await expect(button).toBeFocused();
});

test('resolve and unresolve a topic from the sidebar; the open view follows its new name', async ({ app, host }) => {
  await live(app);
  const hamlet = await demoUser(host, 'hamlet@example.com');
  const id = await hamlet.send('general', 'door hinge', 'The stage door squeaks.');
  await openTopic(app, 'general', 'door hinge');
  const nav = sidebar(app);
  await nav.getByRole('button', { name: 'Actions for topic door hinge' }).click();
  await app.getByRole('menu', { name: 'Actions for topic door hinge' }).getByRole('menuitem', { name: 'Mark as resolved' }).click();
  await expect(app.getByRole('heading', { level: 1, name: 'general › ✔ door hinge' })).toBeVisible();
  await expect(nav.getByRole('link', { name: '✔ door hinge', exact: true })).toBeVisible();
  await expect.poll(async () => (await hamlet.message(id)).subject).toBe('✔ door hinge');

  // Unresolve from the topic's header menu.
  await app.getByRole('region', { name: 'Conversation' }).getByRole('button', { name: 'Actions for topic ✔ door hinge' }).click();
  await app.getByRole('menu', { name: 'Actions for topic ✔ door hinge' }).getByRole('menuitem', { name: 'Mark as unresolved' }).click();
  await expect(app.getByRole('heading', { level: 1, name: 'general › door hinge' })).toBeVisible();
  await expect.poll(async () => (await hamlet.message(id)).subject).toBe('door hinge');
});

test('rename a topic with all its messages from the header menu; the server agrees', async ({ app, host }, testInfo) => {
  await live(app);
  const hamlet = await demoUser(host, 'hamlet@example.com');
  const ids = [await hamlet.send('general', 'old name', 'one'), await hamlet.send('general', 'old name', 'two'), await hamlet.send('general', 'old name', 'three')];
  await openTopic(app, 'general', 'old name');
  await expect(messageList(app).locator('li.message')).toHaveCount(3);
  await app.getByRole('region', { name: 'Conversation' }).getByRole('button', { name: 'Actions for topic old name' }).click();
  await app.getByRole('menu', { name: 'Actions for topic old name' }).getByRole('menuitem', { name: 'Rename topic…' }).click();
  const dialog = app.getByRole('dialog', { name: 'Rename topic' });
  const topic = dialog.getByRole('textbox', { name: 'New topic' });
  await expect(topic).toHaveValue('old name');
  await expect(dialog.getByRole('combobox', { name: 'Which messages should be moved?' })).toHaveValue('change_all');
  await expect(dialog.getByRole('checkbox', { name: 'Send automated notice to new topic' })).toBeChecked();
  await expect(dialog.getByRole('checkbox', { name: 'Send automated notice to old topic' })).not.toBeChecked();
  await expect(dialog.getByRole('button', { name: 'Rename' })).toBeDisabled(); // nothing changed yet
  await topic.fill('new name');
  await dialog.getByRole('checkbox', { name: 'Send automated notice to new topic' }).uncheck();
  await screenshot(app, testInfo, '26-rename-topic', { shownDarkToo: true });
  await dark(app, testInfo, '26-rename-topic-dark');
  await dialog.getByRole('button', { name: 'Rename' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(app.getByRole('heading', { level: 1, name: 'general › new name' })).toBeVisible();
  await expect(messageList(app).locator('li.message')).toHaveCount(3);
  await expect.poll(async () => (await hamlet.topicMessages('general', 'new name')).map((m) => m.id)).toEqual(ids);
  expect(await hamlet.topicMessages('general', 'old name')).toEqual([]);
});

test('edit a topic from the inline editor: this message only moves', async ({ app, host }, testInfo) => {
  await live(app);
  const desdemona = await demoUser(host, 'desdemona@example.com');
  const first = await desdemona.send('general', 'split me', 'Keep this here.');
  const second = await desdemona.send('general', 'split me', 'Move **this** elsewhere.');
  await openTopic(app, 'general', 'split me');
  const item = byId(app, second);
  await item.hover();
  await item.getByRole('button', { name: 'Edit message' }).click();
  const editor = item.getByRole('form', { name: 'Edit message' });
  await expect(editor.getByRole('textbox', { name: 'Message text' })).toHaveValue('Move **this** elsewhere.');
  // The move options appear once the topic changes; the last message moves alone by default.
  await expect(editor.getByRole('combobox', { name: 'Which messages should be moved?' })).toHaveCount(0);
  await editor.getByRole('textbox', { name: 'Topic' }).fill('split off');
  await expect(editor.getByRole('combobox', { name: 'Which messages should be moved?' })).toHaveValue('change_one');
  await expect(editor.getByRole('combobox', { name: 'Channel' })).toHaveValue(String((await desdemona.message(first)).stream_id));
  await screenshot(app, testInfo, '27-edit-with-move', { shownDarkToo: true });
  await dark(app, testInfo, '27-edit-with-move-dark');
  await editor.getByRole('button', { name: 'Save' }).click();
  await expect(item).toHaveCount(0); // moved out of this view
  await expect.poll(async () => (await desdemona.message(second)).subject).toBe('split off');
  expect((await desdemona.message(first)).subject).toBe('split me');
});

test('the edit history after two edits and a move shows both diffs and the move', async ({ app, host }, testInfo) => {
  await live(app);
  const desdemona = await demoUser(host, 'desdemona@example.com');
  const id = await desdemona.send('general', 'history', 'The meeting is at noon.');
  await desdemona.edit(id, 'The meeting is at one.');
  await desdemona.edit(id, 'The big meeting is at one.');
  await desdemona.move(id, 'history moved');
  await openTopic(app, 'general', 'history moved');
  const item = byId(app, id);
  await expect(item).toContainText('The big meeting is at one.');
  await item.getByRole('button', { name: 'moved', exact: true }).click();
  const dialog = app.getByRole('dialog', { name: 'Message edit history' });
  const versions = dialog.getByRole('list', { name: 'Versions' }).getByRole('listitem');
  await expect(versions).toHaveCount(4);
  await expect(versions.nth(0)).toContainText('Posted by you');
  // The first version shows what was posted.
  await expect(versions.nth(0)).toContainText('The meeting is at noon.');
  await expect(versions.nth(1)).toContainText('Edited by you');
  await expect(versions.nth(1).locator('del')).toHaveText('noon.');
  await expect(versions.nth(1).locator('ins')).toHaveText('one.');
  await expect(versions.nth(2).locator('ins')).toHaveText('big');
  await expect(versions.nth(2).locator('del')).toHaveCount(0);
  await expect(versions.nth(3)).toContainText('Moved by you');
  await expect(versions.nth(3)).toContainText('Topic: history → history moved');
  await screenshot(app, testInfo, '28-edit-history', { shownDarkToo: true });
  await dark(app, testInfo, '28-edit-history-dark');
  // Escape closes it and gives the focus back.
  await app.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(item.getByRole('button', { name: 'moved', exact: true })).toBeFocused();
});

test.describe('with the clipboard', () => {
  test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

  test('view the source, copy the link, mark as unread from here; see who else is editing', async ({ app, host }, testInfo) => {
    await live(app);
    // The unread counts below are the menus' doing alone: reading marks nothing (the screenshots'
    // accessibility checks keep the topic in view long enough to count as read otherwise).
    await markReadOnScroll(host, 'never');
    const desdemona = await demoUser(host, 'desdemona@example.com');
    const hamlet = await demoUser(host, 'hamlet@example.com');
    const a = await desdemona.send('general', 'source', 'Plain *emphasis* and `code`.\n\n> a quote');
    const b = await hamlet.send('general', 'source', 'second');
    const c = await hamlet.send('general', 'source', 'third');
    await openTopic(app, 'general', 'source');

    // The source: the raw Markdown, as sent.
    let menu = await openMenu(byId(app, a));
    await menu.getByRole('menuitem', { name: 'View message source' }).click();
    const dialog = app.getByRole('dialog', { name: 'Message source' });
    await expect(dialog.getByLabel('Raw Markdown')).toHaveText('Plain *emphasis* and `code`.\n\n> a quote');
    await screenshot(app, testInfo, '29-message-source', { shownDarkToo: true });
    await dark(app, testInfo, '29-message-source-dark');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(dialog).toHaveCount(0);

    // The link: Zulip's, to the message in its topic, with the realm's address.
    menu = await openMenu(byId(app, a));
    await menu.getByRole('menuitem', { name: 'Copy link to message' }).click();
    await expect(app.getByRole('status').filter({ hasText: 'Copied the link to the message.' })).toBeVisible();
    const link = await app.evaluate<string>('navigator.clipboard.readText()');
    const general = (await desdemona.message(a)).stream_id;
    expect(link).toBe(`${host.sandboxUrl()?.replace(/\/$/, '')}/#narrow/channel/${general}-general/topic/source/near/${a}`);

    // Mark the topic read from its menu, then unread from the second message: it and the third
    // become unread on the server, the first stays read.
    await expect.poll(() => desdemona.unreadIn('general', 'source')).toEqual([b, c]);
    await app.getByRole('region', { name: 'Conversation' }).getByRole('button', { name: 'Actions for topic source' }).click();
    await app.getByRole('menu', { name: 'Actions for topic source' }).getByRole('menuitem', { name: 'Mark topic as read' }).click();
    await expect.poll(() => desdemona.unreadIn('general', 'source')).toEqual([]);
    menu = await openMenu(byId(app, b));
    await menu.getByRole('menuitem', { name: 'Mark as unread from here' }).click();
    await expect.poll(() => desdemona.unreadIn('general', 'source')).toEqual([b, c]);

    // Someone editing a message is shown on it until they stop.
    await hamlet.editTyping(c, 'start');
    await expect(byId(app, c).getByRole('status')).toHaveText('King Hamlet is editing…');
    await hamlet.editTyping(c, 'stop');
    await expect(byId(app, c).getByText('King Hamlet is editing…')).toHaveCount(0);
  });
});

test('delete a topic (administrators) and mark a channel read from the sidebar; the server agrees', async ({ app, host }, testInfo) => {
  await live(app);
  // The channel's messages stay unread until its menu marks them (the channel view reads nothing).
  await markReadOnScroll(host, 'never');
  const hamlet = await demoUser(host, 'hamlet@example.com');
  const desdemona = await demoUser(host, 'desdemona@example.com');
  await hamlet.send('general', 'doomed', 'This topic will go.');
  await hamlet.send('general', 'doomed', 'All of it.');
  const nav = sidebar(app);
  await nav.getByRole('link', { name: 'general', exact: true }).click();
  const topics = nav.getByRole('list', { name: 'Topics in general' });
  await expect(topics.getByRole('link', { name: 'doomed', exact: true })).toBeVisible();
  await topics.getByRole('button', { name: 'Actions for topic doomed' }).click();
  await app.getByRole('menu', { name: 'Actions for topic doomed' }).getByRole('menuitem', { name: 'Delete topic…' }).click();
  const dialog = app.getByRole('dialog', { name: 'Delete topic' });
  await expect(dialog).toContainText('Delete general › doomed and all of its messages, for everyone?');
  await screenshot(app, testInfo, '30-delete-topic');
  await dialog.getByRole('button', { name: 'Delete topic' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(topics.getByRole('link', { name: 'doomed', exact: true })).toHaveCount(0);
  expect(await hamlet.topicMessages('general', 'doomed')).toEqual([]);

  // The channel's menu marks all of it read.
  expect(await desdemona.unreadIn('general', 'release schedule')).not.toEqual([]);
  await nav.getByRole('button', { name: 'Actions for channel general' }).click();
  await app.getByRole('menu', { name: 'Actions for channel general' }).getByRole('menuitem', { name: 'Mark all messages as read' }).click();
  await expect.poll(() => desdemona.unreadIn('general', 'release schedule')).toEqual([]);
  await expect(nav.locator('li.channel', { has: app.getByRole('link', { name: 'general', exact: true }) }).locator('.unread').first()).toHaveCount(0);
});

// Not connected (the session stopped through the contract): a star waits in the outbox and shows
// at once; the source of someone else's message is not on the device and the engine says why;
// deleting a topic says it needs a connection. Started again, the star reaches the server.
test('while not connected: a star waits and lands later; source and deleting say why they cannot', async ({ app, host }, testInfo) => {
  await live(app);
  const hamlet = await demoUser(host, 'hamlet@example.com');
  const id = await hamlet.send('general', 'offline acts', 'Star me on the train.');
  await openTopic(app, 'general', 'offline acts');
  const item = byId(app, id);
  await expect(item).toContainText('Star me on the train.');
  const control = host.service.connect(() => undefined);
  try {
    expect(await control.invoke('stop', {})).toMatchObject({ ok: true });
    await expect(app.getByRole('status').filter({ hasText: 'Stopped' })).toBeVisible();

    await item.hover();
    await item.getByRole('button', { name: 'Star message' }).click();
    await expect(item.getByRole('img', { name: 'Starred' })).toBeVisible();
    expect((await hamlet.message(id)).flags).not.toContain('starred');

    const menu = await openMenu(item);
    await menu.getByRole('menuitem', { name: 'View message source' }).click();
    const dialog = app.getByRole('dialog', { name: 'Message source' });
    await expect(dialog.getByRole('alert')).toHaveText(/^Cannot show the source now\. This message is not yours, and its original text is not on this device/);
    await screenshot(app, testInfo, '31-source-offline');
    await app.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);

    await app.getByRole('region', { name: 'Conversation' }).getByRole('button', { name: 'Actions for topic offline acts' }).click();
    const topicMenu = app.getByRole('menu', { name: 'Actions for topic offline acts' });
    const del = topicMenu.getByRole('menuitem', { name: 'Delete topic (needs a connection)' });
    await expect(del).toHaveAttribute('aria-disabled', 'true');
    // Not choosable: Enter on it does nothing, the menu stays.
    await app.keyboard.press('End');
    await expect(del).toBeFocused();
    await app.keyboard.press('Enter');
    await expect(app.getByRole('dialog', { name: 'Delete topic' })).toHaveCount(0);
    await expect(topicMenu).toBeVisible();
    await app.keyboard.press('Escape');
    await expect(topicMenu).toHaveCount(0);

    expect(await control.invoke('start', {})).toMatchObject({ ok: true });
    const desdemona = await demoUser(host, 'desdemona@example.com');
    await expect.poll(async () => (await desdemona.message(id)).flags, { timeout: 30_000 }).toContain('starred');
  } finally {
    control.close();
  }
});

test('a move the server refuses is marked on the message in the server’s words', async ({ app, host }) => {
  await live(app);
  const desdemona = await demoUser(host, 'desdemona@example.com');
  const id = await desdemona.send('general', 'bad moves', 'Try to move me.');
  await openTopic(app, 'general', 'bad moves');
  const item = byId(app, id);
  await item.hover();
  await item.getByRole('button', { name: 'Edit message' }).click();
  const editor = item.getByRole('form', { name: 'Edit message' });
  await editor.getByRole('textbox', { name: 'Topic' }).fill('bad\u0007name');
  await editor.getByRole('button', { name: 'Save' }).click();
  await expect(item.locator('.local-failed')).toContainText('Invalid character in topic, at position 4!');
  expect((await desdemona.message(id)).subject).toBe('bad moves');
});

test('quote and reply puts the quoted message into the conversation composer, and it sends', async ({ app, host }) => {
  await live(app);
  const hamlet = await demoUser(host, 'hamlet@example.com');
  const id = await hamlet.send('general', 'quotes', 'To be, or **not** to be.');
  await openTopic(app, 'general', 'quotes');
  const menu = await openMenu(byId(app, id));
  await menu.getByRole('menuitem', { name: 'Quote and reply' }).click();
  const input = app.getByRole('textbox', { name: 'Message to quotes' });
  await expect(input).toBeFocused();
  await expect(input).toHaveValue(/To be, or \*\*not\*\* to be\./);
  await expect(input).toHaveValue(/^@_\*\*King Hamlet\|\d+\*\* \[said\]\(.*\) in #\*\*general>quotes\*\*:\n```quote\n/);
  await input.press('End');
  await input.pressSequentially('That is the question.');
  await input.press('Control+Enter');
  const desdemona = await demoUser(host, 'desdemona@example.com');
  await expect.poll(async () => (await desdemona.contentsIn('general', 'quotes')).at(-1) ?? '').toMatch(/```quote\nTo be, or \*\*not\*\* to be\.\n```\n\s*That is the question\.$/);
});
