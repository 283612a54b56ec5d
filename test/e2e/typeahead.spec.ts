/**
 * The message text's typeahead, by keyboard alone, as Zulip web's composebox typeahead: `@` people
 * (this topic's recent senders first, wildcards before them in a channel), `@_` silent mentions,
 * `@` groups and wildcards, `:` emoji, `#` channels then `>` and topics; Down / Up, Tab / Enter take
 * the highlighted option, `>` takes a channel, Escape closes the list without closing the composer
 * (over topics it closes the channel link), and Enter with the list closed keeps its meaning. Then
 * the same in the inline editor. The sent and the edited message render the mentions and links.
 * With the server process stopped the lists come from what the device holds.
 */
import type { Locator } from '@playwright/test';
import { expect, lightAndDark, messageList, openTopic, test } from './fixtures.js';
import { openRealWorld } from './real-world.js';
import { expectLoaded } from './upload-helpers.js';

test.use({ sandboxAtStart: true });

/** The listbox the textarea controls, and its options' names (what each shows). */
async function listOf(input: Locator): Promise<Locator> {
  const id = await input.getAttribute('aria-controls');
  return input.page().locator(`[id="${id}"]`);
}
const optionNames = (list: Locator) => list.getByRole('option').evaluateAll((os) => os.map((o) => o.querySelector('.typeahead-label')?.textContent ?? ''));
/** The highlighted option is the one `aria-activedescendant` names. */
async function expectHighlighted(input: Locator, list: Locator, name: string | RegExp) {
  const option = list.getByRole('option', { name, selected: true });
  await expect(option).toHaveCount(1);
  await expect(input).toHaveAttribute('aria-activedescendant', (await option.getAttribute('id')) ?? '');
}

