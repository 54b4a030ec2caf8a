/**
 * The mount explorer in Chromium, on a mount over local disk and one over a radosgw bucket: browse
 * by URL, breadcrumb and keyboard; sort, filter and the two views; new folder, inline rename,
 * delete and batch delete; previews with next/previous; the text editor with its conflict check; a
 * direct link; a key user confined to its base path; the phone layout; a folder of 10,000 entries.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, seedApiKey, test } from '../support/fixtures.ts';
import {
  explorerHref,
  listNames,
  localMount,
  makeFolder,
  putFile,
  putText,
  s3Mount,
  type TestMount,
} from '../support/explorer.ts';
import { BASE_URL } from '../support/env.ts';
import { pngOf } from '../support/files.ts';
import { waitForWorker } from '../support/offline.ts';

const href = explorerHref;

const rowNamed = (page: Page, name: string) =>
  page
    .getByTestId('entry-row')
    .filter({ has: page.getByTestId('entry-name').getByText(name, { exact: true }) });

async function visibleNames(page: Page): Promise<string[]> {
  return page.getByTestId('entry-name').allTextContents();
}

for (const kind of ['local', 's3'] as const) {
  test.describe(`on a ${kind} mount`, () => {
    let mount: TestMount;
    let token: string;

    test.beforeAll(async ({ request, api }) => {
      token = await api.adminToken();
      mount = kind === 'local' ? await localMount(request, token) : await s3Mount(request, token);
    });
    test.afterAll(async ({ request }) => {
      await mount.cleanup(request);
    });

    test('browse by URL, breadcrumb and back; sort, filter and the grid view', async ({
      page,
      seedAdmin,
      request,
    }) => {
      const base = `${mount.path}/browse`;
      await putText(request, token, `${base}/docs/报告 #1.txt`, 'one');
      await putText(request, token, `${base}/b.txt`, 'bb');
      await putText(request, token, `${base}/a10.txt`, 'a'.repeat(300));
      await putText(request, token, `${base}/a2.txt`, 'a');
      await seedAdmin();

      // The virtual root lists the mount as a folder.
      await page.goto('/mount-explorer');
      await rowNamed(page, mount.path.slice(1)).dblclick();
      await expect(page).toHaveURL(href(mount.path));
      await rowNamed(page, 'browse').dblclick();
      await expect(page).toHaveURL(href(base));
      // Folders first, then names in natural order.
      await expect.poll(() => visibleNames(page)).toEqual(['docs', 'a2.txt', 'a10.txt', 'b.txt']);

      await rowNamed(page, 'docs').dblclick();
      await expect(page.getByTestId('crumb-current')).toHaveText('docs');
      await expect(rowNamed(page, '报告 #1.txt')).toBeVisible();
      await page.goBack();
      await expect(page.getByTestId('crumb-current')).toHaveText('browse');
      await page.goForward();
      await expect(page.getByTestId('crumb-current')).toHaveText('docs');
      await page.reload();
      await expect(rowNamed(page, '报告 #1.txt')).toBeVisible();
      await page.getByTestId('crumb').filter({ hasText: 'browse' }).click();
      await expect(page).toHaveURL(href(base));

      // Sort by size, then the other way.
      await page.getByTestId('sort-size').click();
      await expect.poll(() => visibleNames(page)).toEqual(['docs', 'a2.txt', 'b.txt', 'a10.txt']);
      await page.getByTestId('sort-size').click();
      await expect.poll(() => visibleNames(page)).toEqual(['docs', 'a10.txt', 'b.txt', 'a2.txt']);
      await page.getByTestId('sort-name').click();

      await page.getByTestId('explorer-filter').fill('A1');
      await expect.poll(() => visibleNames(page)).toEqual(['a10.txt']);
      await page.getByTestId('explorer-filter').fill('zzz');
      await expect(page.getByTestId('explorer-no-match')).toContainText('zzz');
      await page.getByTestId('explorer-filter').fill('');

      // The grid view is remembered across a reload.
      await page.getByTestId('view-grid').click();
      await expect(page.getByTestId('entry-tile')).toHaveCount(4);
      await page.reload();
      await expect(page.getByTestId('entry-tile')).toHaveCount(4);
      await expect(page.getByTestId('view-grid')).toHaveAttribute('aria-pressed', 'true');
      await page.getByTestId('view-list').click();
      await expect(page.getByTestId('entry-row')).toHaveCount(4);
    });

    test('new folder, inline rename, delete and batch delete', async ({ page, seedAdmin, request }) => {
      const base = `${mount.path}/organise`;
      for (const name of ['one.txt', 'two.txt', 'three.txt'])
        await putText(request, token, `${base}/${name}`, name);
      await seedAdmin();
      await page.goto(href(base));
      await expect(page.getByTestId('entry-row')).toHaveCount(3);

      // A taken name is refused before any call; a new one is made.
      await page.getByTestId('explorer-new-folder').click();
      const dialog = page.getByTestId('new-folder-dialog');
      await dialog.getByTestId('new-folder-name').fill('one.txt');
      await dialog.getByTestId('new-folder-submit').click();
      await expect(dialog).toContainText('already has that name');
      await dialog.getByTestId('new-folder-name').fill('a/b');
      await dialog.getByTestId('new-folder-submit').click();
      await expect(dialog).toContainText('cannot contain /');
      await dialog.getByTestId('new-folder-name').fill('新文件夹 & more');
      await dialog.getByTestId('new-folder-submit').click();
      await expect(dialog).toBeHidden();
      await expect(rowNamed(page, '新文件夹 & more')).toBeVisible();
      expect(await listNames(request, token, base)).toContain('新文件夹 & more');

      // F2 renames inline; Enter commits.
      await rowNamed(page, 'one.txt').click();
      await page.keyboard.press('F2');
      const input = page.getByTestId('rename-input');
      await expect(input).toBeFocused();
      await input.fill("uno #1 'x'.txt");
      await input.press('Enter');
      await expect(rowNamed(page, "uno #1 'x'.txt")).toBeVisible();
      expect(await listNames(request, token, base)).toEqual(
        ['three.txt', 'two.txt', "uno #1 'x'.txt", '新文件夹 & more'].sort(),
      );

      // Escape keeps the old name.
      await rowNamed(page, 'two.txt').click();
      await page.keyboard.press('F2');
      await page.getByTestId('rename-input').fill('nope.txt');
      await page.getByTestId('rename-input').press('Escape');
      await expect(rowNamed(page, 'two.txt')).toBeVisible();

      // Delete one from the menu of its row.
      await rowNamed(page, 'three.txt').getByTestId('entry-more').click();
      await page.getByTestId('menu-delete').click();
      await page.getByTestId('delete-dialog').getByRole('button', { name: 'Delete' }).click();
      await expect(rowNamed(page, 'three.txt')).toHaveCount(0);

      // Shift-click selects a range; the Delete key asks, then deletes them all.
      await rowNamed(page, '新文件夹 & more').click();
      await rowNamed(page, "uno #1 'x'.txt").click({ modifiers: ['Shift'] });
      await expect(page.getByTestId('selection-bar')).toContainText('3 selected');
      await page.keyboard.press('Delete');
      await expect(page.getByTestId('delete-dialog')).toContainText('3 items');
      await page.getByTestId('delete-dialog').getByRole('button', { name: 'Delete' }).click();
      await expect(page.getByTestId('explorer-empty')).toBeVisible();
      expect(await listNames(request, token, base)).toEqual([]);
    });

    test('previews go through the folder; a text file is edited, and a change made meanwhile is not overwritten', async ({
      page,
      seedAdmin,
      request,
    }) => {
      const base = `${mount.path}/preview`;
      await putFile(request, token, base, 'a-pixel.png', pngOf(1, 1), 'image/png');
      await putText(request, token, `${base}/b-notes.md`, '# Notes\n\nHello **world**');
      await putText(request, token, `${base}/c-code.ts`, 'const answer = 42;\n');
      await putFile(request, token, base, 'd-blob.bin', Buffer.from([0, 1, 2, 3]));
      await seedAdmin();
      await page.goto(href(base));

      await rowNamed(page, 'a-pixel.png').dblclick();
      await expect(page).toHaveURL(/\?preview=a-pixel\.png$/);
      const preview = page.getByTestId('preview-dialog');
      await expect(preview.getByTestId('image-preview')).toBeVisible();
      await expect
        .poll(() =>
          preview.getByTestId('image-preview').evaluate((img: HTMLImageElement) => img.naturalWidth),
        )
        .toBe(1);
      await page.keyboard.press('ArrowRight');
      await expect(page).toHaveURL(/\?preview=b-notes\.md$/);
      await expect(preview.locator('h1', { hasText: 'Notes' })).toBeVisible();
      await preview.getByTestId('preview-next').click();
      await expect(preview.getByText('const answer = 42;')).toBeVisible();
      await preview.getByTestId('preview-next').click();
      await expect(preview.getByTestId('preview-download-card')).toBeVisible();
      await expect(preview.getByTestId('preview-next')).toBeDisabled();
      // The preview is in the URL: a reload shows it again.
      await page.reload();
      await expect(page.getByTestId('preview-dialog').getByTestId('preview-download-card')).toBeVisible();
      await page.keyboard.press('Escape');
      await expect(page).toHaveURL(href(base));

      // Edit and save with Ctrl+S.
      await rowNamed(page, 'b-notes.md').dblclick();
      await page.getByTestId('preview-edit').click();
      const editor = page.getByTestId('editor-dialog');
      const content = editor.locator('.cm-content');
      await expect(content).toContainText('Hello');
      await content.click();
      await page.keyboard.press('ControlOrMeta+End');
      await page.keyboard.type('\nmine');
      await expect(editor).toContainText('Unsaved changes');
      await page.keyboard.press('ControlOrMeta+s');
      await expect(page.getByText('Saved b-notes.md.')).toBeVisible();
      const read = async () =>
        (
          await request.get(
            `${BASE_URL}/api/admin/fs/download?path=${encodeURIComponent(`${base}/b-notes.md`)}`,
            {
              headers: { Authorization: `Bearer ${token}` },
            },
          )
        ).text();
      expect(await read()).toBe('# Notes\n\nHello **world**\nmine');

      // Someone else writes the file; saving now asks before overwriting.
      await putText(request, token, `${base}/b-notes.md`, 'theirs');
      await page.keyboard.type(' again');
      await editor.getByTestId('editor-save').click();
      await expect(editor.getByTestId('editor-conflict')).toBeVisible();
      expect(await read()).toBe('theirs');
      await editor.getByTestId('editor-overwrite').click();
      await expect(editor.getByTestId('editor-conflict')).toHaveCount(0);
      expect(await read()).toBe('# Notes\n\nHello **world**\nmine again');

      // Unsaved changes are not dropped without asking.
      await content.click();
      await page.keyboard.type('!');
      await editor.getByRole('button', { name: 'Close' }).last().click();
      await expect(page.getByTestId('editor-discard')).toBeVisible();
      await page.getByTestId('editor-discard').getByRole('button', { name: 'Discard' }).click();
      await expect(editor).toBeHidden();
    });

    test('a folder and a selection download as zip archives streamed by the server', async ({
      page,
      seedAdmin,
      request,
    }) => {
      const base = `${mount.path}/zips`;
      await putText(request, token, `${base}/album/第一.txt`, 'one');
      await putText(request, token, `${base}/album/inner/two #2.txt`, 'two');
      await putText(request, token, `${base}/loose.txt`, 'loose');
      await seedAdmin();
      await page.goto(href(base));

      const archive = async (start: () => Promise<void>) => {
        const [download] = await Promise.all([page.waitForEvent('download'), start()]);
        const file = await download.path();
        const listed = execFileSync('unzip', ['-Z1', file], { encoding: 'utf8' }).trim().split('\n').sort();
        execFileSync('unzip', ['-tq', file]);
        return { name: download.suggestedFilename(), listed, file };
      };
      const folder = await archive(async () => {
        await rowNamed(page, 'album').getByTestId('entry-more').click();
        await page.getByTestId('menu-download').click();
      });
      expect(folder.name).toBe('album.zip');
      expect(folder.listed).toEqual(['inner/', 'inner/two #2.txt', '第一.txt']);
      expect(execFileSync('unzip', ['-p', folder.file, '第一.txt'], { encoding: 'utf8' })).toBe('one');

      await rowNamed(page, 'album').click();
      await rowNamed(page, 'loose.txt').click({ modifiers: ['ControlOrMeta'] });
      const selection = await archive(() => page.getByTestId('selection-download').click());
      expect(selection.listed).toEqual([
        'album/',
        'album/inner/',
        'album/inner/two #2.txt',
        'album/第一.txt',
        'loose.txt',
      ]);
    });

    test('a direct link opens the file; the keyboard browses and acts', async ({
      page,
      seedAdmin,
      request,
    }) => {
      const base = `${mount.path}/keys`;
      await makeFolder(request, token, `${base}/inner/`);
      await putText(request, token, `${base}/inner/deep.txt`, 'deep');
      await putText(request, token, `${base}/linked.txt`, 'linked content');
      await seedAdmin();
      await page.goto(href(base));

      await rowNamed(page, 'linked.txt').getByTestId('entry-more').click();
      await page.getByTestId('menu-link').click();
      const dialog = page.getByTestId('link-dialog');
      await dialog.getByTestId('link-create').click();
      const url = (await dialog.getByTestId('link-url').textContent()) ?? '';
      expect(url).toMatch(/^https?:\/\//);
      const fetched = await request.get(url);
      expect(fetched.status()).toBe(200);
      expect(await fetched.text()).toBe('linked content');
      await expect(dialog.getByRole('img')).toBeVisible();
      await page.keyboard.press('Escape');

      // Keyboard only: focus the list, move, open a folder, go back up with Backspace.
      await page.getByTestId('entry-list').focus();
      await page.keyboard.press('Home');
      await expect(rowNamed(page, 'inner')).toHaveAttribute('aria-selected', 'true');
      await page.keyboard.press('Enter');
      await expect(page.getByTestId('crumb-current')).toHaveText('inner');
      await page.getByTestId('entry-list').focus();
      await page.keyboard.press('ArrowDown');
      await expect(rowNamed(page, 'deep.txt')).toHaveAttribute('aria-selected', 'true');
      await page.keyboard.press('Backspace');
      await expect(page.getByTestId('crumb-current')).toHaveText('keys');
      await page.getByTestId('entry-list').focus();
      await page.keyboard.press('ControlOrMeta+a');
      await expect(page.getByTestId('selection-bar')).toContainText('2 selected');
      await page.keyboard.press('Escape');
      await expect(page.getByTestId('selection-bar')).toHaveCount(0);
      await page.keyboard.press('End');
      await page.keyboard.press('Shift+F10');
      await expect(page.getByTestId('explorer-menu')).toBeVisible();
      await expect(page.getByTestId('menu-open')).toBeFocused();
      await page.keyboard.press('Escape');
      await expect(page.getByTestId('explorer-menu')).toHaveCount(0);
    });
  });
}

test.describe('across mounts', () => {
  let mount: TestMount;
  let bucket: TestMount;
  let token: string;
  test.beforeAll(async ({ request, api }) => {
    token = await api.adminToken();
    mount = await localMount(request, token);
    bucket = await s3Mount(request, token);
  });
  test.afterAll(async ({ request }) => {
    await mount.cleanup(request);
    await bucket.cleanup(request);
  });

  test('copy a folder to another mount and move a file, as server tasks shown with their progress', async ({
    page,
    seedAdmin,
    request,
  }) => {
    const base = `${mount.path}/tasks`;
    await putText(request, token, `${base}/album/a.txt`, 'a');
    await putText(request, token, `${base}/album/deep/b.txt`, 'bb');
    await putText(request, token, `${base}/moving.txt`, 'move me');
    await makeFolder(request, token, `${base}/into/`);
    await seedAdmin();
    await page.goto(href(base));

    // A folder cannot go into itself; then it is copied into the bucket's mount.
    await rowNamed(page, 'album').getByTestId('entry-more').click();
    await page.getByTestId('menu-copy').click();
    const picker = page.getByTestId('copy-move-dialog');
    await expect(picker.getByTestId('picker-problem')).toContainText('already in this folder');
    await picker.getByTestId('picker-folder').filter({ hasText: 'album' }).click();
    await expect(picker.getByTestId('picker-problem')).toContainText('cannot go into itself');
    for (let i = 0; i < 3; i++) await picker.getByTestId('picker-up').click();
    await expect(picker.getByTestId('picker-path')).toHaveText('All mounts');
    await expect(picker.getByTestId('picker-confirm')).toBeDisabled();
    await picker
      .getByTestId('picker-folder')
      .filter({ hasText: bucket.path.slice(1) })
      .click();
    await picker.getByTestId('picker-confirm').click();
    const tasks = page.getByTestId('tasks-dialog');
    await expect(tasks.getByTestId('task-card').first()).toHaveAttribute('data-status', 'done', {
      timeout: 30_000,
    });
    await expect(tasks.getByTestId('task-counts').first()).toContainText('2 of 2 files');
    expect(await listNames(request, token, `${bucket.path}/album/deep`)).toEqual(['b.txt']);
    await page.keyboard.press('Escape');

    // Move a file into a subfolder: it leaves this folder, which the page shows without a reload.
    await rowNamed(page, 'moving.txt').click();
    await page.getByTestId('selection-move').click();
    await picker.getByTestId('picker-folder').filter({ hasText: 'into' }).click();
    await picker.getByTestId('picker-confirm').click();
    await expect(tasks.getByTestId('task-card').first()).toHaveAttribute('data-status', 'done', {
      timeout: 30_000,
    });
    await page.keyboard.press('Escape');
    await expect(rowNamed(page, 'moving.txt')).toHaveCount(0);
    expect(await listNames(request, token, `${base}/into`)).toEqual(['moving.txt']);

    // The task list is the server's: it is there after a reload, and a finished task can be removed.
    await page.reload();
    await page.getByTestId('explorer-tasks').click();
    const before = await tasks.getByTestId('task-card').count();
    expect(before).toBeGreaterThanOrEqual(2);
    await tasks.getByTestId('task-remove').first().click();
    await expect(tasks.getByTestId('task-card')).toHaveCount(before - 1);
  });

  test('a failed task is retried for what failed, and finished tasks are cleared', async ({
    page,
    seedAdmin,
    request,
  }) => {
    const base = `${mount.path}/retry-ui`;
    await putText(request, token, `${base}/src/a.txt`, 'first');
    await putText(request, token, `${base}/src/b.txt`, 'second');
    // A folder where a.txt should go: its copy fails.
    fs.mkdirSync(path.join(mount.root!, 'retry-ui', 'out', 'a.txt'), { recursive: true });
    const headers = { Authorization: `Bearer ${token}` };
    const started = await request.post(`${BASE_URL}/api/admin/fs/tasks`, {
      headers,
      data: {
        items: [
          { sourcePath: `${base}/src/a.txt`, targetPath: `${base}/out/a.txt` },
          { sourcePath: `${base}/src/b.txt`, targetPath: `${base}/out/b.txt` },
        ],
      },
    });
    expect(started.status()).toBe(202);
    const { id } = ((await started.json()) as { data: { id: string } }).data;
    await expect
      .poll(async () => {
        const answer = await request.get(`${BASE_URL}/api/admin/fs/tasks/${id}`, { headers });
        return ((await answer.json()) as { data: { status: string } }).data.status;
      })
      .toBe('failed');
    fs.rmSync(path.join(mount.root!, 'retry-ui', 'out', 'a.txt'), { recursive: true });
    // What worked is changed since: a retry that copied it again would undo that.
    fs.writeFileSync(path.join(mount.root!, 'retry-ui', 'out', 'b.txt'), 'changed since');

    await seedAdmin();
    await page.goto(href(base));
    await page.getByTestId('explorer-tasks').click();
    const tasks = page.getByTestId('tasks-dialog');
    const card = tasks.getByTestId('task-card').filter({ hasText: `${base}/src/a.txt` });
    await expect(card).toHaveAttribute('data-status', 'failed');
    await expect(card.getByTestId('task-retry')).toHaveText('Retry what failed');
    await card.getByTestId('task-retry').click();
    await expect(card).toHaveAttribute('data-status', 'done');
    await expect(card.getByTestId('task-retry')).toHaveCount(0);
    expect(fs.readFileSync(path.join(mount.root!, 'retry-ui', 'out', 'a.txt'), 'utf8')).toBe('first');
    expect(fs.readFileSync(path.join(mount.root!, 'retry-ui', 'out', 'b.txt'), 'utf8')).toBe('changed since');

    await tasks.getByTestId('tasks-clear-finished').click();
    await expect(card).toHaveCount(0);
    await expect(page.getByTestId('toast').filter({ hasText: 'finished task' })).toBeVisible();
  });

  test('a key user sees its base path and is sent back to it from elsewhere', async ({
    page,
    api,
    request,
  }) => {
    await putText(request, token, `${mount.path}/team/plan.txt`, 'plan');
    await putText(request, token, `${mount.path}/secret/hidden.txt`, 'no');
    const basePath = `${mount.path}/team`;
    const key = await api.createKey({ mount: true, basicPath: basePath });
    await seedApiKey(page, key, { text: false, file: false, mount: true }, basePath);
    await page.goto(href(`${mount.path}/secret`));
    await expect(page).toHaveURL(href(`${mount.path}/team`));
    await expect(rowNamed(page, 'plan.txt')).toBeVisible();
    await expect(page.getByText('hidden.txt')).toHaveCount(0);
  });

  test('a folder of 10,000 entries renders only the rows on screen and scrolls to the last', async ({
    page,
    seedAdmin,
  }) => {
    const folder = path.join(mount.root!, 'many');
    fs.mkdirSync(folder, { recursive: true });
    for (let i = 0; i < 10_000; i++)
      fs.writeFileSync(path.join(folder, `file-${String(i).padStart(5, '0')}.txt`), '');
    await seedAdmin();
    await page.goto(href(`${mount.path}/many`));
    await expect(rowNamed(page, 'file-00000.txt')).toBeVisible();
    await expect(page.getByTestId('explorer-count')).toHaveText('10000 items');
    expect(await page.getByTestId('entry-row').count()).toBeLessThan(80);
    await page.getByTestId('entry-list').focus();
    await page.keyboard.press('End');
    await expect(rowNamed(page, 'file-09999.txt')).toBeVisible();
    await expect(rowNamed(page, 'file-09999.txt')).toHaveAttribute('aria-selected', 'true');
  });

  for (const [width, height] of [
    [1280, 720],
    [375, 740],
  ] as const) {
    test(`a double click on the last row at the bottom of a ${width} px window opens it; the row never moves between the clicks`, async ({
      page,
      seedAdmin,
    }) => {
      await page.setViewportSize({ width, height });
      const folder = path.join(mount.root!, `bottom-${width}`);
      for (let i = 0; i < 30; i++)
        fs.mkdirSync(path.join(folder, 'dirs', `dir-${String(i).padStart(2, '0')}`), { recursive: true });
      fs.mkdirSync(path.join(folder, 'files'));
      for (let i = 0; i < 30; i++)
        fs.writeFileSync(path.join(folder, 'files', `file-${String(i).padStart(2, '0')}.txt`), 'x');
      await seedAdmin();

      /** Scrolls to the bottom, then double-clicks the last row in two steps, checking it stays put. */
      const doubleClickLast = async (name: string) => {
        const row = rowNamed(page, name);
        // Only the rows on screen are rendered: the last one appears once the page is at its end.
        await expect(page.getByTestId('explorer-count')).toHaveText('30 items');
        await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
        await expect(row).toBeInViewport();
        // The row at the very bottom of the window, where a bar floating there would appear.
        await row.evaluate((element) =>
          window.scrollBy(0, element.getBoundingClientRect().bottom - window.innerHeight),
        );
        await expect(row).toBeInViewport({ ratio: 1 });
        const before = (await row.boundingBox())!;
        const x = before.x + before.width / 3;
        const y = before.y + before.height / 2;
        await page.mouse.click(x, y);
        await expect(row).toHaveAttribute('aria-selected', 'true');
        await expect(page.getByTestId('selection-bar')).toBeVisible();
        expect(await row.boundingBox()).toEqual(before);
        expect(
          await page.evaluate(
            ([px, py]) =>
              document
                .elementFromPoint(px!, py!)
                ?.closest('[data-testid="entry-row"]')
                ?.getAttribute('data-path'),
            [x, y],
          ),
        ).toBe(await row.getAttribute('data-path'));
        await page.mouse.dblclick(x, y);
      };

      await page.goto(href(`${mount.path}/bottom-${width}/dirs`));
      await doubleClickLast('dir-29');
      await expect(page).toHaveURL(href(`${mount.path}/bottom-${width}/dirs/dir-29`));

      await page.goto(href(`${mount.path}/bottom-${width}/files`));
      await doubleClickLast('file-29.txt');
      await expect(page.getByTestId('preview-dialog')).toBeVisible();
      await expect(page).toHaveURL(/preview=file-29\.txt/);
    });
  }

  // The last: a short window, where the bar sits low enough for the toasts at the bottom to meet it.
  for (const [width, height] of [
    [1280, 720],
    [375, 740],
    [1280, 380],
  ] as const) {
    test(`toasts never cover the selection bar's actions (${width}x${height})`, async ({
      page,
      seedAdmin,
    }) => {
      await page.setViewportSize({ width, height });
      const name = `toasts-${width}x${height}`;
      fs.mkdirSync(path.join(mount.root!, name));
      for (let i = 0; i < 20; i++)
        fs.writeFileSync(path.join(mount.root!, name, `file-${String(i).padStart(2, '0')}.txt`), 'x');
      await seedAdmin();
      await page.goto(href(`${mount.path}/${name}`));
      await rowNamed(page, 'file-00.txt').click();
      await rowNamed(page, 'file-01.txt').click({ modifiers: ['Control'] });
      const bar = page.getByTestId('selection-bar');
      await expect(bar).toContainText('2 selected');
      /** The test id of what a click at the middle of an element would hit. */
      const hitAt = async (testId: string) => {
        const box = (await page.getByTestId(testId).boundingBox())!;
        return page.evaluate(
          ([x, y]) =>
            document.elementFromPoint(x!, y!)?.closest('[data-testid]')?.getAttribute('data-testid'),
          [box.x + box.width / 2, box.y + box.height / 2],
        );
      };
      for (const end of [false, true]) {
        await page.evaluate((toEnd) => window.scrollTo(0, toEnd ? document.body.scrollHeight : 0), end);
        // Two entries download as a zip, which a toast announces.
        await page.getByTestId('selection-download').click();
        const toast = page.getByTestId('toast').filter({ hasText: 'zip archive' });
        await expect(toast).toBeVisible();
        expect(await hitAt('selection-delete')).toBe('selection-delete');
        expect(await hitAt('selection-clear')).toBe('selection-clear');
        const toastBox = (await toast.boundingBox())!;
        const barBox = (await bar.boundingBox())!;
        expect(toastBox.y >= barBox.y + barBox.height || toastBox.y + toastBox.height <= barBox.y).toBe(true);
        await toast.getByRole('button').click();
        await expect(toast).toHaveCount(0);
      }
      await page.getByTestId('selection-delete').click();
      await expect(page.getByTestId('delete-dialog')).toBeVisible();
    });
  }

  test('a text file above the 10 MB the editor takes still previews, and its Edit is disabled with the reason', async ({
    page,
    seedAdmin,
  }) => {
    const folder = path.join(mount.root!, 'big-text');
    fs.mkdirSync(folder);
    fs.writeFileSync(path.join(folder, 'huge.txt'), 'x'.repeat(10 * 1024 * 1024 + 1));
    fs.writeFileSync(path.join(folder, 'small.txt'), 'small');
    await seedAdmin();
    await page.goto(`${href(`${mount.path}/big-text`)}?preview=huge.txt`);
    const dialog = page.getByTestId('preview-dialog');
    await expect(dialog.getByTestId('preview-truncated')).toBeVisible();
    await expect(dialog.getByTestId('text-preview')).toContainText('xxxx');
    const edit = dialog.getByTestId('preview-edit');
    await expect(edit).toBeDisabled();
    await expect(edit).toHaveAccessibleDescription(
      'Larger than 10 MB: too large to edit here. Download it to edit it.',
    );
    await expect(dialog.getByTestId('preview-edit-note')).toBeVisible();
    // The next file is small: it can be edited.
    await dialog.getByTestId('preview-next').click();
    await expect(page).toHaveURL(/preview=small\.txt/);
    await expect(edit).toBeEnabled();
    await expect(dialog.getByTestId('preview-edit-note')).toHaveCount(0);
    await edit.click();
    await expect(page.getByTestId('editor-dialog')).toBeVisible();
  });

  test('the phone layout keeps names, actions and the selection usable at 375 px', async ({
    page,
    seedAdmin,
    request,
  }) => {
    await page.setViewportSize({ width: 375, height: 740 });
    await putText(request, token, `${mount.path}/phone/a rather long file name that must be cut.txt`, 'x');
    await seedAdmin();
    await page.goto(href(`${mount.path}/phone`));
    const row = page.getByTestId('entry-row').first();
    await expect(row).toBeVisible();
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(375);
    await row.getByTestId('entry-checkbox').click();
    await expect(page.getByTestId('selection-bar')).toBeVisible();
    await expect(page.getByTestId('selection-delete')).toBeVisible();
  });
});

