/**
 * The offline database (issue 14, docs/product.md §3 "Offline database", §4, §9): a public paste and a file
 * share viewed online are kept in IndexedDB (`pastes`, `files`) and open offline with the offline
 * mark; a password-protected share is never kept, nor its unlocked text or links; records older
 * than 7 days are purged when the app starts; a version-1 database is upgraded with its Markdown
 * draft kept and its cached answers dropped; after browsing as the admin, no store holds the
 * admin's token, an API key, a password or a signed URL, and logout leaves nothing credentialed.
 * A file share's page offline shows its details but says the file itself is not there, and its
 * download is disabled.
 */
import { ADMIN_PASSWORD } from '../support/env.ts';
import { pngOf, uploadShare } from '../support/files.ts';
import { expect, test, uniqueName } from '../support/fixtures.ts';
import {
  PRIVATE_API_CACHE,
  dumpOfflineStorage,
  putOfflineRecords,
  waitForPrivateCacheGone,
  waitForWorker,
} from '../support/offline.ts';

test.use({ serviceWorkers: 'allow' });
test.describe.configure({ mode: 'serial' });

const DAY_MS = 24 * 60 * 60 * 1000;
/** A URL carrying a token or a storage signature. */
const SIGNED_URL = /[?&](?:token|sign|signature|x-amz-signature|x-amz-credential)=/i;

