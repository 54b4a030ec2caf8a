/**
 * Test fixtures: `api` talks to the server under test directly (admin login, key creation), and
 * `seed` puts values into localStorage before the app starts, once per tab.
 */
import { randomUUID } from 'node:crypto';
import { test as base, expect, type APIRequestContext, type Page } from '@playwright/test';
import { ADMIN_PASSWORD, ADMIN_USERNAME, BASE_URL } from './env.ts';

/** The password of every member the tests make. */
export const MEMBER_PASSWORD = 'member-password-1';

export interface KeyOptions {
  name?: string;
  text?: boolean;
  file?: boolean;
  mount?: boolean;
  basicPath?: string;
  expiresAt?: string | null;
}

export interface CreatedKey {
  id: string;
  name: string;
  key: string;
}

export class Api {
  private token: string | null = null;

  constructor(readonly request: APIRequestContext) {}

  /** Logs in through the API and returns a fresh admin session token. */
  async login(username = ADMIN_USERNAME, password = ADMIN_PASSWORD): Promise<string> {
    const response = await this.request.post(`${BASE_URL}/api/admin/login`, { data: { username, password } });
    expect(response.status(), await response.text()).toBe(200);
    const body = (await response.json()) as { data: { token: string } };
    return body.data.token;
  }

  /** One admin token per test, for setup calls. */
  async adminToken(): Promise<string> {
    this.token ??= await this.login();
    return this.token;
  }

  async createKey(options: KeyOptions = {}): Promise<CreatedKey> {
    const name = options.name ?? uniqueName('key');
    const response = await this.request.post(`${BASE_URL}/api/admin/api-keys`, {
      headers: { Authorization: `Bearer ${await this.adminToken()}` },
      data: {
        name,
        expires_at: options.expiresAt === undefined ? 'never' : options.expiresAt,
        text_permission: options.text ?? false,
        file_permission: options.file ?? false,
        mount_permission: options.mount ?? false,
        basic_path: options.basicPath ?? '/',
      },
    });
    expect(response.status(), await response.text()).toBeLessThan(300);
    const body = (await response.json()) as { data: { id: string; key: string; name: string } };
    return { id: body.data.id, name: body.data.name, key: body.data.key };
  }

  /** Makes a person through the API (docs/accounts.md), a member unless `extra` says otherwise. */
  async createMember(extra: Record<string, unknown> = {}): Promise<{ id: string; username: string }> {
    const username = typeof extra.username === 'string' ? extra.username : uniqueName('ann');
    const response = await this.request.post(`${BASE_URL}/api/admin/users`, {
      headers: { Authorization: `Bearer ${await this.adminToken()}` },
      data: { username, password: MEMBER_PASSWORD, role: 'member', ...extra },
    });
    expect(response.status(), await response.text()).toBe(201);
    return { id: ((await response.json()) as { data: { id: string } }).data.id, username };
  }

  async listUsers(): Promise<{ id: string; username: string }[]> {
    const response = await this.request.get(`${BASE_URL}/api/admin/users`, {
      headers: { Authorization: `Bearer ${await this.adminToken()}` },
    });
    return ((await response.json()) as { data: { id: string; username: string }[] }).data;
  }

  /** Makes an invite through the API; answers its link's path, `/invite/<token>`. */
  async createInvite(data: Record<string, unknown> = {}): Promise<string> {
    const response = await this.request.post(`${BASE_URL}/api/admin/invites`, {
      headers: { Authorization: `Bearer ${await this.adminToken()}` },
      data,
    });
    expect(response.status(), await response.text()).toBe(201);
    return new URL(((await response.json()) as { data: { url: string } }).data.url).pathname;
  }

  async deleteKey(id: string): Promise<void> {
    await this.request.delete(`${BASE_URL}/api/admin/api-keys/${id}`, {
      headers: { Authorization: `Bearer ${await this.adminToken()}` },
    });
  }

  async listKeys(): Promise<Record<string, unknown>[]> {
    const response = await this.request.get(`${BASE_URL}/api/admin/api-keys`, {
      headers: { Authorization: `Bearer ${await this.adminToken()}` },
    });
    return ((await response.json()) as { data: Record<string, unknown>[] }).data;
  }

