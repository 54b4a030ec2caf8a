/** The rows of the admin text-management list, and its search box. */
import type { Page } from '@playwright/test';

export const rows = (page: Page) => page.getByTestId('paste-row');

export const row = (page: Page, slug: string) => page.locator(`[data-testid=paste-row][data-slug="${slug}"]`);

export async function search(page: Page, text: string): Promise<void> {
  await page.getByTestId('paste-search').fill(text);
}
