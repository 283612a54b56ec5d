/**
 * Damaged data in the page (docs/sync-design.md "Damaged data"): the disk goes bad under the
 * running app, the next read meets the damage, the engine rebuilds the account's database, and
 * the page says in words what happened and what was kept until the person presses OK.
 */
import Database from 'better-sqlite3';
import { closeSync, openSync, writeSync } from 'node:fs';
import { expect, messageList, screenshot, sidebar, test } from './fixtures.js';

test.use({ sandboxAtStart: true });

test('a damaged message cache is rebuilt and the person is told what was kept', async ({ app, host }, testInfo) => {
  await expect(sidebar(app).getByRole('link', { name: 'general', exact: true })).toBeVisible({ timeout: 30_000 });
  await expect(app.getByRole('status').filter({ hasText: 'Live' })).toBeVisible({ timeout: 30_000 });
  const s = host.service.activeSession!;
  const verona = s.queries.channels().find((c) => c.name === 'Verona')!.channel_id;
  s.drafts.save({ type: 'channel', channel_id: verona, topic: 'kept through damage' }, 'a draft that must survive');

  // Every leaf of the messages b-tree becomes noise under the running app.
  s.db.pragma('wal_checkpoint(TRUNCATE)');
  const file = s.db.name;
  const db = new Database(file, { readonly: true });
  const leaves = db.prepare<[], number>("SELECT pageno FROM dbstat WHERE name = 'messages' AND pagetype = 'leaf'").pluck().all();
  const pageSize = Number(db.pragma('page_size', { simple: true }));
  db.close();
  const fd = openSync(file, 'r+');
  for (const leaf of leaves) writeSync(fd, Buffer.alloc(pageSize / 2, 0xa5), 0, pageSize / 2, (leaf - 1) * pageSize);
  closeSync(fd);
  s.db.pragma('shrink_memory');

  // The next read of a channel meets the damage.
  await sidebar(app).getByRole('link', { name: 'Verona', exact: true }).click();
  const notice = app.getByRole('alert').filter({ hasText: "This device's copy of the account was damaged." });
  await expect(notice).toBeVisible({ timeout: 30_000 });
  await expect(notice).toContainText('1 draft was kept');
  await expect(notice).toContainText('messages are being fetched again');
  await screenshot(app, testInfo, '95-damaged-data-notice', { shownDarkToo: true });
  await app.emulateMedia({ colorScheme: 'dark' });
  await screenshot(app, testInfo, '95-damaged-data-notice-dark');
  await app.emulateMedia({ colorScheme: 'light' });
  await notice.getByRole('button', { name: 'OK' }).click();
  await expect(notice).toBeHidden();
  // The account is back, its cache fetched again.
  await expect(app.getByRole('status').filter({ hasText: 'Live' })).toBeVisible({ timeout: 30_000 });
  await expect(sidebar(app).getByRole('link', { name: 'Verona', exact: true })).toBeVisible();
  // The view that met the damage opens again once the fresh copy has synced.
  await expect(messageList(app)).toContainText('the feud', { timeout: 30_000 });
  expect(host.service.activeSession).not.toBe(s);
  await screenshot(app, testInfo, '96-damaged-data-after');
});
