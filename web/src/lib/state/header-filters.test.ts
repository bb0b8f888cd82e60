import { describe, expect, it } from 'vitest';
import type { HeaderCustomer, HeaderWarehouse } from '@bolx/contracts';
import {
  revalidateWarehouse,
  ALL, canClear, customersOfWarehouse, parseWarehouseId, resolveCustomer, resolveFilterValue, showHeaderFilters,
  warehouseOptions, withAllOption,
} from './header-filters';

const wh = (id: number, name: string): HeaderWarehouse => ({
  uniqueid: id, warehouseId: id, warehouseName: name, warehouseCode: `W${id}`, city: null, timeZone: 'UTC', capacity: 10, usedLocations: 5, totalLocations: 10, occupancy: 50,
});
const cust = (id: number, name: string, warehouseId: number): HeaderCustomer => ({ customerId: id, customerName: name, warehouseId });
const customers = [cust(1, 'Acme', 1), cust(1, 'Acme', 2), cust(2, 'Blue Harbor', 1), cust(3, 'Cascade', 2)];
const opt = (value: number, label: string) => ({ value, label });

describe('header filters', () => {
  it('show only with a service and a numeric warehouse value', () => {
    expect(showHeaderFilters('Warehouse Management', '2')).toBe(true);
    expect(showHeaderFilters('Warehouse Management', '0')).toBe(true);
    expect(showHeaderFilters(null, '2')).toBe(false);
    expect(showHeaderFilters('Warehouse Management', null)).toBe(false);
    expect(showHeaderFilters('Warehouse Management', 'abc')).toBe(false);
  });

  it('parse the stored warehouse as a number or null', () => {
    expect(parseWarehouseId('3')).toBe(3);
    expect(parseWarehouseId('0')).toBe(0);
    expect(parseWarehouseId('')).toBeNull();
    expect(parseWarehouseId('x')).toBeNull();
    expect(parseWarehouseId(null)).toBeNull();
  });

  describe('warehouse filter', () => {
    it('has no ALL option for a non-administrator', () => {
      expect(warehouseOptions([wh(1, 'Newark'), wh(2, 'Dallas')], 1, 'All', false)).toEqual([opt(1, 'Newark'), opt(2, 'Dallas')]);
    });
    it('lists warehouse 0 when it is the current (administrator) selection', () => {
      expect(warehouseOptions([wh(1, 'Newark'), wh(2, 'Dallas')], 0, 'All', false)[0]).toEqual(opt(0, 'All'));
      expect(warehouseOptions([wh(1, 'Newark'), wh(2, 'Dallas')], 2, 'All', true)[0]).toEqual(opt(0, 'All'));
      expect(warehouseOptions([wh(1, 'Newark')], 1, 'All', true)).toEqual([opt(1, 'Newark')]);
    });
  });

  describe('filters with ALL (customer)', () => {
    it('add ALL and select 0 with more than one item', () => {
      const items = [opt(1, 'A'), opt(2, 'B')];
      expect(withAllOption(items, 'ALL')).toEqual([opt(ALL, 'ALL'), ...items]);
      expect(resolveFilterValue(items, undefined)).toBe(ALL);
      expect(resolveFilterValue(items, 99)).toBe(ALL);
    });
    it('keep a valid choice among several', () => {
      expect(resolveFilterValue([opt(1, 'A'), opt(2, 'B')], 2)).toBe(2);
    });
    it('auto-select exactly one item, with no ALL option', () => {
      expect(withAllOption([opt(5, 'A')], 'ALL')).toEqual([opt(5, 'A')]);
      expect(resolveFilterValue([opt(5, 'A')], ALL)).toBe(5);
    });
    it('reset to 0 with no items', () => {
      expect(resolveFilterValue([], 7)).toBe(ALL);
    });
    it('offer the clear icon only when it can go back to ALL', () => {
      expect(canClear([opt(1, 'A'), opt(2, 'B')], 2)).toBe(true);
      expect(canClear([opt(1, 'A'), opt(2, 'B')], ALL)).toBe(false);
      expect(canClear([opt(1, 'A')], 1)).toBe(false);
    });
  });

  describe('customer list narrowed to the warehouse', () => {
    it('keeps the customers served from the selected warehouse', () => {
      expect(customersOfWarehouse(customers, 1)).toEqual([opt(1, 'Acme'), opt(2, 'Blue Harbor')]);
      expect(customersOfWarehouse(customers, 2)).toEqual([opt(1, 'Acme'), opt(3, 'Cascade')]);
    });
    it('lists every customer once for warehouse 0 (all)', () => {
      expect(customersOfWarehouse(customers, 0)).toEqual([opt(1, 'Acme'), opt(2, 'Blue Harbor'), opt(3, 'Cascade')]);
    });
    it('resolves the id and name after a warehouse change', () => {
      expect(resolveCustomer(customers, 2, 2)).toEqual({ id: ALL, name: '' });
      expect(resolveCustomer(customers, 2, 3)).toEqual({ id: 3, name: 'Cascade' });
      expect(resolveCustomer([cust(4, 'Delta', 3)], 3, ALL)).toEqual({ id: 4, name: 'Delta' });
    });
  });
});

describe('the warehouse selection after the user’s warehouses changed', () => {
  const list = (...ids: number[]) => ids.map((warehouseId) => ({ warehouseId }));
  it('keeps a selection that is still one of theirs, and ALL for an administrator', () => {
    expect(revalidateWarehouse(list(1, 2, 3), 2, false)).toBeUndefined();
    expect(revalidateWarehouse(list(1, 2), 0, true)).toBeUndefined();
    expect(revalidateWarehouse(list(1), null, false)).toBeUndefined(); // nothing chosen yet: the landing rules decide
  });
  it('otherwise chooses again by the landing rules', () => {
    expect(revalidateWarehouse(list(3), 2, false)).toBe(3); // one left: auto-selected
    expect(revalidateWarehouse(list(1, 3), 2, true)).toBe(0); // administrator with several: ALL
    expect(revalidateWarehouse(list(1, 3), 2, false)).toBeNull(); // others with several: WarehouseSelection
    expect(revalidateWarehouse(list(), 2, false)).toBeNull();
    expect(revalidateWarehouse(list(1, 3), 0, false)).toBeNull(); // ALL is an administrator's choice only
  });
});
