/**
 * Storage on other servers, set up in the browser (docs/storage.md, "Download links" for the mount's
 * Downloads choice): the admin adds an SFTP storage (a private key pasted into its textarea), an FTP
 * storage and a WebDAV storage in the storage dialog, each against a real server this spec starts on
 * 127.0.0.1 (OpenSSH's sshd, pure-ftpd, `rclone serve webdav`, the server tests' support), and tests
 * each: a wrong password shows why the server refused, the right one passes every step. Each
 * storage is mounted in the mount dialog; in the explorer on the SFTP mount a file is uploaded,
 * listed, downloaded with the same bytes and previewed. A mount set to download from a custom host
 * asks for the address before it saves.
 */
import fs from 'node:fs/promises';
import type { Locator, Page } from '@playwright/test';
import { startTestFtpd, type TestFtpd } from '../../packages/server/test/support/ftpd.ts';
import { startTestSshd, type TestSshd } from '../../packages/server/test/support/sshd.ts';
import {
  DAV_PASSWORD,
  DAV_USER,
  startRcloneDav,
  type TestWebdavServer,
} from '../../packages/server/test/support/webdav-servers.ts';
import { expect, test, uniqueName } from '../support/fixtures.ts';
import { explorerHref } from '../support/explorer.ts';

let sshd: TestSshd;
let ftpd: TestFtpd;
let dav: TestWebdavServer;
let sftpRoot: string;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  [sshd, ftpd, dav] = await Promise.all([startTestSshd(), startTestFtpd(), startRcloneDav()]);
  sftpRoot = await sshd.makeRoot();
});

test.afterAll(async () => {
  await Promise.all([sshd?.close(), ftpd?.close(), dav?.close()]);
});

const storageRow = (page: Page, name: string) =>
  page.locator(`[data-testid=storage-config-row][data-config-name="${name}"]`);

/** Opens the create dialog with `provider` chosen and the name typed. */
async function newStorage(page: Page, provider: string, name: string): Promise<Locator> {
  await page.getByTestId('create-storage-config').click();
  const dialog = page.getByTestId('storage-config-dialog');
  await expect(dialog).toBeVisible();
  await dialog.getByRole('combobox', { name: 'Provider', exact: true }).selectOption(provider);
  await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
  return dialog;
}

async function save(dialog: Locator, button: string): Promise<void> {
  await dialog.getByRole('button', { name: button }).click();
  await expect(dialog).toBeHidden();
}

/** Runs a row's storage test and returns the report once it has an answer. */
async function runTest(page: Page, name: string): Promise<Locator> {
  await storageRow(page, name).getByTestId('test-storage-config').click();
  const report = page.getByTestId('storage-test-dialog');
  await expect(report.getByTestId('storage-test-summary')).toBeVisible({ timeout: 30_000 });
  return report;
}

async function expectPasses(page: Page, name: string): Promise<void> {
  const report = await runTest(page, name);
  await expect(report.getByTestId('storage-test-summary')).toContainText('All checks passed.');
  for (const step of ['list', 'write', 'read', 'delete']) {
    await expect(report.locator(`[data-testid=storage-test-step][data-step=${step}]`)).toHaveAttribute(
      'data-success',
      'true',
    );
  }
  await report.getByRole('button', { name: 'Close' }).first().click();
  await expect(report).toBeHidden();
}

/** Mounts storage `name` at `mountPath` in the mount dialog. */
async function mount(page: Page, name: string, mountPath: string): Promise<void> {
  await page.getByTestId('create-mount').click();
  const dialog = page.getByRole('dialog', { name: 'New mount' });
  await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
  const storage = dialog.getByRole('combobox', { name: 'Storage', exact: true });
  const option = storage.locator('option').filter({ hasText: name });
  await storage.selectOption((await option.getAttribute('value'))!);
  await dialog.getByRole('textbox', { name: 'Mount path', exact: true }).fill(mountPath);
  await save(dialog, 'Create mount');
  await expect(page.locator(`[data-testid=mount-row][data-mount-path="${mountPath}"]`)).toContainText(name);
}

