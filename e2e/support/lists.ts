import type { Locator, Page } from 'playwright-core';

/**
 * A list's data rows. While a list loads, the table page draws skeleton rows that are table rows too: a test
 * that waits for "a row" and reads it may read a skeleton's empty cells (it did, once in a CI run).
 */
export const rows = (scope: Page | Locator) => scope.locator('.ant-table-tbody tr.ant-table-row:not(:has(.bolx-table__placeholder))');

/** A list screen's first answer is in: data rows, and no loading placeholder left. */
export async function listed(page: Page): Promise<void> {
  await rows(page).first().waitFor();
  await page.locator('.bolx-table__placeholder').first().waitFor({ state: 'detached' });
}
