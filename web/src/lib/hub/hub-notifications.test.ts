import { describe, expect, it } from 'vitest';
import { createHubEventBus } from './hub-events';
import { describeHubEvent, feedNotifications } from './hub-notifications';
import { expiresWithin, tokenExpiresAt } from './token';

describe('describeHubEvent', () => {
  it('names the record and the screen that lists it', () => {
    expect(describeHubEvent('ReceiveWareHousedata', { subEvent: 'AddWarehouse', payload: { warehouseName: 'Oslo DC' } }))
      .toEqual({ target: 'ReceiveWareHousedata', subEvent: 'AddWarehouse', name: 'Oslo DC', path: '/Warehouse' });
    expect(describeHubEvent('ReceiveSkuData', { subEvent: 'SkuAdd', payload: { skuCode: 'FJ-100' }, skuId: 1, customerId: 2 }))
      .toMatchObject({ subEvent: 'SkuAdd', name: 'FJ-100', path: '/SKU' });
    expect(describeHubEvent('ReceiveSkuData', { subEvent: 'AddBarcode', payload: { barcode: '4006381333931' } })?.name).toBe('4006381333931');
    expect(describeHubEvent('ReceiveUserData', { subEvent: 'UpdateUser', payload: { username: 'staff', warehouses: [], customers: [] } })?.path).toBe('/User');
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