test('a public paste and a file share viewed online open offline from IndexedDB; a protected paste is never kept', async ({
  page,
  context,
  request,
  api,
}) => {
  const open = uniqueName('open');
  const locked = uniqueName('locked');
  await api.createPaste({ content: '# Train reading\n\nKept for the tunnel.', slug: open });
  await api.createPaste({ content: 'locked body never stored', slug: locked, password: 'pw-Tunnel-9' });
  const fileName = `${uniqueName('notes')}.txt`;
  const file = await uploadShare(request, api, {
    name: fileName,
    mimeType: 'text/plain',
    body: Buffer.from('file body never stored'),
    remark: 'Offline remark',
  });

  await page.goto('/');
  await waitForWorker(page);
  await page.goto(`/paste/${open}`);
  await expect(
    page.getByTestId('paste-content').getByRole('heading', { name: 'Train reading' }),
  ).toBeVisible();
  await page.goto(`/file/${file.slug}`);
  await expect(page.getByRole('heading', { level: 1, name: fileName })).toBeVisible();
  await page.goto(`/paste/${locked}`);
  await page.getByLabel('Password').fill('pw-Tunnel-9');
  await page.getByRole('button', { name: 'Open' }).click();
  await expect(page.getByTestId('paste-content')).toContainText('locked body never stored');

  const stored = await dumpOfflineStorage(page);
  const pastes = stored.records['cubby-offline/pastes'] as {
    slug: string;
    cachedAt: number;
    data: unknown;
  }[];
  const files = stored.records['cubby-offline/files'] as { slug: string; cachedAt: number; data: unknown }[];
  expect(pastes.map((record) => record.slug)).toEqual([open]);
  expect(pastes[0]!.data).toMatchObject({ slug: open, content: '# Train reading\n\nKept for the tunnel.' });
  expect(Date.now() - pastes[0]!.cachedAt).toBeLessThan(60_000);
  expect(files.map((record) => record.slug)).toEqual([file.slug]);
  // Kept without its links: they carry a token.
  expect(files[0]!.data).toMatchObject({
    filename: fileName,
    remark: 'Offline remark',
    previewUrl: null,
    downloadUrl: null,
  });
  // One place for shares: none of them in Cache Storage.
  expect(stored.urls.filter((url) => /\/api\/(?:paste|public\/files)\//.test(url))).toEqual([]);
  expect(stored.text).not.toMatch(SIGNED_URL);
  for (const secret of ['locked body never stored', 'pw-Tunnel-9', 'file body never stored', locked]) {
    expect(stored.text).not.toContain(secret);
  }

  await context.setOffline(true);
  await page.goto(`/paste/${open}`);
  await expect(
    page.getByTestId('paste-content').getByRole('heading', { name: 'Train reading' }),
  ).toBeVisible();
  await expect(page.getByTestId('offline-badge')).toContainText('Offline · copy from ');
  await page.goto(`/file/${file.slug}`);
  await expect(page.getByRole('heading', { level: 1, name: fileName })).toBeVisible();
  await expect(page.getByTestId('offline-badge')).toContainText('Offline · copy from ');
  await page.goto(`/paste/${locked}`);
  await expect(
    page.getByRole('heading', { level: 1, name: 'The text share could not be loaded' }),
  ).toBeVisible();
  await expect(page.getByText('locked body never stored')).toHaveCount(0);

  // The copy shown offline is the database's: without its record the page cannot open.
  await page.evaluate(async (slug) => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open('cubby-offline');
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    await new Promise<void>((resolve) => {
      const tx = db.transaction('pastes', 'readwrite');
      tx.objectStore('pastes').delete(slug);
      tx.oncomplete = () => resolve();
    });
    db.close();
  }, open);
  await page.goto(`/paste/${open}`);
  await expect(
    page.getByRole('heading', { level: 1, name: 'The text share could not be loaded' }),
  ).toBeVisible();
  await expect(page.getByTestId('paste-content')).toHaveCount(0);
  await context.setOffline(false);
});

test('records older than 7 days are purged when the app starts (clock moved a day on)', async ({
  page,
  api,
}) => {
  const seen = uniqueName('seen');
  await api.createPaste({ content: 'seen today', slug: seen });
  await page.goto('/');
  await waitForWorker(page);
  await page.goto(`/paste/${seen}`);
  await expect(page.getByTestId('paste-content')).toContainText('seen today');
  const now = Date.now();
  // Six and a half days old: fresh now (the page's own start-up purge may run at any time after
  // this), older than 7 days once the clock has moved a day on. Today's records stay.
  // (Directory listings go at start too when nobody is signed in: the logout test covers them.)
  const old = now - 6.5 * DAY_MS;
  await putOfflineRecords(page, [
    { store: 'pastes', record: { slug: 'old-copy', cachedAt: old, data: { slug: 'old-copy' } } },
    { store: 'files', record: { slug: 'old-file', cachedAt: old, data: { slug: 'old-file' } } },
    { store: 'pastes', record: { slug: 'recent-copy', cachedAt: now, data: { slug: 'x' } } },
    { store: 'files', record: { slug: 'recent-file', cachedAt: now, data: { slug: 'y' } } },
  ]);
  const slugs = async () => {
    const { records } = await dumpOfflineStorage(page);
    return ['pastes', 'files']
      .flatMap((store) =>
        (records[`cubby-offline/${store}`] as { slug: string }[]).map((record) => `${store}/${record.slug}`),
      )
      .sort();
  };
  expect(await slugs()).toEqual(
    [`pastes/${seen}`, 'pastes/old-copy', 'pastes/recent-copy', 'files/old-file', 'files/recent-file'].sort(),
  );

  await page.clock.setFixedTime(now + DAY_MS);
  await page.goto('/');
  await expect
    .poll(slugs, { timeout: 15_000 })
    .toEqual([`pastes/${seen}`, 'pastes/recent-copy', 'files/recent-file'].sort());
});

test('a version-1 database is upgraded: the Markdown draft is still offered, cached answers are gone', async ({
  page,
}) => {
  // An origin page that does not run the app, so the version-1 database is made before the app opens it.
  await page.goto('/api/health');
  const savedAt = new Date(Date.now() - 60 * 60 * 1000).toISOString();
  await page.evaluate(async (draftSavedAt) => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open('cubby-offline', 1);
      request.onupgradeneeded = () => {
        const v1 = request.result;
        v1.createObjectStore('pastes', { keyPath: 'slug' });
        v1.createObjectStore('files', { keyPath: 'slug' });
        v1.createObjectStore('directories', { keyPath: 'path' });
        const settings = v1.createObjectStore('settings', { keyPath: 'key' });
        settings.put({
          key: 'markdown_draft',
          value: { content: '# Draft from version one', savedAt: draftSavedAt },
          updatedAt: draftSavedAt,
        });
        settings.put({
          key: 'admin_api_keys',
          value: { data: [{ name: 'ci', key: 'v1-full-api-key-0123456789' }] },
          updatedAt: draftSavedAt,
        });
        request.transaction!.objectStore('pastes').put({
          slug: 'v1-protected',
          content: 'v1 protected text',
          plain_password: 'v1-password',
          cachedAt: draftSavedAt,
        });
      };
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    db.close();
  }, savedAt);

  await page.goto('/');
  const banner = page.getByTestId('draft-banner');
  await expect(banner).toContainText('An unsaved draft from');
  await banner.getByRole('button', { name: 'Restore draft' }).click();
  await expect(page.getByTestId('paste-editor').locator('.cm-content')).toContainText(
    '# Draft from version one',
  );

  const upgraded = await page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open('cubby-offline');
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    const result = { version: db.version, stores: Array.from(db.objectStoreNames).sort() };
    db.close();
    return result;
  });
  expect(upgraded).toEqual({ version: 2, stores: ['directories', 'files', 'pastes', 'settings'] });
  const { records, text } = await dumpOfflineStorage(page);
  expect(records['cubby-offline/pastes']).toEqual([]);
  expect(records['cubby-offline/settings']).toContainEqual({
    key: 'markdown_draft',
    value: { content: '# Draft from version one', savedAt: Date.parse(savedAt) },
    cachedAt: Date.parse(savedAt),
  });
  for (const secret of ['v1-full-api-key-0123456789', 'v1-password', 'v1 protected text'])
    expect(text).not.toContain(secret);
});

