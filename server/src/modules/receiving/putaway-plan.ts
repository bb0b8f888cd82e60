/**
 * Where each line of a bulk receipt is put away, planned in memory from two reads (see
 * receivingRepository.skuStoragePlaces and emptyStorage): the storage location already holding most of the
 * SKU that still has room, else the next empty location that fits — the first suggestion SuggestPutaway
 * would make, for every line at once. Room planned for one line is not offered to the next.
 */
export interface PlanLine { lineId: number; skuId: number; skuCode: string; quantity: number }
export interface PlanPlace { id: number; code: string; capacity: number; on_hand: number | string }
export interface SkuPlace extends PlanPlace { sku_id: number }

export function planPutaway(lines: PlanLine[], holding: SkuPlace[], empty: PlanPlace[]) {
  const planned = new Map<number, number>(); // location id → units planned into it
  const room = (p: PlanPlace) => (p.capacity > 0 ? p.capacity - Number(p.on_hand) - (planned.get(p.id) ?? 0) : Infinity);
  const bySku = new Map<number, SkuPlace[]>();
  for (const h of holding) bySku.set(h.sku_id, [...(bySku.get(h.sku_id) ?? []), h]);
  const free = [...empty];
  const targets = new Map<number, { locationId: number; locationCode: string }>();
  const unplaced: PlanLine[] = [];
  for (const line of lines) {
    let place: PlanPlace | undefined = bySku.get(line.skuId)?.find((p) => room(p) >= line.quantity);
    if (!place) {
      const i = free.findIndex((p) => room(p) >= line.quantity);
      // An empty location takes one line: two SKUs are not mixed into it by a bulk receipt.
      if (i >= 0) place = free.splice(i, 1)[0];
    }
    if (!place) { unplaced.push(line); continue; }
    planned.set(place.id, (planned.get(place.id) ?? 0) + line.quantity);
    targets.set(line.lineId, { locationId: place.id, locationCode: place.code });
  }
  return { targets, unplaced, quantities: planned };
}