test('typeahead by keyboard in the composer and the inline editor', async ({ app }, testInfo) => {
  await openTopic(app, 'general', 'lunch plans');
  await expect(app.getByRole('status').filter({ hasText: 'Live' })).toBeVisible({ timeout: 30_000 });
  const input = app.getByRole('textbox', { name: 'Message to lunch plans' });
  await expect(input).toHaveAttribute('aria-autocomplete', 'list');
  const list = await listOf(input);
  await expect(list).toBeHidden();
  await input.focus();

  // `@` opens at once: the channel wildcard and topic, then this topic's senders, newest first.
  await input.pressSequentially('Hi @');
  await expect(list).toBeVisible();
  await expect(list).toHaveAccessibleName('People and groups suggestions');
  await expect.poll(async () => (await optionNames(list)).slice(0, 5)).toEqual(['all', 'topic', 'Shiva', 'Cordelia, Lear\'s daughter', 'Othello, the Moor of Venice']);
  await expect(list.getByRole('option', { name: /^all/ })).toContainText('Notify all channel subscribers');
  await expectHighlighted(input, list, /^all/);
  await lightAndDark(app, testInfo, '111-typeahead-composer');
  await input.press('ArrowDown');
  await input.press('ArrowDown');
  await expectHighlighted(input, list, /^Shiva/);
  await input.press('ArrowUp');
  await expectHighlighted(input, list, /^topic/);
  await input.press('ArrowDown');
  await input.press('Tab');
  await expect(input).toHaveValue('Hi @**Shiva** ');
  await expect(list).toBeHidden();
  await expect(input).toBeFocused();

  // `@_`: silent, no wildcards, a note saying so; Enter takes the option and does not add a line.
  await input.pressSequentially('@_cor');
  await expect(app.getByText('This silent mention won’t trigger notifications.')).toBeVisible();
  await expect.poll(() => optionNames(list)).toEqual(['Cordelia, Lear\'s daughter']);
  await input.press('Enter');
  // A group, and the topic wildcard.
  await input.pressSequentially('@lead');
  await expect.poll(() => optionNames(list)).toEqual(['leads']);
  await input.press('Enter');
  await input.pressSequentially('@top');
  await input.press('Enter');
  await expect(input).toHaveValue("Hi @**Shiva** @_**Cordelia, Lear's daughter** @*leads* @**topic** ");

  // `:` after a letter: emoji.
  await input.pressSequentially(':octop');
  await expect(list).toHaveAccessibleName('Emoji suggestions');
  await expect(list.getByRole('option', { name: /octopus/ })).toBeVisible();
  await input.press('Enter');
  await expect(input).toHaveValue(/@\*\*topic\*\* :octopus: $/);
  // The realm's custom emoji too, with its image.
  await input.pressSequentially(':shipi');
  await expectLoaded(list.getByRole('option', { name: /shipit/ }).locator('img'));
  await input.press('Enter');
  await expect(input).toHaveValue(/:octopus: :shipit: $/);

  // `#` then a letter: channels; Enter leaves `#**Denmark>` and offers the channel itself, then its topics.
  await input.pressSequentially('#den');
  await expect(list).toHaveAccessibleName('Channels suggestions');
  await expectHighlighted(input, list, 'Denmark');
  await input.press('Enter');
  await expect(input).toHaveValue(/:shipit: #\*\*Denmark>$/);
  await expect(list).toHaveAccessibleName('Topics suggestions');
  await expectHighlighted(input, list, /^Denmark.*link to channel/);
  // What is typed comes first as a new topic when it names none (Zulip's exact match first).
  await input.pressSequentially('cas');
  await expectHighlighted(input, list, /^cas.*New/);
  await input.press('ArrowDown');
  await expectHighlighted(input, list, /^castle/);
  await input.press('Tab');
  await expect(input).toHaveValue(/:shipit: #\*\*Denmark>castle\*\* $/);

  // `>` takes the highlighted channel; Escape over its topics closes the link, keeping the words.
  await input.pressSequentially('#ver>');
  await expect(input).toHaveValue(/#\*\*Verona>$/);
  await expect(list).toHaveAccessibleName('Topics suggestions');
  await input.pressSequentially('a new one');
  await expect(list.getByRole('option', { name: /a new one.*New/ })).toBeVisible();
  await input.press('Escape');
  await expect(input).toHaveValue(/#\*\*Verona\*\* a new one$/);
  await expect(list).toBeHidden();
  await expect(input).toBeFocused();

  // Escape closes a list without closing or leaving the composer; Enter then adds a line again.
  await input.pressSequentially(' @ot');
  await expect(list).toBeVisible();
  await input.press('Escape');
  await expect(list).toBeHidden();
  await expect(input).toBeFocused();
  await input.press('Enter');
  await expect(input).toHaveValue(/a new one @ot\n$/);
  await input.press('Backspace');
  await input.press('Control+Enter');
  await expect(input).toHaveValue('');

  const sentText = messageList(app).locator('li.message', { hasText: 'a new one' });
  await expect.poll(async () => Number(await sentText.getAttribute('data-message-id'))).toBeLessThan(2 ** 52);
  // Found by id: while the editor is open the text is in a textarea, not the item's text.
  const sent = messageList(app).locator(`li.message[data-message-id="${await sentText.getAttribute('data-message-id')}"]`);
  await expect(sent.locator('.user-mention:not(.silent)')).toHaveText('@Shiva');
  await expect(sent.locator('.user-mention.silent')).toHaveText("Cordelia, Lear's daughter");
  await expect(sent.locator('.user-group-mention')).toHaveText('@leads');
  await expect(sent.locator('.topic-mention')).toHaveText('@topic');
  await expect(sent.getByRole('img', { name: 'octopus' })).toBeVisible();
  await expect(sent.locator('img.emoji[alt=":shipit:"]')).toBeVisible();
  await expect(sent.getByRole('link', { name: '#Denmark > castle' })).toBeVisible();
  await expect(sent.getByRole('link', { name: '#Verona', exact: true })).toBeVisible();
  await expect(sent.locator('.marker-pending')).toHaveCount(0);

  // The inline editor: the same typeahead, for the message's conversation; Escape there closes
  // the list, not the editor; Enter with the list closed saves.
  await sent.getByRole('button', { name: 'Edit message' }).click();
  const editor = sent.getByRole('textbox', { name: 'Message text' });
  await expect(editor).toBeFocused();
  const elist = await listOf(editor);
  await editor.press('Control+End');
  await editor.pressSequentially(' @ham');
  await expectHighlighted(editor, elist, /^King Hamlet/);
  await editor.press('Escape');
  await expect(elist).toBeHidden();
  await expect(editor).toBeVisible();
  await editor.pressSequentially('l');
  await expectHighlighted(editor, elist, /^King Hamlet/);
  await lightAndDark(app, testInfo, '111-typeahead-editor');
  await editor.press('Tab');
  await editor.pressSequentially(':tada');
  await expect(elist.getByRole('option', { name: /tada/ })).toBeVisible();
  await editor.press('Enter');
  await editor.pressSequentially('#sco');
  await editor.press('Enter');
  await expectHighlighted(editor, elist, /^Scotland.*link to channel/);
  await editor.press('Enter');
  await expect(editor).toHaveValue(/a new one @ot @\*\*King Hamlet\*\* :tada: #\*\*Scotland\*\* $/);
  await editor.press('Enter');
  await expect(editor).toHaveCount(0);
  await expect(sent.locator('.user-mention', { hasText: '@King Hamlet' })).toBeVisible();
  await expect(sent.getByRole('link', { name: '#Scotland', exact: true })).toBeVisible();
});

test('offline: the typeahead offers people, channels and topics from what the device holds', async ({ page }) => {
  test.setTimeout(90_000);
  const world = await openRealWorld(page, 'desdemona@example.com');
  try {
    await world.stopServer();
    await page.getByRole('link', { name: 'general', exact: true }).first().click();
    const input = page.getByRole('textbox', { name: 'Message to a new topic' });
    await input.focus();
    const list = await listOf(input);
    await input.pressSequentially('@ham');
    await expectHighlighted(input, list, /^King Hamlet/);
    await input.press('Enter');
    await input.pressSequentially('#sco');
    await expectHighlighted(input, list, 'Scotland');
    await input.press('Enter');
    await expectHighlighted(input, list, /^Scotland.*link to channel/);
    await input.press('Enter');
    await expect(input).toHaveValue('@**King Hamlet** #**Scotland** ');
    expect(world.problems(), 'errors in the page').toEqual([]);
  } finally {
    await world.close();
  }
});