  /** Revokes an admin token on the server, as another tab or an operator would. */
  async revoke(token: string): Promise<void> {
    const response = await this.request.post(`${BASE_URL}/api/admin/logout`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(response.status()).toBe(200);
  }

  async adminTokenStatus(token: string): Promise<number> {
    const response = await this.request.get(`${BASE_URL}/api/test/admin-token`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    return response.status();
  }

  /** Creates a paste through the API as the admin, or as `key` when given; returns the answer's data. */
  async createPaste(input: PasteInput, key?: CreatedKey): Promise<CreatedPasteData> {
    const authorization = key ? `ApiKey ${key.key}` : `Bearer ${await this.adminToken()}`;
    const response = await this.request.post(`${BASE_URL}/api/paste`, {
      headers: { Authorization: authorization },
      data: input,
    });
    expect(response.status(), await response.text()).toBe(201);
    return ((await response.json()) as { data: CreatedPasteData }).data;
  }

  /** Whether a paste exists, without counting a view (HEAD). */
  async pasteStatus(slug: string): Promise<number> {
    return (await this.request.head(`${BASE_URL}/api/paste/${encodeURIComponent(slug)}`)).status();
  }

  /** Reads a paste as a visitor would (counts a view); returns the HTTP status. */
  async readPaste(slug: string): Promise<number> {
    return (await this.request.get(`${BASE_URL}/api/paste/${encodeURIComponent(slug)}`)).status();
  }

  /** A paste's management record (counts no view). */
  async pasteDetail(
    slug: string,
  ): Promise<{ views: number; slug: string; content: string; remark: string | null }> {
    const response = await this.request.get(`${BASE_URL}/api/admin/pastes/${encodeURIComponent(slug)}`, {
      headers: { Authorization: `Bearer ${await this.adminToken()}` },
    });
    expect(response.status(), await response.text()).toBe(200);
    return (
      (await response.json()) as {
        data: { views: number; slug: string; content: string; remark: string | null };
      }
    ).data;
  }

  /** Creates a mount through the API (on the default storage unless `storage_config_id` says otherwise). */
  async createMount(input: MountInput): Promise<MountRecord> {
    const response = await this.request.post(`${BASE_URL}/api/admin/mounts`, {
      headers: { Authorization: `Bearer ${await this.adminToken()}` },
      data: { storage_config_id: await this.defaultStorageId(), ...input },
    });
    expect(response.status(), await response.text()).toBe(201);
    return ((await response.json()) as { data: MountRecord }).data;
  }

  async listMounts(): Promise<MountRecord[]> {
    const response = await this.request.get(`${BASE_URL}/api/admin/mounts`, {
      headers: { Authorization: `Bearer ${await this.adminToken()}` },
    });
    expect(response.status(), await response.text()).toBe(200);
    return ((await response.json()) as { data: MountRecord[] }).data;
  }

  async deleteMount(id: string): Promise<void> {
    await this.request.delete(`${BASE_URL}/api/admin/mounts/${id}`, {
      headers: { Authorization: `Bearer ${await this.adminToken()}` },
    });
  }

  /** Creates a local-disk storage config on `rootPath`; returns its id. */
  async createLocalStorage(name: string, rootPath: string): Promise<string> {
    const response = await this.request.post(`${BASE_URL}/api/s3-configs`, {
      headers: { Authorization: `Bearer ${await this.adminToken()}` },
      data: { name, provider_type: 'Local', root_path: rootPath },
    });
    expect(response.status(), await response.text()).toBe(201);
    return ((await response.json()) as { data: { id: string } }).data.id;
  }

  async deleteStorage(id: string): Promise<void> {
    await this.request.delete(`${BASE_URL}/api/s3-configs/${id}`, {
      headers: { Authorization: `Bearer ${await this.adminToken()}` },
    });
  }

  private async defaultStorageId(): Promise<string> {
    const response = await this.request.get(`${BASE_URL}/api/s3-configs`, {
      headers: { Authorization: `Bearer ${await this.adminToken()}` },
    });
    const configs = ((await response.json()) as { data: Array<{ id: string; is_default: number }> }).data;
    const found = configs.find((config) => config.is_default === 1) ?? configs[0];
    if (!found) throw new Error('no storage config');
    return found.id;
  }

  /** Moves the server's clock forward (CUBBY_TEST_HOOKS); returns the server's new "now". */
  async advanceClock(advanceMs: number): Promise<Date> {
    const response = await this.request.post(`${BASE_URL}/api/__test__/clock`, { data: { advanceMs } });
    expect(response.status(), await response.text()).toBe(200);
    return new Date(((await response.json()) as { data: { now: string } }).data.now);
  }
}

export interface PasteInput {
  /** Or `files`, for a paste of several named files. */
  content?: string;
  files?: { name: string; language?: string; content: string }[];
  title?: string;
  is_public?: boolean;
  /** Omitted: a random suffix. */
  format?: 'markdown' | 'text';
  slug?: string;
  remark?: string;
  password?: string;
  expiresAt?: string | null;
  maxViews?: number;
}

export interface MountInput {
  name: string;
  mount_path: string;
  storage_config_id?: string;
  remark?: string;
  is_active?: boolean;
  sort_order?: number;
  cache_ttl?: number;
}

export interface MountRecord {
  id: string;
  name: string;
  mount_path: string;
  storage_type: 'S3' | 'Local';
  storage_config_id: string;
  remark: string | null;
  is_active: boolean;
  sort_order: number;
  cache_ttl: number;
}

export interface CreatedPasteData {
  id: string;
  slug: string;
  hasPassword: boolean;
}

/** Puts an API key's credentials into localStorage for the page's first load. */
export async function seedApiKey(
  page: Page,
  key: CreatedKey,
  permissions: { text: boolean; file: boolean; mount: boolean },
  basicPath = '/',
): Promise<void> {
  await seedStorage(page, {
    api_key: key.key,
    api_key_permissions: JSON.stringify(permissions),
    api_key_info: JSON.stringify({ id: key.id, name: key.name, basic_path: basicPath }),
  });
}

export function uniqueName(prefix: string): string {
  return `${prefix}-${randomUUID().slice(0, 8)}`;
}

/**
 * Sets localStorage entries before the app's first script runs, only on the tab's first load,
 * so the app's own later changes (logout, language switch) survive reloads.
 */
export async function seedStorage(page: Page, entries: Record<string, string>): Promise<void> {
  const marker = `__e2e_seeded_${randomUUID()}`;
  await page.addInitScript(
    ({ values, flag }) => {
      // Init scripts run in every frame too; a frame of another origin (a PDF straight from
      // storage) may not touch storage at all, and is not the app anyway.
      if (window.top !== window) return;
      if (sessionStorage.getItem(flag) === '1') return;
      for (const [key, value] of Object.entries(values)) localStorage.setItem(key, value);
      sessionStorage.setItem(flag, '1');
    },
    { values: entries, flag: marker },
  );
}

/** Records the auth events the app dispatches on `window`, readable with {@link readAuthEvents}. */
export async function recordAuthEvents(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const store: { type: string; detail: unknown }[] = [];
    (window as unknown as { __authEvents: typeof store }).__authEvents = store;
    for (const type of ['auth-state-changed', 'admin-token-expired', 'api-key-invalid']) {
      window.addEventListener(type, (event) => store.push({ type, detail: (event as CustomEvent).detail }));
    }
  });
}

