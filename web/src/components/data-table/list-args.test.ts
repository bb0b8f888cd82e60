import { describe, expect, it } from 'vitest';
import {
  booleanFilterOption, booleanFilterValue, buildListArgs, cleanFilters, initialTableState, lastValidPage, pageRange, tableReducer, warehouseAndCustomerScope, warehouseScope,
} from './list-args';

describe('table state', () => {
  it('starts on page 1 with 10 rows a page (spec section 3, Table state)', () => {
    expect(initialTableState()).toEqual({ currentPage: 1, pageSize: 10, searchQuery: '', filters: {} });
  });

  it('moves between pages, and goes back to page 1 when the page size changes', () => {
    let s = tableReducer(initialTableState(), { type: 'page', page: 3, pageSize: 10 });
    expect(s.currentPage).toBe(3);
    s = tableReducer(s, { type: 'page', page: 3, pageSize: 50 });
    expect(s).toMatchObject({ currentPage: 1, pageSize: 50 });
    expect(tableReducer(s, { type: 'page', page: 0, pageSize: 50 }).currentPage).toBe(1);
  });

  it('goes back to page 1 on a new search, filter, sort or header selection', () => {
    const on3 = initialTableState({ currentPage: 3 });
    expect(tableReducer(on3, { type: 'search', searchQuery: ' newark ' })).toMatchObject({ currentPage: 1, searchQuery: 'newark' });
    expect(tableReducer(on3, { type: 'filter', key: 'role', value: 'Client' })).toMatchObject({ currentPage: 1, filters: { role: 'Client' } });
    expect(tableReducer(on3, { type: 'sort', field: 'username', order: 'descend' })).toMatchObject({
      currentPage: 1, sort: { field: 'username', order: 'descend' },
    });
    expect(tableReducer(on3, { type: 'scopeChanged' }).currentPage).toBe(1);
  });

  it('keeps the page when the search text is the same after trimming', () => {
    const s = initialTableState({ currentPage: 2, searchQuery: 'abc' });
    expect(tableReducer(s, { type: 'search', searchQuery: 'abc ' })).toBe(s);
  });

  it('clears the sort when the column is sorted a third time (no order)', () => {
    const s = initialTableState({ sort: { field: 'username', order: 'ascend' } });
    expect(tableReducer(s, { type: 'sort', field: 'username', order: null }).sort).toBeUndefined();
  });

  it('clears filters and search together', () => {
    const s = initialTableState({ currentPage: 4, searchQuery: 'x', filters: { role: 'Client' } });
    expect(tableReducer(s, { type: 'clearFilters' })).toMatchObject({ currentPage: 1, searchQuery: '', filters: {} });
  });
});

describe('list call body', () => {
  it('is {filters, searchQuery, pageNumber, pageSize, sort} with unset filters left out', () => {
    const s = initialTableState({ currentPage: 2, pageSize: 20, searchQuery: 'abc', filters: { role: 'Client', isActive: undefined, country: '' }, sort: { field: 'username', order: 'ascend' } });
    expect(buildListArgs(s)).toEqual({
      filters: { role: 'Client' }, searchQuery: 'abc', pageNumber: 2, pageSize: 20, sort: { field: 'username', order: 'ascend' },
    });
  });

  it('has no sort key when the list is unsorted', () => {
    expect(buildListArgs(initialTableState())).toEqual({ filters: {}, searchQuery: '', pageNumber: 1, pageSize: 10 });
  });

  it('adds the header selection, which a filter the user picked overrides', () => {
    const scope = warehouseScope({ warehouseId: 2, customerId: 0 });
    expect(buildListArgs(initialTableState(), scope).filters).toEqual({ warehouseId: 2 });
    expect(buildListArgs(initialTableState({ filters: { warehouseId: 3 } }), scope).filters).toEqual({ warehouseId: 3 });
  });

  it('treats warehouse 0/null and customer 0 as all', () => {
    expect(warehouseScope({ warehouseId: 0, customerId: 5 })).toEqual({});
    expect(warehouseScope({ warehouseId: null, customerId: 0 })).toEqual({});
    expect(warehouseAndCustomerScope({ warehouseId: 1, customerId: 5 })).toEqual({ warehouseId: 1, customerId: 5 });
    expect(warehouseAndCustomerScope({ warehouseId: 0, customerId: 0 })).toEqual({});
  });

  it('keeps false and 0 filter values', () => {
    expect(cleanFilters({ a: false, b: 0, c: null as never, d: '' })).toEqual({ a: false, b: 0 });
  });
});

describe('paging helpers', () => {
  it('names the rows a page shows', () => {
    expect(pageRange(1, 10, 42)).toEqual([1, 10]);
    expect(pageRange(5, 10, 42)).toEqual([41, 42]);
    expect(pageRange(1, 10, 0)).toEqual([0, 0]);
  });

  it('steps back when the last page is emptied', () => {
    expect(lastValidPage(5, 10, 40)).toBe(4);
    expect(lastValidPage(2, 10, 0)).toBe(1);
    expect(lastValidPage(2, 10, 35)).toBe(2);
  });
});

describe('boolean filters', () => {
  it("send a JSON boolean, not the select's string, and show it back as the select's option", () => {
    expect(booleanFilterValue('true')).toBe(true);
    expect(booleanFilterValue('false')).toBe(false);
    expect(booleanFilterValue(undefined)).toBeUndefined();
    expect(booleanFilterOption(true)).toBe('true');
    expect(booleanFilterOption(false)).toBe('false');
    expect(booleanFilterOption(undefined)).toBeUndefined();
    // false is a value the user picked, so it stays in the body
    expect(buildListArgs(initialTableState({ filters: { isKit: booleanFilterValue('false') } })).filters).toEqual({ isKit: false });
  });
});
