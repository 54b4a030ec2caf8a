/**
 * Renders the app icons of the web manifest (public/icons/*.png) from the favicon's drawing with
 * the system Chromium (Playwright). Run once after changing the drawing; the PNGs are committed:
 * `node packages/web/scripts/make-pwa-icons.mjs`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';

const out = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'public', 'icons');
fs.mkdirSync(out, { recursive: true });

const glyph =
  '<path d="M9 11h14v12a2 2 0 0 1-2 2H11a2 2 0 0 1-2-2z" fill="none" stroke="#fff" stroke-width="2.2" stroke-linejoin="round"/>' +
  '<path d="M13 11V9a1 1 0 0 1 1-1h4a1 1 0 0 1 1 1v2" fill="none" stroke="#fff" stroke-width="2.2"/>';
// "any": the rounded square of the favicon. "maskable": full-bleed background, the glyph inside
// the 80% safe zone.
const any = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#4f46e5"/>${glyph}</svg>`;
const maskable = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" fill="#4f46e5"/><g transform="translate(16 16) scale(0.7) translate(-16 -16)">${glyph}</g></svg>`;

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' });
const page = await browser.newPage();
for (const [name, svg, size] of [
  ['icon-192.png', any, 192],
  ['icon-512.png', any, 512],
  ['maskable-512.png', maskable, 512],
  ['apple-touch-icon-180.png', maskable, 180],
]) {
  await page.setViewportSize({ width: size, height: size });
  await page.setContent(
    `<html><body style="margin:0;background:transparent">${svg.replace('<svg ', `<svg width="${size}" height="${size}" `)}</body></html>`,
  );
  await page.locator('svg').screenshot({ path: path.join(out, name), omitBackground: true });
}
await browser.close();
