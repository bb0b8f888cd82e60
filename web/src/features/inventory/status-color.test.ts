import { describe, expect, it } from 'vitest';
import { ADJUSTMENT_STATUSES, CYCLE_COUNT_STATUSES, REPLENISHMENT_TASK_STATUSES } from '@bolx/contracts';
import { stockStatusColor } from './status-color';
import { MESSAGES } from '../../lib/i18n/catalog';
import './messages';

describe('stock screen statuses', () => {
  it('every status of an adjustment, a count and a replenishment task has a label', () => {
    for (const s of [...ADJUSTMENT_STATUSES, ...CYCLE_COUNT_STATUSES, ...REPLENISHMENT_TASK_STATUSES]) expect(MESSAGES[`inventory.status.${s}`]).toBe(s);
  });

  it('a lot past its expiry is red, one close to it gold', () => {
    expect([stockStatusColor('Expired'), stockStatusColor('Expiring')]).toEqual(['red', 'gold']);
  });
});
