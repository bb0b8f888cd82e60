import { rateTableDefinition, type RateTableDefinition } from '@bolx/contracts';

/**
 * The rate-table editor's form values: the definition as a person types it — money in dollars, the fuel surcharge
 * in percent — with each bracket's prices by zone. Converted to and from the stored definition (minor units,
 * basis points) here, and validated by the contracts' schema so the editor refuses what the server would.
 */
export interface RateTableForm {
  currency: string;
  dimDivisor: number;
  fuelPercent: number;
  residentialSurcharge: number;
  zones: { postalPrefix: string; zone: number }[];
  services: { code: string; name: string; transitDays: number; cutoff: string; brackets: { maxKg: number; prices: Record<string, number | null | undefined> }[] }[];
}

export const BLANK_RATE_TABLE: RateTableForm = {
  currency: 'USD', dimDivisor: 5000, fuelPercent: 0, residentialSurcharge: 0,
  zones: [{ postalPrefix: '', zone: 1 }],
  services: [{ code: 'GROUND', name: 'Ground', transitDays: 3, cutoff: '17:00', brackets: [{ maxKg: 5, prices: {} }] }],
};

const cents = (dollars: number) => Math.round(dollars * 100);

export function formOf(d: RateTableDefinition): RateTableForm {
  return {
    currency: d.currency, dimDivisor: d.dimDivisor, fuelPercent: d.fuelSurchargeBp / 100, residentialSurcharge: d.residentialSurchargeMinor / 100,
    zones: d.zones.map((z) => ({ ...z })),
    services: d.services.map((s) => ({
      code: s.code, name: s.name, transitDays: s.transitDays, cutoff: s.cutoff,
      brackets: s.brackets.map((b) => ({ maxKg: b.maxKg, prices: Object.fromEntries(Object.entries(b.pricesMinor).map(([z, p]) => [z, p / 100])) })),
    })),
  };
}

/** The zone numbers of the table, in order: the price columns of every bracket. */
export const zoneNumbers = (zones: RateTableForm['zones'] | undefined) => [...new Set((zones ?? []).map((z) => Number(z.zone)).filter((z) => Number.isInteger(z) && z > 0))].sort((a, b) => a - b);

/** A form field of a definition's path (the schema's names → the form's), for showing an error on it. */
export function formPathOf(path: (string | number)[]): (string | number)[] {
  const renamed: Record<string, string> = { fuelSurchargeBp: 'fuelPercent', residentialSurchargeMinor: 'residentialSurcharge', pricesMinor: 'prices' };
  return path.map((p) => (typeof p === 'string' && renamed[p] ? renamed[p] : p));
}

/** The definition the form holds, or the field errors that stop it (a price left empty leaves its zone unserved). */
export function definitionOf(f: RateTableForm): { definition: RateTableDefinition } | { errors: { name: (string | number)[]; errors: string[] }[] } {
  const parsed = rateTableDefinition.safeParse({
    currency: f.currency, dimDivisor: f.dimDivisor, fuelSurchargeBp: Math.round(f.fuelPercent * 100), residentialSurchargeMinor: cents(f.residentialSurcharge ?? 0),
    zones: f.zones, services: (f.services ?? []).map((s) => ({
      code: s.code, name: s.name, transitDays: s.transitDays, cutoff: s.cutoff,
      brackets: (s.brackets ?? []).map((b) => ({
        maxKg: b.maxKg,
        pricesMinor: Object.fromEntries(Object.entries(b.prices ?? {}).filter(([, p]) => p !== null && p !== undefined).map(([z, p]) => [z, cents(p as number)])),
      })),
    })),
  });
  if (parsed.success) return { definition: parsed.data };
  return { errors: parsed.error.issues.map((i) => ({ name: formPathOf(i.path as (string | number)[]), errors: [i.message] })) };
}
