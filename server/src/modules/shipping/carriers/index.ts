import type { CarrierAdapter } from './carrier.js';
import { manualCarrier } from './manual.js';
import { rateTableCarrier } from './rate-table.js';

export * from './carrier.js';

/**
 * Live carrier adapters by integration code (UPS, FEDEX, USPS, DHL_EXPRESS), registered when one is built. None
 * ships yet: an account of those carriers prices from its rate table, or is a manual carrier without one.
 */
const LIVE = new Map<string, CarrierAdapter>();

/** Plugs a live carrier's adapter in for its integration code; the answer unplugs it (tests). */
export function registerLiveCarrier(carrierCode: string, adapter: CarrierAdapter): () => void {
  LIVE.set(carrierCode, adapter);
  return () => {
    if (LIVE.get(carrierCode) === adapter) LIVE.delete(carrierCode);
  };
}

/** The adapter of a carrier account: its rate table when it has one, a live carrier's adapter, else manual. */
export function adapterFor(account: { carrierCode: string; rateTable: unknown }): CarrierAdapter {
  if (account.rateTable) return rateTableCarrier;
  return LIVE.get(account.carrierCode) ?? manualCarrier;
}

/** Whether a live carrier's adapter serves the account (the one kind that is given its credentials). */
export const isLiveCarrier = (account: { carrierCode: string; rateTable: unknown }) => !account.rateTable && LIVE.has(account.carrierCode);

export const adapterByCode = (code: string | null): CarrierAdapter =>
  code === rateTableCarrier.code ? rateTableCarrier : (code && LIVE.get(code)) || manualCarrier;
