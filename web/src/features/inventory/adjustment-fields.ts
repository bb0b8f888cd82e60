/** What the chosen SKU tracks (unknown until a SKU is chosen or scanned). */
export interface SkuTracking { lot: boolean; expiry: boolean }

/**
 * Which of an adjustment's optional fields the form offers: the server refuses a lot or an expiry on a SKU that
 * tracks neither, and an expiry only means something for stock added. Before a SKU is known, both are offered.
 */
export function adjustmentFields(tracking: SkuTracking | undefined, quantityChange: number | undefined) {
  return {
    lot: tracking?.lot ?? true,
    expiry: (tracking?.expiry ?? true) && (quantityChange ?? 0) >= 0,
  };
}
