import { describe, expect, it } from 'vitest';
import { decideLanding, type LandingInput } from './landing';

const one = [{ warehouseId: 4 }];
const several = [{ warehouseId: 1 }, { warehouseId: 2 }];
const base: LandingInput = { path: '/Dashboard', service: 'Warehouse Management', warehouseId: null, usertype: 'Warehouse Staff', warehouses: null };
const decide = (over: Partial<LandingInput>) => decideLanding({ ...base, ...over });

describe('redirects after login', () => {
  it('no service selected: ServiceSelection', () => {
    expect(decide({ service: null })).toEqual({ navigateTo: '/ServiceSelection', selectWarehouse: null });
    expect(decide({ service: null, path: '/ServiceSelection' })).toEqual({ navigateTo: null, selectWarehouse: null });
  });

  it('warehouse already chosen: Dashboard from the landing pages, otherwise stay', () => {
    expect(decide({ warehouseId: 2, path: '/' })).toEqual({ navigateTo: '/Dashboard', selectWarehouse: null });
    expect(decide({ warehouseId: 2, path: '/ServiceSelection' })).toEqual({ navigateTo: '/Dashboard', selectWarehouse: null });
    expect(decide({ warehouseId: 2, path: '/SKU' })).toEqual({ navigateTo: null, selectWarehouse: null });
    expect(decide({ warehouseId: 2, path: '/WarehouseSelection' })).toEqual({ navigateTo: null, selectWarehouse: null });
  });

  it('waits while the warehouses load', () => {
    expect(decide({ warehouses: null })).toEqual({ navigateTo: null, selectWarehouse: null });
  });

  it.each(['Super Administrator', 'Administrator'])('%s with one warehouse: it, then Dashboard', (usertype) => {
    expect(decide({ usertype, warehouses: one, path: '/' })).toEqual({ navigateTo: '/Dashboard', selectWarehouse: 4 });
  });

  it.each(['Super Administrator', 'Administrator'])('%s with several: warehouse 0 (all), then Dashboard', (usertype) => {
    expect(decide({ usertype, warehouses: several, path: '/' })).toEqual({ navigateTo: '/Dashboard', selectWarehouse: 0 });
  });

  it.each(['Warehouse Manager', 'Warehouse Staff', 'Client'])('%s with one warehouse: it, then Dashboard', (usertype) => {
    expect(decide({ usertype, warehouses: one })).toEqual({ navigateTo: '/Dashboard', selectWarehouse: 4 });
  });

  it.each(['Warehouse Manager', 'Warehouse Staff', 'Client'])('%s with several: WarehouseSelection', (usertype) => {
    expect(decide({ usertype, warehouses: several })).toEqual({ navigateTo: '/WarehouseSelection', selectWarehouse: null });
    expect(decide({ usertype, warehouses: several, path: '/WarehouseSelection' })).toEqual({ navigateTo: null, selectWarehouse: null });
  });
});
