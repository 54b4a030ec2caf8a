/**
 * JavaScript the paste view loads before it shows content (docs/testing.md, "Budgets": under
 * 200 KB, goal < 150 KB gzipped). Creates a representative Markdown paste (headings, a table, a
 * task list, a code block, a link) as the admin, opens `/paste/<slug>` in a fresh (cold-cache)
 * context of the system Chromium (browser language zh-CN, the app's default), and sums the JS files
 * requested until the content is visible, each body gzipped here with node:zlib (default level) as a
 * server would send it.
 *
 * Call `measurePasteViewJs(base)` with a server started by `lib/harness.ts`, or run
 * `node --import tsx bench/paste-view-js.ts <base> [admin password]` against any server.
 */
import { pathToFileURL } from 'node:url';
import zlib from 'node:zlib';
import { chromium } from '@playwright/test';
import { ADMIN_PASSWORD } from './lib/harness.ts';

export interface PasteViewJs {
  /** Full URLs, in request order. */
  files: { url: string; gzipBytes: number }[];
  totalGzipBytes: number;
}

const CONTENT = [
  '# Release notes',
  '',
  'A **Markdown** paste with a [link](https://example.com), `inline code` and a list:',
  '',
  '- [x] tables',
  '- [ ] task lists',
  '',
  '## Table',
  '',
  '| name | value |',
  '| --- | --- |',
  '| a | 1 |',
  '',
  '## Code',
  '',
  '```js',
  'console.log("hello");',
  '```',
].join('\n');

async function createPaste(baseUrl: string, password: string): Promise<string> {
  const login = await fetch(`${baseUrl}/api/admin/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password }),
  });
  const token = ((await login.json()) as { data: { token: string } }).data.token;
  const created = await fetch(`${baseUrl}/api/paste`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
    body: JSON.stringify({ content: CONTENT, format: 'markdown', remark: 'bench: paste view JS' }),
  });
  return ((await created.json()) as { data: { slug: string } }).data.slug;
}

export async function measurePasteViewJs(
  baseUrl: string,
  adminPassword = ADMIN_PASSWORD,
): Promise<PasteViewJs> {
  const base = baseUrl.replace(/\/+$/, '');
  const slug = await createPaste(base, adminPassword);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  try {
    // The app's default language (zh-CN, also the larger of the two locale files): only the UI
    // language's texts load with the page.
    const context = await browser.newContext({ locale: 'zh-CN' });
    const page = await context.newPage();
    // When the content first appears, by the page's own clock (a request started after that, such
    // as the lazy highlighter, is not "before it shows content").
    // The moment the content enters the document, taken synchronously on insertion: effects that
    // React runs in the same task (the lazy highlighter's import) come after it. A string, not a
    // function, because a runner that rewrites functions (tsx keeps names with a helper) would
    // break a script that runs in the page.
    await page.addInitScript(`{
      for (const name of ['appendChild', 'insertBefore']) {
        const original = Node.prototype[name];
        Node.prototype[name] = function (...args) {
          const result = original.apply(this, args);
          if (window.__contentAt === undefined && document.querySelector('[data-testid="paste-content"]')) {
            window.__contentAt = performance.now();
          }
          return result;
        };
      }
    }`);
    const bodies = new Map<string, Promise<Buffer>>();
    page.on('response', (response) => {
      if (/\.m?js(?:\?|$)/.test(response.url())) bodies.set(response.url(), response.body());
    });
    await page.goto(`${base}/paste/${encodeURIComponent(slug)}`);
    await page.getByTestId('paste-content').waitFor({ state: 'visible' });
    const urls = await page.evaluate(() => {
      const contentAt = (window as unknown as { __contentAt: number }).__contentAt;
      return performance
        .getEntriesByType('resource')
        .filter((entry) => /\.m?js(?:\?|$)/.test(entry.name) && entry.startTime <= contentAt)
        .map((entry) => entry.name);
    });
    const files: PasteViewJs['files'] = [];
    for (const url of urls) {
      const body = await bodies.get(url);
      if (body) files.push({ url, gzipBytes: zlib.gzipSync(body).length });
    }
    await context.close();
    return { files, totalGzipBytes: files.reduce((sum, file) => sum + file.gzipBytes, 0) };
  } finally {
    await browser.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const result = await measurePasteViewJs(process.argv[2] ?? 'http://127.0.0.1:8787', process.argv[3]);
  for (const file of result.files)
    console.log(`${(file.gzipBytes / 1024).toFixed(1).padStart(7)} KB  ${new URL(file.url).pathname}`);
  console.log(`${(result.totalGzipBytes / 1024).toFixed(1).padStart(7)} KB  total (gzip)`);
}
