import { CarrierError, type CarrierAdapter } from './carrier.js';

export const MANUAL_SERVICE = { code: 'MANUAL', name: 'Manual / LTL' } as const;

/**
 * The manual carrier (an LTL carrier, a courier booked by phone): no prices, and the tracking numbers are typed
 * or scanned in at labelling, one per carton.
 */
export const manualCarrier: CarrierAdapter = {
  code: 'manual',
  async rate() {
    return [{
      serviceCode: MANUAL_SERVICE.code, serviceName: MANUAL_SERVICE.name, totalMinor: null, currency: 'USD', zone: null, transitDays: null, cutoff: null,
      error: null, errorMessage: null, packages: [],
    }];
  },
  async label(req) {
    const missing = req.packages.filter((p) => !req.enteredTracking.get(p.packageNo));
    if (missing.length) {
      throw new CarrierError('label-failed', `Enter the tracking number of package ${missing.map((p) => p.packageNo).join(', ')} (${req.account.name} is a manual carrier)`, 'tracking');
    }
    return { packages: req.packages.map((p) => ({ packageNo: p.packageNo, trackingNumber: req.enteredTracking.get(p.packageNo)!, chargeMinor: null, billedKg: null })) };
  },
  async void() {},
  async track() {
    return [];
  },
  async manifest() {
    return { reference: null };
  },
};
