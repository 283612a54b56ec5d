/**
 * The host connection drops (its WebSocket closes under the page): the bridge reconnects, the open
 * view is reopened on the new connection (the host closed the old one with its socket), and live
 * updates keep arriving without a reload.
 */
import type { WebSocketRoute } from '@playwright/test';
import { demoUser, expect, foreignRequests, messageList, openTopic, test } from './fixtures.js';

test.use({ sandboxAtStart: true });

test('after the host connection drops, the open topic reconnects and stays live', async ({ page, host }) => {
  const sockets: { page: WebSocketRoute; server: WebSocketRoute }[] = [];
  await page.routeWebSocket(/\/ws$/, (ws) => {
    const server = ws.connectToServer();
    sockets.push({ page: ws, server });
  });
  const foreign = foreignRequests(page, host.origin);
  await page.goto(host.url);
  await openTopic(page, 'general', 'lunch plans');
  await expect(page.getByRole('status').filter({ hasText: 'Live' })).toBeVisible({ timeout: 30_000 });
  expect(sockets).toHaveLength(1);

  await sockets[0]!.server.close();
  await sockets[0]!.page.close({ code: 1012, reason: 'test: host went away' });
  await expect.poll(() => sockets.length).toBe(2);
  await expect(page.getByRole('status').filter({ hasText: 'Live' })).toBeVisible();

  const othello = await demoUser(host, 'othello@example.com');
  const id = await othello.send('general', 'lunch plans', 'Still there after the reconnect?');
  await expect(messageList(page).locator(`li.message[data-message-id="${id}"]`)).toContainText('Still there after the reconnect?');
  // The old messages are still shown (kept while the view reopened).
  await expect(messageList(page).getByText('I will bring the curry.')).toBeVisible();
  expect(foreign, 'requests to another origin').toEqual([]);
});
