/**
 * Mount management in the admin area (docs/product.md §2 mount-management, §3 Mount, §5 mount rules): create
 * a mount on the default local storage with the rules checked inline and the server's 409 shown at
 * the path, edit it, deactivate and activate it, search, delete it after a confirmation saying the
 * files stay; and the same screen in Chinese.
 */
import type { Locator, Page } from '@playwright/test';
import { expect, seedStorage, test, uniqueName, type Api } from '../support/fixtures.ts';

const row = (page: Page, mountPath: string) =>
  page.locator(`[data-testid=mount-row][data-mount-path="${mountPath}"]`);

async function openMounts(page: Page, heading = 'Mount management'): Promise<void> {
  await page.goto('/admin/mount-management');
  await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
}

async function openCreate(page: Page, title = 'New mount'): Promise<Locator> {
  await page.getByTestId('create-mount').click();
  const dialog = page.getByRole('dialog', { name: title });
  await expect(dialog.locator('input[name=name]')).toBeVisible();
  return dialog;
}

const mountOf = async (api: Api, mountPath: string) =>
  (await api.listMounts()).find((mount) => mount.mount_path === mountPath);

test.describe('mount management', () => {
  test('creates a mount on the default local storage, edits, deactivates, finds and deletes it', async ({
    page,
    api,
    seedAdmin,
  }) => {
    await seedAdmin();
    const name = uniqueName('Team files');
    const mountPath = `/${uniqueName('e2e')}`;
    await openMounts(page);

    // The rules answer inline, before anything is sent.
    const dialog = await openCreate(page);
    const storage = dialog.getByRole('combobox', { name: 'Storage' });
    await expect(storage.locator('option:checked')).toHaveText('Local storage (Local disk)');
    const path = dialog.getByRole('textbox', { name: 'Mount path' });
    await dialog.getByRole('button', { name: 'Create mount' }).click();
    await expect(dialog.getByRole('textbox', { name: 'Name' })).toHaveAttribute('aria-invalid', 'true');
    await expect(dialog).toContainText('Enter a name.');
    await expect(dialog).toContainText('Enter the mount path.');
    await path.fill('photos');
    await dialog.getByRole('button', { name: 'Create mount' }).click();
    await expect(dialog).toContainText('The mount path must start with /.');
    await path.fill('/etc/photos');
    await dialog.getByRole('spinbutton', { name: 'Cache time (seconds)' }).fill('-1');
    await dialog.getByRole('button', { name: 'Create mount' }).click();
    await expect(dialog).toContainText('/etc is reserved by the system; choose another path.');
    await expect(dialog).toContainText('Enter a whole number of seconds from 0 to 86400.');
    await path.fill('/a b');
    await dialog.getByRole('button', { name: 'Create mount' }).click();
    await expect(dialog).toContainText('Use only letters, digits, Chinese characters, _, - and /.');

    await dialog.getByRole('textbox', { name: 'Name' }).fill(name);
    await path.fill(mountPath);
    await dialog.getByRole('spinbutton', { name: 'Cache time (seconds)' }).fill('0');
    await dialog.getByRole('textbox', { name: 'Remark' }).fill('Shared with the team');
    await dialog.getByRole('button', { name: 'Create mount' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByTestId('toast').filter({ hasText: `Created the mount “${name}”.` })).toBeVisible();

    const created = row(page, mountPath);
    await expect(created).toContainText(name);
    await expect(created).toContainText('Local storage');
    await expect(created.getByTestId('mount-storage-type')).toHaveText('Local disk');
    await expect(created.getByTestId('mount-status')).toHaveText('Active');
    await expect(created).toContainText('No cache');
    await expect(created.getByTestId('mount-remark')).toHaveText('Shared with the team');
    const stored = await mountOf(api, mountPath);
    expect(stored).toMatchObject({ name, storage_type: 'Local', cache_ttl: 0, is_active: true });

    // A path another mount has: the server's 409, shown at the field.
    const again = await openCreate(page);
    await again.getByRole('textbox', { name: 'Name' }).fill(uniqueName('dup'));
    await again.getByRole('textbox', { name: 'Mount path' }).fill(mountPath);
    await again.getByRole('button', { name: 'Create mount' }).click();
    await expect(again.getByRole('textbox', { name: 'Mount path' })).toHaveAttribute('aria-invalid', 'true');
    await expect(again).toContainText('Another mount already uses this path');
    await again.getByRole('button', { name: 'Cancel' }).click();
    await expect(again).toBeHidden();

    // Edit: the dialog starts from the mount.
    await created.getByTestId('edit-mount').click();
    const edit = page.getByRole('dialog', { name: 'Edit mount' });
    await expect(edit.getByRole('textbox', { name: 'Name' })).toHaveValue(name);
    await expect(edit.getByRole('spinbutton', { name: 'Cache time (seconds)' })).toHaveValue('0');
    await edit.getByRole('textbox', { name: 'Name' }).fill(`${name} edited`);
    await edit.getByRole('spinbutton', { name: 'Sort order' }).fill('7');
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect(edit).toBeHidden();
    await expect(created).toContainText(`${name} edited`);
    expect(await mountOf(api, mountPath)).toMatchObject({
      name: `${name} edited`,
      sort_order: 7,
      cache_ttl: 0,
    });

    // Deactivate, then activate again.
    await created.getByRole('button', { name: `Deactivate mount ${name} edited` }).click();
    await expect(created.getByTestId('mount-status')).toHaveText('Inactive');
    expect((await mountOf(api, mountPath))?.is_active).toBe(false);
    await created.getByRole('button', { name: `Activate mount ${name} edited` }).click();
    await expect(created.getByTestId('mount-status')).toHaveText('Active');
    expect((await mountOf(api, mountPath))?.is_active).toBe(true);

    // Search: by name and by path; nothing for a word no mount has.
    const search = page.getByRole('searchbox', { name: 'Search mounts' });
    await search.fill(name.toUpperCase());
    await expect(page.getByTestId('mount-row')).toHaveCount(1);
    await expect(created).toBeVisible();
    await search.fill(mountPath.slice(1));
    await expect(page.getByTestId('mount-row')).toHaveCount(1);
    await search.fill('no-such-mount-anywhere');
    await expect(page.getByTestId('mounts-empty')).toContainText('No matching mounts');
    await search.fill('');
    await expect(created).toBeVisible();

    // Delete: the confirmation says the files stay.
    await created.getByTestId('delete-mount').click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete mount?' });
    await expect(confirm).toContainText(mountPath);
    await expect(confirm).toContainText('The files in its storage are not deleted.');
    await confirm.getByRole('button', { name: 'Delete mount' }).click();
    await expect(confirm).toBeHidden();
    await expect(created).toHaveCount(0);
    expect(await mountOf(api, mountPath)).toBeUndefined();
  });

  test('works in Chinese: the rules and the server answer in Chinese', async ({ page, api, seedAdmin }) => {
    await seedAdmin();
    await seedStorage(page, { language: 'zh-CN' });
    const taken = await api.createMount({ name: uniqueName('已有'), mount_path: `/${uniqueName('zh')}` });
    const mountPath = `/${uniqueName('中文')}`;
    await openMounts(page, '挂载管理');

    const dialog = await openCreate(page, '新建挂载点');
    await expect(dialog.getByRole('combobox', { name: '存储配置' }).locator('option:checked')).toHaveText(
      '本地存储（本地磁盘）',
    );
    await dialog.getByRole('button', { name: '创建挂载点' }).click();
    await expect(dialog).toContainText('挂载点名称不能为空。');
    await expect(dialog).toContainText('挂载路径不能为空。');
    await dialog.getByRole('textbox', { name: '挂载路径' }).fill('/api/files');
    await dialog.getByRole('button', { name: '创建挂载点' }).click();
    await expect(dialog).toContainText('不允许使用应用保留路径：/api');

    await dialog.getByRole('textbox', { name: '挂载点名称' }).fill('团队文件');
    await dialog.getByRole('textbox', { name: '挂载路径' }).fill(taken.mount_path);
    await dialog.getByRole('button', { name: '创建挂载点' }).click();
    await expect(dialog).toContainText('挂载路径已被使用');

    await dialog.getByRole('textbox', { name: '挂载路径' }).fill(mountPath);
    await dialog.getByRole('button', { name: '创建挂载点' }).click();
    await expect(dialog).toBeHidden();
    const created = row(page, mountPath);
    await expect(created.getByTestId('mount-status')).toHaveText('已启用');
    await expect(created.getByTestId('mount-storage-type')).toHaveText('本地磁盘');

    await created.getByTestId('delete-mount').click();
    const confirm = page.getByRole('alertdialog', { name: '删除挂载点？' });
    await expect(confirm).toContainText('存储中的文件不会被删除。');
    await confirm.getByRole('button', { name: '删除挂载点' }).click();
    await expect(created).toHaveCount(0);
    await api.deleteMount(taken.id);
  });
});
