import { describe, expect, it } from 'vitest';
import { applyLiveChange, concernsOpenSku, hasActiveFilters, viewOf, type ListData } from './list-rules';

interface Row {
  uniqueid: number;
  name: string;
}
const idOf = (r: Row) => r.uniqueid;
const row = (uniqueid: number, name = `row ${uniqueid}`): Row => ({ uniqueid, name });
const page = (items: Row[], totalCount = items.length) => ({ items, totalCount });
const plain = { pageNumber: 1, pageSize: 10, filtered: false };

describe('applyLiveChange: an add or update event', () => {
  it('replaces a listed record in place, matched by unique id, and keeps the count', () => {
    const list = page([row(1), row(2), row(3)], 30);
    const { next, reload } = applyLiveChange(list, { type: 'upsert', item: row(2, 'renamed') }, plain, idOf);
    expect(next).toEqual(page([row(1), row(2, 'renamed'), row(3)], 30));
    expect(reload).toBe(false);
    expect(list.items[1].name).toBe('row 2'); // the cached answer is not mutated
  });

  it('matches ids whatever their type (7 and "7" are one record)', () => {
    const list = page([row(7)]);
    const { next } = applyLiveChange(list, { type: 'upsert', item: { uniqueid: '7' as unknown as number, name: 'x' } }, plain, idOf);
    expect((next as { items: Row[] }).items).toHaveLength(1);
  });

  it('puts a new record at the top of page 1 and raises the total by 1', () => {
    const { next, reload } = applyLiveChange(page([row(1), row(2)], 2), { type: 'upsert', item: row(9) }, plain, idOf);
    expect(next).toEqual(page([row(9), row(1), row(2)], 3));
    expect(reload).toBe(false);
  });

  it('keeps a full page at its page size: the last row moves on to page 2', () => {
    const full = page([row(1), row(2), row(3)], 7);
    const { next } = applyLiveChange(full, { type: 'upsert', item: row(9) }, { ...plain, pageSize: 3 }, idOf);
    expect(next).toEqual(page([row(9), row(1), row(2)], 8));
  });

  it('does not insert on later pages, but the total still counts the new record', () => {
    const list = page([row(11), row(12)], 12);
    const { next, reload } = applyLiveChange(list, { type: 'upsert', item: row(99) }, { ...plain, pageNumber: 2 }, idOf);
    expect(next).toEqual(page([row(11), row(12)], 13));
    expect(reload).toBe(false);
  });

  it('reloads instead of inserting while filters or a search are active', () => {
    const list = page([row(1)], 1);
    const { next, reload } = applyLiveChange(list, { type: 'upsert', item: row(9) }, { ...plain, filtered: true }, idOf);
    expect(next).toBe(list);
    expect(reload).toBe(true);
  });

  it('with filters active still replaces a listed record at once, then reloads (it may no longer match)', () => {
    const { next, reload } = applyLiveChange(page([row(1)]), { type: 'upsert', item: row(1, 'new') }, { ...plain, filtered: true }, idOf);
    expect(next).toEqual(page([row(1, 'new')]));
    expect(reload).toBe(true);
  });

  it('puts a new record at the top of a plain (per-SKU) array list', () => {
    const { next } = applyLiveChange<Row>([row(1)], { type: 'upsert', item: row(2) }, plain, idOf);
    expect(next).toEqual([row(2), row(1)]);
  });
});

describe('applyLiveChange: the notify flag (a local edit)', () => {
  it('replaces the entry with the updated record and does not reload an unfiltered list', () => {
    const { next, reload } = applyLiveChange(page([row(1), row(2)]), { type: 'upsert', item: row(2, 'edited'), notify: true }, plain, idOf);
    expect(next).toEqual(page([row(1), row(2, 'edited')]));
    expect(reload).toBe(false);
  });

  it('reloads the list when filters or a search query are active', () => {
    const { next, reload } = applyLiveChange(page([row(2)]), { type: 'upsert', item: row(2, 'edited'), notify: true }, { ...plain, filtered: true }, idOf);
    expect(next).toEqual(page([row(2, 'edited')]));
    expect(reload).toBe(true);
  });

  it('never inserts: a record that is not listed leaves the list as it is', () => {
    const list = page([row(1)], 1);
    const { next, reload } = applyLiveChange(list, { type: 'upsert', item: row(5), notify: true }, plain, idOf);
    expect(next).toBe(list);
    expect(reload).toBe(false);
  });
});

describe('applyLiveChange: a delete event', () => {
  it('removes the record by id and lowers the total', () => {
    const { next, reload } = applyLiveChange(page([row(1), row(2), row(3)], 3), { type: 'delete', id: 2 }, plain, idOf);
    expect(next).toEqual(page([row(1), row(3)], 2));
    expect(reload).toBe(false);
  });

  it('removes from a plain array list', () => {
    expect(applyLiveChange<Row>([row(1), row(2)], { type: 'delete', id: 1 }, plain, idOf).next).toEqual([row(2)]);
  });

  it('leaves the list untouched when the record is not on it', () => {
    const list: ListData<Row> = page([row(1)], 5);
    expect(applyLiveChange(list, { type: 'delete', id: 42 }, plain, idOf).next).toBe(list);
  });
});

describe('hasActiveFilters', () => {
  it('is false for a plain list request, whatever its page and sort', () => {
    expect(hasActiveFilters({ filters: {}, searchQuery: '', pageNumber: 3, pageSize: 50, sort: { field: 'name', order: 'ascend' } })).toBe(false);
    expect(hasActiveFilters(undefined)).toBe(false);
    expect(hasActiveFilters(12)).toBe(false);
  });

  it('is true with a search query', () => {
    expect(hasActiveFilters({ filters: {}, searchQuery: ' acme ' })).toBe(true);
    expect(hasActiveFilters({ searchQuery: '   ' })).toBe(false);
  });

  it('counts a filter with a value, but not ALL (0), empty or "all"', () => {
    expect(hasActiveFilters({ filters: { customerId: 0, isActive: 'all', category: '' } })).toBe(false);
    expect(hasActiveFilters({ filters: { customerId: 4 } })).toBe(true);
    expect(hasActiveFilters({ filters: { isActive: 'inactive' } })).toBe(true);
    expect(hasActiveFilters({ filters: { isKit: false } })).toBe(true);
  });

  it('counts scope arguments outside `filters` too', () => {
    expect(hasActiveFilters({ filters: {}, customerId: 3 })).toBe(true);
  });
});

describe('viewOf', () => {
  it('reads the page from the list request, defaulting to page 1 of 10', () => {
    expect(viewOf({ pageNumber: 2, pageSize: 20, searchQuery: 'x' })).toEqual({ pageNumber: 2, pageSize: 20, filtered: true });
    expect(viewOf(17)).toEqual({ pageNumber: 1, pageSize: 10, filtered: false });
  });
});

describe('concernsOpenSku', () => {
  it('applies package, barcode, attribute and kit events only to the open SKU and customer', () => {
    const open = { skuId: 5, customerId: 2 };
    expect(concernsOpenSku({ skuId: 5, customerId: 2 }, open)).toBe(true);
    expect(concernsOpenSku({ skuId: 6, customerId: 2 }, open)).toBe(false);
    expect(concernsOpenSku({ skuId: 5, customerId: 3 }, open)).toBe(false);
    expect(concernsOpenSku({}, open)).toBe(false);
  });
});
