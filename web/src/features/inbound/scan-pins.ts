/**
 * The receive form's per-carton fields that a user may pin. A lot and an expiry describe one carton's goods, so
 * after a receipt they are cleared for the next scan; a run of cartons of one lot is received with the field
 * pinned instead of retyping it.
 */
export const PINNABLE = ['lot', 'expiryDate'] as const;
export type PinnableField = (typeof PINNABLE)[number];
export type ScanPins = Readonly<Record<PinnableField, boolean>>;
export const NO_PINS: ScanPins = { lot: false, expiryDate: false };

/**
 * The form's values after a receipt: one good unit, no damaged ones, and each unpinned field emptied. Not the scan
 * box: it was emptied when its code was taken, so whatever it holds now is the next code, typed by the scanner while
 * the receipt was posting (the same code again, as often as not). Pallet and dock are left as they are (one pallet
 * takes cartons of several SKUs; the dock is the station).
 */
export function valuesAfterReceipt(pins: ScanPins): { quantity: number; damagedQuantity: number } & Partial<Record<PinnableField, string>> {
  const cleared = Object.fromEntries(PINNABLE.filter((f) => !pins[f]).map((f) => [f, '']));
  return { quantity: 1, damagedQuantity: 0, ...cleared };
}
