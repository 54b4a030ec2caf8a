/**
 * Scheduled sync in Chromium (docs/guide.md, "Scheduled sync"): the admin adds a job between two
 * local-disk mounts in Admin → Scheduled sync, a dry run lists the files a run would copy (and copies
 * nothing), Run now copies them, and the history shows the run with its counts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { BASE_URL } from '../support/env.ts';
import { localMount } from '../support/explorer.ts';
import { expect, test } from '../support/fixtures.ts';

test('the admin adds a sync job, sees a dry run, runs it and finds the run in the history', async ({
  page,
  request,
  seedAdmin,
}) => {
  const token = await seedAdmin();
  const source = await localMount(request, token);
  const target = await localMount(request, token);
  const name = `nightly copy ${Date.now()}`;
  try {
    await source.writeBehind('report.txt', 'quarterly numbers');
    await source.writeBehind('photos/cat.txt', 'a cat');

    await page.goto('/admin/scheduled-sync');
    await page.getByTestId('create-sync-job').click();
    const dialog = page.getByTestId('sync-job-dialog');
    await dialog.getByRole('textbox', { name: 'Name' }).fill(name);
    await dialog.getByRole('textbox', { name: 'Source folder' }).fill(source.path);
    await dialog.getByRole('textbox', { name: 'Target folder' }).fill(`${target.path}/copy`);
    await dialog.getByRole('combobox', { name: 'Schedule' }).selectOption('cron');
    await dialog.getByRole('textbox', { name: 'Cron expression' }).fill('30 2 * * *');
    await dialog.getByTestId('save-sync-job').click();
    await expect(dialog).toBeHidden();

    const row = page.getByTestId('sync-job').filter({ hasText: name });
    await expect(row).toContainText('30 2 * * *');
    await expect(row).toContainText('Not run yet');

    await row.getByTestId('dry-run-sync-job').click();
    const dry = page.getByTestId('sync-dry-run-dialog');
    await expect(dry.getByTestId('sync-changes-created')).toContainText(`${target.path}/copy/report.txt`);
    await expect(dry.getByTestId('sync-changes-created')).toContainText(`${target.path}/copy/photos/cat.txt`);
    await expect(dry.getByTestId('sync-run-counts')).toContainText('Copied 2');
    expect(fs.existsSync(path.join(target.root!, 'copy', 'report.txt'))).toBe(false);
    await page.keyboard.press('Escape');
    await expect(dry).toBeHidden();

    await row.getByTestId('run-sync-job').click();
    await expect(row.getByTestId('sync-last-run')).toContainText('Succeeded');
    expect(fs.readFileSync(path.join(target.root!, 'copy', 'photos', 'cat.txt'), 'utf8')).toBe('a cat');

    await row.getByTestId('sync-job-history').click();
    const history = page.getByTestId('sync-history-dialog');
    const runs = history.getByTestId('sync-run');
    await expect(runs).toHaveCount(2);
    await expect(runs.first()).toHaveAttribute('data-status', 'success');
    await expect(runs.first()).toContainText('Copied 2');
    await expect(runs.nth(1)).toContainText('Dry run');
  } finally {
    const headers = { Authorization: `Bearer ${token}` };
    const listed = await request.get(`${BASE_URL}/api/admin/scheduled/jobs`, { headers });
    for (const job of ((await listed.json()) as { data: { items: { taskId: string; name: string }[] } }).data
      .items) {
      if (job.name === name)
        await request.delete(`${BASE_URL}/api/admin/scheduled/jobs/${job.taskId}`, { headers });
    }
    await source.cleanup(request);
    await target.cleanup(request);
  }
});
