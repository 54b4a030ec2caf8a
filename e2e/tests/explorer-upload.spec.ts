/**
 * Uploading in the mount explorer, on a mount over local disk and one over a radosgw bucket: files
 * picked, a folder picked and files dropped on the page; a file above 5 MiB sent in 5 MiB parts
 * through the server; name conflicts (keep both and skip for all, replace); cancel and retry; a reload
 * in the middle of a multipart upload continued with only the missing parts; and a file share made
 * from a mount file (password and view limit) that leaves the file in the mount; previews of video,
 * audio, PDF and sandboxed HTML. The mounts keep their listings for 5 minutes, as new mounts do: an
 * uploaded folder shows at once, and Refresh shows what was written behind the server's back. In
 * Chinese: the conflict question and the server's refusal of a taken link suffix.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Page, Route } from '@playwright/test';
import { expect, seedStorage, test } from '../support/fixtures.ts';
import {
  explorerHref,
  listNames,
  localMount,
  putFile,
  putText,
  readFile,
  s3Mount,
  type TestMount,
} from '../support/explorer.ts';
import { BASE_URL } from '../support/env.ts';
import { pdfOf, recordWebm, sha256, wavOf } from '../support/files.ts';

const MiB = 1024 * 1024;

/** A file on disk for the pickers (its path, bytes and SHA-256). */
function diskFile(dir: string, name: string, bytes: Buffer) {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, name);
  fs.writeFileSync(file, bytes);
  return { file, bytes, hash: sha256(bytes) };
}

const uploadRow = (page: Page, name: string) =>
  page.getByTestId('fs-upload').and(page.locator(`[data-name="${name}"]`));

/** Part requests of relay uploads, with their part numbers, as the page sends them. */
function watchParts(page: Page): number[] {
  const seen: number[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.endsWith('/fs/multipart/part')) seen.push(Number(url.searchParams.get('partNumber')));
  });
  return seen;
}

/**
 * Holds back the parts numbered `from` and above (they never answer) until `release()`; after it,
 * every part goes through. Releasing never unroutes: removing a route while a page loads can leave
 * the requests paused at that moment waiting forever (Chromium pauses every request while any
 * route is set), and the page then never finishes loading.
 */
async function holdParts(page: Page, from: number) {
  const held: Route[] = [];
  let holding = true;
  await page.route('**/api/admin/fs/multipart/part?**', (route) => {
    const part = Number(new URL(route.request().url()).searchParams.get('partNumber'));
    if (holding && part >= from) held.push(route);
    else void route.continue();
  });
  return {
    held,
    release: () => {
      holding = false;
    },
  };
}

