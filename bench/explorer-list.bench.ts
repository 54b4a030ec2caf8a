/**
 * The mount explorer on a folder of 10,000 files (issue 12: "its first rows show within 1 s of the
 * answer"). A local-disk mount holds the folder; each round opens `/mount-explorer/<mount>/many` as
 * the admin in a fresh context of the system Chromium and reads, by the page's own clock: when the
 * listing's answer ended (its resource timing), when the first row entered the document, and, after
 * End is pressed in the list, how long until the last file's row is there. Prints the medians and
 * writes them to bench/RESULTS.md; never passes or fails. Needs the built web app.
 *
 *   node --import tsx bench/explorer-list.bench.ts
 */
import { chromium } from '@playwright/test';
import {
  adminApi as api,
  adminToken,
  localFolderOfFiles,
  machine,
  median,
  startServer,
  writeSection,
} from './lib/harness.ts';

const FILES = 10_000;
const ROUNDS = 5;

interface Round {
  /** Navigation start → the listing's answer fully received. */
  answerMs: number;
  /** The answer received → the first row in the document. */
  firstRowMs: number;
  /** Rows in the document once the first showed (only those on screen are drawn). */
  rows: number;
  /** End pressed → the last file's row in the document. */
  endMs: number;
}

// A string, not a function: tsx rewrites functions with helpers that do not exist in the page.
const FIRST_ROW_WATCH = `{
  new MutationObserver((_, observer) => {
    if (document.querySelector('[data-testid="entry-row"]')) {
      window.__firstRowAt = performance.now();
      observer.disconnect();
    }
  }).observe(document, { childList: true, subtree: true });
}`;

export async function benchExplorerList(): Promise<void> {
  const server = await startServer();
  const rounds: Round[] = [];
  try {
    const token = await adminToken(server.base);
    const { configId } = await localFolderOfFiles(server, token, 'many', FILES);
    await api(server, token, '/api/admin/mounts', {
      name: 'bench explorer',
      storage_config_id: configId,
      mount_path: '/bench-explorer',
      cache_ttl: 3600,
    });

    const browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
    });
    try {
      // One warm-up round (fills the server's listing cache and the disk cache), then the measured ones.
      for (let round = 0; round <= ROUNDS; round++) {
        const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 900 } });
        await context.addInitScript(`localStorage.setItem('admin_token', ${JSON.stringify(token)});`);
        const page = await context.newPage();
        await page.addInitScript(FIRST_ROW_WATCH);
        await page.goto(`${server.base}/mount-explorer/bench-explorer/many`);
        const first = page.getByTestId('entry-row').first();
        await first.waitFor({ state: 'visible', timeout: 60_000 });
        const timing = await page.evaluate(() => {
          const answer = performance
            .getEntriesByType('resource')
            .filter((entry) => entry.name.includes('/fs/list?'))
            .at(-1) as PerformanceResourceTiming | undefined;
          return {
            answerEnd: answer?.responseEnd ?? NaN,
            firstRowAt: (window as unknown as { __firstRowAt?: number }).__firstRowAt ?? NaN,
            rows: document.querySelectorAll('[data-testid="entry-row"]').length,
          };
        });
        await page.getByTestId('entry-list').focus();
        const endStart = await page.evaluate(() => performance.now());
        await page.keyboard.press('End');
        await page
          .locator('[data-testid="entry-row"]', { hasText: `file-${String(FILES - 1).padStart(5, '0')}.txt` })
          .waitFor({ state: 'visible' });
        const endMs = (await page.evaluate(() => performance.now())) - endStart;
        await context.close();
        if (round === 0) continue;
        rounds.push({
          answerMs: timing.answerEnd,
          firstRowMs: timing.firstRowAt - timing.answerEnd,
          rows: timing.rows,
          endMs,
        });
      }
    } finally {
      await browser.close();
    }
  } finally {
    await server.stop();
  }

  const ms = (pick: (r: Round) => number) => median(rounds.map(pick)).toFixed(0);
  const table = [
    '| folder | answer received ms | answer → first row ms | rows drawn | End → last row ms |',
    '|---|---|---|---|---|',
    `| ${FILES.toLocaleString('en')} files, local disk | ${ms((r) => r.answerMs)} | ${ms((r) => r.firstRowMs)} | ${median(rounds.map((r) => r.rows))} | ${ms((r) => r.endMs)} |`,
  ].join('\n');
  console.log(table);
  writeSection(
    'Mount explorer: a folder of 10,000 files',
    `Run ${new Date().toISOString().slice(0, 10)} on ${machine()}. \`/mount-explorer/<mount>/many\` opened as ` +
      `the admin in a fresh context of the system Chromium at 1280 × 900 (medians of ${ROUNDS} rounds after ` +
      `a warm-up, listing cached by the server), by the page's clock: navigation start → the listing's answer ` +
      `received; answer → the first row in the document; End pressed in the list → the last file's row. ` +
      `Goal (issue 12): first rows within 1 s of the answer.\n\n${table}`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) await benchExplorerList();
