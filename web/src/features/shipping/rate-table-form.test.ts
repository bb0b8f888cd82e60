import { describe, expect, it } from 'vitest';
import type { RateTableDefinition } from '@bolx/contracts';
import { BLANK_RATE_TABLE, definitionOf, formOf, zoneNumbers } from './rate-table-form';

const TABLE: RateTableDefinition = {
  currency: 'USD', dimDivisor: 5000, fuelSurchargeBp: 1250, residentialSurchargeMinor: 450,
  zones: [{ postalPrefix: '100', zone: 2 }, { postalPrefix: '9', zone: 8 }],
  services: [{ code: 'GROUND', name: 'Ground', transitDays: 3, cutoff: '17:00', brackets: [{ maxKg: 5, pricesMinor: { 2: 1000, 8: 2050 } }, { maxKg: 10, pricesMinor: { 2: 1500 } }] }],
};

describe('the rate-table editor form', () => {
  it('shows money in dollars and the fuel surcharge in percent, and gives back the same definition', () => {
    const form = formOf(TABLE);
    expect(form).toMatchObject({ fuelPercent: 12.5, residentialSurcharge: 4.5 });
    expect(form.services[0].brackets[0].prices).toEqual({ 2: 10, 8: 20.5 });
    expect(definitionOf(form)).toEqual({ definition: TABLE });
  });

  it('leaves a zone without a price unserved', () => {
    const form = formOf(TABLE);
    form.services[0].brackets[1].prices = { 2: 15, 8: null };
    const out = definitionOf(form);
    expect('definition' in out && out.definition.services[0].brackets[1].pricesMinor).toEqual({ 2: 1500 });
  });

  it('refuses what the server would, on the form’s own fields', () => {
    const form = formOf(TABLE);
    form.services[0].brackets[1].maxKg = 4;
    form.zones.push({ postalPrefix: '100', zone: 3 });
    form.fuelPercent = 120;
    const out = definitionOf(form);
    expect('errors' in out && out.errors.map((e) => e.name.join('.'))).toEqual(expect.arrayContaining(['services.0.brackets.1.maxKg', 'zones.2.postalPrefix', 'fuelPercent']));
    expect('errors' in definitionOf(BLANK_RATE_TABLE) && definitionOf(BLANK_RATE_TABLE)).toBeTruthy();
  });

  it('lists each zone once, in order', () => {
    expect(zoneNumbers([{ postalPrefix: '9', zone: 8 }, { postalPrefix: '1', zone: 2 }, { postalPrefix: '2', zone: 8 }])).toEqual([2, 8]);
  });
});
