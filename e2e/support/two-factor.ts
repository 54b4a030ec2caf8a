/**
 * Codes as an authenticator app makes them (RFC 6238, the `otpauth` package), for the two-factor
 * tests and screens (docs/accounts.md "Two-factor sign-in"). They follow the server's clock, which
 * some tests move forward.
 */
import type { APIRequestContext } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { BASE_URL } from './env.ts';
import { expect, type Api } from './fixtures.ts';

/** The server's now (its clock may be ahead of this machine's). */
export async function serverNow(request: APIRequestContext): Promise<number> {
  const response = await request.post(`${BASE_URL}/api/__test__/clock`, { data: { advanceMs: 0 } });
  expect(response.status(), await response.text()).toBe(200);
  return Date.parse(((await response.json()) as { data: { now: string } }).data.now);
}

/** The code an authenticator app shows for `secret` at `timestamp`. */
export function codeAt(secret: string, timestamp: number): string {
  const totp = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' });
  return totp.generate({ timestamp });
}

/** The code for `secret`, `stepsAhead` 30 s steps after the server's now. */
export async function codeFor(api: Api, secret: string, stepsAhead = 0): Promise<string> {
  return codeAt(secret, (await serverNow(api.request)) + stepsAhead * 30_000);
}

/** Turns two-factor sign-in on through the API for the person behind `token`; answers the secret. */
export async function turnOnTwoFactor(api: Api, token: string): Promise<string> {
  const headers = { Authorization: `Bearer ${token}` };
  const setup = await api.request.post(`${BASE_URL}/api/auth/two-factor/totp/setup`, { headers });
  expect(setup.status(), await setup.text()).toBe(200);
  const { secret } = ((await setup.json()) as { data: { secret: string } }).data;
  const enabled = await api.request.post(`${BASE_URL}/api/auth/two-factor/totp/enable`, {
    headers,
    data: { code: await codeFor(api, secret) },
  });
  expect(enabled.status(), await enabled.text()).toBe(200);
  return secret;
}
