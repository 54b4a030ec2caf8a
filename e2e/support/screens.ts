/**
 * Every screen of the app (and the dialogs and error states worth seeing), reachable in any UI
 * language including the test-only key mode: screens are found by route, role and test id, never by
 * visible text. Used by the screenshot run and by the "every text is a translation key" test.
 */
import {
  expect,
  type Browser,
  type BrowserContext,
  type Locator,
  type Page,
  type Route,
} from '@playwright/test';
import { createOnce, ensureShare, pdfOf, pngOf, usedUpShare } from './files.ts';
import { listStorageConfigs } from './storage-configs.ts';
import { makeFolder, putFile, putText } from './explorer.ts';
import { MEMBER_PASSWORD, uniqueName, type Api } from './fixtures.ts';
import { codeAt, serverNow, turnOnTwoFactor } from './two-factor.ts';
import { BASE_URL } from './env.ts';

export const SOURCE_URL = 'https://github.com/cubby-app/cubby';

export type Principal = 'visitor' | 'admin' | 'member' | 'textKey' | 'mountKey';

export interface Screen {
  name: string;
  as: Principal;
  path: string;
  /** Data the screen needs, made through the API first; may return the path to open instead. */
  prepare?: (api: Api) => Promise<string | void>;
  /** Interaction after the page is ready (open a dialog, submit an empty form…). */
  action?: (page: Page) => Promise<void>;
}

/** A Markdown paste that shows most of what the renderer does (headings for an outline, a table,
 * a task list, code, math and a diagram). */
const SHOWCASE = `# Release notes

Cubby renders **Markdown** with [links](https://example.com), \`inline code\` and lists.

## Tasks

- [x] Tables and task lists
- [ ] Diagrams and math

## Table

| Feature | Status |
| --- | --- |
| Editor | Done |
| Preview | Done |

## Code

\`\`\`ts
export function greet(name: string): string {
  return \`Hello, \${name}!\`;
}
\`\`\`

## Math and a diagram

Euler: $e^{i\\pi} + 1 = 0$

\`\`\`mermaid
graph LR
  Write --> Share --> Read
\`\`\`
`;

/** Creates a paste with a fixed slug once per server (a second call finds it taken). */
async function ensurePaste(api: Api, input: Parameters<Api['createPaste']>[0] & { slug: string }) {
  await createOnce(
    async () => (await api.pasteStatus(input.slug)) !== 404,
    () => api.createPaste(input),
  );
}

async function seedPasteList(api: Api) {
  await ensurePaste(api, { slug: 'screens-showcase', content: SHOWCASE, remark: 'Release notes' });
  await ensurePaste(api, {
    slug: 'screens-plain',
    content: 'Plain text\n  keeps   its spacing\nand wraps long lines.',
    format: 'text',
    remark: 'Plain text note',
    maxViews: 100000,
  });
  await ensurePaste(api, {
    slug: 'screens-secret',
    content: 'secret',
    password: 'pw',
    remark: 'Protected note',
  });
}

/** A public paste of two named files, with the public page turned on. */
async function seedPublicPastes(api: Api) {
  await ensurePaste(api, {
    slug: 'screens-files',
    title: 'Deploy notes',
    is_public: true,
    files: [
      {
        name: 'README.md',
        language: 'markdown',
        content: '# Deploy\n\nRun **deploy.sh** from the project root.',
      },
      {
        name: 'deploy.sh',
        language: 'bash',
        content: '#!/bin/sh\nset -e\nnpm run build\nrsync -a dist/ web:/srv/cubby/\n',
      },
    ],
  });
  const response = await api.request.put(`${BASE_URL}/api/admin/system-settings`, {
    headers: { Authorization: `Bearer ${await api.adminToken()}` },
    data: { public_pastes_enabled: true },
  });
  expect(response.status(), await response.text()).toBe(200);
}

async function openPasteRowDialog(page: Page, testId: string, dialogTestId: string) {
  await page.getByTestId('paste-search').fill('screens-showcase');
  await expect(page.getByTestId('paste-row')).toHaveCount(1);
  await page.getByTestId('paste-row').first().getByTestId(testId).click();
  await expect(page.getByTestId(dialogTestId)).toBeVisible();
  await expect(page.getByTestId(dialogTestId).locator('[role=status] svg.animate-spin')).toHaveCount(0);
}

const h1 = (page: Page) => page.getByRole('heading', { level: 1 }).first();

async function openCreateDialog(page: Page) {
  await page.getByTestId('create-key').click();
  await expect(page.getByTestId('create-key-dialog')).toBeVisible();
}

/** Creates a key with the text and file permissions, so that every recipe shows. */
async function createKeyWithRecipes(page: Page) {
  await openCreateDialog(page);
  const dialog = page.getByTestId('create-key-dialog');
  await dialog.locator('input[name=name]').fill(uniqueName('recipes'));
  await dialog.locator('input[type=checkbox]').nth(0).check();
  await dialog.locator('input[type=checkbox]').nth(1).check();
  await dialog.locator('input[type=checkbox]').nth(2).check();
  await dialog.locator('button[type=submit]').click();
  await expect(dialog.getByTestId('key-recipes')).toBeVisible();
}

/** File shares for the file management screens, made once per server. */
async function seedFileList(api: Api) {
  await ensureShare(api, {
    slug: 'screens-report',
    name: 'quarterly-report-2026.pdf',
    mimeType: 'application/pdf',
    body: pdfOf('Quarterly report'),
    remark: 'Numbers for the board meeting',
  });
  await ensureShare(api, {
    slug: 'screens-archive',
    name: 'offsite-photos-full-resolution-2026.zip',
    mimeType: 'application/zip',
    body: pngOf(64, 64),
    password: 'pw',
    maxViews: 10,
  });
}

