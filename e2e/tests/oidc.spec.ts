/**
 * Single sign-on in Chromium (docs/accounts.md, "Single sign-on"): the login page offers "Sign in
 * with Test IdP", the browser goes to a real OpenID provider (support of the server tests, run by
 * this spec on 127.0.0.1), signs in there and comes back signed in as the member it made; and a
 * refusal comes back as a message in the user's language.
 */
import { request as playwrightRequest } from '@playwright/test';
import { startTestIdp, type TestIdp } from '../../packages/server/test/support/oidc-idp.ts';
import { freePort } from '../../packages/server/test/support/server-process.ts';
import { BASE_URL } from '../support/env.ts';
import { Api, expect, test } from '../support/fixtures.ts';

let idp: TestIdp;
let providerId: string;
let admin: Record<string, string>;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  const api = new Api(await playwrightRequest.newContext());
  admin = { Authorization: `Bearer ${await api.adminToken()}` };
  const port = await freePort();
  const created = await api.request.post(`${BASE_URL}/api/admin/oidc-providers`, {
    headers: admin,
    data: {
      name: 'Test IdP',
      issuer: `http://127.0.0.1:${port}`,
      client_id: 'cubby',
      client_secret: 'cubby-test-secret',
      allow_signup: true,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const body = (await created.json()) as { data: { id: string; redirect_uri: string } };
  providerId = body.data.id;
  idp = await startTestIdp(port, [body.data.redirect_uri]);
  idp.accounts.set('sub-e2e-member', {
    preferred_username: 'sso-member',
    email: 'sso@example.test',
    email_verified: true,
  });
});

test.afterAll(async () => {
  // The other specs' login pages stay as they were.
  const context = await playwrightRequest.newContext();
  await context.delete(`${BASE_URL}/api/admin/oidc-providers/${providerId}`, { headers: admin });
  await idp?.close();
});

test('signs in through the provider and comes back signed in as the member it made', async ({
  page,
  request,
}) => {
  await page.goto('/admin');
  await page.getByRole('link', { name: 'Sign in with Test IdP' }).click();

  await expect(page.getByRole('heading', { name: 'Test IdP' })).toBeVisible();
  expect(new URL(page.url()).origin).toBe(idp.issuer);
  await page.getByLabel('Username').fill('sub-e2e-member');
  await page.getByRole('button', { name: 'Sign in' }).click();

  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByTestId('signed-in-user')).toHaveText('sso-member');
  // The session left the address bar with the fragment, and is the member's.
  expect(page.url()).not.toContain('token=');
  const token = await page.evaluate(() => localStorage.getItem('admin_token'));
  const me = await request.get(`${BASE_URL}/api/auth/me`, { headers: { Authorization: `Bearer ${token}` } });
  expect(((await me.json()) as { data: { role: string; username: string } }).data).toMatchObject({
    username: 'sso-member',
    role: 'member',
  });
});

test('a refused sign-in comes back with the reason', async ({ page, request }) => {
  const changed = await request.put(`${BASE_URL}/api/admin/oidc-providers/${providerId}`, {
    headers: admin,
    data: { allow_signup: false },
  });
  expect(changed.status()).toBe(200);
  idp.accounts.set('sub-e2e-stranger', { preferred_username: 'stranger' });

  await page.goto('/admin');
  await page.getByRole('link', { name: 'Sign in with Test IdP' }).click();
  await page.getByLabel('Username').fill('sub-e2e-stranger');
  await page.getByRole('button', { name: 'Sign in' }).click();

  await expect(page).toHaveURL(/\/login\/oidc$/);
  await expect(page.getByTestId('sso-error')).toHaveText(
    'No account here is linked to you, and signing up this way is not allowed. Ask an admin.',
  );
  await page.getByRole('link', { name: 'Back to sign-in' }).click();
  await expect(page.getByRole('link', { name: 'Sign in with Test IdP' })).toBeVisible();
});
