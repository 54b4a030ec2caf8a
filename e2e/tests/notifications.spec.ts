/**
 * Notifications in Chromium (docs/api.md "Notifications"): an admin adds a webhook in the
 * Notifications screen pointing at a receiver this spec runs on 127.0.0.1 (let through by the URL
 * allowlist, as an admin would for a service on their network), with a generated secret; a paste
 * is then created, the receiver gets the signed `share.created` event, and the screen's delivery
 * log lists it as delivered.
 */
import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { request as playwrightRequest } from '@playwright/test';
import { BASE_URL } from '../support/env.ts';
import { putSystemSettings } from '../support/files.ts';
import { Api, expect, loginAsAdminWithForm, test } from '../support/fixtures.ts';

interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}

const received: Received[] = [];
let server: http.Server;
let port: number;
const NAME = `e2e receiver ${Date.now()}`;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString() });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

test.afterAll(async () => {
  // Leave no webhook behind for the other specs.
  const api = new Api(await playwrightRequest.newContext());
  const headers = { Authorization: `Bearer ${await api.adminToken()}` };
  const listed = await api.request.get(`${BASE_URL}/api/admin/webhooks`, { headers });
  for (const hook of ((await listed.json()) as { data: { id: string; name: string }[] }).data) {
    if (hook.name === NAME)
      await api.request.delete(`${BASE_URL}/api/admin/webhooks/${hook.id}`, { headers });
  }
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

test('an admin adds a webhook; creating a paste delivers a signed event, listed as delivered', async ({
  page,
  request,
  api,
}) => {
  await putSystemSettings(request, api, { url_allowlist: `127.0.0.1:${port}` });
  await page.goto('/admin');
  await loginAsAdminWithForm(page);
  // Leave the page only once signed in: navigating away earlier drops the sign-in's answer.
  await expect(page.getByTestId('signed-in-user')).toHaveText('admin');
  await page.goto('/admin/notifications');
  await page.getByTestId('create-webhook').click();
  const dialog = page.getByTestId('webhook-dialog');
  await dialog.getByLabel('Name').fill(NAME);
  await dialog.getByLabel('Address (URL)').fill(`http://127.0.0.1:${port}/cubby`);
  await dialog.getByTestId('generate-secret').click();
  const secret = await dialog.getByLabel('Signing secret').inputValue();
  expect(secret).toMatch(/^[0-9a-f]{64}$/);
  await dialog.getByLabel('Share viewed').uncheck();
  await dialog.getByTestId('save-webhook').click();
  await expect(dialog).toBeHidden();
  const row = page.getByTestId('webhook').filter({ hasText: NAME });
  await expect(row).toContainText('Share created');
  await expect(row).not.toContainText('Share viewed');

  const paste = await api.createPaste({ content: 'hello webhook', format: 'text' });
  // Other specs make shares meanwhile: this paste's event is the one to check.
  const ours = () =>
    received.find((r) => (JSON.parse(r.body) as { share?: { slug: string } }).share?.slug === paste.slug);
  await expect.poll(() => ours() !== undefined).toBe(true);
  const event = ours();
  expect((JSON.parse(event!.body) as { event: string }).event).toBe('share.created');
  const timestamp = String(event!.headers['x-cubby-timestamp']);
  expect(event!.headers['x-cubby-signature']).toBe(
    `sha256=${createHmac('sha256', secret).update(`${timestamp}.${event!.body}`).digest('hex')}`,
  );

  await row.getByTestId('webhook-deliveries').click();
  const log = page.getByTestId('deliveries-dialog');
  await expect(async () => {
    await log.getByTestId('refresh-deliveries').click();
    await expect(log.getByTestId('delivery').first()).toHaveAttribute('data-status', 'delivered', {
      timeout: 1000,
    });
  }).toPass();
  await expect(log.getByTestId('delivery').first()).toContainText('share.created');
  await expect(log.getByTestId('delivery').first()).toContainText('Delivered');
  await expect(log.getByTestId('delivery').first()).toContainText('1 attempt · HTTP 204');
});
