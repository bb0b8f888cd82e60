import type { RateTableDefinition, ShippingException } from '@bolx/contracts';

/**
 * The carrier adapter: what rate shopping, labels, void, tracking and the end-of-day close ask of a carrier. The
 * built-in adapters (a rate table, a manual carrier) need no network; a live carrier (UPS, FedEx, USPS, DHL…) plugs
 * in through the same interface, its credentials being the carrier account's secret properties (unsealed from the
 * secret box only for the call, never returned by the API).
 */
export interface CarrierAccount {
  id: number;
  customerId: number;
  name: string;
  /** The integration type's code (UPS, FEDEX…). */
  carrierCode: string;
  /** The account's plain properties (account number, meter number…). */
  properties: Record<string, string>;
  /** Its secret properties (API key, client secret…) unsealed, by key: filled only for a live carrier's adapter. */
  credentials: Record<string, string>;
  /** The rate table the account points at, when it has one. */
  rateTable: RateTableDefinition | null;
}

export interface ParcelPackage {
  packageNo: number;
  weightKg: number;
  lengthCm: number;
  widthCm: number;
  heightCm: number;
}

export interface RateRequest {
  account: CarrierAccount;
  shipTo: { postalCode: string; country: string | null; residential: boolean };
  packages: ParcelPackage[];
}

export interface PackageCharge {
  packageNo: number; actualKg: number; dimKg: number; billedKg: number;
  baseMinor: number; fuelMinor: number; residentialMinor: number; totalMinor: number;
}

export interface ServiceRate {
  serviceCode: string;
  serviceName: string;
  /** null: no price (see `error`), or a manual carrier that prices nothing. */
  totalMinor: number | null;
  currency: string;
  zone: number | null;
  transitDays: number | null;
  /** HH:MM in the warehouse's time, when the service has a last pickup. */
  cutoff: string | null;
  error: ShippingException | null;
  errorMessage: string | null;
  packages: PackageCharge[];
}

export interface LabelRequest extends RateRequest {
  serviceCode: string;
  shipmentNumber: string;
  /** Tracking numbers typed in (manual carrier), by package number. */
  enteredTracking: Map<number, string>;
  /** Ids of the package rows being labelled, by package number: a built-in carrier numbers its parcels from them. */
  packageIds: Map<number, number>;
}
export interface LabelResult {
  packages: { packageNo: number; trackingNumber: string; chargeMinor: number | null; billedKg: number | null }[];
}

export interface TrackingEvent { at: string; status: string; detail: string }

/** A carrier refused or failed (no rate for the destination, a label it could not make): shown as an exception. */
export class CarrierError extends Error {
  constructor(readonly exception: ShippingException, message: string, readonly field?: string) {
    super(message);
  }
}

export interface CarrierAdapter {
  /** 'rate-table', 'manual', or a live carrier's code. */
  readonly code: string;
  /** Every service the account offers, priced for this request (a service that cannot take it says why). */
  rate(req: RateRequest): Promise<ServiceRate[]>;
  /** Labels for every package of a shipment with one service: tracking numbers and charges. */
  label(req: LabelRequest): Promise<LabelResult>;
  /** Gives labels back before the parcels ship. */
  void(account: CarrierAccount, trackingNumbers: string[]): Promise<void>;
  track(account: CarrierAccount, trackingNumber: string): Promise<TrackingEvent[]>;
  /** Tells the carrier the day's parcels (a live carrier answers its manifest/SCAN form id). */
  manifest(account: CarrierAccount, trackingNumbers: string[]): Promise<{ reference: string | null }>;
}
