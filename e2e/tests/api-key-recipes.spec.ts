/**
 * Recipes for a new API key (issue 10 item 11): after creating a key in the admin UI, the dialog
 * shows curl commands and ShareX uploaders with the key and this server filled in. The copied curl
 * commands are run as they are (`sh` with /usr/bin/curl, in a folder holding the sample file) and
 * must create the shares; the downloaded .sxcu files must name the right route, key and answer
 * fields, and the file uploader is then used the way ShareX would use it.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { expect, test, uniqueName, type Api } from '../support/fixtures.ts';
import { downloadBytes, pngOf, publicFile, type FileShareData } from '../support/files.ts';
import { BASE_URL } from '../support/env.ts';

/** Creates a key in the admin UI; returns the "created" dialog and the key. */
async function createKey(page: Page, name: string, permissions: ('Text' | 'Files' | 'Mounts')[]) {
  await page.goto('/admin/key-management');
  await page.getByRole('button', { name: 'New API key' }).click();
  const form = page.getByRole('dialog', { name: 'New API key' });
  await form.getByRole('textbox', { name: 'Name' }).fill(name);
  for (const permission of permissions) await form.getByRole('checkbox', { name: permission }).check();
  await form.getByRole('button', { name: 'Create key' }).click();
  const dialog = page.getByRole('dialog', { name: 'API key created' });
  const secret = await dialog.getByTestId('created-key').inputValue();
  return { dialog, secret };
}

/** Clicks a recipe's copy button; returns the clipboard once it holds a command for `route`. */
async function copyRecipe(page: Page, dialog: Locator, id: string, route: string): Promise<string> {
  await dialog.getByTestId(`copy-recipe-${id}`).click();
  const clipboard = () => page.evaluate(() => navigator.clipboard.readText());
  await expect.poll(clipboard).toContain(`${BASE_URL}${route}'`);
  return clipboard();
}

