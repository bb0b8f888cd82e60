import { describe, expect, it } from 'vitest';
import type { NavModule, UserModulesResponse } from '@bolx/contracts';
import { accountOf, mayDo } from '../../../../lib/access';
import { offeredCards } from './cards';

const mod = (url: string, permission: string): NavModule => ({ moduleId: 1, moduleName: url, url, permission, permissionId: permission === 'read' ? 0 : 1, childModules: [] });
const wms = (...modules: NavModule[]): UserModulesResponse => ({ appId: 1, appName: 'Warehouse Management', modules });
const offered = (usertype: string, modules: UserModulesResponse) => {
  const account = accountOf(usertype, modules);
  return offeredCards((need) => mayDo(account, need)).map((c) => c.key);
};

describe('offeredCards', () => {
  it('offers a Client account no form it would be refused (the demo client reads its SKUs, ROs and orders)', () => {
    expect(offered('Client', wms(mod('SKU', 'read'), mod('InBound', 'read'), mod('Location', 'read'), mod('OrderDashboard', 'read')))).toEqual([]);
  });

  it('offers staff the uploads of the modules they write; the inventory sheet needs an approver', () => {
    const modules = wms(mod('InBound', 'write'), mod('SKU', 'read'), mod('Adjustment', 'write'), mod('LocationUpload', 'write'), mod('MovePallet', 'write'), mod('OrderDashboard', 'write'));
    expect(offered('Warehouse Staff', modules)).toEqual(['orders', 'ro', 'locations', 'pallets']);
    expect(offered('Warehouse Manager', modules)).toEqual(['orders', 'ro', 'inventory', 'locations', 'pallets']);
  });

  it('offers the locations card for either of its calls', () => {
    expect(offered('Warehouse Staff', wms(mod('CreateLocation', 'write')))).toEqual(['locations']);
  });

  it('offers a Super Administrator every card', () => {
    expect(offered('Super Administrator', wms())).toEqual(['orders', 'ro', 'sku', 'inventory', 'locations', 'pallets']);
  });
});