test('after browsing as the admin no store holds a token, key, password or signed URL; logout leaves nothing credentialed', async ({
  page,
  request,
  api,
  seedAdmin,
}) => {
  const key = await api.createKey({ name: uniqueName('offline-db-key') });
  const lockedFile = await uploadShare(request, api, {
    name: `${uniqueName('locked')}.txt`,
    mimeType: 'text/plain',
    body: Buffer.from('locked file body'),
    password: 'pw-File-7',
  });
  const token = await seedAdmin();
  await page.goto('/');
  await waitForWorker(page);
  for (const [route, heading] of [
    ['/admin/text-management', 'Text management'],
    ['/admin/file-management', 'File management'],
    ['/admin/key-management', 'API keys'],
  ] as const) {
    await page.goto(route);
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
  }
  await expect(page.getByText(key.name)).toBeVisible();
  // A protected file opened with its password: its links carry a token.
  await page.goto(`/file/${lockedFile.slug}`);
  const gate = page.getByTestId('file-password-gate');
  await gate.getByLabel('Password').fill('pw-File-7');
  await gate.getByRole('button', { name: 'Open' }).click();
  await expect(page.getByTestId('download')).toHaveAttribute('href', SIGNED_URL);
  // What the Mount Explorer keeps for a signed-in user.
  await putOfflineRecords(page, [
    { store: 'directories', record: { path: '/team/', cachedAt: Date.now(), listing: { items: [] } } },
  ]);
  await expect
    .poll(async () => (await dumpOfflineStorage(page)).urls.some((url) => url.includes('/api/admin/files')))
    .toBe(true);

  const during = await dumpOfflineStorage(page);
  for (const secret of [token, key.key, ADMIN_PASSWORD, 'pw-File-7', 'locked file body'])
    expect(during.text).not.toContain(secret);
  expect(during.text).not.toMatch(SIGNED_URL);
  expect(during.records['cubby-offline/files']).toEqual([]);

  await page.goto('/admin');
  await page.getByRole('button', { name: 'Log out' }).first().click();
  await waitForPrivateCacheGone(page);
  await expect
    .poll(async () => {
      const { urls, records } = await dumpOfflineStorage(page);
      return {
        credentialedAnswers: urls.filter((url) => /\/api\/(?:admin|user)\//.test(url)),
        directories: records['cubby-offline/directories'],
      };
    })
    .toEqual({ credentialedAnswers: [], directories: [] });
  expect(await page.evaluate((name) => caches.has(name), PRIVATE_API_CACHE)).toBe(false);
  const after = await dumpOfflineStorage(page);
  for (const secret of [token, key.key, ADMIN_PASSWORD]) expect(after.text).not.toContain(secret);
});

test('offline, a file page says the file is not available offline and disables its download', async ({
  page,
  context,
  request,
  api,
}) => {
  const name = `${uniqueName('photo')}.png`;
  const file = await uploadShare(request, api, { name, mimeType: 'image/png', body: pngOf(8, 8) });
  await page.goto('/');
  await waitForWorker(page);
  await page.goto(`/file/${file.slug}`);
  await expect(page.getByTestId('image-preview')).toBeVisible();
  await expect
    .poll(async () =>
      ((await dumpOfflineStorage(page)).records['cubby-offline/files'] as { slug: string }[]).map(
        (record) => record.slug,
      ),
    )
    .toContain(file.slug);

  await context.setOffline(true);
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  await expect(page.getByTestId('offline-badge')).toContainText('Offline · copy from ');
  await expect(page.getByTestId('preview-offline')).toHaveText(
    'Not available offline: the file itself is not kept on this device. Connect to the internet to preview or download it.',
  );
  await expect(page.getByTestId('preview-failed')).toHaveCount(0);
  await expect(page.getByTestId('download')).toBeDisabled();
  await expect(page.getByTestId('copy-link')).toBeEnabled();

  await context.setOffline(false);
  await page.reload();
  await expect(page.getByTestId('image-preview')).toBeVisible();
  await expect(page.getByTestId('download')).toHaveAttribute('href', /\/api\/file-download\//);
});