test('the admin adds SFTP, FTP and WebDAV storages in the browser, mounts them and uses the SFTP one', async ({
  page,
  seedAdmin,
}) => {
  test.setTimeout(90_000);
  await seedAdmin();
  const sftp = uniqueName('sftp');
  const ftp = uniqueName('ftp');
  const webdav = uniqueName('webdav');
  await page.goto('/admin/storage-config');

  await test.step('SFTP with a pasted private key', async () => {
    const dialog = await newStorage(page, 'SFTP', sftp);
    // No S3 fields, and the key is typed over several lines.
    await expect(dialog.getByRole('textbox', { name: 'Bucket', exact: true })).toHaveCount(0);
    await dialog.getByRole('textbox', { name: 'Host', exact: true }).fill(sshd.host);
    await dialog.getByRole('spinbutton', { name: 'Port', exact: true }).fill(String(sshd.port));
    await dialog.getByRole('textbox', { name: 'Username', exact: true }).fill(sshd.username);
    const key = dialog.getByLabel('Private key');
    await expect(key).toHaveJSProperty('tagName', 'TEXTAREA');
    await key.fill(sshd.privateKey);
    await dialog.getByRole('textbox', { name: 'Folder on the server', exact: true }).fill(sftpRoot);
    await save(dialog, 'Add storage');
    await expect(storageRow(page, sftp).getByTestId('storage-provider')).toHaveText('SFTP');
    await expectPasses(page, sftp);

    // On edit, only the secret it has (the key) is said to be kept when left empty.
    await storageRow(page, sftp).getByTestId('edit-storage-config').click();
    const edit = page.getByTestId('storage-config-dialog');
    await expect(edit.getByLabel('Private key')).toHaveValue('');
    await expect(edit).toContainText('A key is stored. Leave empty to keep it');
    await expect(edit).not.toContainText('A password is stored');
    await expect(edit).not.toContainText('A passphrase is stored');
    await edit.getByRole('button', { name: 'Cancel' }).click();
    await expect(edit).toBeHidden();
  });

  await test.step('FTP: a wrong password says why, the right one passes', async () => {
    const dialog = await newStorage(page, 'FTP', ftp);
    await dialog.getByRole('textbox', { name: 'Host', exact: true }).fill(ftpd.host);
    await dialog.getByRole('spinbutton', { name: 'Port', exact: true }).fill(String(ftpd.port));
    await dialog.getByRole('textbox', { name: 'Username', exact: true }).fill(ftpd.username);
    await dialog.getByLabel('Password', { exact: true }).fill('not-the-password');
    await expect(dialog.getByRole('combobox', { name: 'Encryption', exact: true })).toHaveValue('none');
    await dialog.getByRole('textbox', { name: 'Folder on the server', exact: true }).fill(ftpd.root);
    await save(dialog, 'Add storage');

    const report = await runTest(page, ftp);
    await expect(report.getByTestId('storage-test-summary')).toContainText('Some checks failed.');
    const list = report.locator('[data-testid=storage-test-step][data-step=list]');
    await expect(list).toHaveAttribute('data-success', 'false');
    await expect(list).toContainText('The server refused the username, password or key');
    await expect(report).not.toContainText('not-the-password');
    // The browser's uploads go through Cubby: nothing to check in the browser, no bucket CORS rule.
    await expect(report.locator('[data-testid=storage-test-step][data-step=cors]')).toHaveAttribute(
      'data-success',
      'true',
    );
    await expect(report.getByTestId('cors-guidance')).toHaveCount(0);
    await report.getByRole('button', { name: 'Close' }).first().click();

    await storageRow(page, ftp).getByTestId('edit-storage-config').click();
    const edit = page.getByTestId('storage-config-dialog');
    await expect(edit.getByLabel('Password', { exact: true })).toHaveValue('');
    await edit.getByLabel('Password', { exact: true }).fill(ftpd.password);
    await save(edit, 'Save');
    await expectPasses(page, ftp);
  });

  await test.step('WebDAV', async () => {
    const dialog = await newStorage(page, 'WebDAV', webdav);
    await dialog.getByRole('textbox', { name: 'Endpoint URL', exact: true }).fill(dav.url);
    await dialog.getByRole('textbox', { name: 'Username', exact: true }).fill(DAV_USER);
    await dialog.getByLabel('Password', { exact: true }).fill(DAV_PASSWORD);
    await save(dialog, 'Add storage');
    await expectPasses(page, webdav);
  });

  const sftpMount = `/${uniqueName('sftp')}`;
  const ftpMount = `/${uniqueName('ftp')}`;
  await test.step('each storage is mounted', async () => {
    await page.goto('/admin/mount-management');
    await mount(page, sftp, sftpMount);
    await mount(page, ftp, ftpMount);
    await mount(page, webdav, `/${uniqueName('dav')}`);
  });

  await test.step('a mount downloading from a custom host needs its address', async () => {
    const row = page.locator(`[data-testid=mount-row][data-mount-path="${ftpMount}"]`);
    await row.getByTestId('edit-mount').click();
    const dialog = page.getByTestId('mount-dialog');
    await dialog.getByRole('combobox', { name: 'Downloads', exact: true }).selectOption('custom_host');
    const host = dialog.getByRole('textbox', { name: 'Custom host', exact: true });
    await dialog.getByTestId('save-mount').click();
    await expect(host).toHaveAttribute('aria-invalid', 'true');
    await expect(host).toBeFocused();
    await expect(dialog).toContainText('Enter the address downloads should come from.');
    await host.fill('https://cdn.example.com/files');
    await save(dialog, 'Save');
    await expect(row).toContainText('From a custom host (CDN)');
  });

  await test.step('the explorer on the SFTP mount: upload, list, download, preview', async () => {
    await page.goto(explorerHref(sftpMount));
    const body = Buffer.from(`notes over SFTP ${uniqueName('n')}\nsecond line ✓\n`);
    await page
      .getByTestId('explorer-upload-input')
      .setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: body });
    const row = page
      .getByTestId('entry-row')
      .filter({ has: page.getByTestId('entry-name').getByText('notes.txt', { exact: true }) });
    await expect(row).toBeVisible({ timeout: 20_000 });
    // The file is on the SFTP server, in the storage's folder.
    expect(await fs.readFile(`${sftpRoot}/notes.txt`)).toEqual(body);

    await row.getByTestId('entry-more').click();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('menu-download').click(),
    ]);
    expect(download.suggestedFilename()).toBe('notes.txt');
    expect(await fs.readFile((await download.path())!)).toEqual(body);

    await page.goto(`${explorerHref(sftpMount)}?preview=notes.txt`);
    await expect(page.getByTestId('preview-dialog').getByTestId('text-preview')).toContainText(
      'second line ✓',
    );
  });
});
