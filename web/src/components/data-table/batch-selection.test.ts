import { describe, expect, it } from 'vitest';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { IntlProvider } from 'react-intl';
import { EN_US } from '../../lib/i18n/en-US';
import { BatchBar } from './BatchBar';
import { NO_SELECTION, actionBlock, batchReducer, batchTarget, matchingKey, type BatchAction, type BatchSelection } from './batch-selection';
import type { ListRequest } from './list-args';

interface Row { id: number; warehouseId: number }
const req = (over: Partial<ListRequest> = {}): ListRequest => ({ filters: { warehouseId: 1 }, searchQuery: '', pageNumber: 2, pageSize: 10, ...over });
const none = NO_SELECTION as BatchSelection<Row>;
const t = (id: string) => id;

describe('batch selection', () => {
  it('keeps picked rows across pages, with the rows antd no longer hands back', () => {
    const page1 = batchReducer(none, { type: 'pick', keys: [1, 2], rows: [{ id: 1, warehouseId: 1 }, { id: 2, warehouseId: 1 }] });
    // On page 2 antd keeps the keys of page 1 but not their rows.
    const page2 = batchReducer(page1, { type: 'pick', keys: [1, 2, 11], rows: [undefined, undefined, { id: 11, warehouseId: 2 }] as unknown as Row[] });
    expect(page2).toEqual({ mode: 'rows', keys: [1, 2, 11], rows: [{ id: 1, warehouseId: 1 }, { id: 2, warehouseId: 1 }, { id: 11, warehouseId: 2 }] });
    expect(batchTarget(page2, req(), 40)).toEqual({ kind: 'rows', keys: [1, 2, 11], rows: page2.rows });
  });

  it('"all matching" hands the action the list request without paging, and its total', () => {
    const all = batchReducer(none, { type: 'allMatching' });
    expect(batchTarget(all, req({ searchQuery: 'A-', sort: { field: 'code', order: 'ascend' } }), 240)).toEqual({
      kind: 'allMatching', total: 240, request: { filters: { warehouseId: 1 }, searchQuery: 'A-', sort: { field: 'code', order: 'ascend' } },
    });
    expect(batchTarget(all, req(), 0)).toBeUndefined();
    expect(batchTarget(batchReducer(all, { type: 'clear' }), req(), 240)).toBeUndefined();
  });

  it('the matching set changes with filters and search, not with paging or sorting', () => {
    const key = matchingKey(req());
    expect(matchingKey(req({ pageNumber: 5, pageSize: 50, sort: { field: 'x', order: 'descend' } }))).toBe(key);
    expect(matchingKey(req({ filters: { warehouseId: 1, type: undefined } }))).toBe(key);
    expect(matchingKey(req({ filters: { warehouseId: 2 } }))).not.toBe(key);
    expect(matchingKey(req({ searchQuery: 'B' }))).not.toBe(key);
  });

  it('an action is blocked with its reason: nothing picked, rows-only on all matching, its own rule', () => {
    const oneWarehouse: BatchAction<Row> = {
      key: 'print', label: 'Print', run: () => undefined,
      disabledReason: (target) => (target.kind === 'rows' && new Set(target.rows.map((r) => r.warehouseId)).size > 1 ? 'one warehouse' : undefined),
    };
    expect(actionBlock(oneWarehouse, undefined, t)).toBe('table.batch.pickFirst');
    expect(actionBlock(oneWarehouse, { kind: 'allMatching', request: { filters: {}, searchQuery: '' }, total: 3 }, t)).toBe('table.batch.rowsOnly');
    expect(actionBlock({ ...oneWarehouse, allMatching: true }, { kind: 'allMatching', request: { filters: {}, searchQuery: '' }, total: 3 }, t)).toBeUndefined();
    expect(actionBlock(oneWarehouse, { kind: 'rows', keys: [1, 11], rows: [{ id: 1, warehouseId: 1 }, { id: 11, warehouseId: 2 }] }, t)).toBe('one warehouse');
    expect(actionBlock(oneWarehouse, { kind: 'rows', keys: [1], rows: [{ id: 1, warehouseId: 1 }] }, t)).toBeUndefined();
  });
});

describe('BatchBar', () => {
  const render = (selection: BatchSelection<Row>, actions: BatchAction<Row>[], total = 40, pageRows = 2) =>
    renderToStaticMarkup(createElement(IntlProvider, { locale: 'en-US', messages: EN_US },
      createElement(BatchBar<Row>, {
        actions, selection, target: batchTarget(selection, req(), total), total, pageRows, onAllMatching: () => undefined, onClear: () => undefined,
      })));
  const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
  const cancel: BatchAction<Row> = { key: 'cancel', label: 'Cancel Tasks', allMatching: true, run: () => undefined };
  const print: BatchAction<Row> = { key: 'print', label: (n) => (n ? `Print ${n} Labels` : 'Print Labels'), run: () => undefined };
  const picked = batchReducer(none, { type: 'pick', keys: [1, 2], rows: [{ id: 1, warehouseId: 1 }, { id: 2, warehouseId: 1 }] });

  it('says nothing is selected and disables the actions', () => {
    const html = render(none, [cancel, print]);
    expect(text(html)).toContain('Select rows to act on them');
    expect(html.match(/<button[^>]*disabled/g)).toHaveLength(2);
  });

  it('counts the picked rows, offers every row matching the filters once the page is picked, and names the count on the actions', () => {
    const html = text(render(picked, [cancel, print]));
    expect(html).toContain('2 rows selected');
    expect(html).toContain('Select all 40 matching the filters');
    expect(html).toContain('Cancel Tasks (2)');
    expect(html).toContain('Print 2 Labels');
  });

  it('with every matching row selected, a picked-rows-only action is disabled', () => {
    const html = render(batchReducer(picked, { type: 'allMatching' }), [cancel, print]);
    expect(text(html)).toContain('All 40 rows matching the filters selected');
    expect(text(html)).toContain('Cancel Tasks (40)');
    expect(html.match(/<button[^>]*disabled[^>]*>(?:(?!<\/button>).)*Print 40 Labels/)).not.toBeNull();
  });
});
