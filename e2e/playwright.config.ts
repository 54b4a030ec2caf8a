/**
 * Browser tests: the built web app served by the real server (fresh temp DATA_DIR, port 8790,
 * known admin credentials), driven by the system Chromium. Run from the repo root with
 * `npx playwright test -c e2e/playwright.config.ts`.
 *
 * The `account` project changes the admin's credentials, which ends every admin session, so it runs
 * after all other tests; the projects between main and it have other server-wide effects.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';
import { ADMIN_PASSWORD, ADMIN_USERNAME, BASE_URL, PORT } from './support/env.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '..');

// Created once in the runner process; workers inherit the variable instead of making their own.
if (!process.env.CUBBY_E2E_DATA_DIR) {
  process.env.CUBBY_E2E_DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'cubby-e2e-'));
}

export default defineConfig({
  testDir: './tests',
  outputDir: './test-results/output',
  workers: 2,
  fullyParallel: false,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [
    ['list'],
    ['json', { outputFile: process.env.PLAYWRIGHT_JSON_OUTPUT_FILE ?? 'test-results/e2e.json' }],
  ],
  globalTeardown: './support/global-teardown.ts',
  use: {
    baseURL: BASE_URL,
    locale: 'en-US',
    trace: 'retain-on-failure',
    // The app's service worker would answer requests that tests intercept with page.route; only
    // the installable-app tests (pwa*.spec.ts) allow it.
    serviceWorkers: 'block',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  // Tests with server-wide effects run after the main project, one project at a time: turning
  // Office preview on changes every Office file's page, clearing expired shares deletes other tests'
  // used-up shares, and the account tests change the admin.
  projects: [
    {
      name: 'main',
      testIgnore:
        /(account|pastes-clear-expired|office-preview|two-factor|share-policy|upload-limit)\.spec\.ts/,
      use: { browserName: 'chromium' },
    },
    {
      // Sets a share policy, which binds every upload and share on the server while it lasts.
      name: 'share-policy',
      testMatch: /share-policy\.spec\.ts/,
      dependencies: ['main'],
      use: { browserName: 'chromium' },
    },
    {
      // Lowers the largest upload to 1 KB for a while (and the share policy's test reads it).
      name: 'upload-limit',
      testMatch: /upload-limit\.spec\.ts/,
      dependencies: ['share-policy'],
      use: { browserName: 'chromium' },
    },
    {
      name: 'office-preview',
      testMatch: /office-preview\.spec\.ts/,
      dependencies: ['upload-limit'],
      use: { browserName: 'chromium' },
    },
    {
      name: 'clear-expired',
      testMatch: /pastes-clear-expired\.spec\.ts/,
      dependencies: ['office-preview'],
      use: { browserName: 'chromium' },
    },
    {
      // Requires two-factor sign-in of everyone for a while: no other test may sign in meanwhile.
      name: 'two-factor',
      testMatch: /two-factor\.spec\.ts/,
      dependencies: ['clear-expired'],
      use: { browserName: 'chromium' },
    },
    {
      name: 'account',
      testMatch: /account\.spec\.ts/,
      dependencies: ['two-factor'],
      use: { browserName: 'chromium' },
    },
  ],
  webServer: {
    // `npm test` builds once before Playwright starts and sets CUBBY_SKIP_BUILD.
    command: `${process.env.CUBBY_SKIP_BUILD ? '' : 'npm run build -w @cubby/web && '}node --import tsx packages/server/src/main.ts`,
    cwd: repoRoot,
    url: `${BASE_URL}/api/health`,
    timeout: 180_000,
    reuseExistingServer: process.env.E2E_REUSE_SERVER === '1',
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      DATA_DIR: process.env.CUBBY_E2E_DATA_DIR,
      PORT: String(PORT),
      HOST: '127.0.0.1',
      ADMIN_USERNAME,
      ADMIN_PASSWORD,
      LOG_LEVEL: 'warn',
      // Lets expiry tests move the server clock (POST /api/__test__/clock).
      CUBBY_TEST_HOOKS: '1',
    },
  },
});