for (const kind of ['local', 's3'] as const) {
  test.describe(`uploads on a ${kind} mount`, () => {
    let mount: TestMount;
    let token: string;
    let dir: string;

    test.beforeAll(async ({ request, api }, info) => {
      token = await api.adminToken();
      // Listings kept for 5 minutes, as a new mount keeps them: every write must still show at once.
      const options = { cacheTtl: 300 };
      mount =
        kind === 'local' ? await localMount(request, token, options) : await s3Mount(request, token, options);
      dir = info.outputPath('files');
    });
    test.afterAll(async ({ request }) => {
      await mount.cleanup(request);
    });

    test('files, a folder and a drop; a large file in 5 MiB parts; conflicts kept both, skipped, replaced', async ({
      page,
      seedAdmin,
      request,
    }) => {
      const base = `${mount.path}/up/`;
      await putText(request, token, `${base}keep.txt`, 'was here first');
      const small = diskFile(dir, 'keep.txt', Buffer.from('a new keep.txt'));
      const other = diskFile(dir, '报告 #1.txt', Buffer.from('第一份'));
      const large = diskFile(dir, 'large.bin', randomBytes(11 * MiB));
      const tree = path.join(dir, 'trip');
      diskFile(path.join(tree, 'day 1'), 'a.txt', Buffer.from('day one'));
      diskFile(tree, 'b.txt', Buffer.from('bee'));
      const parts = watchParts(page);
      await seedAdmin();
      await page.goto(explorerHref(base));

      // keep.txt exists: the conflict is asked; "keep both" makes "keep (1).txt".
      await page.getByTestId('explorer-upload-input').setInputFiles([small.file, other.file]);
      const conflict = page.getByTestId('fs-upload-conflict');
      await expect(conflict).toContainText('keep.txt');
      await conflict.getByTestId('conflict-keep-both').click();
      await expect(uploadRow(page, '报告 #1.txt')).toHaveAttribute('data-status', 'done');
      await expect(uploadRow(page, 'keep (1).txt')).toHaveAttribute('data-status', 'done');
      await expect(page.getByTestId('entry-name').getByText('keep (1).txt', { exact: true })).toBeVisible();
      expect((await readFile(request, token, `${base}keep.txt`)).toString()).toBe('was here first');
      expect((await readFile(request, token, `${base}keep (1).txt`)).toString()).toBe('a new keep.txt');

      // Above 5 MiB: three parts through the server, the bytes intact.
      await page.getByTestId('explorer-upload-input').setInputFiles(large.file);
      await expect(uploadRow(page, 'large.bin')).toHaveAttribute('data-status', 'done', { timeout: 60_000 });
      expect(parts.sort()).toEqual([1, 2, 3]);
      expect(sha256(await readFile(request, token, `${base}large.bin`))).toBe(large.hash);

      // A folder keeps its folders.
      await page.getByTestId('explorer-upload-folder-input').setInputFiles(tree);
      await expect(uploadRow(page, 'a.txt')).toHaveAttribute('data-status', 'done');
      await expect(uploadRow(page, 'b.txt')).toHaveAttribute('data-status', 'done');
      expect((await readFile(request, token, `${base}trip/day 1/a.txt`)).toString()).toBe('day one');
      await expect(page.getByTestId('entry-name').getByText('trip', { exact: true })).toBeVisible();

      // Two conflicts at once, skipped for both: nothing changes.
      await page.getByTestId('explorer-upload-input').setInputFiles([small.file, other.file]);
      await expect(conflict).toBeVisible();
      await conflict.getByTestId('conflict-for-all').check();
      await conflict.getByTestId('conflict-skip').click();
      await expect(conflict).toBeHidden();
      expect((await readFile(request, token, `${base}keep.txt`)).toString()).toBe('was here first');

      // Replace.
      await page.getByTestId('fs-uploads-clear').click();
      await page.getByTestId('explorer-upload-input').setInputFiles(small.file);
      await conflict.getByTestId('conflict-replace').click();
      await expect(uploadRow(page, 'keep.txt')).toHaveAttribute('data-status', 'done');
      expect((await readFile(request, token, `${base}keep.txt`)).toString()).toBe('a new keep.txt');

      // Dropped anywhere on the page.
      await page.evaluate(() => {
        const transfer = new DataTransfer();
        transfer.items.add(new File(['dropped text'], 'dropped.txt', { type: 'text/plain' }));
        const over = new DragEvent('dragover', { dataTransfer: transfer, bubbles: true, cancelable: true });
        document.querySelector('h1')!.dispatchEvent(over);
        document
          .querySelector('h1')!
          .dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
      });
      await expect(uploadRow(page, 'dropped.txt')).toHaveAttribute('data-status', 'done');
      expect((await readFile(request, token, `${base}dropped.txt`)).toString()).toBe('dropped text');
      expect(await listNames(request, token, base)).toEqual(
        ['dropped.txt', 'keep (1).txt', 'keep.txt', 'large.bin', 'trip', '报告 #1.txt'].sort(),
      );
    });

    test('cancelled (not failed) and uploaded again; a reload mid-upload continues with only the missing parts', async ({
      page,
      seedAdmin,
      request,
    }) => {
      const base = `${mount.path}/resume/`;
      await putText(request, token, `${base}.keep`, '');
      const big = diskFile(dir, 'big.bin', randomBytes(16 * MiB + 1234));
      await seedAdmin();
      await page.goto(explorerHref(base));

      // Cancelled while a part hangs: said so (not a failure), no file; uploaded again: stored.
      const cancelled = await holdParts(page, 1);
      await page.getByTestId('explorer-upload-input').setInputFiles(big.file);
      await expect(uploadRow(page, 'big.bin')).toHaveAttribute('data-status', 'uploading');
      await expect(uploadRow(page, 'big.bin').getByRole('progressbar')).toBeVisible();
      await expect.poll(() => cancelled.held.length).toBeGreaterThan(0);
      await uploadRow(page, 'big.bin').getByTestId('fs-upload-cancel').click();
      await expect(uploadRow(page, 'big.bin')).toHaveAttribute('data-status', 'cancelled');
      await expect(uploadRow(page, 'big.bin').getByTestId('fs-upload-status')).toHaveText('Cancelled');
      await expect(uploadRow(page, 'big.bin')).not.toContainText('Failed');
      await expect(uploadRow(page, 'big.bin').getByTestId('fs-upload-retry')).toHaveCount(0);
      cancelled.release();
      expect(await listNames(request, token, base)).not.toContain('big.bin');
      await expect(uploadRow(page, 'big.bin').getByTestId('fs-upload-again')).toHaveText('Upload again');
      await uploadRow(page, 'big.bin').getByTestId('fs-upload-again').click();
      await expect(uploadRow(page, 'big.bin')).toHaveAttribute('data-status', 'done', { timeout: 60_000 });
      expect(sha256(await readFile(request, token, `${base}big.bin`))).toBe(big.hash);

      // Parts 1 and 2 stored, 3 held, then a reload: the same file picked again sends 3 and 4 only.
      const again = diskFile(dir, 'again.bin', randomBytes(16 * MiB + 99));
      const interruptedParts = await holdParts(page, 3);
      const stored = page.waitForResponse(
        (r) => r.url().includes('partNumber=2') && r.url().includes('/multipart/part') && r.ok(),
      );
      const first = page.waitForResponse(
        (r) => r.url().includes('partNumber=1') && r.url().includes('/multipart/part') && r.ok(),
      );
      await page.getByTestId('explorer-upload-input').setInputFiles(again.file);
      await Promise.all([stored, first]);
      // The held parts die with the page; the parts of the reloaded page go through.
      await page.reload();
      interruptedParts.release();
      const parts = watchParts(page);
      const interrupted = page.getByTestId('fs-upload-interrupted-item');
      await expect(interrupted).toContainText('again.bin');
      const chooser = page.waitForEvent('filechooser');
      await interrupted.getByTestId('fs-upload-resume').click();
      await (await chooser).setFiles(again.file);
      await expect(uploadRow(page, 'again.bin')).toHaveAttribute('data-status', 'done', { timeout: 60_000 });
      expect(parts.sort()).toEqual([3, 4]);
      expect(sha256(await readFile(request, token, `${base}again.bin`))).toBe(again.hash);
      await expect(page.getByTestId('fs-upload-interrupted')).toHaveCount(0);
    });

    test('previews of video, audio, PDF and HTML (sandboxed, its scripts never run)', async ({
      page,
      seedAdmin,
      request,
    }) => {
      const base = `${mount.path}/media`;
      await page.goto('/');
      await putFile(request, token, base, 'a-clip.webm', await recordWebm(page), 'video/webm');
      await putFile(request, token, base, 'b-tone.wav', wavOf(), 'audio/wav');
      await putFile(request, token, base, 'c-paper.pdf', pdfOf('Hello PDF'), 'application/pdf');
      await putText(
        request,
        token,
        `${base}/d-page.html`,
        '<!doctype html><title>before</title><h1>Hello HTML</h1><script>document.title="after";parent.document.title="pwned"</script>',
      );
      await seedAdmin();
      await page.goto(`${explorerHref(base)}?preview=a-clip.webm`);
      const preview = page.getByTestId('preview-dialog');
      const player = preview.getByTestId('video-preview');
      await expect.poll(() => player.evaluate((v: HTMLVideoElement) => v.videoWidth)).toBe(64);
      await preview.getByTestId('preview-next').click();
      const sound = preview.getByTestId('audio-preview');
      await expect.poll(() => sound.evaluate((a: HTMLAudioElement) => a.duration)).toBeCloseTo(0.5, 1);
      await preview.getByTestId('preview-next').click();
      await expect(preview.getByTestId('pdf-preview')).toBeVisible();
      await preview.getByTestId('preview-next').click();
      await expect(page).toHaveURL(/\?preview=d-page\.html$/);
      await expect(preview.getByTestId('html-preview')).toHaveAttribute('sandbox', '');
      const frame = page.frameLocator('[data-testid=html-preview]');
      await expect(frame.getByRole('heading', { name: 'Hello HTML' })).toBeVisible();
      await expect(page).not.toHaveTitle('pwned');
    });

    test('a mount file shared with a password and a view limit; the file stays when the share ends', async ({
      page,
      seedAdmin,
      request,
    }) => {
      const base = `${mount.path}/share/`;
      await putText(request, token, `${base}notes.txt`, 'shared notes');
      await seedAdmin();
      await page.goto(explorerHref(base));
      await page.getByTestId('entry-row').first().getByTestId('entry-more').click();
      await page.getByTestId('menu-share').click();
      const dialog = page.getByTestId('share-dialog');
      await dialog.getByLabel('Password', { exact: true }).fill('open sesame');
      await dialog.getByRole('spinbutton', { name: 'Max views' }).fill('1');
      await dialog.getByTestId('share-create').click();
      const url = await dialog.getByTestId('share-url').textContent();
      const slug = url!.split('/file/')[1]!;
      const info = await request.get(`${BASE_URL}/api/public/files/${slug}`);
      const share = ((await info.json()) as { data: { requires_password: boolean; max_views: number } }).data;
      expect(share.requires_password).toBe(true);
      expect(share.max_views).toBe(1);
      // The share deleted from file management: the mount keeps the file.
      const removed = await request.get(`${BASE_URL}/api/admin/files?search=notes.txt`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      const found = ((await removed.json()) as { data: { files: { id: string; slug: string }[] } }).data
        .files;
      const id = found.find((file) => file.slug === slug)!.id;
      const deleted = await request.delete(`${BASE_URL}/api/admin/files/${id}`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      expect(deleted.status()).toBe(200);
      expect((await readFile(request, token, `${base}notes.txt`)).toString()).toBe('shared notes');
    });

    test("an uploaded folder shows at once and after a reload; Refresh shows a file written behind the server's back", async ({
      page,
      seedAdmin,
      request,
    }) => {
      const base = `${mount.path}/cached/`;
      await putText(request, token, `${base}first.txt`, 'first');
      const tree = path.join(dir, 'album');
      diskFile(tree, 'cover.txt', Buffer.from('cover'));
      diskFile(path.join(tree, '2026', 'june'), 'p.txt', Buffer.from('june'));
      const entry = (name: string) => page.getByTestId('entry-name').getByText(name, { exact: true });
      await seedAdmin();
      await page.goto(explorerHref(base));
      await expect(entry('first.txt')).toBeVisible();

      await page.getByTestId('explorer-upload-folder-input').setInputFiles(tree);
      await expect(uploadRow(page, 'p.txt')).toHaveAttribute('data-status', 'done');
      await expect(uploadRow(page, 'cover.txt')).toHaveAttribute('data-status', 'done');
      await expect(entry('album')).toBeVisible();
      await page.reload();
      await expect(entry('album')).toBeVisible();
      await entry('album').dblclick();
      await expect
        .poll(() => page.getByTestId('entry-name').allTextContents())
        .toEqual(['2026', 'cover.txt']);
      await entry('2026').dblclick();
      await expect(entry('june')).toBeVisible();

      // Written straight to the storage: the server's cached listing does not know it, Refresh does.
      await page.goto(explorerHref(base));
      await expect(entry('first.txt')).toBeVisible();
      await mount.writeBehind('cached/outside.txt', 'written elsewhere');
      await page.reload();
      await expect(entry('first.txt')).toBeVisible();
      await expect(entry('outside.txt')).toHaveCount(0);
      const asked = page.waitForRequest(
        (r) => r.url().includes('/fs/list?') && r.url().includes('refresh=true'),
      );
      await page.getByTestId('explorer-refresh').click();
      await asked;
      await expect(entry('outside.txt')).toBeVisible();
      // What Refresh read is what the server keeps now.
      await page.reload();
      await expect(entry('outside.txt')).toBeVisible();
    });
  });
}

test('in Chinese: the conflict question, and a taken link suffix refused with the server message', async ({
  page,
  seedAdmin,
  request,
  api,
}, info) => {
  const token = await api.adminToken();
  const mount = await localMount(request, token);
  try {
    const base = `${mount.path}/zh/`;
    await putText(request, token, `${base}笔记.txt`, '旧的');
    const twin = diskFile(info.outputPath('files'), '笔记.txt', Buffer.from('新的'));
    await seedStorage(page, { language: 'zh-CN' });
    await seedAdmin();
    await page.goto(explorerHref(base));
    await page.getByTestId('explorer-upload-input').setInputFiles(twin.file);
    const conflict = page.getByTestId('fs-upload-conflict');
    await expect(conflict).toContainText('名称已存在');
    await expect(conflict).toContainText('“笔记.txt”已存在于');
    await conflict.getByRole('button', { name: '保留两者' }).click();
    await expect(uploadRow(page, '笔记 (1).txt')).toContainText('已上传');
    expect((await readFile(request, token, `${base}笔记 (1).txt`)).toString()).toBe('新的');

    // A cancelled upload says so, and offers to upload it again.
    const held: Route[] = [];
    await page.route('**/api/admin/fs/upload', (route) => void held.push(route));
    const draft = diskFile(info.outputPath('files'), '草稿.txt', Buffer.from('草稿'));
    await page.getByTestId('explorer-upload-input').setInputFiles(draft.file);
    await expect.poll(() => held.length).toBe(1);
    await uploadRow(page, '草稿.txt').getByRole('button', { name: '取消' }).click();
    await expect(uploadRow(page, '草稿.txt').getByTestId('fs-upload-status')).toHaveText('已取消');
    await expect(uploadRow(page, '草稿.txt').getByTestId('fs-upload-again')).toHaveText('重新上传');
    await page.unrouteAll({ behavior: 'ignoreErrors' });

    const shares = await request.post(`${BASE_URL}/api/admin/fs/share`, {
      headers: { Authorization: `Bearer ${token}` },
      data: { path: `${base}笔记.txt`, slug: `zh-${mount.mountId.slice(0, 8)}` },
    });
    expect(shares.status()).toBe(201);
    await page
      .getByTestId('entry-row')
      .filter({ hasText: '笔记.txt' })
      .first()
      .getByTestId('entry-more')
      .click();
    await page.getByTestId('menu-share').click();
    const dialog = page.getByTestId('share-dialog');
    await dialog.locator('input[name=slug]').fill(`zh-${mount.mountId.slice(0, 8)}`);
    await dialog.getByTestId('share-create').click();
    await expect(dialog.getByRole('alert')).toHaveText('此链接后缀已被其他文件使用');
  } finally {
    await mount.cleanup(request);
  }
});