test.describe('offline', () => {
  test.use({ serviceWorkers: 'allow' });
  let mount: TestMount;
  let token: string;
  test.beforeAll(async ({ request, api }) => {
    token = await api.adminToken();
    mount = await localMount(request, token);
  });
  test.afterAll(async ({ request }) => {
    await mount.cleanup(request);
  });

  test('a folder opened online is listed offline from the copy kept on the device, marked as such', async ({
    page,
    seedAdmin,
    request,
  }) => {
    await putText(request, token, `${mount.path}/travel/ticket.txt`, 'seat 12A');
    await seedAdmin();
    await page.goto(href(`${mount.path}/travel`));
    // The installed app: its worker serves the app's files offline (never the listings).
    await waitForWorker(page);
    await expect(rowNamed(page, 'ticket.txt')).toBeVisible();
    // A fresh page knows nothing in memory: offline, the folder can only come from IndexedDB.
    const fresh = await page.context().newPage();
    await fresh.goto(href(mount.path));
    await expect(rowNamed(fresh, 'travel')).toBeVisible();
    await page.context().setOffline(true);
    try {
      await rowNamed(fresh, 'travel').dblclick();
      await expect(rowNamed(fresh, 'ticket.txt')).toBeVisible();
      await expect(fresh.getByTestId('offline-badge')).toBeVisible();
      // A folder never opened has no copy: the error says so.
      await fresh.getByTestId('explorer-up').click();
      await fresh.getByTestId('explorer-up').click();
      await expect(fresh.getByRole('main').getByRole('alert')).toContainText('Network error');
    } finally {
      await page.context().setOffline(false);
    }
  });
});
