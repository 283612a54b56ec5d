/**
 * Polls and to-do lists (issue #26 item 6): `/poll` and `/todo` sent from the composer become
 * Zulip's widgets; with the reference server PROCESS stopped, a vote, a new option, a checked task
 * and a new task (and the author's new question) show at once, marked pending, and survive the
 * app's restart (its host process stopped and started, the tab reloaded) still offline; the server starts and each lands exactly once (read back over REST).
 * Screenshots light and dark.
 */
import { expect, test } from '@playwright/test';
import { lightAndDark, messageList, openTopic } from './fixtures.js';
import { openRealWorld } from './real-world.js';

interface Sub {
  sender_id: number;
  content: string;
}

test('offline: vote, add an option, check and add a task; each lands once when the server is back', async ({ page }, testInfo) => {
  test.setTimeout(150_000);
  const world = await openRealWorld(page, 'hamlet@example.com', async (rest) => {
    const hamlet = await rest('hamlet@example.com');
    await hamlet.call('POST', '/messages', { type: 'stream', to: 'Verona', topic: 'team lunch', content: 'Time to decide.' });
    // Reading marks nothing: the outbox holds only the widget changes.
    await hamlet.call('PATCH', '/settings', { web_mark_read_on_scroll_policy: '3' });
  });
  try {
    await openTopic(page, 'Verona', 'team lunch');
    const form = page.getByRole('form', { name: 'Compose' });
    const text = form.getByRole('textbox', { name: /^Message to/ });
    await text.fill('/poll Where shall we eat?\nPizza\nNoodles');
    await form.getByRole('button', { name: 'Send' }).click();
    await text.fill('/todo Before lunch\nBook a table: for six\nTell the team');
    await form.getByRole('button', { name: 'Send' }).click();

    const poll = messageList(page).getByRole('group', { name: 'Poll' });
    const todo = messageList(page).getByRole('group', { name: 'To-do list' });
    await expect(poll.getByRole('heading', { name: 'Where shall we eat?' })).toBeVisible({ timeout: 15_000 });
    await expect(poll.getByRole('button', { name: /^Vote for / })).toHaveText(['0', '0']);
    await expect(todo.getByRole('heading', { name: 'Before lunch' })).toBeVisible();
    await expect(todo.getByRole('checkbox')).toHaveCount(2);
    const hamlet = await world.rest('hamlet@example.com');
    const [pollMsg, todoMsg] = (await hamlet.messages([{ operator: 'channel', operand: 'Verona' }, { operator: 'topic', operand: 'team lunch' }])).filter((m) => /^\/(poll|todo)/.test(m.content));
    if (!pollMsg || !todoMsg) throw new Error('the widgets were not sent');

    await world.stopServer();
    await poll.getByRole('button', { name: /^Vote for Pizza,/ }).click();
    await expect(poll.getByRole('button', { name: /^Vote for Pizza,/ })).toHaveText('1');
    await expect(poll.getByRole('button', { name: /^Vote for Pizza,/ })).toHaveAttribute('aria-pressed', 'true');
    // Typed key by key: the field keeps its focus while the form follows it.
    await poll.getByRole('textbox', { name: 'New option' }).pressSequentially('Salad');
    await poll.getByRole('button', { name: 'Add option' }).click();
    await expect(poll.getByRole('button', { name: /^Vote for Salad,/ })).toHaveText('0');
    // The author edits the question.
    await poll.getByRole('button', { name: 'Edit question' }).click();
    await poll.getByRole('textbox', { name: 'Question' }).fill('Where shall we eat today?');
    await poll.getByRole('button', { name: 'Save' }).click();
    await expect(poll.getByRole('heading', { name: 'Where shall we eat today?' })).toBeVisible();
    await todo.getByRole('checkbox', { name: 'Book a table: for six' }).click();
    await expect(todo.getByRole('checkbox', { name: 'Book a table: for six' })).toBeChecked();
    await todo.getByRole('textbox', { name: 'New task' }).fill('Bring cake');
    await todo.getByRole('textbox', { name: 'Description' }).fill('chocolate');
    await todo.getByRole('button', { name: 'Add task' }).click();
    await expect(todo.getByRole('checkbox', { name: 'Bring cake: chocolate' })).not.toBeChecked();
    await expect(page.getByRole('status', { name: 'Outbox' })).toHaveText('5 pending');
    await expect(poll.locator('.widget-pending')).toHaveCount(3);
    await expect(todo.locator('.widget-pending')).toHaveCount(2);
    await lightAndDark(page, testInfo, '113-polls-offline');

    // The app quits and starts again, still offline: the pending changes are on disk, shown again.
    await world.restartApp();
    await expect(poll.getByRole('button', { name: /^Vote for Pizza,/ })).toHaveText('1', { timeout: 30_000 });
    await expect(poll.getByRole('button', { name: /^Vote for Salad,/ })).toBeVisible();
    await expect(poll.getByRole('heading', { name: 'Where shall we eat today?' })).toBeVisible();
    await expect(todo.getByRole('checkbox', { name: 'Book a table: for six' })).toBeChecked();
    await expect(todo.getByRole('checkbox', { name: 'Bring cake: chocolate' })).toBeVisible();
    await expect(page.getByRole('status', { name: 'Outbox' })).toHaveText('5 pending');

    await world.startServer();
    await expect(page.getByRole('status', { name: 'Outbox' })).toHaveCount(0, { timeout: 30_000 });
    await expect(page.locator('.widget-pending')).toHaveCount(0, { timeout: 15_000 });
    await expect(poll.getByRole('button', { name: /^Vote for Pizza,/ })).toHaveText('1');
    const subsOf = async (id: number) =>
      ((await (await world.rest('hamlet@example.com')).call('GET', `/messages/${id}`))['message'] as { submessages: Sub[] }).submessages.map((s) => JSON.parse(s.content) as Record<string, unknown>);
    expect((await subsOf(pollMsg.id)).slice(1)).toEqual([
      { type: 'vote', key: 'canned,0', vote: 1 },
      { type: 'new_option', idx: 1, option: 'Salad' },
      { type: 'question', question: 'Where shall we eat today?' },
    ]);
    expect((await subsOf(todoMsg.id)).slice(1)).toEqual([
      { type: 'strike', key: '0,canned' },
      { type: 'new_task', key: 1, task: 'Bring cake', desc: 'chocolate', completed: false },
    ]);
    await lightAndDark(page, testInfo, '113-polls');
    expect(world.problems()).toEqual([]);
  } finally {
    await world.close();
  }
});