export async function readAuthEvents(
  page: Page,
): Promise<{ type: string; detail: Record<string, unknown> }[]> {
  return page.evaluate(
    () =>
      (window as unknown as { __authEvents: { type: string; detail: Record<string, unknown> }[] })
        .__authEvents,
  );
}

export async function storageValue(page: Page, key: string): Promise<string | null> {
  return page.evaluate((name) => localStorage.getItem(name), key);
}

/** Signs in through the admin login form (English UI). */
export async function loginAsAdminWithForm(page: Page, username = ADMIN_USERNAME, password = ADMIN_PASSWORD) {
  await page.getByRole('tab', { name: 'Account', exact: true }).click();
  await page.getByRole('textbox', { name: 'Username' }).fill(username);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Signs in through the API key login form (English UI). */
export async function loginWithKeyForm(page: Page, key: string) {
  await page.getByRole('tab', { name: 'API key' }).click();
  await page.getByRole('textbox', { name: 'API key', exact: true }).fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

export const test = base.extend<{ api: Api; seedAdmin: () => Promise<string>; failOnPageError: void }>({
  /** Any uncaught exception in the app fails the test. */
  failOnPageError: [
    async ({ page }, use) => {
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await use();
      expect(errors, 'uncaught errors in the page').toEqual([]);
    },
    { auto: true },
  ],
  api: async ({ request }, use) => {
    await use(new Api(request));
  },
  /** Puts a fresh admin token into localStorage for the page's first load; returns it. */
  seedAdmin: async ({ api, page }, use) => {
    await use(async () => {
      const token = await api.login();
      await seedStorage(page, { admin_token: token });
      return token;
    });
  },
});

export { expect };
