import { describe, expect, it } from 'vitest';
import { holdsModule, mayAccess, modulesAtUrl } from './access.js';
import { STAFF_ROLES } from './roles.js';

describe('mayAccess', () => {
  const client = { role: 'Client' as const, modules: new Map([['InBound', 'read' as const]]) };
  const staff = { role: 'WarehouseStaff' as const, modules: new Map([['InBound', 'write' as const]]) };

  it('needs the role and the module with enough permission (write includes read)', () => {
    const write = { roles: STAFF_ROLES, module: { key: 'InBound', permission: 'write' as const } };
    expect(mayAccess(staff, write)).toBe(true);
    expect(mayAccess(client, write)).toBe(false);
    expect(mayAccess(client, { module: { key: 'InBound', permission: 'read' } })).toBe(true);
    expect(mayAccess(staff, { module: { key: 'InBound', permission: 'read' } })).toBe(true);
    expect(mayAccess(staff, { module: { key: 'SKU', permission: 'read' } })).toBe(false);
  });

  it('lets a holder of every module through any module need, never past a role it lacks', () => {
    expect(holdsModule('all', 'Anything', 'write')).toBe(true);
    expect(mayAccess({ role: 'SuperAdministrator', modules: 'all' }, { roles: ['Client'] })).toBe(false);
  });
});

describe('modulesAtUrl', () => {
  it('finds a screen’s module in every app that has it', () => {
    expect(modulesAtUrl('inbound').map((m) => `${m.app.key}:${m.module.key}`)).toEqual(['WMS:InBound']);
    expect(modulesAtUrl('Dashboard').map((m) => `${m.app.key}:${m.module.key}`)).toEqual(['WMS:Dashboard', 'FREIGHT:FreightDashboard', 'SERVICE:ServiceDashboard']);
    expect(modulesAtUrl('Profile')).toEqual([]);
  });
});
