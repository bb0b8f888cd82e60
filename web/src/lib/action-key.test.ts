import { describe, expect, it } from 'vitest';
import { ActionKeys, actionKeyFor, newActionKey, wasAnswered } from './action-key';
import { keyed } from './api/keyed';

describe('newActionKey', () => {
  it('is a v4 UUID the server accepts as an Idempotency-Key, and new each time', () => {
    const a = newActionKey();
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(a).toMatch(/^[\w.:-]{8,128}$/);
    expect(newActionKey()).not.toBe(a);
  });
});

describe('action keys', () => {
  it('keep a pending action\'s key for the same body and make a new one for another', () => {
    const first = actionKeyFor(null, '{"q":1}');
    expect(actionKeyFor(first, '{"q":1}')).toBe(first);
    expect(actionKeyFor(first, '{"q":2}').key).not.toBe(first.key);
  });

  it('give a repeated action its key until the server answers, and keep it when no answer came', () => {
    const keys = new ActionKeys();
    const first = keys.keyFor('confirm', { stopSeq: 3, quantity: 2 });
    expect(keys.keyFor('confirm', { stopSeq: 3, quantity: 2 })).toBe(first); // Enter twice while the first is in flight
    expect(keys.keyFor('undo', { jobId: 1 })).not.toBe(first);
    keys.settle('confirm', wasAnswered({ status: 0 })); // the network lost the answer: the pick may have been made
    expect(keys.keyFor('confirm', { stopSeq: 3, quantity: 2 })).toBe(first);
    keys.settle('confirm', wasAnswered({ status: 422 }));
    expect(keys.keyFor('confirm', { stopSeq: 3, quantity: 2 })).not.toBe(first);
  });

  it('send the key as the Idempotency-Key header and never in the body', () => {
    expect(keyed('Warehouse/Move/MoveItems', { idempotencyKey: 'k-12345678', quantity: 5, toLocationId: 9 })).toEqual({
      url: 'Warehouse/Move/MoveItems', method: 'POST', body: { quantity: 5, toLocationId: 9 }, headers: { 'Idempotency-Key': 'k-12345678' },
    });
  });
});
