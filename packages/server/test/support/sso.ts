/**
 * A browser's round trip through single sign-on, driven by hand for server tests: Cubby's start
 * route, the test provider's login page (support/oidc-idp.ts; redirects followed, its cookies
 * kept, its form submitted as `login`), and back to Cubby's callback.
 */
import assert from 'node:assert/strict';
import type { TestIdp } from './oidc-idp.ts';
import type { TestApp } from './test-app.ts';

/**
 * From the start route through the provider's login (as `login`) to the callback URL the provider
 * sends the browser back to (not yet followed).
 */
export async function throughProvider(t: TestApp, idp: TestIdp, id: string, login: string): Promise<string> {
  const start = await t.request(`/api/auth/oidc/${id}/start`);
  assert.equal(start.status, 302);
  let url = start.headers.get('location')!;
  const cookies = new Map<string, string>();
  const send = async (target: string, init: RequestInit = {}) => {
    const cookie = [...cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await fetch(target, {
      ...init,
      redirect: 'manual',
      headers: { ...init.headers, cookie },
    });
    for (const set of res.headers.getSetCookie()) {
      const pair = set.split(';')[0]!;
      cookies.set(pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1));
    }
    return res;
  };
  for (let hop = 0; hop < 10 && url.startsWith(idp.issuer); hop++) {
    let res = await send(url);
    if (res.status === 200 && url.includes('/interaction/')) {
      await res.text();
      res = await send(url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ login }).toString(),
      });
    }
    assert.ok(res.status >= 300 && res.status < 400, `${res.status} ${await res.text()}`);
    url = new URL(res.headers.get('location')!, url).toString();
  }
  assert.ok(url.includes(`/api/auth/oidc/${id}/callback?`), url);
  return url;
}

/** Follows the callback URL into Cubby; answers what the web app's `/login/oidc` fragment says. */
export async function followCallback(t: TestApp, url: string): Promise<Record<string, string>> {
  const parsed = new URL(url);
  const res = await t.request(parsed.pathname + parsed.search, { headers: { 'User-Agent': 'sso test' } });
  assert.equal(res.status, 302);
  const location = res.headers.get('location')!;
  assert.match(location, /^\/login\/oidc#/);
  return Object.fromEntries(new URLSearchParams(location.slice(location.indexOf('#') + 1)));
}
