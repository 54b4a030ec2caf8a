/**
 * Reading text shares, /paste/:slug (docs/product.md §2 paste view; view counting, password, expiry): the
 * rendered page and its actions, the password gate, max views, expiry through the server clock
 * hook, and editing in place by the creator. The password tests run in this one file, in order,
 * because the server rate-limits wrong passwords per client address.
 */
import { expect, seedApiKey, test, uniqueName } from '../support/fixtures.ts';
import { BASE_URL } from '../support/env.ts';

const MARKDOWN = `# Title

Intro with a [site](https://example.com/page).

## First part

| k | v |
| --- | --- |
| a | 1 |

## Second part

- [ ] todo
`;

test('shows rendered Markdown with its outline, views left and actions (copy, raw, download, QR)', async ({
  page,
  api,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const slug = uniqueName('view');
  await api.createPaste({ content: MARKDOWN, slug, remark: 'Readable notes', maxViews: 5 });
  await page.goto(`/paste/${slug}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Readable notes' })).toBeVisible();
  const content = page.getByTestId('paste-content');
  await expect(content.getByRole('heading', { name: 'First part' })).toBeVisible();
  await expect(content.getByRole('link', { name: 'site' })).toHaveAttribute(
    'rel',
    'noopener noreferrer nofollow',
  );
  await expect(page.getByTestId('paste-facts')).toContainText('Views left: 4');
  await expect(page.getByTestId('paste-facts')).toContainText('Never expires');

  const outline = page.getByTestId('paste-outline');
  await outline.getByRole('link', { name: 'Second part' }).click();
  await expect(page).toHaveURL(/#user-content-second-part$/);

  await page.getByTestId('copy-content').click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(MARKDOWN);
  await expect(page.getByTestId('raw-link')).toHaveAttribute('href', `${BASE_URL}/api/raw/${slug}`);
  const download = page.waitForEvent('download');
  await page.getByTestId('download').click();
  expect((await download).suggestedFilename()).toBe(`${slug}.md`);
  await page.getByTestId('toggle-qr').click();
  await expect(page.getByTestId('qr-code')).toBeVisible();

  // One page view counted one view: focus changes and reloads of data did not count more.
  await page.evaluate(() => window.dispatchEvent(new Event('focus')));
  expect((await api.pasteDetail(slug)).views).toBe(1);
});

test('the outline collapses on a phone', async ({ browser, api }) => {
  const slug = uniqueName('phone');
  await api.createPaste({ content: MARKDOWN, slug });
  const context = await browser.newContext({ viewport: { width: 375, height: 800 } });
  const page = await context.newPage();
  await page.goto(`/paste/${slug}`);
  const outline = page.getByTestId('paste-outline');
  await expect(outline.getByRole('link', { name: 'First part' })).toBeHidden();
  await outline.getByText('Contents').click();
  await expect(outline.getByRole('link', { name: 'First part' })).toBeVisible();
  await context.close();
});

test('unknown links say "not found"', async ({ page }) => {
  await page.goto('/paste/no-such-paste-here');
  await expect(page.getByRole('heading', { level: 1, name: 'Text share not found' })).toBeVisible();
});

test('with max views 2, the third visitor sees the "used up" page', async ({ browser, api }) => {
  const slug = uniqueName('limited');
  await api.createPaste({ content: 'only twice', slug, maxViews: 2, format: 'text' });
  const visit = async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`/paste/${slug}`);
    return { context, page };
  };
  const first = await visit();
  await expect(first.page.getByTestId('paste-content')).toHaveText('only twice');
  await expect(first.page.getByTestId('paste-facts')).toContainText('Views left: 1');
  const second = await visit();
  await expect(second.page.getByTestId('paste-content')).toHaveText('only twice');
  await expect(second.page.getByTestId('last-view')).toBeVisible();
  const third = await visit();
  await expect(
    third.page.getByRole('heading', { level: 1, name: 'This text share is no longer available' }),
  ).toBeVisible();
  await expect(third.page.getByTestId('paste-unavailable-reason')).toContainText('maximum number of views');
  for (const visitor of [first, second, third]) await visitor.context.close();
});

test('an expired share shows the "expired" page (server clock moved forward)', async ({ page, api }) => {
  const now = await api.advanceClock(0);
  const slug = uniqueName('expiring');
  await api.createPaste({
    content: 'soon gone',
    slug,
    expiresAt: new Date(now.getTime() + 60_000).toISOString(),
  });
  await page.goto(`/paste/${slug}`);
  await expect(page.getByTestId('paste-content')).toContainText('soon gone');
  await api.advanceClock(120_000);
  await page.reload();
  await expect(page.getByTestId('paste-gone')).toBeVisible();
  await expect(page.getByTestId('paste-unavailable-reason')).toContainText('expired');
});

test.describe('editing in place', () => {
  test('the admin edits content, remark and suffix; the page shows them without counting a view', async ({
    page,
    api,
    seedAdmin,
  }) => {
    await seedAdmin();
    const slug = uniqueName('editme');
    await api.createPaste({ content: '# Old', slug });
    await page.goto(`/paste/${slug}`);
    await expect(page.getByTestId('paste-content').getByRole('heading', { name: 'Old' })).toBeVisible();
    expect((await api.pasteDetail(slug)).views).toBe(1);

    await page.getByTestId('edit-paste').click();
    const dialog = page.getByTestId('edit-paste-dialog');
    const textarea = dialog.getByRole('textbox', { name: 'Content' });
    await expect(textarea).toHaveValue('# Old');
    await textarea.fill('# New text');
    await dialog.getByRole('textbox', { name: 'Remark' }).fill('edited');
    const renamed = uniqueName('renamed');
    await dialog.getByRole('textbox', { name: 'Custom link suffix' }).fill(renamed);
    await dialog.getByRole('spinbutton', { name: 'Max views' }).fill('10');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog).toBeHidden();

    await expect(page).toHaveURL(`/paste/${renamed}`);
    await expect(page.getByRole('heading', { level: 1, name: 'edited' })).toBeVisible();
    await expect(page.getByTestId('paste-content').getByRole('heading', { name: 'New text' })).toBeVisible();
    await expect(page.getByTestId('paste-facts')).toContainText('Views left: 9');
    expect((await api.pasteDetail(renamed)).views).toBe(1);
  });

  test('the owning key can edit; another key and a visitor see no edit button', async ({ browser, api }) => {
    const owner = await api.createKey({ text: true });
    const other = await api.createKey({ text: true });
    const slug = uniqueName('owned');
    await api.createPaste({ content: 'by the key', slug, format: 'text' }, owner);

    const open = async (key?: typeof owner) => {
      const context = await browser.newContext();
      const page = await context.newPage();
      if (key) await seedApiKey(page, key, { text: true, file: false, mount: false });
      await page.goto(`/paste/${slug}`);
      await expect(page.getByTestId('paste-content')).toBeVisible();
      return { context, page };
    };
    const mine = await open(owner);
    await mine.page.getByTestId('edit-paste').click();
    const dialog = mine.page.getByTestId('edit-paste-dialog');
    await dialog.getByRole('textbox', { name: 'Content' }).fill('changed by its key');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(mine.page.getByTestId('paste-content')).toHaveText('changed by its key');

    const theirs = await open(other);
    await expect(theirs.page.getByTestId('paste-actions')).toBeVisible();
    await expect(theirs.page.getByTestId('edit-paste')).toHaveCount(0);
    const visitor = await open();
    await expect(visitor.page.getByTestId('edit-paste')).toHaveCount(0);
    for (const session of [mine, theirs, visitor]) await session.context.close();
  });
});

test.describe('password-protected shares', () => {
  test('a wrong password is refused without signing out; the right one opens the text', async ({
    page,
    api,
    seedAdmin,
  }) => {
    const token = await seedAdmin();
    const slug = uniqueName('secret');
    await api.createPaste({ content: '**hidden** text', slug, password: 'open sesame' });
    await page.goto(`/paste/${slug}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Password required' })).toBeVisible();
    expect((await api.pasteDetail(slug)).views).toBe(0);

    await page.getByLabel('Password').fill('wrong');
    await page.getByRole('button', { name: 'Open' }).click();
    await expect(page.getByTestId('password-error')).toHaveText('Wrong password');
    expect(await page.evaluate(() => localStorage.getItem('admin_token'))).toBe(token);

    await page.getByLabel('Password').fill('open sesame');
    await page.getByRole('button', { name: 'Open' }).click();
    await expect(page.getByTestId('paste-content').locator('strong')).toHaveText('hidden');
    await expect(page.getByTestId('raw-link')).toHaveAttribute(
      'href',
      `${BASE_URL}/api/raw/${slug}?password=open+sesame`,
    );
    expect(await page.evaluate(() => JSON.stringify({ ...localStorage }))).not.toContain('open sesame');
    expect((await api.pasteDetail(slug)).views).toBe(1);
  });

  test('after five wrong guesses the form says when to try again', async ({ page, api }) => {
    const slug = uniqueName('guarded');
    await api.createPaste({ content: 'x', slug, password: 'right' });
    // Start a fresh one-minute window: the test above guessed wrong once from this address too.
    await api.advanceClock(61_000);
    await page.goto(`/paste/${slug}`);
    const guess = async (password: string) => {
      await page.getByLabel('Password').fill(password);
      const answered = page.waitForResponse(
        (r) => r.url().endsWith(`/api/paste/${slug}`) && r.request().method() === 'POST',
      );
      await page.getByRole('button', { name: 'Open' }).click();
      return (await answered).status();
    };
    // The sixth guess is refused. Tests running beside this one move the server's
    // clock, which may start a new window midway: then it takes a few more.
    const refused: number[] = [];
    for (let i = 0; i < 25 && refused.at(-1) !== 429; i++) refused.push(await guess(`wrong-${i}`));
    expect(refused.at(-1)).toBe(429);
    expect(refused.filter((status) => status !== 429).length).toBeGreaterThanOrEqual(5);
    await expect(page.getByTestId('password-rate-limited')).toContainText(/Try again in \d+ s\./);
    await expect(page.getByRole('button', { name: 'Open' })).toBeDisabled();
    // Let the limit pass on the server so other tests from this address are not refused.
    await api.advanceClock(61_000);
  });
});
