import { describe, expect, it } from 'vitest';
import { ADJUSTMENT_STATUSES } from '@bolx/contracts';
import { stockStatusColor } from './status-color';
import { MESSAGES } from '../../lib/i18n/catalog';
import './messages';

describe('adjustment statuses', () => {
  it('each has its own colour and a label, Posted (at once) told apart from Approved', () => {
    const colours = ADJUSTMENT_STATUSES.map(stockStatusColor);
    expect(colours).not.toContain('default');
    expect(new Set(colours).size).toBe(ADJUSTMENT_STATUSES.length);
    for (const s of ADJUSTMENT_STATUSES) expect(MESSAGES[`inventory.status.${s}`]).toBe(s);
  });
});