/** A bundle of two file shares (one an image), unlimited views, optionally protected; answers its page. */
async function seedBundle(api: Api, password?: string): Promise<string> {
  await seedFileList(api);
  await ensureShare(api, {
    slug: 'screens-image',
    name: 'team-photo.png',
    mimeType: 'image/png',
    body: pngOf(640, 360),
    remark: 'Team offsite, day one',
  });
  const response = await api.request.post(`${BASE_URL}/api/bundles`, {
    headers: { Authorization: `Bearer ${await api.adminToken()}` },
    data: {
      title: 'Offsite 2026',
      ...(password ? { password } : {}),
      items: [
        { type: 'file', value: 'screens-image' },
        { type: 'file', value: 'screens-report' },
      ],
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  return `/bundle/${((await response.json()) as { data: { slug: string } }).data.slug}`;
}

async function openFileRowDialog(page: Page, testId: string, dialogTestId: string) {
  await page.getByTestId('file-search').fill('screens-report');
  await expect(page.getByTestId('file-row')).toHaveCount(1);
  await page.getByTestId('file-row').first().getByTestId(testId).click();
  await expect(page.getByTestId(dialogTestId)).toBeVisible();
}

/**
 * Storages on other servers for the storage screens, made once: nothing listens at their addresses
 * (port 9 on loopback), so their test reports say why the server cannot be reached.
 */
async function seedRemoteStorages(api: Api) {
  const token = await api.adminToken();
  const configs = [
    {
      name: 'NAS over SFTP',
      provider_type: 'SFTP',
      host: '127.0.0.1',
      port: 9,
      username: 'backup',
      password: 'screens-sftp-password',
      root: '/srv/cubby',
    },
    {
      name: 'Office FTP',
      provider_type: 'FTP',
      host: '127.0.0.1',
      port: 9,
      username: 'office',
      password: 'screens-ftp-password',
      tls: 'explicit',
    },
    {
      name: 'Nextcloud',
      provider_type: 'WebDAV',
      endpoint_url: 'http://127.0.0.1:9/remote.php/dav/files/me',
      username: 'me',
      password: 'screens-dav-password',
    },
  ];
  for (const config of configs) {
    await createOnce(
      async () => (await listStorageConfigs(api.request, token)).some((made) => made.name === config.name),
      async () => {
        const response = await api.request.post(`${BASE_URL}/api/s3-configs`, {
          headers: { Authorization: `Bearer ${token}` },
          data: config,
        });
        expect(response.status(), await response.text()).toBe(201);
      },
    );
  }
}

/** The screen of a dialog opened from the row of the SFTP storage `seedRemoteStorages` makes. */
function remoteStorageScreen(name: string, testId: string, ready: (page: Page) => Locator): Screen {
  return {
    name,
    as: 'admin',
    path: '/admin/storage-config',
    prepare: seedRemoteStorages,
    action: async (page) => {
      await page
        .locator('[data-testid=storage-config-row][data-config-name="NAS over SFTP"]')
        .getByTestId(testId)
        .click();
      await expect(ready(page)).toBeVisible({ timeout: 30_000 });
    },
  };
}

/** Opens the new storage dialog with `provider` chosen. */
async function openStorageDialog(page: Page, provider: string) {
  await page.getByTestId('create-storage-config').click();
  const dialog = page.getByTestId('storage-config-dialog');
  await dialog.locator('select[name=providerType]').selectOption(provider);
  await expect(dialog.locator('input[name=host], input[name=endpointUrl]').first()).toBeVisible();
}

/** Mounts for the mount management screens, made once per server (one inactive, one uncached). */
async function seedMounts(api: Api) {
  const mounts = [
    { name: 'Team photos', mount_path: '/screens/photos', remark: 'Offsite and events', sort_order: 1 },
    { name: 'Project documents', mount_path: '/screens/team/docs', cache_ttl: 0, sort_order: 2 },
    {
      name: 'Archive 2019–2024',
      mount_path: '/screens/archive',
      is_active: false,
      remark: 'Read-only copies of closed projects',
      sort_order: 3,
    },
  ];
  for (const mount of mounts) {
    await createOnce(
      async () => (await api.listMounts()).some((made) => made.mount_path === mount.mount_path),
      () => api.createMount(mount),
    );
  }
}

/** A single sign-on provider for the SSO screens (and the login page's button), made once. */
async function seedSsoProvider(api: Api) {
  const headers = { Authorization: `Bearer ${await api.adminToken()}` };
  const listed = await api.request.get('/api/admin/oidc-providers', { headers });
  const providers = ((await listed.json()) as { data: { name: string }[] }).data;
  if (providers.some((provider) => provider.name === 'Keycloak')) return;
  const made = await api.request.post('/api/admin/oidc-providers', {
    headers,
    data: {
      name: 'Keycloak',
      issuer: 'https://id.example.com/realms/main',
      client_id: 'cubby',
      client_secret: 'screens-secret',
      allow_signup: true,
      link_by_email: true,
      role_claim: 'groups',
      admin_values: ['cubby-admins'],
    },
  });
  expect(made.status()).toBe(201);
}

/** A webhook for the Notifications screens (made once; it follows uploads only, which no screen makes). */
async function seedWebhook(api: Api) {
  const headers = { Authorization: `Bearer ${await api.adminToken()}` };
  const listed = await api.request.get('/api/admin/webhooks', { headers });
  const hooks = ((await listed.json()) as { data: { name: string }[] }).data;
  if (hooks.some((hook) => hook.name === 'Team chat')) return;
  const made = await api.request.post('/api/admin/webhooks', {
    headers,
    data: {
      name: 'Team chat',
      url: 'https://hooks.example.com/cubby/uploads',
      secret: 'screens-webhook-secret-0123456789',
      events: ['share.uploaded'],
      // Paused: the other browser tests' uploads must not queue deliveries to it (its deliveries
      // screen shows none), and the server never looks its host up.
      enabled: false,
    },
  });
  expect(made.status()).toBe(201);
}

/** A sync job from the explorer's documents into the photos mount (made once; never run, only dry-run). */
let syncJobSeeded: Promise<void> | null = null;
function seedSyncJob(api: Api): Promise<void> {
  syncJobSeeded ??= (async () => {
    await seedExplorer(api);
    const headers = { Authorization: `Bearer ${await api.adminToken()}` };
    await createOnce(
      async () => {
        const listed = await api.request.get('/api/admin/scheduled/jobs', { headers });
        return ((await listed.json()) as { data: { items: { name: string }[] } }).data.items.some(
          (job) => job.name === 'Nightly backup',
        );
      },
      async () => {
        const made = await api.request.post('/api/admin/scheduled/jobs', {
          headers,
          data: {
            name: 'Nightly backup',
            sourcePath: '/screens/team/docs',
            targetPath: '/screens/photos/docs-backup',
            scheduleType: 'cron',
            cronExpression: '30 2 * * *',
            deleteExtra: true,
          },
        });
        expect(made.status(), await made.text()).toBe(201);
      },
    );
  })();
  return syncJobSeeded;
}

/** A member with a quota and extra paths, and an open invite, for the People screens (made once). */
async function seedPeople(api: Api) {
  await createOnce(
    async () => (await api.listUsers()).some((user) => user.username === 'screens-ann'),
    () =>
      api.createMember({
        username: 'screens-ann',
        email: 'ann@example.com',
        quota_bytes: 5 * 1024 ** 3,
        paths: [
          { path: '/screens/team/docs', access: 'read' },
          { path: '/screens/photos', access: 'write' },
        ],
      }),
  );
  await api.createInvite({ email: 'bo@example.com', expires_in_days: 14 });
}

/** A member who signs in with two factors, for the login's second step (made once). */
async function seedTwoFactorMember(api: Api) {
  await createOnce(
    async () => (await api.listUsers()).some((user) => user.username === 'screens-tfa'),
    async () => {
      await api.createMember({ username: 'screens-tfa' });
      await turnOnTwoFactor(api, await api.login('screens-tfa', MEMBER_PASSWORD));
    },
  );
}

/** Starts the set-up in My account's two-factor section: QR code and key shown. */
async function startTwoFactorSetup(page: Page) {
  await page.getByTestId('two-factor-set-up').click();
  await expect(page.getByTestId('qr-code')).toBeVisible();
}

async function openMountRowDialog(page: Page, testId: string, dialogTestId: string) {
  await page.getByTestId('mount-search').fill('/screens/photos');
  await expect(page.getByTestId('mount-row')).toHaveCount(1);
  await page.getByTestId('mount-row').first().getByTestId(testId).click();
  await expect(page.getByTestId(dialogTestId)).toBeVisible();
}

/** Files in the "Project documents" mount for the explorer screens, written once per walk. */
let explorerSeeded: Promise<void> | null = null;
function seedExplorer(api: Api): Promise<void> {
  explorerSeeded ??= writeExplorerFiles(api);
  return explorerSeeded;
}

async function writeExplorerFiles(api: Api) {
  await seedMounts(api);
  const token = await api.adminToken();
  const base = '/screens/team/docs';
  // The last file written: there when another walk (or an earlier run on this server) finished.
  const last = await api.request.get(`/api/admin/fs/get?path=${encodeURIComponent(`${base}/archive.zip`)}`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  if (last.status() === 200) return;
  // Made by whichever walk gets here first; the other finds it there (409).
  for (const folder of ['2026 planning', 'empty folder'])
    await makeFolder(api.request, token, `${base}/${folder}/`).catch(() => undefined);
  await putText(api.request, token, `${base}/2026 planning/goals.md`, '# Goals');
  await putText(api.request, token, `${base}/meeting-notes.md`, SHOWCASE);
  await putText(
    api.request,
    token,
    `${base}/greet.ts`,
    'export const greet = (name: string) => `Hello, ${name}!`;\n',
  );
  await putFile(api.request, token, base, 'team-photo.png', pngOf(64, 40), 'image/png');
  await putFile(
    api.request,
    token,
    base,
    'quarterly-report-2026.pdf',
    pdfOf('Quarterly report'),
    'application/pdf',
  );
  await putFile(api.request, token, base, 'archive.zip', Buffer.from('PK'), 'application/zip');
}

const EXPLORER_DOCS = '/mount-explorer/screens/team/docs';

/** A folder share of the explorer's "Project documents" folder (made once; later walks find it: 409). */
async function seedFolderShare(api: Api, slug: string, password?: string): Promise<void> {
  await seedExplorer(api);
  const made = await api.request.post('/api/fs/create-share', {
    headers: { Authorization: `Bearer ${await api.adminToken()}` },
    data: { path: '/screens/team/docs', slug, title: 'Project documents', ...(password ? { password } : {}) },
  });
  expect([201, 409], await made.text()).toContain(made.status());
}

/**
 * What Admin → Bundles & folder links lists, made once per walk: a bundle with a password and a view
 * limit, one revoked, and the folder link of "Project documents".
 */
let sharedLinksSeeded: Promise<void> | null = null;
function seedSharedLinks(api: Api): Promise<void> {
  sharedLinksSeeded ??= (async () => {
    const headers = { Authorization: `Bearer ${await api.adminToken()}` };
    const protectedBundle = (await seedBundle(api, 'pw')).split('/').pop()!;
    const limited = await api.request.put(`${BASE_URL}/api/bundles/${protectedBundle}`, {
      headers,
      data: { max_views: 20, expires_in: 24 * 7 },
    });
    expect(limited.status(), await limited.text()).toBe(200);
    const revoked = (await seedBundle(api)).split('/').pop()!;
    expect((await api.request.delete(`${BASE_URL}/api/bundles/${revoked}`, { headers })).status()).toBe(200);
    await seedFolderShare(api, 'screens-folder');
  })();
  return sharedLinksSeeded;
}

/**
 * Upload requests into "Project documents" (docs/api.md "Upload requests"), made once per walk: an
 * open one with a message, limits and a file already sent, and a protected one (answers their
 * tokens), and one into a new bundle.
 */
let uploadRequestsSeeded: Promise<{ open: string; protected: string }> | null = null;
function seedUploadRequests(api: Api): Promise<{ open: string; protected: string }> {
  uploadRequestsSeeded ??= (async () => {
    await seedExplorer(api);
    const headers = { Authorization: `Bearer ${await api.adminToken()}` };
    const create = async (data: Record<string, unknown>) => {
      const made = await api.request.post('/api/upload-requests', { headers, data });
      expect(made.status(), await made.text()).toBe(201);
      return ((await made.json()) as { data: { token: string } }).data.token;
    };
    const open = await create({
      target_path: '/screens/team/docs',
      message: 'Please send the signed contracts and the photos of the offsite. Thank you!',
      max_files: 10,
      max_file_size: 50 * 1024 * 1024,
      max_total_size: 200 * 1024 * 1024,
      allowed_types: ['.pdf', 'image/*'],
      expires_in: 24 * 30,
      show_uploads: true,
    });
    const sent = await api.request.post(`/api/public/upload-requests/${open}/files`, {
      multipart: {
        file: { name: 'contract-signed.pdf', mimeType: 'application/pdf', buffer: pdfOf('Signed') },
      },
    });
    expect(sent.status(), await sent.text()).toBe(201);
    const locked = await create({ target_path: '/screens/team/docs', password: 'screens-secret-1' });
    // One into a new bundle: its row links the bundle instead of naming a folder.
    await create({ bundle: true, message: 'Offsite photos', max_files: 50 });
    return { open, protected: locked };
  })();
  return uploadRequestsSeeded;
}

/**
 * Folder rules for their screens, made once: a README on a folder of the documents mount (the
 * explorer shows it above and below), and a password on a folder the mount key reaches.
 */
let folderRulesSeeded: Promise<void> | null = null;
function seedFolderRules(api: Api): Promise<void> {
  folderRulesSeeded ??= (async () => {
    await seedExplorer(api);
    const headers = { Authorization: `Bearer ${await api.adminToken()}` };
    const rules = [
      {
        path: '/screens/team/docs/2026 planning',
        header_markdown: '# Planning 2026\n\nGoals and **milestones** for the year. Add yours to `goals.md`.',
        footer_markdown: 'Questions? Ask in the team channel.',
        hide_patterns: ['*.tmp', '.DS_Store'],
      },
      { path: '/team/locked', password: 'pw', password_inherit: true },
    ];
    for (const rule of rules) {
      await createOnce(
        async () => {
          const listed = await api.request.get('/api/fs-meta/list', { headers });
          return ((await listed.json()) as { data: { path: string }[] }).data.some(
            (r) => r.path === rule.path,
          );
        },
        async () => {
          const made = await api.request.post('/api/fs-meta/create', { headers, data: rule });
          expect(made.status(), await made.text()).toBe(201);
        },
      );
    }
  })();
  return folderRulesSeeded;
}

/**
 * Copy tasks for the tasks screen, made once per walk and changing no folder the screens show: one
 * done (its file is there: skipped), and one failed (its target lies under a file), so Retry and
 * Clear finished show.
 */
let tasksSeeded: Promise<void> | null = null;
function seedTasks(api: Api): Promise<void> {
  tasksSeeded ??= (async () => {
    await seedExplorer(api);
    const token = await api.adminToken();
    const headers = { Authorization: `Bearer ${token}` };
    const docs = '/screens/team/docs';
    const ids: string[] = [];
    for (const [source, target] of [
      [`${docs}/greet.ts`, `${docs}/meeting-notes.md/greet.ts`],
      [`${docs}/meeting-notes.md`, `${docs}/2026 planning/goals.md`],
    ]) {
      const started = await api.request.post('/api/admin/fs/tasks', {
        headers,
        data: { items: [{ sourcePath: source, targetPath: target }] },
      });
      expect(started.status(), await started.text()).toBe(202);
      ids.push(((await started.json()) as { data: { id: string } }).data.id);
    }
    for (const id of ids) {
      await expect
        .poll(async () => {
          const task = await api.request.get(`/api/admin/fs/tasks/${id}`, { headers });
          return ((await task.json()) as { data: { status: string } }).data.status;
        })
        .toMatch(/^(done|failed)$/);
    }
  })();
  return tasksSeeded;
}

/** The explorer in list view with an entry selected (a screen of the walk may have left the grid on). */
async function explorerList(page: Page) {
  await page.getByTestId('view-list').click();
  await expect(page.getByTestId('entry-row').first()).toBeVisible();
}

async function selectEntry(page: Page, name: string) {
  await explorerList(page);
  await page.getByTestId('entry-row').filter({ hasText: name }).first().click();
}

/** Chooses greet.ts and meeting-notes.md in the explorer's docs folder. */
async function selectTwoEntries(page: Page) {
  await selectEntry(page, 'greet.ts');
  await page
    .getByTestId('entry-row')
    .filter({ hasText: 'meeting-notes.md' })
    .click({ modifiers: ['Control'] });
}

/** Types into Home's editor. */
async function typeInEditor(page: Page, text: string) {
  await page.getByTestId('paste-editor').locator('.cm-content').click();
  await page.keyboard.insertText(text);
}

/** A share policy with every limit set (docs/api.md, "Share policy"), as the walk's pages show it. */
const SHOWN_POLICY = {
  default_expiry_hours: 24,
  max_expiry_hours: 168,
  default_max_views: 10,
  max_views: 100,
  max_bytes: 1024 * 1024,
  allowed_types: ['.pdf', '.png', '.txt'],
  keys_may_make_permanent: true,
  keys_may_make_unprotected: true,
};

/**
 * Reloads the page with SHOWN_POLICY as the server's answer to this page only: a policy set on the
 * server binds every upload of the other tests running meanwhile (the share-policy spec sets one).
 */
async function showSharePolicy(page: Page, changes: Partial<typeof SHOWN_POLICY> = {}) {
  const data = { ...SHOWN_POLICY, ...changes };
  await page.route(
    '**/api/public/share-policy',
    (route) => route.fulfill({ json: { code: 200, message: 'ok', success: true, data } }),
    { times: 1 },
  );
  await page.reload();
  await expect(page.getByTestId('share-policy-note')).toBeVisible();
}

export const SCREENS: Screen[] = [
  { name: 'home', as: 'visitor', path: '/' },
  {
    name: 'home-editor-split',
    as: 'admin',
    path: '/',
    action: async (page) => {
      await typeInEditor(
        page,
        '# Meeting notes\n\n- [x] **Agenda**\n- [ ] Actions\n\n| a | b |\n| - | - |\n| 1 | 2 |\n',
      );
      await page.getByTestId('mode-split').click();
      await expect(page.getByTestId('paste-preview').locator('table')).toBeVisible();
    },
  },
  {
    // Opening a file over typed text asks first.
    name: 'home-replace-file',
    as: 'visitor',
    path: '/',
    action: async (page) => {
      await typeInEditor(page, 'Notes typed before opening a file');
      await page.getByTestId('open-file-input').setInputFiles({
        name: 'meeting-notes.md',
        mimeType: 'text/markdown',
        buffer: Buffer.from('# Meeting notes'),
      });
      await expect(page.getByTestId('replace-with-file')).toBeVisible();
    },
  },
  {
    name: 'home-errors',
    as: 'admin',
    path: '/',
    action: async (page) => {
      await page.locator('input[name=slug]').fill('not valid!');
      await page.locator('input[name=maxViews]').fill('-1');
      await page.locator('select[name=expiry]').selectOption('custom');
      await page.getByTestId('create-paste').click();
      await expect(page.locator('[aria-invalid=true]')).toHaveCount(3);
    },
  },
  {
    // The policy's limits before anything is written; a text over its largest share is refused in the form.
    name: 'home-share-policy',
    as: 'admin',
    path: '/',
    action: async (page) => {
      // A small limit: the editor grows with its text, and the page is shot whole.
      const maxBytes = 1024;
      await showSharePolicy(page, { max_bytes: maxBytes });
      const line = 'Minutes of the weekly meeting, kept for the whole team to read.\n';
      await typeInEditor(page, line.repeat(Math.ceil(maxBytes / line.length) + 1));
      await page.getByTestId('create-paste').click();
      await expect(page.locator('#paste-content-error')).toBeVisible();
    },
  },
  {
    name: 'home-created',
    as: 'admin',
    path: '/',
    action: async (page) => {
      await typeInEditor(page, '# Shared from the screenshot run');
      await page.locator('input[name=password]').fill('pw');
      await page.locator('input[name=maxViews]').fill('3');
      await page.getByTestId('create-paste').click();
      await expect(page.getByTestId('qr-code')).toBeVisible();
    },
  },
  {
    name: 'paste-view-markdown',
    as: 'visitor',
    path: '/paste/screens-showcase',
    prepare: seedPasteList,
    action: async (page) => {
      await expect(page.locator('.mermaid-block[data-rendered] svg')).toBeVisible();
      await expect(page.locator('.katex').first()).toBeVisible();
    },
  },
  { name: 'paste-view-text', as: 'visitor', path: '/paste/screens-plain', prepare: seedPasteList },
  {
    name: 'paste-view-files',
    as: 'visitor',
    path: '/paste/screens-files',
    prepare: seedPublicPastes,
    action: async (page) => {
      await expect(page.locator('code.hljs').first()).toBeVisible();
    },
  },
  {
    name: 'paste-edit-files',
    as: 'admin',
    path: '/paste/screens-files',
    prepare: seedPublicPastes,
    action: async (page) => {
      await page.getByTestId('edit-paste').click();
      await expect(page.getByTestId('edit-paste-dialog').getByTestId('file-tabs')).toBeVisible();
    },
  },
  { name: 'public-pastes', as: 'visitor', path: '/pastes/public', prepare: seedPublicPastes },
  {
    name: 'home-files',
    as: 'admin',
    path: '/',
    action: async (page) => {
      await page.getByTestId('add-file').click();
      await expect(page.getByTestId('file-tabs')).toBeVisible();
    },
  },
  { name: 'paste-password', as: 'visitor', path: '/paste/screens-secret', prepare: seedPasteList },
  {
    name: 'paste-wrong-password',
    as: 'visitor',
    path: '/paste/screens-secret',
    prepare: seedPasteList,
    action: async (page) => {
      const gate = page.getByTestId('password-gate');
      await gate.locator('input[name=password]').fill('not-the-password');
      await gate.locator('button[type=submit]').click();
      await expect(page.getByTestId('password-error')).toBeVisible();
    },
  },
  {
    name: 'paste-used-up',
    as: 'visitor',
    path: '/paste/used-up',
    prepare: async (api) => {
      const { slug } = await api.createPaste({ content: 'once', maxViews: 1 });
      await api.readPaste(slug);
      return `/paste/${slug}`;
    },
  },
  {
    name: 'paste-edit-dialog',
    as: 'admin',
    path: '/paste/screens-showcase',
    prepare: seedPasteList,
    action: async (page) => {
      await page.getByTestId('edit-paste').click();
      await expect(page.getByTestId('edit-paste-dialog').locator('textarea')).toBeVisible();
    },
  },
  {
    name: 'paste-qr',
    as: 'visitor',
    path: '/paste/screens-plain',
    prepare: seedPasteList,
    action: async (page) => {
      await page.getByTestId('toggle-qr').click();
      await expect(page.getByTestId('qr-code')).toBeVisible();
    },
  },
  { name: 'upload', as: 'visitor', path: '/upload' },
  {
    name: 'upload-request',
    as: 'visitor',
    path: '/',
    prepare: async (api) => `/r/${(await seedUploadRequests(api)).open}`,
  },
  {
    name: 'upload-request-password',
    as: 'visitor',
    path: '/',
    prepare: async (api) => `/r/${(await seedUploadRequests(api)).protected}`,
  },
  { name: 'paste-not-found', as: 'visitor', path: '/paste/demo-slug' },
  { name: 'file-view', as: 'visitor', path: '/file/demo-file' },
  { name: 'upload-admin', as: 'admin', path: '/upload' },
  {
    name: 'upload-list',
    as: 'admin',
    path: '/upload',
    action: async (page) => {
      const input = page.getByTestId('file-input');
      await input.setInputFiles([
        {
          name: 'quarterly-report-2026.pdf',
          mimeType: 'application/pdf',
          buffer: Buffer.from('%PDF-1.4 demo'),
        },
        { name: 'team-photo.png', mimeType: 'image/png', buffer: pngOf(4, 4) },
      ]);
      await page.getByTestId('start-upload').click();
      await expect(page.locator('[data-testid=upload-item][data-status=success]')).toHaveCount(2);
      await input.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('notes') });
      await page.locator('input[name=slug]').fill('not valid!');
      await page.getByTestId('start-upload').click();
      await expect(page.locator('input[name=slug]')).toHaveAttribute('aria-invalid', 'true');
    },
  },
  {
    name: 'upload-bundle-created',
    as: 'admin',
    path: '/upload',
    action: async (page) => {
      await page.getByTestId('file-input').setInputFiles([
        { name: 'agenda.txt', mimeType: 'text/plain', buffer: Buffer.from('agenda') },
        { name: 'team-photo.png', mimeType: 'image/png', buffer: pngOf(4, 4) },
      ]);
      await page.getByTestId('start-upload').click();
      await page.getByTestId('share-as-bundle-submit').click();
      await expect(page.getByTestId('share-as-bundle-done')).toBeVisible();
    },
  },
  {
    name: 'upload-url',
    as: 'admin',
    path: '/upload',
    action: async (page) => {
      await page.getByTestId('tab-url').click();
      await page.locator('input[name=url]').fill('ftp://example.com/archive.zip');
      await page.getByTestId('analyse-url').click();
      await expect(page.locator('input[name=url]')).toHaveAttribute('aria-invalid', 'true');
    },
  },
  {
    // The policy's limits before anything is chosen; files it refuses are marked, never sent.
    name: 'upload-share-policy',
    as: 'admin',
    path: '/upload',
    action: async (page) => {
      await showSharePolicy(page);
      await page.getByTestId('file-input').setInputFiles([
        {
          name: 'quarterly-report-2026.pdf',
          mimeType: 'application/pdf',
          buffer: Buffer.from('%PDF-1.4 demo'),
        },
        { name: 'site-backup.zip', mimeType: 'application/zip', buffer: Buffer.from('PK') },
        {
          name: 'scanned-contract.png',
          mimeType: 'image/png',
          buffer: Buffer.alloc(Math.round(SHOWN_POLICY.max_bytes * 2.4)),
        },
      ]);
      await expect(page.getByTestId('item-refused')).toHaveCount(2);
    },
  },
  {
    name: 'bundle-view',
    as: 'visitor',
    path: '/',
    prepare: (api) => seedBundle(api),
    action: async (page) => {
      await expect(page.getByTestId('bundle-item').getByRole('img')).toBeVisible();
    },
  },
  { name: 'bundle-password', as: 'visitor', path: '/', prepare: (api) => seedBundle(api, 'pw') },
  {
    name: 'file-view-image',
    as: 'visitor',
    path: '/file/screens-image',
    prepare: (api) =>
      ensureShare(api, {
        slug: 'screens-image',
        name: 'team-photo.png',
        mimeType: 'image/png',
        body: pngOf(640, 360),
        remark: 'Team offsite, day one',
      }),
    action: async (page) => {
      await expect(page.getByTestId('image-preview')).toBeVisible();
    },
  },
  {
    name: 'file-view-code',
    as: 'visitor',
    path: '/file/screens-code',
    prepare: (api) =>
      ensureShare(api, {
        slug: 'screens-code',
        name: 'greet.ts',
        mimeType: 'text/typescript',
        body: Buffer.from(
          '/** Says hello. */\nexport function greet(name: string): string {\n  return `Hello, ${name}!`;\n}\n',
        ),
        maxViews: 100000,
      }),
    action: async (page) => {
      await expect(page.getByTestId('text-preview').locator('.hljs-keyword').first()).toBeVisible();
    },
  },
  {
    name: 'file-view-markdown',
    as: 'visitor',
    path: '/file/screens-markdown',
    prepare: (api) =>
      ensureShare(api, {
        slug: 'screens-markdown',
        name: 'README.md',
        mimeType: 'text/markdown',
        body: Buffer.from('# Cubby\n\nShare **files** and text.\n\n| a | b |\n| - | - |\n| 1 | 2 |\n'),
      }),
    action: async (page) => {
      await expect(page.getByTestId('markdown-preview').locator('table')).toBeVisible();
    },
  },
  {
    name: 'file-view-office',
    as: 'visitor',
    path: '/file/screens-office',
    prepare: (api) =>
      ensureShare(api, {
        slug: 'screens-office',
        name: 'budget.xlsx',
        mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        body: Buffer.from('PK demo'),
      }),
  },
  {
    // The last allowed view of a file that is downloaded, not previewed (so the visit counts none).
    name: 'file-view-last-view',
    as: 'visitor',
    path: '/file/screens-last-view',
    prepare: (api) =>
      ensureShare(api, {
        slug: 'screens-last-view',
        name: 'handover.zip',
        mimeType: 'application/zip',
        body: Buffer.from('PK demo'),
        maxViews: 1,
      }),
  },
  {
    name: 'file-view-password',
    as: 'visitor',
    path: '/file/screens-secret',
    prepare: (api) =>
      ensureShare(api, {
        slug: 'screens-secret',
        name: 'contract.pdf',
        mimeType: 'application/pdf',
        body: Buffer.from('%PDF-1.4 demo'),
        password: 'pw',
      }),
  },
  { name: 'file-view-gone', as: 'visitor', path: '/file/used-up', prepare: usedUpShare },
  {
    name: 'folder-view',
    as: 'visitor',
    path: '/folder/screens-folder',
    prepare: (api) => seedFolderShare(api, 'screens-folder'),
    action: (page) => expect(page.getByTestId('folder-item').first()).toBeVisible(),
  },
  {
    name: 'folder-view-preview',
    as: 'visitor',
    path: '/folder/screens-folder',
    prepare: (api) => seedFolderShare(api, 'screens-folder'),
    action: async (page) => {
      await page.locator('[data-testid=folder-item][data-name="team-photo.png"] button').click();
      await expect(page.getByTestId('image-preview')).toBeVisible();
    },
  },
  {
    name: 'folder-view-password',
    as: 'visitor',
    path: '/folder/screens-folder-locked',
    prepare: (api) => seedFolderShare(api, 'screens-folder-locked', 'pw'),
  },
  { name: 'folder-view-not-found', as: 'visitor', path: '/folder/no-such-folder' },
  { name: 'mount-explorer', as: 'visitor', path: '/mount-explorer/docs/reports?preview=summary.pdf' },
  {
    name: 'explorer-root',
    as: 'admin',
    path: '/mount-explorer',
    prepare: seedExplorer,
    action: explorerList,
  },
  { name: 'explorer-folder', as: 'admin', path: EXPLORER_DOCS, prepare: seedExplorer, action: explorerList },
  {
    name: 'explorer-selection-menu',
    as: 'admin',
    path: EXPLORER_DOCS,
    prepare: seedExplorer,
    action: async (page) => {
      await selectTwoEntries(page);
      await page.getByTestId('entry-row').filter({ hasText: 'greet.ts' }).click({ button: 'right' });
      await expect(page.getByTestId('explorer-menu')).toBeVisible();
    },
  },
  {
    name: 'explorer-rename',
    as: 'admin',
    path: EXPLORER_DOCS,
    prepare: seedExplorer,
    action: async (page) => {
      await selectEntry(page, 'greet.ts');
      await page.keyboard.press('F2');
      await expect(page.getByTestId('rename-input')).toBeFocused();
    },
  },
  {
    name: 'explorer-preview-markdown',
    as: 'admin',
    path: `${EXPLORER_DOCS}?preview=meeting-notes.md`,
    prepare: seedExplorer,
    action: async (page) => {
      await expect(page.getByTestId('preview-dialog').locator('h1')).toBeVisible();
    },
  },
  {
    name: 'explorer-preview-image',
    as: 'admin',
    path: `${EXPLORER_DOCS}?preview=team-photo.png`,
    prepare: seedExplorer,
    action: async (page) => {
      await expect(page.getByTestId('image-preview')).toBeVisible();
    },
  },
  {
    name: 'explorer-preview-other',
    as: 'admin',
    path: `${EXPLORER_DOCS}?preview=archive.zip`,
    prepare: seedExplorer,
    action: async (page) => {
      await expect(page.getByTestId('preview-download-card')).toBeVisible();
    },
  },
  {
    name: 'explorer-editor',
    as: 'admin',
    path: `${EXPLORER_DOCS}?preview=greet.ts`,
    prepare: seedExplorer,
    action: async (page) => {
      await page.getByTestId('preview-edit').click();
      await expect(page.getByTestId('editor-dialog').locator('.cm-content')).toBeVisible();
    },
  },
  {
    name: 'explorer-new-folder-errors',
    as: 'admin',
    path: EXPLORER_DOCS,
    prepare: seedExplorer,
    action: async (page) => {
      await page.getByTestId('explorer-new-folder').click();
      await page.getByTestId('new-folder-submit').click();
      await expect(page.getByTestId('new-folder-dialog').locator('[aria-invalid=true]')).toBeVisible();
    },
  },
  {
    name: 'explorer-link-dialog',
    as: 'admin',
    path: EXPLORER_DOCS,
    prepare: seedExplorer,
    action: async (page) => {
      await selectEntry(page, 'quarterly-report-2026.pdf');
      await page.getByTestId('selection-link').click();
      await page.getByTestId('link-create').click();
      await expect(page.getByTestId('link-result').getByRole('img')).toBeVisible();
    },
  },
  {
    name: 'explorer-bundle-dialog',
    as: 'admin',
    path: EXPLORER_DOCS,
    prepare: seedExplorer,
    action: async (page) => {
      await selectTwoEntries(page);
      await page.getByTestId('selection-bundle').click();
      await expect(page.getByTestId('bundle-dialog')).toBeVisible();
    },
  },
  {
    name: 'explorer-copy-dialog',
    as: 'admin',
    path: EXPLORER_DOCS,
    prepare: seedExplorer,
    action: async (page) => {
      await selectEntry(page, 'greet.ts');
      await page.getByTestId('selection-copy').click();
      await expect(page.getByTestId('picker-folder').first()).toBeVisible();
    },
  },
  {
    name: 'explorer-tasks',
    as: 'admin',
    path: EXPLORER_DOCS,
    prepare: seedTasks,
    action: async (page) => {
      await page.getByTestId('explorer-tasks').click();
      await expect(page.getByTestId('tasks-dialog').locator('[role=status] svg.animate-spin')).toHaveCount(0);
      await expect(page.getByTestId('task-retry').first()).toBeVisible();
    },
  },
  {
    name: 'explorer-delete-dialog',
    as: 'admin',
    path: EXPLORER_DOCS,
    prepare: seedExplorer,
    action: async (page) => {
      await selectEntry(page, 'archive.zip');
      await page.keyboard.press('Delete');
      await expect(page.getByTestId('delete-dialog')).toBeVisible();
    },
  },
  {
    name: 'explorer-share-dialog',
    as: 'admin',
    path: EXPLORER_DOCS,
    prepare: seedExplorer,
    action: async (page) => {
      await selectEntry(page, 'meeting-notes.md');
      await page.getByTestId('selection-share').click();
      await expect(page.getByTestId('share-dialog')).toBeVisible();
    },
  },
  {
    name: 'explorer-share-errors',
    as: 'admin',
    path: EXPLORER_DOCS,
    prepare: seedExplorer,
    action: async (page) => {
      await selectEntry(page, 'meeting-notes.md');
      await page.getByTestId('selection-share').click();
      const dialog = page.getByTestId('share-dialog');
      await dialog.locator('input[name=slug]').fill('not a slug!');
      await dialog.locator('input[name=maxViews]').fill('-2');
      await dialog.getByTestId('share-create').click();
      await expect(dialog.locator('[aria-invalid=true]')).toHaveCount(2);
    },
  },
  {
    name: 'explorer-uploads',
    as: 'admin',
    path: `${EXPLORER_DOCS}/2026%20planning`,
    prepare: seedExplorer,
    action: async (page) => {
      await explorerList(page);
      await page.getByTestId('explorer-upload-input').setInputFiles([
        { name: 'budget-2026.csv', mimeType: 'text/csv', buffer: Buffer.from('item,amount\nrent,1200\n') },
        { name: 'minutes.md', mimeType: 'text/markdown', buffer: Buffer.from('# Minutes\n') },
      ]);
      // An earlier walk left them there: replaced.
      const conflict = page.getByTestId('fs-upload-conflict');
      const done = page.getByTestId('fs-upload').and(page.locator('[data-status=done]'));
      await expect(conflict.or(done.first())).toBeVisible();
      if (await conflict.isVisible()) {
        await conflict.getByTestId('conflict-for-all').check();
        await conflict.getByTestId('conflict-replace').click();
      }
      await expect(done).toHaveCount(2);
      // And one cancelled on its way: its request is held until then, and then failed here, so it
      // never reaches the server (a held request let go by unrouting may still be sent, and the
      // next walk would find draft.md there).
      const held = new Promise<Route>((resolve) => {
        void page.route('**/api/admin/fs/upload', (route) => resolve(route));
      });
      await page
        .getByTestId('explorer-upload-input')
        .setInputFiles({ name: 'draft.md', mimeType: 'text/markdown', buffer: Buffer.from('# Draft\n') });
      const request = await held;
      const draft = page.getByTestId('fs-upload').and(page.locator('[data-name="draft.md"]'));
      await draft.getByTestId('fs-upload-cancel').click();
      await expect(draft).toHaveAttribute('data-status', 'cancelled');
      await request.abort().catch(() => undefined);
      await page.unrouteAll({ behavior: 'ignoreErrors' });
    },
  },
  {
    name: 'explorer-upload-conflict',
    as: 'admin',
    path: EXPLORER_DOCS,
    prepare: seedExplorer,
    action: async (page) => {
      await explorerList(page);
      await page.getByTestId('explorer-upload-input').setInputFiles([
        { name: 'greet.ts', mimeType: 'text/plain', buffer: Buffer.from('export {};\n') },
        { name: 'meeting-notes.md', mimeType: 'text/markdown', buffer: Buffer.from('# Notes\n') },
      ]);
      await expect(page.getByTestId('fs-upload-conflict').getByTestId('conflict-for-all')).toBeVisible();
    },
  },
  {
    name: 'explorer-empty-folder',
    as: 'admin',
    path: `${EXPLORER_DOCS}/empty%20folder`,
    prepare: seedExplorer,
    action: async (page) => {
      await expect(page.getByTestId('explorer-empty')).toBeVisible();
    },
  },
  {
    name: 'explorer-grid',
    as: 'admin',
    path: EXPLORER_DOCS,
    prepare: seedExplorer,
    action: async (page) => {
      await page.getByTestId('view-grid').click();
      await expect(page.getByTestId('entry-thumbnail').first()).toBeVisible();
    },
  },
  { name: 'login-admin', as: 'visitor', path: '/admin' },
  {
    name: 'login-admin-errors',
    as: 'visitor',
    path: '/admin',
    action: async (page) => {
      await page.locator('form button[type=submit]').click();
      await expect(page.locator('[aria-invalid=true]')).toHaveCount(2);
    },
  },
  {
    // A refused key (a wrong admin password would count against the login limits of other tests).
    name: 'login-apikey-refused',
    as: 'visitor',
    path: '/admin',
    action: async (page) => {
      await page.getByRole('tab').nth(1).click();
      await page.locator('input[name=apiKey]').fill('cubby-not-a-real-key-0000000000');
      await page.locator('form button[type=submit]').click();
      await expect(page.getByTestId('login-error')).toBeVisible();
    },
  },
  {
    name: 'login-apikey-errors',
    as: 'visitor',
    path: '/admin',
    action: async (page) => {
      await page.getByRole('tab').nth(1).click();
      await page.locator('form button[type=submit]').click();
      await expect(page.locator('[aria-invalid=true]')).toHaveCount(1);
    },
  },
  {
    name: 'language-menu-open',
    as: 'visitor',
    path: '/',
    action: async (page) => {
      await page.getByTestId('language-switcher').click();
      await expect(page.getByRole('menu')).toBeVisible();
    },
  },
  {
    // The error page of a screen whose code cannot be loaded.
    name: 'route-error',
    as: 'visitor',
    path: '/',
    action: async (page) => {
      const chunk = '**/assets/upload-page-*.js';
      await page.route(chunk, (route) => route.abort());
      await page.locator('header nav a[href="/upload"]').first().click();
      await expect(page).toHaveURL(/\/upload$/);
      await expect(page.locator('main a[href="/"]')).toBeVisible();
      await page.unroute(chunk);
    },
  },
  {
    // The error page of a screen that fails in the browser (its code runs and throws).
    name: 'route-error-local',
    as: 'visitor',
    path: '/',
    action: async (page) => {
      const chunk = '**/assets/upload-page-*.js';
      await page.route(chunk, (route) =>
        route.fulfill({ contentType: 'text/javascript', body: 'throw new Error("screen failed");' }),
      );
      await page.locator('header nav a[href="/upload"]').first().click();
      await expect(page.getByTestId('route-error-local')).toBeVisible();
      await page.unroute(chunk);
    },
  },
  {
    name: 'mobile-menu-open',
    as: 'visitor',
    path: '/upload',
    action: async (page) => {
      const toggle = page.getByTestId('mobile-menu-toggle');
      if (await toggle.isVisible()) {
        await toggle.click();
        await expect(page.getByTestId('mobile-menu')).toBeVisible();
      }
    },
  },
  { name: 'admin-dashboard', as: 'admin', path: '/admin/dashboard' },
  { name: 'admin-text-management', as: 'admin', path: '/admin/text-management', prepare: seedPasteList },
  {
    name: 'text-management-no-match',
    as: 'admin',
    path: '/admin/text-management',
    prepare: seedPasteList,
    action: async (page) => {
      await page.getByTestId('paste-search').fill('no-such-share-anywhere');
      await expect(page.getByTestId('pastes-empty')).toBeVisible();
    },
  },
  {
    // The list's load error with its retry button: the API does not answer (network error).
    name: 'text-management-network-error',
    as: 'admin',
    path: '/admin/text-management',
    prepare: seedPasteList,
    action: async (page) => {
      const api = /\/api\/admin\/pastes\?/;
      await page.route(api, (route) => route.abort());
      await page.getByTestId('paste-search').fill('network-error');
      await expect(page.locator('main [role=alert] button')).toBeVisible({ timeout: 20_000 });
      await page.unroute(api);
    },
  },
  {
    name: 'text-preview-dialog',
    as: 'admin',
    path: '/admin/text-management',
    prepare: seedPasteList,
    action: (page) => openPasteRowDialog(page, 'preview-paste', 'preview-paste-dialog'),
  },
  {
    name: 'text-edit-dialog',
    as: 'admin',
    path: '/admin/text-management',
    prepare: seedPasteList,
    action: (page) => openPasteRowDialog(page, 'edit-paste', 'edit-paste-dialog'),
  },
  {
    name: 'text-delete-dialog',
    as: 'admin',
    path: '/admin/text-management',
    prepare: seedPasteList,
    action: async (page) => {
      await page.getByTestId('paste-row').first().getByRole('checkbox').check();
      await page.getByTestId('batch-delete').click();
      await expect(page.getByTestId('confirm-dialog')).toBeVisible();
    },
  },
  { name: 'admin-file-management', as: 'admin', path: '/admin/file-management', prepare: seedFileList },
  {
    name: 'file-details-dialog',
    as: 'admin',
    path: '/admin/file-management',
    prepare: seedFileList,
    action: (page) => openFileRowDialog(page, 'file-details', 'file-details-dialog'),
  },
  {
    name: 'file-edit-dialog',
    as: 'admin',
    path: '/admin/file-management',
    prepare: seedFileList,
    action: (page) => openFileRowDialog(page, 'edit-file', 'edit-file-dialog'),
  },
  {
    name: 'file-batch-delete-dialog',
    as: 'admin',
    path: '/admin/file-management',
    prepare: seedFileList,
    action: async (page) => {
      await page.getByTestId('file-row').first().getByRole('checkbox').check();
      await page.getByTestId('batch-delete-files').click();
      await expect(page.getByTestId('confirm-dialog')).toBeVisible();
    },
  },
  {
    // The shares uploads into mounts published (the explorer's seed files), listed alone.
    name: 'file-management-mount-uploads',
    as: 'admin',
    path: '/admin/file-management',
    prepare: seedExplorer,
    action: async (page) => {
      await page.getByTestId('file-source-filter').selectOption('mount_upload');
      await expect(page.getByTestId('file-mount-upload').first()).toBeVisible();
    },
  },
  {
    name: 'admin-storage-config',
    as: 'admin',
    path: '/admin/storage-config',
    prepare: seedRemoteStorages,
  },
  {
    name: 'storage-config-create-dialog',
    as: 'admin',
    path: '/admin/storage-config',
    action: (page) => openStorageDialog(page, 'Cloudflare R2'),
  },
  // The form of each storage type on another server: what its field list renders (a private key
  // over several lines for SFTP, the encryption choice for FTP).
  ...(['SFTP', 'FTP', 'WebDAV'] as const).map((provider): Screen => ({
    name: `storage-config-create-${provider.toLowerCase()}`,
    as: 'admin',
    path: '/admin/storage-config',
    action: (page) => openStorageDialog(page, provider),
  })),
  {
    name: 'storage-config-errors',
    as: 'admin',
    path: '/admin/storage-config',
    action: async (page) => {
      await page.getByTestId('create-storage-config').click();
      const dialog = page.getByTestId('storage-config-dialog');
      await dialog.locator('input[name=signatureExpiresIn]').fill('5');
      await dialog.getByTestId('save-storage-config').click();
      await expect(dialog.locator('[aria-invalid=true]')).toHaveCount(6);
    },
  },
  {
    name: 'storage-config-edit-dialog',
    as: 'admin',
    path: '/admin/storage-config',
    action: async (page) => {
      await page.getByTestId('edit-storage-config').first().click();
      await expect(page.getByTestId('storage-config-dialog')).toBeVisible();
    },
  },
  // Credentials kept when left empty (only the password it has), the type fixed.
  remoteStorageScreen('storage-config-edit-sftp', 'edit-storage-config', (page) =>
    page.getByTestId('storage-config-dialog').locator('input[name=host]'),
  ),
  // A server that cannot be reached: the failed step says why.
  remoteStorageScreen('storage-test-report-unreachable', 'test-storage-config', (page) =>
    page.getByTestId('storage-test-summary'),
  ),
  {
    name: 'storage-test-report',
    as: 'admin',
    path: '/admin/storage-config',
    action: async (page) => {
      await page.getByTestId('test-storage-config').first().click();
      await expect(page.getByTestId('storage-test-summary')).toBeVisible({ timeout: 30_000 });
    },
  },
  { name: 'admin-mount-management', as: 'admin', path: '/admin/mount-management', prepare: seedMounts },
  { name: 'admin-folder-rules', as: 'admin', path: '/admin/folder-rules', prepare: seedFolderRules },
  {
    name: 'folder-rule-dialog',
    as: 'admin',
    path: '/admin/folder-rules',
    prepare: seedFolderRules,
    action: async (page) => {
      await page.getByTestId('edit-folder-rule').first().click();
      await expect(page.getByTestId('folder-rule-dialog')).toBeVisible();
    },
  },
  {
    name: 'explorer-readme',
    as: 'admin',
    path: `${EXPLORER_DOCS}/2026 planning`,
    prepare: seedFolderRules,
    action: async (page) => {
      await expect(page.getByTestId('folder-readme-footer')).toBeVisible();
    },
  },
  {
    name: 'mount-create-errors',
    as: 'admin',
    path: '/admin/mount-management',
    prepare: seedMounts,
    action: async (page) => {
      await page.getByTestId('create-mount').click();
      const dialog = page.getByTestId('mount-dialog');
      await dialog.locator('input[name=mountPath]').fill('/etc/photos');
      await dialog.locator('input[name=cacheTtl]').fill('90000');
      await dialog.getByTestId('save-mount').click();
      await expect(dialog.locator('[aria-invalid=true]')).toHaveCount(3);
    },
  },
  {
    name: 'mount-management-no-match',
    as: 'admin',
    path: '/admin/mount-management',
    prepare: seedMounts,
    action: async (page) => {
      await page.getByTestId('mount-search').fill('/no/such/mount');
      await expect(page.getByTestId('mounts-empty')).toBeVisible();
    },
  },
  {
    name: 'mount-edit-dialog',
    as: 'admin',
    path: '/admin/mount-management',
    prepare: seedMounts,
    action: (page) => openMountRowDialog(page, 'edit-mount', 'mount-dialog'),
  },
  {
    // Downloads from a custom host without its address: the error at the address field.
    name: 'mount-custom-host-errors',
    as: 'admin',
    path: '/admin/mount-management',
    prepare: seedMounts,
    action: async (page) => {
      await openMountRowDialog(page, 'edit-mount', 'mount-dialog');
      const dialog = page.getByTestId('mount-dialog');
      await dialog.locator('select[name=linkPolicy]').selectOption('custom_host');
      await dialog.getByTestId('save-mount').click();
      await expect(dialog.locator('input[name=customHost]')).toHaveAttribute('aria-invalid', 'true');
    },
  },
  {
    name: 'mount-delete-dialog',
    as: 'admin',
    path: '/admin/mount-management',
    prepare: seedMounts,
    action: (page) => openMountRowDialog(page, 'delete-mount', 'confirm-dialog'),
  },
  { name: 'admin-key-management', as: 'admin', path: '/admin/key-management' },
  {
    name: 'admin-upload-requests',
    as: 'admin',
    path: '/admin/upload-requests',
    prepare: async (api) => {
      await seedUploadRequests(api);
    },
    action: async (page) => {
      // The files of a request that received one.
      const row = page.getByTestId('upload-request-row').filter({ hasText: 'image/*' }).first();
      await row.getByTestId('upload-request-show-files').click();
      await expect(row.getByTestId('upload-request-file')).not.toHaveCount(0);
    },
  },
  {
    name: 'admin-shared-links',
    as: 'admin',
    path: '/admin/shared-links',
    prepare: seedSharedLinks,
    action: (page) => expect(page.getByTestId('folder-link-row').first()).toBeVisible(),
  },
  {
    name: 'shared-links-edit-dialog',
    as: 'admin',
    path: '/admin/shared-links',
    prepare: seedSharedLinks,
    action: async (page) => {
      // The seeded bundle with its two items (not the empty one an upload request made, which may be newer).
      const seeded = page.getByTestId('bundle-row').filter({ hasText: 'Offsite 2026' });
      await seeded.getByTestId('edit-link').first().click();
      await expect(page.getByTestId('link-dialog').getByTestId('bundle-item')).toHaveCount(2);
    },
  },
  {
    name: 'upload-request-dialog',
    as: 'admin',
    path: '/admin/upload-requests',
    prepare: async (api) => {
      await seedUploadRequests(api);
    },
    action: async (page) => {
      await page.getByTestId('create-upload-request').click();
      await expect(page.getByTestId('upload-request-dialog')).toBeVisible();
      // The other choice: into a new bundle (no folder; its hint says where the files go).
      await page.getByTestId('upload-request-into').selectOption('bundle');
    },
  },
  { name: 'admin-audit-log', as: 'admin', path: '/admin/audit-log' },
  {
    name: 'audit-log-filtered',
    as: 'admin',
    path: '/admin/audit-log',
    action: async (page) => {
      const filters = page.getByTestId('audit-filters');
      await filters.locator('select[name=outcome]').selectOption('failure');
      await filters.locator('input[name=from]').fill('2026-03-02');
      await filters.locator('input[name=to]').fill('2026-03-01');
      await expect(filters.locator('[aria-invalid=true]')).toHaveCount(1);
    },
  },
  { name: 'admin-people', as: 'admin', path: '/admin/people', prepare: seedPeople },
  {
    name: 'person-create-errors',
    as: 'admin',
    path: '/admin/people',
    action: async (page) => {
      await page.getByTestId('add-person').click();
      const dialog = page.getByTestId('person-dialog');
      await dialog.locator('input[name=username]').fill('not/valid');
      await dialog.locator('input[name=email]').fill('nope');
      await dialog.getByTestId('add-path').click();
      await dialog.getByTestId('person-submit').click();
      await expect(dialog.locator('[aria-invalid=true]')).toHaveCount(4);
    },
  },
  {
    name: 'person-edit-dialog',
    as: 'admin',
    path: '/admin/people',
    prepare: seedPeople,
    action: async (page) => {
      await page
        .getByTestId('person-row')
        .filter({ hasText: 'screens-ann' })
        .getByTestId('edit-person')
        .click();
      await expect(page.getByTestId('person-dialog').getByTestId('path-row')).toHaveCount(2);
    },
  },
  {
    name: 'person-delete-dialog',
    as: 'admin',
    path: '/admin/people',
    prepare: seedPeople,
    action: async (page) => {
      await page
        .getByTestId('person-row')
        .filter({ hasText: 'screens-ann' })
        .getByTestId('delete-person')
        .click();
      const dialog = page.getByTestId('delete-person-dialog');
      await dialog.locator('select[name=shares]').selectOption('transfer');
      await expect(dialog.locator('select[name=transferTo]')).toBeVisible();
    },
  },
  {
    name: 'invite-created',
    as: 'admin',
    path: '/admin/people',
    action: async (page) => {
      await page.getByTestId('create-invite').click();
      await page.getByTestId('invite-submit').click();
      await expect(page.getByTestId('invite-url')).toBeVisible();
    },
  },
  {
    name: 'invite-page',
    as: 'visitor',
    path: '/invite/x',
    prepare: (api) => api.createInvite({ email: 'ann@example.com' }),
  },
  {
    name: 'invite-page-errors',
    as: 'visitor',
    path: '/invite/x',
    prepare: (api) => api.createInvite(),
    action: async (page) => {
      await page.locator('input[name=password]').fill('short');
      await page.locator('form button[type=submit]').click();
      await expect(page.locator('[aria-invalid=true]')).toHaveCount(3);
    },
  },
  { name: 'invite-page-invalid', as: 'visitor', path: '/invite/no-such-invite' },
  { name: 'member-admin', as: 'member', path: '/admin' },
  { name: 'member-explorer', as: 'member', path: '/mount-explorer' },
  {
    name: 'member-account',
    as: 'member',
    path: '/admin/account',
    action: async (page) => {
      await page.locator('input[name=appPasswordName]').fill('Laptop rclone');
      await page.locator('input[name=appPasswordName]').press('Enter');
      await expect(page.getByTestId('app-password-value')).toBeVisible();
    },
  },
  {
    name: 'login-two-factor',
    as: 'visitor',
    path: '/admin',
    prepare: seedTwoFactorMember,
    action: async (page) => {
      await page.locator('input[name=username]').fill('screens-tfa');
      await page.locator('input[name=password]').fill(MEMBER_PASSWORD);
      await page.locator('form button[type=submit]').click();
      await expect(page.locator('input[name=otp]')).toBeFocused();
    },
  },
  { name: 'account-two-factor-setup', as: 'member', path: '/admin/account', action: startTwoFactorSetup },
  {
    // Turns it on for this walk's member: the screens after it show it on.
    name: 'account-two-factor-codes',
    as: 'member',
    path: '/admin/account',
    action: async (page) => {
      await startTwoFactorSetup(page);
      const secret = (await page.getByTestId('two-factor-secret').textContent()) ?? '';
      await page.locator('input[name=otp]').fill(codeAt(secret.trim(), await serverNow(page.request)));
      await page.getByTestId('two-factor-submit').click();
      await expect(page.getByTestId('recovery-code')).toHaveCount(10);
    },
  },
  {
    // What a member sees while the admin requires two factors they have not set up, with the
    // server's answers saying so (requiring it here would lock every other screen of the walk out).
    name: 'two-factor-enrol',
    as: 'member',
    path: '/admin',
    action: async (page) => {
      await page.route(
        '**/api/auth/me',
        async (route) => {
          const response = await route.fetch();
          const body = (await response.json()) as { data: Record<string, unknown> };
          await route.fulfill({ response, json: { ...body, data: { ...body.data, must_enrol: true } } });
        },
        { times: 1 },
      );
      const status = { totp: false, recovery_codes_left: 0, required: true };
      await page.route(
        '**/api/auth/two-factor',
        (route) => route.fulfill({ json: { code: 200, message: 'ok', success: true, data: status } }),
        { times: 1 },
      );
      await page.reload();
      await expect(page.getByTestId('two-factor-status')).toBeVisible();
      // Only this page load is marked: the next screen opens as usual.
      await page.evaluate(() => localStorage.removeItem('admin_must_enrol'));
    },
  },
  {
    // At 127.0.0.1 (an address is no RP ID) the browser refuses the ceremony: the message says why.
    name: 'member-passkey-refused',
    as: 'member',
    path: '/admin/account',
    action: async (page) => {
      await page.locator('input[name=passkeyName]').fill('Work laptop');
      await page.locator('input[name=passkeyName]').press('Enter');
      await expect(page.getByTestId('passkey-add-error')).toBeVisible();
    },
  },
  { name: 'admin-settings', as: 'admin', path: '/admin/settings' },
  { name: 'admin-sso', as: 'admin', path: '/admin/sso', prepare: seedSsoProvider },
  {
    name: 'sso-create-errors',
    as: 'admin',
    path: '/admin/sso',
    action: async (page) => {
      await page.getByTestId('create-sso-provider').click();
      const dialog = page.getByTestId('sso-dialog');
      await dialog.getByTestId('save-sso-provider').click();
      await expect(dialog.locator('[aria-invalid=true]')).toHaveCount(3);
    },
  },
  { name: 'login-sso', as: 'visitor', path: '/admin', prepare: seedSsoProvider },
  { name: 'admin-notifications', as: 'admin', path: '/admin/notifications', prepare: seedWebhook },
  { name: 'admin-scheduled-sync', as: 'admin', path: '/admin/scheduled-sync', prepare: seedSyncJob },
  {
    name: 'scheduled-sync-dry-run',
    as: 'admin',
    path: '/admin/scheduled-sync',
    prepare: seedSyncJob,
    action: async (page) => {
      await page
        .getByTestId('sync-job')
        .filter({ hasText: 'Nightly backup' })
        .getByTestId('dry-run-sync-job')
        .click();
      await expect(page.getByTestId('sync-dry-run-dialog').getByTestId('sync-changes-created')).toBeVisible();
    },
  },
  {
    name: 'scheduled-sync-job-errors',
    as: 'admin',
    path: '/admin/scheduled-sync',
    action: async (page) => {
      await page.getByTestId('create-sync-job').click();
      const dialog = page.getByTestId('sync-job-dialog');
      await dialog.locator('input[name=intervalSec]').fill('30');
      await dialog.getByTestId('save-sync-job').click();
      await expect(dialog.locator('[aria-invalid=true]')).toHaveCount(4);
    },
  },
  {
    name: 'notifications-webhook-errors',
    as: 'admin',
    path: '/admin/notifications',
    action: async (page) => {
      await page.getByTestId('create-webhook').click();
      const dialog = page.getByTestId('webhook-dialog');
      await dialog.locator('input[name=url]').fill('ftp://nowhere');
      await dialog.getByTestId('save-webhook').click();
      await expect(dialog.locator('[aria-invalid=true]')).toHaveCount(2);
    },
  },
  {
    name: 'notifications-deliveries',
    as: 'admin',
    path: '/admin/notifications',
    prepare: seedWebhook,
    action: async (page) => {
      await page
        .getByTestId('webhook')
        .filter({ hasText: 'Team chat' })
        .getByTestId('webhook-deliveries')
        .click();
      await expect(page.getByTestId('deliveries-dialog').getByTestId('deliveries-empty')).toBeVisible();
    },
  },
  {
    name: 'notifications-smtp-errors',
    as: 'admin',
    path: '/admin/notifications',
    action: async (page) => {
      const form = page.getByTestId('smtp-form');
      await form.locator('input[name=smtp_host]').fill('smtp.example.com');
      await form.locator('input[name=smtp_port]').fill('70000');
      await form.locator('input[name=smtp_from]').fill('');
      await form.getByTestId('save-smtp').click();
      await expect(form.locator('[aria-invalid=true]')).toHaveCount(2);
    },
  },
  {
    // The LDAP section's connection test, stopped at its first step (nothing listens on port 1).
    name: 'sso-ldap-test',
    as: 'admin',
    path: '/admin/sso',
    action: async (page) => {
      const form = page.getByTestId('ldap-form');
      await form.locator('input[name=url]').fill('ldap://127.0.0.1:1');
      await form.locator('input[name=bind_dn]').fill('');
      await form.locator('input[name=bind_password]').fill('');
      await form.locator('input[name=user_base]').fill('ou=people,dc=example,dc=com');
      await form.locator('input[name=test_username]').fill('alice');
      await form.getByTestId('test-ldap').click();
      await expect(form.getByTestId('ldap-step-reach')).toBeVisible();
    },
  },
  {
    name: 'sso-ldap-errors',
    as: 'admin',
    path: '/admin/sso',
    action: async (page) => {
      const form = page.getByTestId('ldap-form');
      await form.locator('input[name=url]').fill('');
      await form.locator('input[name=user_base]').fill('');
      await form.locator('input[name=user_filter]').fill('(uid=alice)');
      await form.getByTestId('save-ldap').click();
      await expect(form.locator('[aria-invalid=true]')).toHaveCount(3);
    },
  },
  { name: 'sso-landing-error', as: 'visitor', path: '/login/oidc#error=signup_not_allowed' },
  {
    name: 'settings-uploads-errors',
    as: 'admin',
    path: '/admin/settings',
    action: async (page) => {
      const form = page.getByTestId('uploads-settings');
      await form.locator('input[name=maxUploadSize]').fill('0');
      await form.locator('textarea[name=urlAllowlist]').fill('files.lan\nhttp://not-a-host/');
      await form.getByTestId('save-uploads-settings').click();
      await expect(form.locator('[aria-invalid=true]')).toHaveCount(2);
    },
  },
  {
    // Refused on the page: nothing is saved, so the policy (which binds every upload) stays unset.
    name: 'settings-share-policy-errors',
    as: 'admin',
    path: '/admin/settings',
    action: async (page) => {
      const form = page.getByTestId('share-policy-settings');
      await form.locator('input[name=share_max_views]').fill('0');
      await form.locator('input[name=share_allowed_types]').fill('pdf, not a type!');
      await form.getByTestId('save-share-policy').click();
      await expect(form.locator('[aria-invalid=true]')).toHaveCount(2);
    },
  },
  { name: 'admin-not-found', as: 'admin', path: '/admin/no-such-module' },
  {
    name: 'settings-errors',
    as: 'admin',
    path: '/admin/settings',
    action: async (page) => {
      await page.locator('form button[type=submit]').first().click();
      await expect(page.locator('[aria-invalid=true]').first()).toBeVisible();
    },
  },
  {
    name: 'key-create-dialog',
    as: 'admin',
    path: '/admin/key-management',
    action: async (page) => {
      await openCreateDialog(page);
      const dialog = page.getByTestId('create-key-dialog');
      await dialog.locator('select[name=expiry]').selectOption('custom');
      await dialog.locator('input[type=checkbox]').last().check();
      await expect(dialog.locator('input[name=customKey]')).toBeVisible();
    },
  },
  {
    name: 'key-create-errors',
    as: 'admin',
    path: '/admin/key-management',
    action: async (page) => {
      await openCreateDialog(page);
      const dialog = page.getByTestId('create-key-dialog');
      await dialog.locator('select[name=expiry]').selectOption('custom');
      await dialog.locator('input[name=customDays]').fill('0');
      await dialog.locator('input[type=checkbox]').last().check();
      await dialog.locator('input[name=customKey]').fill('short key!');
      await dialog.locator('button[type=submit]').click();
      await expect(dialog.locator('[aria-invalid=true]')).toHaveCount(3);
    },
  },
  {
    name: 'key-created-once',
    as: 'admin',
    path: '/admin/key-management',
    action: async (page) => {
      await openCreateDialog(page);
      const dialog = page.getByTestId('create-key-dialog');
      await dialog.locator('input[name=name]').fill(uniqueName('shot'));
      await dialog.locator('button[type=submit]').click();
      await expect(dialog.getByTestId('created-key')).toBeVisible();
    },
  },
  {
    // The key and its notice are in key-created-once; on a phone this shows the recipes' end.
    name: 'key-created-recipes',
    as: 'admin',
    path: '/admin/key-management',
    action: async (page) => {
      await createKeyWithRecipes(page);
      await page.getByTestId('download-sxcu-text').scrollIntoViewIfNeeded();
    },
  },
  {
    // Lists the mounts' folders once the fs routes are there (an error note until then).
    name: 'key-base-path-picker',
    as: 'admin',
    path: '/admin/key-management',
    prepare: seedMounts,
    action: async (page) => {
      await openCreateDialog(page);
      await page.getByTestId('browse-base-path').click();
      const picker = page.getByTestId('base-path-picker');
      await expect(picker).toBeVisible();
      await expect(picker.locator('[role=status] svg.animate-spin')).toHaveCount(0);
    },
  },
  {
    name: 'key-edit-dialog',
    as: 'admin',
    path: '/admin/key-management',
    action: async (page) => {
      await page.getByTestId('edit-key').first().click();
      await expect(page.getByTestId('edit-key-dialog')).toBeVisible();
    },
  },
  {
    name: 'key-delete-dialog',
    as: 'admin',
    path: '/admin/key-management',
    action: async (page) => {
      await page.getByTestId('delete-key').first().click();
      await expect(page.getByTestId('delete-key-dialog')).toBeVisible();
    },
  },
  // The switcher's button, in the footer.
  { name: 'env-switcher-button', as: 'admin', path: '/?showEnvSwitcher' },
  {
    name: 'env-switcher',
    as: 'admin',
    path: '/?showEnvSwitcher',
    action: async (page) => {
      await page.getByTestId('env-switcher-button').click();
      await expect(page.getByRole('dialog')).toBeVisible();
    },
  },
  { name: 'key-user-text-management', as: 'textKey', path: '/admin' },
  { name: 'key-user-mount-overview', as: 'mountKey', path: '/admin' },
  { name: 'key-user-explorer', as: 'mountKey', path: '/mount-explorer/team/reports' },
  {
    name: 'explorer-folder-password',
    as: 'mountKey',
    path: '/mount-explorer/team/locked',
    prepare: seedFolderRules,
    action: async (page) => {
      await expect(page.getByTestId('file-password-gate')).toBeVisible();
    },
  },
];

export interface ScreenSession {
  pageFor(principal: Principal): Promise<Page>;
  close(): Promise<void>;
}

/**
 * One browser context per principal, each seeded with its credentials and the given storage
 * (language, theme), created lazily.
 */
export function screenSession(
  browser: Browser,
  api: Api,
  options: { width: number; storage: Record<string, string>; colorScheme?: 'light' | 'dark' },
): ScreenSession {
  const contexts = new Map<Principal, Promise<{ context: BrowserContext; page: Page }>>();

  const credentials = async (principal: Principal): Promise<Record<string, string>> => {
    if (principal === 'visitor') return {};
    if (principal === 'admin') return { admin_token: await api.login() };
    if (principal === 'member') {
      const { username } = await api.createMember();
      const token = await api.login(username, MEMBER_PASSWORD);
      return { admin_token: token, admin_role: 'member', admin_username: username };
    }
    const permissions = { text: principal === 'textKey', file: false, mount: principal === 'mountKey' };
    const basicPath = principal === 'mountKey' ? '/team' : '/';
    const key = await api.createKey({ name: uniqueName(principal), ...permissions, basicPath });
    return {
      api_key: key.key,
      api_key_permissions: JSON.stringify(permissions),
      api_key_info: JSON.stringify({ id: key.id, name: key.name, basic_path: basicPath }),
    };
  };

  const open = async (principal: Principal) => {
    const context = await browser.newContext({
      viewport: { width: options.width, height: options.width < 768 ? 800 : 900 },
      colorScheme: options.colorScheme ?? 'light',
      locale: 'en-US',
    });
    const storage = { ...options.storage, ...(await credentials(principal)) };
    await context.addInitScript((entries) => {
      for (const [key, value] of Object.entries(entries)) localStorage.setItem(key, value);
    }, storage);
    return { context, page: await context.newPage() };
  };

  return {
    async pageFor(principal) {
      if (!contexts.has(principal)) contexts.set(principal, open(principal));
      return (await contexts.get(principal)!).page;
    },
    async close() {
      for (const entry of contexts.values()) await (await entry).context.close();
    },
  };
}

/**
 * A walk over many screens cut into parts of at most `size` screens, each a test of its own: the
 * parts spread over the workers, a slow machine runs into no single long timeout, and a failure
 * names a small group. `timeout` is the part's time limit: `perScreen` for each of its screens (the
 * walks take 4–10 s a screen on a busy 2-core machine) and a minute for the browser contexts.
 */
/** SCREENS_ONLY=name,name… takes only those screens (to look at a few while working on them). */
const ONLY = process.env.SCREENS_ONLY?.split(',').map((name) => name.trim());

/** The screens a walk takes: all of them, or those SCREENS_ONLY names. */
export const WALKED_SCREENS = ONLY ? SCREENS.filter((screen) => ONLY.includes(screen.name)) : SCREENS;

export function walkParts(
  screens: Screen[],
  size: number,
  perScreen: number,
): { screens: Screen[]; label: string; timeout: number }[] {
  const count = Math.ceil(screens.length / size);
  // The same number in each part (give or take one), so no worker is left with a short tail.
  const bounds = (index: number) => Math.round((index * screens.length) / count);
  return Array.from({ length: count }, (_, index) => {
    const part = screens.slice(bounds(index), bounds(index + 1));
    return {
      screens: part,
      label: `part ${index + 1} of ${count}`,
      timeout: 60_000 + part.length * perScreen,
    };
  });
}

/**
 * Opens a screen and waits until it has settled (heading shown, no loading indicator); returns the
 * path it opened.
 */
export async function showScreen(
  page: Page,
  screen: Screen,
  api?: Api,
  toUrl: (path: string) => string = (path) => path,
): Promise<string> {
  const prepared = screen.prepare && api ? await screen.prepare(api) : undefined;
  const path = prepared ?? screen.path;
  await page.goto(toUrl(path));
  // A screen whose URL opens a dialog (the explorer's ?preview=) hides the page's heading behind it.
  await expect(h1(page).or(page.getByRole('dialog'))).toBeVisible();
  await expect(page.locator('main [role=status] svg.animate-spin')).toHaveCount(0);
  if (screen.action) await screen.action(page);
  return path;
}
