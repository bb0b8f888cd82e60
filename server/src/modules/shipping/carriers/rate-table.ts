import type { RateTableDefinition } from '@bolx/contracts';
import { gs1CheckDigit } from '../../../platform/gs1.js';
import { CarrierError, type CarrierAccount, type CarrierAdapter, type LabelRequest, type PackageCharge, type ParcelPackage, type RateRequest, type ServiceRate } from './carrier.js';

/** Weights compare in grams so that 7.2 kg never becomes 7.2000000001 kg. */
const grams = (kg: number) => Math.round(kg * 1000);

/** The zone of a postal code: the longest matching prefix (spaces and dashes ignored, case-insensitive). */
export function zoneOf(table: RateTableDefinition, postalCode: string): number | null {
  const code = postalCode.toUpperCase().replace(/[\s-]/g, '');
  let best: { length: number; zone: number } | null = null;
  for (const z of table.zones) {
    if (code.startsWith(z.postalPrefix) && (!best || z.postalPrefix.length > best.length)) best = { length: z.postalPrefix.length, zone: z.zone };
  }
  return best?.zone ?? null;
}

/**
 * One package's billed weight: the greater of its actual weight and its dimensional weight (L×W×H in cm³ over the
 * table's divisor), rounded up to the next whole kilogram as carriers bill.
 */
export function billedWeight(table: RateTableDefinition, p: ParcelPackage): { actualKg: number; dimKg: number; billedKg: number } {
  const dimGrams = Math.round((p.lengthCm * p.widthCm * p.heightCm * 1000) / table.dimDivisor);
  const heavier = Math.max(grams(p.weightKg), dimGrams);
  return { actualKg: grams(p.weightKg) / 1000, dimKg: dimGrams / 1000, billedKg: Math.ceil(heavier / 1000) };
}

/** Half-up rounding of base × basis points / 10 000, in integers. */
const percentOf = (baseMinor: number, bp: number) => Math.floor((baseMinor * bp + 5000) / 10_000);

/**
 * Prices every service of a rate table for a request: per package, the bracket of its billed weight at the
 * destination's zone, plus the fuel surcharge (a percentage of the base) and, for a residence, the residential
 * surcharge. A destination in no zone is "no rate"; a package past the heaviest bracket is "overweight".
 */
export function priceServices(table: RateTableDefinition, req: Pick<RateRequest, 'shipTo' | 'packages'>): ServiceRate[] {
  const zone = zoneOf(table, req.shipTo.postalCode);
  return table.services.map((s): ServiceRate => {
    const base: ServiceRate = {
      serviceCode: s.code, serviceName: s.name, totalMinor: null, currency: table.currency, zone, transitDays: s.transitDays, cutoff: s.cutoff,
      error: null, errorMessage: null, packages: [],
    };
    if (zone === null) return { ...base, error: 'no-rate', errorMessage: `No zone for postal code ${req.shipTo.postalCode || '(none)'}` };
    const heaviest = s.brackets[s.brackets.length - 1].maxKg;
    const packages: PackageCharge[] = [];
    for (const p of req.packages) {
      const w = billedWeight(table, p);
      const bracket = s.brackets.find((b) => grams(b.maxKg) >= w.billedKg * 1000);
      if (!bracket) return { ...base, error: 'overweight', errorMessage: `Package ${p.packageNo} bills ${w.billedKg} kg; ${s.name} takes up to ${heaviest} kg` };
      const baseMinor = bracket.pricesMinor[String(zone)];
      if (baseMinor === undefined) return { ...base, error: 'no-rate', errorMessage: `${s.name} does not serve zone ${zone}` };
      const fuelMinor = percentOf(baseMinor, table.fuelSurchargeBp);
      const residentialMinor = req.shipTo.residential ? table.residentialSurchargeMinor : 0;
      packages.push({ packageNo: p.packageNo, ...w, baseMinor, fuelMinor, residentialMinor, totalMinor: baseMinor + fuelMinor + residentialMinor });
    }
    return { ...base, packages, totalMinor: packages.reduce((sum, p) => sum + p.totalMinor, 0) };
  });
}

/**
 * A tracking number of the built-in rate-table carrier: "1BX", the package row's id in ten digits, and a GS1
 * mod-10 check digit — unique for ever (a re-labelled carton gets a new row, so a voided number is never reused).
 */
export function rateTableTracking(packageId: number): string {
  const digits = String(packageId).padStart(10, '0');
  return `1BX${digits}${gs1CheckDigit(digits)}`;
}

/** The rate-table carrier: prices from the account's table, labels numbered here, nothing sent anywhere. */
export const rateTableCarrier: CarrierAdapter = {
  code: 'rate-table',
  async rate(req) {
    return priceServices(tableOf(req.account), req);
  },
  async label(req: LabelRequest) {
    const rate = priceServices(tableOf(req.account), req).find((s) => s.serviceCode === req.serviceCode);
    if (!rate) throw new CarrierError('no-rate', `${req.account.name} has no service ${req.serviceCode}`, 'serviceCode');
    if (rate.error) throw new CarrierError(rate.error, rate.errorMessage ?? 'No rate');
    return {
      packages: rate.packages.map((p) => ({ packageNo: p.packageNo, trackingNumber: rateTableTracking(req.packageIds.get(p.packageNo)!), chargeMinor: p.totalMinor, billedKg: p.billedKg })),
    };
  },
  async void() {},
  async track() {
    return [];
  },
  async manifest() {
    return { reference: null };
  },
};

function tableOf(account: CarrierAccount): RateTableDefinition {
  if (!account.rateTable) throw new CarrierError('no-rate', `${account.name} has no rate table`);
  return account.rateTable;
}
