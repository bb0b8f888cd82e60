import { describe, expect, it } from 'vitest';
import { createHubEventBus } from './hub-events';
import { describeHubEvent, feedNotifications } from './hub-notifications';
import { expiresWithin, tokenExpiresAt } from './token';
import { EN_US } from '../i18n/en-US';

describe('describeHubEvent', () => {
  it('names the record and the screen that lists it', () => {
    expect(describeHubEvent('ReceiveWareHousedata', { subEvent: 'AddWarehouse', payload: { warehouseName: 'Oslo DC' } }))
      .toEqual({ target: 'ReceiveWareHousedata', subEvent: 'AddWarehouse', name: 'Oslo DC', path: '/Warehouse' });
    expect(describeHubEvent('ReceiveSkuData', { subEvent: 'SkuAdd', payload: { skuCode: 'FJ-100' }, skuId: 1, customerId: 2 }))
      .toMatchObject({ subEvent: 'SkuAdd', name: 'FJ-100', path: '/SKU' });
    expect(describeHubEvent('ReceiveSkuData', { subEvent: 'AddBarcode', payload: { barcode: '4006381333931' } })?.name).toBe('4006381333931');
    expect(describeHubEvent('ReceiveUserData', { subEvent: 'UpdateUser', payload: { username: 'staff', warehouses: [], customers: [] } })?.path).toBe('/User');
  });

  it('covers locations, replenishment and stock with readable texts and the screen of each', () => {
    const texts = EN_US;
    const cases: [Parameters<typeof describeHubEvent>[0], unknown, { name: string | null; path: string | null }][] = [
      ['ReceiveLocationData', { subEvent: 'AddLocation', payload: { locationCode: 'A-01-01', category: 'storage' } }, { name: 'A-01-01', path: '/Location' }],
      ['ReceiveLocationData', { subEvent: 'UpdateLocation', payload: { locationCode: 'DOCK-1', category: 'other' } }, { name: 'DOCK-1', path: '/OtherLocations' }],
      ['ReceiveLocationData', { subEvent: 'AddLocations', payload: { warehouseId: 1, count: 40, firstCode: 'A-01', lastCode: 'D-10', source: 'pattern' } }, { name: 'A-01 – D-10 (40)', path: '/Location' }],
      ['ReceiveReplenishmentData', { subEvent: 'AddTasks', payload: { taskIds: [1, 2, 3] } }, { name: '3', path: '/ProductReplenishment' }],
      ['ReceiveReplenishmentData', { subEvent: 'UpdateRule', payload: { ruleId: 4 } }, { name: null, path: '/ProductReplenishment' }],
      ['ReceiveInventoryData', { subEvent: 'MovePallet', payload: { document: 'MP-7', skuId: null, locationIds: [] } }, { name: 'MP-7', path: '/MovePallet' }],
      ['ReceiveAdjustmentData', { subEvent: 'AdjustmentRequested', payload: { adjustmentId: 12, status: 'Pending' } }, { name: '#12', path: '/Adjustment' }],
      ['ReceiveCycleCountData', { subEvent: 'AddCycleCount', payload: { cycleCountId: 3, status: 'Open' } }, { name: '#3', path: '/CycleCount' }],
    ];
    for (const [target, arg, expected] of cases) {
      const entry = describeHubEvent(target, arg);
      expect(entry).toMatchObject(expected);
      expect(texts[`hub.event.${entry!.subEvent}`], entry!.subEvent).toMatch(/\w/);
    }
  });

  it('reads a change of the reader’s own record as their access, not as another user’s edit', () => {
    const own = describeHubEvent('ReceiveUserData', { subEvent: 'UpdateUser', payload: { userId: 4, username: 'me', warehouses: [2], customers: [] } }, { userId: 4 });
    expect(own).toMatchObject({ subEvent: 'OwnAccessUpdated', path: null });
    expect(EN_US['hub.event.OwnAccessUpdated']).toBe('Your warehouses and clients were updated');
    const other = describeHubEvent('ReceiveUserData', { subEvent: 'UpdateUser', payload: { userId: 5, username: 'sam', warehouses: [], customers: [] } }, { userId: 4 });
    expect(other).toMatchObject({ subEvent: 'UpdateUser', name: 'sam', path: '/User' });
  });

  it('skips malformed events', () => {
    expect(describeHubEvent('ReceiveWareHousedata', null)).toBeNull();
    expect(describeHubEvent('ReceiveWareHousedata', { payload: {} })).toBeNull();
    expect(describeHubEvent('ReceiveCustomerData', { subEvent: 'AddCustomer', payload: null })?.name).toBeNull();
  });
});

describe('feedNotifications', () => {
  it('turns bus events into notifications until unsubscribed', () => {
    const bus = createHubEventBus();
    const actions: { payload: { name: string | null } }[] = [];
    const stop = feedNotifications(bus, (a) => actions.push(a));
    bus.emit('ReceiveCustomerData', { subEvent: 'AddCustomer', payload: { customerName: 'Fjord Electronics' } });
    stop();
    bus.emit('ReceiveCustomerData', { subEvent: 'AddCustomer', payload: { customerName: 'Late' } });
    expect(actions.map((a) => a.payload.name)).toEqual(['Fjord Electronics']);
  });
});

describe('hub event bus', () => {
  it('keeps delivering to others when one subscriber throws', () => {
    const errors: unknown[] = [];
    const bus = createHubEventBus((e) => errors.push(e));
    const got: string[] = [];
    bus.on('ReceiveSkuData', () => {
      throw new Error('broken');
    });
    bus.on('ReceiveSkuData', (e) => got.push(e.subEvent));
    bus.emit('ReceiveSkuData', { subEvent: 'SkuAdd', payload: {} });
    expect(got).toEqual(['SkuAdd']);
    expect(errors).toHaveLength(1);
  });
});

describe('token expiry', () => {
  const jwt = (claims: object) => `h.${btoa(JSON.stringify(claims)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_')}.s`;
  it('reads exp and tells when a token is about to expire', () => {
    const token = jwt({ sub: '1', exp: 1_000 });
    expect(tokenExpiresAt(token)).toBe(1_000_000);
    expect(expiresWithin(token, 30_000, 960_000)).toBe(false);
    expect(expiresWithin(token, 30_000, 975_000)).toBe(true);
    expect(tokenExpiresAt('not-a-jwt')).toBeNull();
    expect(expiresWithin('not-a-jwt', 30_000)).toBe(false);
  });
});
