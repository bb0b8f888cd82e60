import { describe, expect, it } from 'vitest';
import type { RootState } from './root-state';
import { selectWarehouseTimeZone } from './selectors';

const state = (selectedWarehouse: string | null) => ({
  auth: { selectedWarehouse },
  header: { data: { customerData: [], warehouseData: [{ warehouseId: 3, timeZone: 'America/Los_Angeles' }, { warehouseId: 1, timeZone: 'America/New_York' }] } },
}) as unknown as RootState;

describe('selectWarehouseTimeZone', () => {
  it('is the chosen warehouse’s zone, and none with all warehouses or an unknown one', () => {
    expect(selectWarehouseTimeZone(state('3'))).toBe('America/Los_Angeles');
    expect(selectWarehouseTimeZone(state(null))).toBeUndefined();
    expect(selectWarehouseTimeZone(state('9'))).toBeUndefined();
  });
});