/** Runs a copied command as a user would in a shell, with the real curl; returns its JSON answer. */
function runCommand(
  command: string,
  cwd: string,
): Record<string, unknown> & { data: Record<string, unknown> } {
  const out = execFileSync('/bin/sh', ['-c', command], {
    cwd,
    encoding: 'utf8',
    env: { PATH: '/usr/bin:/bin', HOME: cwd },
    // curl's progress meter goes to stderr when its output is not a terminal.
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return JSON.parse(out) as Record<string, unknown> & { data: Record<string, unknown> };
}

/** Downloads one of the dialog's .sxcu files; returns its name and parsed JSON. */
async function downloadSxcu(page: Page, dialog: Locator, testId: string) {
  const download = page.waitForEvent('download');
  await dialog.getByTestId(testId).click();
  const file = await download;
  const text = fs.readFileSync((await file.path())!, 'utf8');
  return { filename: file.suggestedFilename(), json: JSON.parse(text) as Record<string, unknown> };
}

/** Sends a request the way ShareX does with this uploader: its method, URL and headers. */
function sendAsSharex(
  uploader: Record<string, unknown>,
  body: BodyInit,
  headers: Record<string, string> = {},
) {
  return fetch(String(uploader.RequestURL), {
    method: String(uploader.RequestMethod),
    headers: { ...(uploader.Headers as Record<string, string>), ...headers },
    body,
  });
}

async function deleteKeyNamed(api: Api, name: string) {
  const key = (await api.listKeys()).find((k) => k.name === name);
  if (key) await api.deleteKey(String(key.id));
}

test.beforeEach(async ({ seedAdmin, context }) => {
  await seedAdmin();
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
});

test('a new key with files and text: the copied curl commands work, the ShareX uploaders are right', async ({
  page,
  request,
  api,
}) => {
  const name = uniqueName('recipes');
  const { dialog, secret } = await createKey(page, name, ['Text', 'Files']);
  const workdir = fs.mkdtempSync(path.join(os.tmpdir(), 'cubby-recipes-'));
  try {
    const recipes = dialog.getByTestId('key-recipes');
    await expect(recipes.getByRole('heading', { name: 'Use this key' })).toBeVisible();
    // The raw-body upload is offered too, filled in the same way.
    const direct = recipes.getByTestId('recipe-curl-upload-direct');
    await expect(direct).toContainText(`${BASE_URL}/api/upload-direct/photo.png`);
    await expect(direct).toContainText(secret);

    // The form upload, run exactly as copied, creates the share.
    const upload = await copyRecipe(page, recipes, 'curl-upload', '/api/upload');
    expect(upload).toContain(secret);
    const png = pngOf(12, 9);
    fs.writeFileSync(path.join(workdir, 'photo.png'), png);
    const uploaded = runCommand(upload, workdir);
    expect(uploaded.success).toBe(true);
    const slug = String(uploaded.data.slug);
    expect(uploaded.data.url).toBe(`/file/${slug}`);
    const share = (await publicFile(request, slug)) as FileShareData;
    expect(share.filename).toBe('photo.png');
    expect(await downloadBytes(request, slug)).toEqual(png);

    // The text share, run as copied.
    const paste = await copyRecipe(page, recipes, 'curl-paste', '/api/paste');
    const pasted = runCommand(paste, workdir);
    expect(pasted.success).toBe(true);
    expect((await api.pasteDetail(String(pasted.data.slug))).content).toBe('Hello from curl');

    // ShareX, files: the fields it needs, and the answer fields that hold the link.
    const files = await downloadSxcu(page, recipes, 'download-sxcu-files');
    expect(files.filename).toBe('cubby-127.0.0.1-' + new URL(BASE_URL).port + '-files.sxcu');
    expect(files.json).toEqual({
      Version: '14.0.0',
      Name: `Cubby (${new URL(BASE_URL).host})`,
      DestinationType: 'ImageUploader, FileUploader',
      RequestMethod: 'POST',
      RequestURL: `${BASE_URL}/api/upload`,
      Headers: { Authorization: `ApiKey ${secret}` },
      Body: 'MultipartFormData',
      FileFormName: 'file',
      URL: `${BASE_URL}{json:data.url}`,
      ErrorMessage: '{json:message}',
    });
    // Used as ShareX uses it: a multipart POST, then the link read from the answer.
    const form = new FormData();
    form.set(String(files.json.FileFormName), new Blob([new Uint8Array(png)]), 'screenshot.png');
    const answer = await sendAsSharex(files.json, form);
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as { data: { url: string } };
    const link = String(files.json.URL).replace('{json:data.url}', body.data.url);
    await page.goto(link);
    await expect(page.getByRole('heading', { level: 1, name: 'screenshot.png' })).toBeVisible();
  } finally {
    fs.rmSync(workdir, { recursive: true, force: true });
    await deleteKeyNamed(api, name);
  }
});

test('the text uploader posts JSON to /api/paste; a key without files gets no upload recipe', async ({
  page,
  api,
}) => {
  const name = uniqueName('text-recipes');
  const { dialog, secret } = await createKey(page, name, ['Text']);
  try {
    const recipes = dialog.getByTestId('key-recipes');
    await expect(recipes.getByTestId('recipe-curl-paste')).toBeVisible();
    await expect(recipes.getByTestId('recipe-curl-upload')).toHaveCount(0);
    await expect(recipes.getByTestId('download-sxcu-files')).toHaveCount(0);
    const text = await downloadSxcu(page, recipes, 'download-sxcu-text');
    expect(text.json).toMatchObject({
      DestinationType: 'TextUploader',
      RequestMethod: 'POST',
      RequestURL: `${BASE_URL}/api/paste`,
      Headers: { Authorization: `ApiKey ${secret}` },
      Body: 'JSON',
      Data: '{"content":"{input}","format":"text"}',
      URL: `${BASE_URL}/paste/{json:data.slug}`,
    });
    // ShareX fills {input} JSON-encoded; the server takes it and answers data.slug.
    const content = 'clipboard "text" from ShareX';
    const answer = await sendAsSharex(
      text.json,
      String(text.json.Data).replace('{input}', JSON.stringify(content).slice(1, -1)),
      { 'Content-Type': 'application/json' },
    );
    expect(answer.status).toBe(201);
    const slug = ((await answer.json()) as { data: { slug: string } }).data.slug;
    expect((await api.pasteDetail(slug)).content).toBe(content);
  } finally {
    await deleteKeyNamed(api, name);
  }
});

test('a key with neither files nor text nor mounts gets no recipes', async ({ page, api }) => {
  const name = uniqueName('no-rights');
  const { dialog } = await createKey(page, name, []);
  try {
    await expect(dialog.getByTestId('created-key')).toBeVisible();
    await expect(dialog.getByTestId('key-recipes')).toHaveCount(0);
  } finally {
    await deleteKeyNamed(api, name);
  }
});

test('a key with mounts gets its WebDAV address and an rclone remote that signs in with it', async ({
  page,
  api,
}) => {
  const name = uniqueName('mount-only');
  const { dialog, secret } = await createKey(page, name, ['Mounts']);
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'cubby-rclone-'));
  try {
    await expect(dialog.getByTestId('recipe-curl-upload')).toHaveCount(0);
    await expect(dialog.getByTestId('download-sxcu-files')).toHaveCount(0);
    await expect(dialog.getByTestId('recipe-webdav-url')).toContainText(`${BASE_URL}/dav/`);
    // The address takes the key as username and password.
    const listing = await fetch(`${BASE_URL}/dav/`, {
      method: 'PROPFIND',
      headers: {
        Depth: '0',
        Authorization: `Basic ${Buffer.from(`${secret}:${secret}`).toString('base64')}`,
      },
    });
    expect(listing.status).toBe(207);
    await dialog.getByTestId('copy-recipe-rclone').click();
    const clipboard = () => page.evaluate(() => navigator.clipboard.readText());
    await expect.poll(clipboard).toContain('rclone config create');
    // Run as copied, with the real rclone and its own config file: the remote is made and lists.
    execFileSync('/bin/sh', ['-c', await clipboard()], {
      cwd: home,
      env: { PATH: '/usr/bin:/bin', HOME: home, RCLONE_CONFIG: path.join(home, 'rclone.conf') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    expect(fs.readFileSync(path.join(home, 'rclone.conf'), 'utf8')).toContain('type = webdav');
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
    await deleteKeyNamed(api, name);
  }
});
