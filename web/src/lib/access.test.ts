import { describe, expect, it } from 'vitest';
import { STAFF_ROLES, type NavModule, type UserModulesResponse } from '@bolx/contracts';
import { accountOf, mayDo, screenAccess, staffWrite, type Account } from './access';

const mod = (url: string | null, permission: string, childModules: NavModule[] = []): NavModule => ({
  moduleId: 1, moduleName: url ?? 'group', url, permission, permissionId: permission === 'read' ? 0 : 1, childModules,
});
const wms = (modules: NavModule[]): UserModulesResponse => ({ appId: 1, appName: 'Warehouse Management', modules });
/** The demo client: reads its own SKUs, ROs and reports; holds no Dimensions and writes nothing. */
const clientModules = wms([mod('Dashboard', 'read'), mod(null, 'read', [mod('SKU', 'read')]), mod(null, 'read', [mod('InBound', 'read')])]);

describe('accountOf', () => {
  it('keys the selected app’s modules by the catalogue, at any depth', () => {
    const account = accountOf('Warehouse Staff', wms([mod(null, 'write', [mod('SKU', 'read'), mod('Dimensions', 'write')])]));
    expect(account).toEqual({ role: 'WarehouseStaff', modules: new Map([['SKU', 'read'], ['Dimensions', 'write']]) });
  });

  it('gives a Super Administrator every module, as the server does', () => {
    expect(accountOf('Super Administrator', undefined)).toEqual({ role: 'SuperAdministrator', modules: 'all' });
  });

  it('is unknown while the modules load or for an unknown label', () => {
    expect(accountOf('Client', undefined)).toBeNull();
    expect(accountOf(null, clientModules)).toBeNull();
  });
});

describe('mayDo (the server policies’ rule)', () => {
  const client = accountOf('Client', clientModules);
  const staff = accountOf('Warehouse Staff', wms([mod('InBound', 'write'), mod('SKU', 'read')]));

  it('refuses a Client account every staff write, even on a module it holds', () => {
    expect(mayDo(client, staffWrite('InBound'))).toBe(false);
    expect(mayDo(client, { module: { key: 'InBound', permission: 'read' } })).toBe(true);
  });

  it('follows the module permission for staff: read is not write, an unheld module is nothing', () => {
    expect(mayDo(staff, staffWrite('InBound'))).toBe(true);
    expect(mayDo(staff, staffWrite('SKU'))).toBe(false);
    expect(mayDo(staff, { roles: STAFF_ROLES, module: { key: 'Adjustment', permission: 'read' } })).toBe(false);
  });

  it('refuses everything while the account is unknown', () => {
    expect(mayDo(null, {})).toBe(false);
  });
});

describe('screenAccess', () => {
  const client = accountOf('Client', clientModules) as Account;
  const admin = accountOf('Super Administrator', undefined) as Account;

  it('shows the Unauthorized screen for a module of the selected app the account does not hold (/Dimensions as a client)', () => {
    expect(screenAccess('/Dimensions', 1, client, [1, 3])).toEqual({ kind: 'forbidden' });
    expect(screenAccess('/SKU', 1, client, [1, 3])).toEqual({ kind: 'allow' });
  });

  it('lets screens that are no module’s through (profile, selection pages)', () => {
    expect(screenAccess('/Profile', 1, client, [1])).toEqual({ kind: 'allow' });
    expect(screenAccess('/ServiceSelection', null, client, [1])).toEqual({ kind: 'allow' });
  });

  it('offers to switch when the screen belongs to another of the user’s services', () => {
    expect(screenAccess('/InBound', 2, admin, [1, 2, 3])).toEqual({ kind: 'otherService', appId: 1, appName: 'Warehouse Management' });
    expect(screenAccess('/HelpDesk', 1, admin, [1, 2, 3])).toEqual({ kind: 'otherService', appId: 3, appName: 'Service Management' });
  });

  it('waits for the user’s apps only for a screen the chosen app lacks', () => {
    expect(screenAccess('/SKU', 1, client, null)).toEqual({ kind: 'allow' });
    expect(screenAccess('/Dimensions', 1, client, null)).toEqual({ kind: 'forbidden' });
    expect(screenAccess('/InBound', 2, admin, null)).toEqual({ kind: 'pending' });
  });

  it('refuses a screen of a service the user may not use', () => {
    expect(screenAccess('/FreightShipment', 1, client, [1, 3])).toEqual({ kind: 'forbidden' });
  });

  it('refuses a screen that only writes (/CreateLocation, /LocationUpload) to an account that may only read its module', () => {
    const reader = accountOf('Warehouse Staff', wms([mod(null, 'read', [mod('CreateLocation', 'read'), mod('LocationUpload', 'read'), mod('Location', 'read')])])) as Account;
    const writer = accountOf('Warehouse Staff', wms([mod(null, 'write', [mod('CreateLocation', 'write'), mod('LocationUpload', 'write')])])) as Account;
    expect(screenAccess('/CreateLocation', 1, reader, [1])).toEqual({ kind: 'forbidden' });
    expect(screenAccess('/LocationUpload', 1, reader, [1])).toEqual({ kind: 'forbidden' });
    expect(screenAccess('/Location', 1, reader, [1])).toEqual({ kind: 'allow' });
    expect(screenAccess('/CreateLocation', 1, writer, [1])).toEqual({ kind: 'allow' });
    expect(screenAccess('/LocationUpload', 1, admin, [1])).toEqual({ kind: 'allow' });
  });

  it('decides a screen every app has (the Dashboard) by the selected app', () => {
    expect(screenAccess('/Dashboard', 2, admin, [1, 2, 3])).toEqual({ kind: 'allow' });
  });
});
