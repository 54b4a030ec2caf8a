/**
 * The API key form's "Browse…" for the base path (docs/product.md §6 key base path): it walks the virtual
 * tree of the mounts through `GET /api/admin/fs/list` — the mount at the top, folders below it, the way
 * up — shows folders only, and "Choose this folder" fills the field the key is created with.
 *
 * Needs the fs routes (`/api/admin/fs/list`), built on another branch: this spec passes once both
 * are merged.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, uniqueName } from '../support/fixtures.ts';

const folders: string[] = [];
test.afterAll(() => {
  for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
});

test('browses the folders of a mount and chooses one as the base path', async ({ page, api, seedAdmin }) => {
  await seedAdmin();
  const root = path.join(os.tmpdir(), `cubby-e2e-picker-${randomUUID()}`);
  folders.push(root);
  fs.mkdirSync(path.join(root, 'reports', '2026 Q1 报告'), { recursive: true });
  fs.mkdirSync(path.join(root, 'photos'), { recursive: true });
  fs.writeFileSync(path.join(root, 'reports', 'summary.txt'), 'a file, not a folder');
  const storage = await api.createLocalStorage(uniqueName('picker'), root);
  const top = uniqueName('picker');
  const mount = await api.createMount({ name: top, mount_path: `/${top}/team`, storage_config_id: storage });

  try {
    await page.goto('/admin/key-management');
    await page.getByRole('button', { name: 'New API key' }).click();
    const dialog = page.getByRole('dialog', { name: 'New API key' });
    const name = uniqueName('picked');
    await dialog.getByRole('textbox', { name: 'Name' }).fill(name);
    await dialog.getByRole('checkbox', { name: 'Mounts' }).check();
    await dialog.getByRole('button', { name: 'Browse the folders for the base path' }).click();

    const picker = page.getByRole('dialog', { name: 'Choose the base path' });
    await expect(picker).toContainText('Folder: /');
    // Above the mounts: the next segment of each mount's path, as a folder.
    await picker.getByRole('button', { name: `Open ${top}` }).click();
    await picker.getByRole('button', { name: 'Open team' }).click();
    await expect(picker.getByTestId('picker-folder')).toHaveText(['photos', 'reports']);
    await picker.getByRole('button', { name: 'Open reports' }).click();
    // Folders only: the file in it is not offered.
    await expect(picker.getByTestId('picker-folder')).toHaveText(['2026 Q1 报告']);
    await picker.getByRole('button', { name: 'Open 2026 Q1 报告' }).click();
    await expect(picker.getByTestId('picker-empty')).toBeVisible();
    await picker.getByTestId('picker-up').click();
    await expect(picker).toContainText(`Folder: /${top}/team/reports`);
    // The breadcrumbs lead back up as well.
    await picker.getByRole('navigation', { name: 'Path' }).getByRole('button', { name: 'team' }).click();
    await picker.getByRole('button', { name: 'Open photos' }).click();
    await picker.getByRole('button', { name: 'Choose this folder' }).click();
    await expect(picker).toBeHidden();

    await expect(dialog.getByRole('textbox', { name: 'Base path' })).toHaveValue(`/${top}/team/photos`);
    await dialog.getByRole('button', { name: 'Create key' }).click();
    await expect(page.getByRole('dialog', { name: 'API key created' })).toBeVisible();
    const created = (await api.listKeys()).find((key) => key.name === name);
    expect(created?.basic_path).toBe(`/${top}/team/photos`);
  } finally {
    await api.deleteMount(mount.id);
    await api.deleteStorage(storage);
  }
});
