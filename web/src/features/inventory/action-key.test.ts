import { describe, expect, it } from 'vitest';
import { newActionKey } from './action-key';

describe('newActionKey', () => {
  it('is a UUID the server accepts as an Idempotency-Key, and new each time', () => {
    const a = newActionKey();
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(a).toMatch(/^[\w.:-]{8,128}$/);
    expect(newActionKey()).not.toBe(a);
  });
});

describe('keyed stock calls', () => {
  it('send the action key as the Idempotency-Key header and never in the body', async () => {
    const { keyed } = await import('./inventory-api');
    const request = keyed('Warehouse/Move/MoveItems', { idempotencyKey: 'k-12345678', quantity: 5, toLocationId: 9 });
    expect(request).toEqual({
      url: 'Warehouse/Move/MoveItems', method: 'POST', body: { quantity: 5, toLocationId: 9 }, headers: { 'Idempotency-Key': 'k-12345678' },
    });
  });
});

describe('ActionKeys', () => {
  it('gives a repeated action its key until answered, then a new one', async () => {
    const { ActionKeys } = await import('./action-key');
    const keys = new ActionKeys();
    const first = keys.keyFor('approve:7');
    expect(keys.keyFor('approve:7')).toBe(first); // a double click while the first is in flight
    expect(keys.keyFor('approve:8')).not.toBe(first);
    keys.done('approve:7');
    expect(keys.keyFor('approve:7')).not.toBe(first);
  });
});
