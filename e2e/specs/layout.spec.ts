import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { shot } from '../support/browser.js';
import { useDemoServer } from '../support/demo.js';
import { DEMO, landOnDashboard, signIn } from '../support/session.js';

const demo = useDemoServer();

/** Every list screen (DataTablePage and the other tables of the inventory and location screens). */
const LISTS = ['/Warehouse', '/User', '/Customer', '/Location', '/OtherLocations', '/SKU', '/Dimensions', '/Move', '/MovePallet',
  '/Adjustment', '/CycleCount', '/ProductReplenishment', '/ProductExpire', '/InventoryReports', '/InBound', '/ROReport',
  '/ROReportDetails', '/ROInward'];
/** Reports whose many columns scroll inside their card at 1440 px (nothing is sticky over them on the right). */
const WIDE_REPORTS = ['/ROReport', '/ROReportDetails', '/ROInward'];

interface Layout {
  page: [number, number];
  /** Title-bar buttons past the right edge of the screen. */
  offscreen: string[];
  /** Per table: its content and visible width, and headings under a column fixed to the right. */
  tables: { scroll: [number, number]; covered: string[] }[];
}

async function layoutOf(page: Page): Promise<Layout> {
  return page.evaluate(() => {
    const doc = document.documentElement;
    const offscreen = Array.from(document.querySelectorAll('.bolx-table__titlebar button, .bolx-page__heading button'))
      .filter((b) => b.getBoundingClientRect().right > doc.clientWidth + 0.5).map((b) => (b as HTMLElement).innerText.trim());
    const tables = Array.from(document.querySelectorAll('.ant-table')).map((table) => {
      const content = table.querySelector('.ant-table-content, .ant-table-body') as HTMLElement;
      const ths = Array.from(table.querySelectorAll('thead th')) as HTMLElement[];
      const stuck = ths.filter((th) => th.classList.contains('ant-table-cell-fix-right')).map((th) => th.getBoundingClientRect());
      const covered = ths.filter((th) => !th.classList.contains('ant-table-cell-fix-right') && th.innerText.trim())
        .filter((th) => stuck.some((s) => th.getBoundingClientRect().right > s.left + 0.5)).map((th) => th.innerText.trim());
      return { scroll: [content.scrollWidth, content.clientWidth] as [number, number], covered };
    });
    return { page: [doc.scrollWidth, doc.clientWidth] as [number, number], offscreen, tables };
  });
}

async function visit(page: Page, path: string) {
  await page.goto(path);
  // Rows, or 'No Record Found' (a list the demo data leaves empty), once the loading placeholder is gone.
  await page.locator('.ant-table-tbody tr.ant-table-row, .ant-table-tbody .ant-empty').first().waitFor();
  await page.locator('.bolx-table__placeholder').first().waitFor({ state: 'detached' });
  await page.waitForTimeout(300); // sticky columns take their place after the first measure
}

describe('list screens at 1440 and 390 px', () => {
  it('at 1440 px every column of a list shows beside its sticky Actions column, none under it', async () => {
    const page = await demo.newPage({ viewport: { width: 1440, height: 900 } });
    await signIn(page, ...DEMO.admin);
    await landOnDashboard(page);
    for (const path of LISTS) {
      await visit(page, path);
      const layout = await layoutOf(page);
      await shot(page, `layout-${path.slice(1)}-1440`);
      expect({ path, page: layout.page[0] <= layout.page[1], offscreen: layout.offscreen }).toEqual({ path, page: true, offscreen: [] });
      for (const table of layout.tables) {
        expect({ path, covered: table.covered }).toEqual({ path, covered: [] });
        if (!WIDE_REPORTS.includes(path)) expect({ path, fits: table.scroll[0] <= table.scroll[1] }).toEqual({ path, fits: true });
      }
    }
    await page.close();
  }, 180_000);

  it('at 390 px no screen scrolls sideways and the title-bar buttons stay on screen; tables scroll inside their card', async () => {
    const page = await demo.newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await signIn(page, ...DEMO.admin);
    await landOnDashboard(page);
    for (const path of LISTS) {
      await visit(page, path);
      const layout = await layoutOf(page);
      await shot(page, `layout-${path.slice(1)}-390`);
      expect({ path, page: layout.page, offscreen: layout.offscreen }).toEqual({ path, page: [390, 390], offscreen: [] });
    }
    await page.close();
  }, 180_000);
});
