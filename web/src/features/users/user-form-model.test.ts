import { describe, expect, it } from 'vitest';
import type { AssignableModule } from '@bolx/contracts';
import { grantsFromDetails, grantsToRequest, groupPermission, keepServedCustomers, leafModules, setGrants, uniqueCustomers } from './user-form-model';

const mod = (moduleId: number, childModules: AssignableModule[] = []): AssignableModule => ({
  moduleId, moduleKey: `m${moduleId}`, moduleName: `Module ${moduleId}`, url: childModules.length ? null : `M${moduleId}`, childModules,
});
const admin = mod(1, [mod(2), mod(3), mod(4, [mod(5)])]);

describe('user form: module grants', () => {
  it('grants on leaves only', () => {
    expect(leafModules([admin, mod(9)]).map((m) => m.moduleId)).toEqual([2, 3, 5, 9]);
  });

  it('reads the details keeping leaf grants and dropping group ones', () => {
    const map = grantsFromDetails({ modules: [
      { moduleId: 1, permission: 'read', moduleKey: 'm1', moduleName: '', appId: 1 },
      { moduleId: 2, permission: 'write', moduleKey: 'm2', moduleName: '', appId: 1 },
    ] }, new Set([2, 3, 5]));
    expect(map).toEqual({ 2: 'write' });
  });

  it('sets a whole group, and clears it', () => {
    const all = setGrants({ 9: 'read' }, [admin], 'write');
    expect(all).toEqual({ 2: 'write', 3: 'write', 5: 'write', 9: 'read' });
    expect(groupPermission(all, admin)).toBe('write');
    const partial = setGrants(all, [mod(3)], 'read');
    expect(groupPermission(partial, admin)).toBe('mixed');
    expect(groupPermission(setGrants(partial, [admin], undefined), admin)).toBeUndefined();
  });

  it('sends the request list sorted, without removed grants', () => {
    expect(grantsToRequest({ 5: 'read', 2: 'write', 3: undefined })).toEqual([
      { moduleId: 2, permission: 'write' }, { moduleId: 5, permission: 'read' },
    ]);
    expect(grantsToRequest(undefined)).toEqual([]);
  });
});

describe('user form: clients narrowed by warehouse', () => {
  it('drops chosen clients the chosen warehouses no longer serve', () => {
    expect(keepServedCustomers([1, 2, 3], [{ customerId: 3 }, { customerId: 1 }])).toEqual([1, 3]);
  });

  it('lists a client served by two chosen warehouses once, by name', () => {
    const rows = [
      { customerId: 2, customerName: 'Blue', warehouseId: 1 },
      { customerId: 1, customerName: 'Acme', warehouseId: 1 },
      { customerId: 2, customerName: 'Blue', warehouseId: 2 },
    ];
    expect(uniqueCustomers(rows).map((c) => c.customerId)).toEqual([1, 2]);
  });
});
