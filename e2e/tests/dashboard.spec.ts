/**
 * The admin dashboard (docs/product.md §2): the cards show the figures the server answered and link to their
 * modules, every storage config has its usage, the 7-day chart has its table for screen readers, and
 * the listing cache is cleared from it — in English and in Chinese. (Other tests create shares at
 * the same time, so figures are compared with the answer the page itself received.)
 */
import { expect, seedStorage, test, uniqueName } from '../support/fixtures.ts';

test.describe('dashboard', () => {
  test('shows what the instance holds and clears the listing cache', async ({ page, api, seedAdmin }) => {
    await seedAdmin();
    await api.createPaste({ content: 'counted on the dashboard' });
    const mount = await api.createMount({ name: uniqueName('Dash'), mount_path: `/${uniqueName('dash')}` });
    const answered = page.waitForResponse((r) => r.url().endsWith('/api/admin/dashboard/stats'));
    await page.goto('/admin/dashboard');
    const stats = (await (await answered).json()).data as {
      totalPastes: number;
      totalMounts: number;
      totalStorageUsed: number;
      s3Buckets: Array<{ id: string; name: string; quotaBytes: number | null; usedStorage: number }>;
    };
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
    const cards = page.getByTestId('stat-cards');
    const pastes = cards.getByRole('link', { name: /Text shares/ });
    await expect(pastes).toContainText(String(stats.totalPastes));
    expect(stats.totalPastes).toBeGreaterThan(0);
    await expect(cards.getByRole('link', { name: /Mounts/ })).toContainText(String(stats.totalMounts));
    for (const bucket of stats.s3Buckets) {
      await expect(page.getByTestId('storage-usage')).toContainText(bucket.name);
    }
    // A config without a quota says so (CloudPaste's fields carry a stand-in capacity for its client).
    const unlimited = stats.s3Buckets.find((bucket) => bucket.quotaBytes === null);
    expect(unlimited).toBeTruthy();
    const row = page.getByTestId('storage-usage').getByRole('listitem').filter({ hasText: unlimited!.name });
    await expect(row).toContainText('no quota');
    // Without a quota the bar is the storage's share of everything stored (there is no total to fill).
    const share =
      stats.totalStorageUsed > 0 ? Math.round((unlimited!.usedStorage / stats.totalStorageUsed) * 100) : 0;
    const meter = row.getByRole('meter', { name: `Share of all stored bytes on ${unlimited!.name}` });
    await expect(meter).toHaveAttribute('aria-valuenow', String(share));
    await expect(row).toContainText(`${share}% of all stored`);
    await expect(page.getByTestId('week-chart').locator('table tbody tr')).toHaveCount(7);

    await expect(page.getByTestId('mount-cache-counts').first()).toContainText(
      /\d+ cached · \d+ hits · \d+ misses/,
    );
    await page.getByRole('button', { name: `Clear the cache of ${mount.name}` }).click();
    await expect(page.getByTestId('toast')).toContainText(`Cache of ${mount.name} cleared`);
    await page.getByTestId('clear-cache-all').click();
    await expect(page.getByTestId('toast').last()).toContainText('Cache cleared');

    await pastes.click();
    await expect(page).toHaveURL(/\/admin\/text-management$/);
    await api.deleteMount(mount.id);
  });

  test('in Chinese', async ({ page, seedAdmin }) => {
    await seedAdmin();
    await seedStorage(page, { language: 'zh-CN' });
    await page.goto('/admin/dashboard');
    await expect(page.getByRole('heading', { level: 1, name: '仪表盘' })).toBeVisible();
    await expect(page.getByTestId('stat-cards')).toContainText('文本分享');
    await expect(page.getByRole('heading', { name: '最近 7 天新增分享' })).toBeVisible();
    await expect(page.getByRole('heading', { name: '目录列表缓存' })).toBeVisible();
  });
});
