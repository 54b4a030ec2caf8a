/**
 * LDAP sign-in in Chromium (docs/accounts.md, "LDAP"): an admin fills the LDAP section of the
 * single sign-on screen against a real OpenLDAP slapd (support of the server tests, run by this
 * spec on 127.0.0.1), tests the connection (each step shown, the person found), saves, and a person
 * of the directory then signs in through the normal login form with their directory password.
 */
import { request as playwrightRequest } from '@playwright/test';
import {
  LDAP_PEOPLE,
  LDAP_READER_DN,
  LDAP_READER_PASSWORD,
  startTestSlapd,
  type TestSlapd,
} from '../../packages/server/test/support/slapd.ts';
import { BASE_URL } from '../support/env.ts';
import { Api, expect, loginAsAdminWithForm, test } from '../support/fixtures.ts';

const PERSON = { uid: 'e2e-ldap-lena', password: 'lena directory pw', mail: 'lena@example.test' };
let slapd: TestSlapd;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  slapd = await startTestSlapd([PERSON]);
});

test.afterAll(async () => {
  // The other specs' logins stay as they were: LDAP off again.
  const api = new Api(await playwrightRequest.newContext());
  const headers = { Authorization: `Bearer ${await api.adminToken()}` };
  const off = await api.request.put(`${BASE_URL}/api/admin/ldap`, {
    headers,
    data: { enabled: false, url: 'ldap://127.0.0.1', user_base: LDAP_PEOPLE, bind_password: '' },
  });
  expect(off.status()).toBe(200);
  await slapd?.close();
});

test('an admin sets up LDAP in the screen, and a directory person signs in with the login form', async ({
  page,
  browser,
}) => {
  await page.goto('/admin');
  await loginAsAdminWithForm(page);
  await expect(page.getByTestId('signed-in-user')).toHaveText('admin');
  await page.goto('/admin/sso');
  const form = page.getByTestId('ldap-form');
  await form.getByLabel('Sign in with LDAP').check();
  await form.getByLabel('Server URL').fill(slapd.url);
  await form.getByLabel('Service account DN').fill(LDAP_READER_DN);
  await form.getByLabel('Service account password').fill(LDAP_READER_PASSWORD);
  await form.getByLabel('User search base').fill(LDAP_PEOPLE);
  await form.getByLabel('Create members on first sign-in').check();

  // A wrong service password: the bind step says so, before anything is saved.
  await form.getByLabel('Service account password').fill('not the password');
  await form.getByTestId('test-ldap').click();
  await expect(form.getByTestId('ldap-step-bind')).toContainText(
    "The directory refused the service account's DN or password.",
  );
  await form.getByLabel('Service account password').fill(LDAP_READER_PASSWORD);
  await form.getByLabel('Username to look for').fill(PERSON.uid);
  await form.getByTestId('test-ldap').click();
  await expect(form.getByTestId('ldap-step-search')).toContainText('OK');
  await expect(form.getByTestId('ldap-test-user')).toContainText(slapd.dnOf(PERSON.uid));
  await expect(form.getByTestId('ldap-test-user')).toContainText(PERSON.mail);

  await form.getByTestId('save-ldap').click();
  await expect(page.getByText('LDAP settings saved')).toBeVisible();
  // Saved: the password shows as its mask, which keeps it.
  await expect(form.getByLabel('Service account password')).toHaveValue('********');

  const context = await browser.newContext();
  const visitor = await context.newPage();
  await visitor.goto('/admin');
  await loginAsAdminWithForm(visitor, PERSON.uid, 'wrong password');
  await expect(visitor.getByText('Wrong username or password')).toBeVisible();
  await loginAsAdminWithForm(visitor, PERSON.uid, PERSON.password);
  await expect(visitor.getByTestId('signed-in-user')).toHaveText(PERSON.uid);
  await context.close();
});
