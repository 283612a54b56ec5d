/**
 * A server with a self-signed certificate (issue #22 item 4), as a person meets it: the sign-in is
 * refused with the cause in words; "Show the certificate" gives its SHA-256 fingerprint, names and
 * dates; "Trust this certificate and sign in" signs in. The Network settings tab then lists the
 * certificate and saves a proxy choice, online and with the server unreachable (the settings are the
 * device's own). Screenshots light and dark (126, 127).
 */
import { X509Certificate } from 'node:crypto';
import { startServer } from '../../server/index.js';
import { startTlsFront, tlsFixture as read } from '../support/tls-front.js';
import { expect, lightAndDark, sidebar, test } from './fixtures.js';
import { statusOf } from './real-world.js';

test('a self-signed server: refused in words, its certificate shown, trusted, signed in; the Network tab lists it and saves a proxy choice', async ({ app }, testInfo) => {
  const server = await startServer({ port: 0, demo: true });
  const front = await startTlsFront(server.url);
  const url = front.url;
  try {
    await app.getByLabel('Server URL').fill(url);
    await app.getByLabel('Email').fill('hamlet@example.com');
    await app.getByRole('textbox', { name: 'Password' }).fill('sandbox');
    await app.getByRole('button', { name: 'Sign in' }).click();
    await app.getByRole('alertdialog').getByRole('button', { name: 'Store unencrypted and sign in' }).click();
    await expect(app.getByRole('alert')).toHaveText("The server's certificate is not trusted: the certificate is self-signed.");

    const prompt = app.getByRole('group', { name: "The server's certificate is not trusted" });
    await prompt.getByRole('button', { name: 'Show the certificate' }).click();
    const fingerprint = new X509Certificate(read('self-signed.crt')).fingerprint256;
    await expect(prompt.getByText(fingerprint)).toBeVisible();
    await expect(prompt).toContainText('CN=127.0.0.1');
    // Tall enough to show the whole prompt with its buttons under the form.
    const viewport = app.viewportSize();
    await app.setViewportSize({ width: 1280, height: 1200 });
    await lightAndDark(app, testInfo, '126-certificate-prompt');
    if (viewport) await app.setViewportSize(viewport);
    await prompt.getByRole('button', { name: 'Trust this certificate and sign in' }).click();
    await expect(sidebar(app).getByRole('link', { name: 'Denmark', exact: true })).toBeVisible({ timeout: 30_000 });

    await app.goto(`${new URL(app.url()).origin}/#settings/network`);
    const certs = app.getByRole('list', { name: 'Trusted certificates' });
    await expect(certs.getByRole('listitem')).toHaveCount(1);
    await expect(certs).toContainText(url);
    await expect(certs).toContainText(fingerprint);
    const proxy = app.getByRole('radiogroup', { name: 'Proxy' });
    await expect(proxy.getByRole('radio', { name: "Use the system's proxy settings" })).toBeChecked();
    await proxy.getByRole('radio', { name: 'Manual proxy' }).check();
    await app.getByRole('textbox', { name: 'Proxy URL' }).fill('ftp://nowhere');
    await app.getByRole('button', { name: 'Save proxy settings' }).click();
    await expect(app.getByRole('alert')).toContainText('http://');
    await proxy.getByRole('radio', { name: 'No proxy' }).check();
    await app.getByRole('button', { name: 'Save proxy settings' }).click();
    await expect(app.getByRole('status').filter({ hasText: 'Proxy settings saved.' })).toBeVisible();
    // Saved, and the account reconnected through it (no proxy): still live.
    await app.reload();
    await expect(app.getByRole('radiogroup', { name: 'Proxy' }).getByRole('radio', { name: 'No proxy' })).toBeChecked();
    await lightAndDark(app, testInfo, '127-network-settings');

    // Offline (the server's front gone): the settings are the device's own, still read and saved.
    await front.close();
    await expect(statusOf(app)).toContainText('Offline', { timeout: 30_000 });
    await app.getByRole('radiogroup', { name: 'Proxy' }).getByRole('radio', { name: "Use the system's proxy settings" }).check();
    await app.getByRole('button', { name: 'Save proxy settings' }).click();
    await expect(app.getByRole('status').filter({ hasText: 'Proxy settings saved.' })).toBeVisible();
    await app.reload();
    await expect(app.getByRole('radiogroup', { name: 'Proxy' }).getByRole('radio', { name: "Use the system's proxy settings" })).toBeChecked();
    await expect(app.getByRole('list', { name: 'Trusted certificates' }).getByRole('listitem')).toHaveCount(1);
    await expect(statusOf(app)).toContainText('Offline');
  } finally {
    await front.close();
    await server.close();
  }
});
