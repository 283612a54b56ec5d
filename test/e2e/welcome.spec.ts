/** The first screen: both choices, form validation, and the consent question before a plain-text key. */
import { startServer } from '../../server/index.js';
import { expect, screenshot, sidebar, test } from './fixtures.js';

test('the welcome screen offers sign-in and the sandbox', async ({ app }, testInfo) => {
  await expect(app.getByRole('heading', { name: 'Sign in to a Zulip server' })).toBeVisible();
  await expect(app.getByLabel('Server URL')).toBeVisible();
  await expect(app.getByLabel('Email')).toBeVisible();
  await expect(app.getByRole('textbox', { name: 'Password' })).toBeVisible();
  await expect(app.getByRole('button', { name: 'Sign in' })).toBeEnabled();
  await expect(app.getByRole('heading', { name: 'Try the sandbox' })).toBeVisible();
  await expect(app.getByRole('button', { name: 'Open the sandbox' })).toBeEnabled();
  await screenshot(app, testInfo, '01-welcome');

  // The credential toggle swaps the secret field.
  await app.getByRole('radio', { name: 'API key' }).check();
  await expect(app.getByRole('textbox', { name: 'API key' })).toBeVisible();
  await app.getByRole('radio', { name: 'Password' }).check();

  // Nothing is sent until the form is complete.
  await app.getByRole('button', { name: 'Sign in' }).click();
  await expect(app.getByRole('alert')).toHaveText('Enter the server URL, for example https://chat.example.com.');
});

test('signing in with a password asks before storing the key unencrypted, then opens the account', async ({ app }, testInfo) => {
  const server = await startServer({ port: 0, demo: true });
  try {
    await app.getByLabel('Server URL').fill(server.url);
    await app.getByLabel('Email').fill('hamlet@example.com');
    await app.getByRole('textbox', { name: 'Password' }).fill('sandbox');
    await app.getByRole('button', { name: 'Sign in' }).click();

    // The browser host keeps keys in a plain file: the engine refuses until the user agrees.
    const consent = app.getByRole('alertdialog', { name: 'Store your API key without encryption?' });
    await expect(consent).toBeVisible();
    await screenshot(app, testInfo, '02-consent');
    await consent.getByRole('button', { name: 'Cancel' }).click();
    await expect(consent).toBeHidden();
    await expect(app.getByRole('heading', { name: 'Sign in to a Zulip server' })).toBeVisible();

    // A wrong password is refused by the server, clearly.
    await app.getByRole('textbox', { name: 'Password' }).fill('wrong');
    await app.getByRole('button', { name: 'Sign in' }).click();
    await app.getByRole('alertdialog').getByRole('button', { name: 'Store unencrypted and sign in' }).click();
    await expect(app.getByRole('alert')).toContainText('The server refused');

    await app.getByRole('textbox', { name: 'Password' }).fill('sandbox');
    await app.getByRole('button', { name: 'Sign in' }).click();
    await app.getByRole('alertdialog').getByRole('button', { name: 'Store unencrypted and sign in' }).click();
    await expect(sidebar(app).getByRole('link', { name: 'Denmark', exact: true })).toBeVisible({ timeout: 30_000 });
    await expect(app.getByText('hamlet@example.com')).toBeVisible();
  } finally {
    await server.close();
  }
});
