/**
 * Occupancy's one formula: storage positions holding stock over all storage positions, in percent with one
 * decimal (0 without positions). The counts come from positionCounts (position-counts.ts); the WarehouseSelection
 * cards, the dashboard tiles and GetLocationOccupancy all go through here, so the same stock reads the same.
 */
export function occupancyPercent(used: number, total: number): number {
  return total > 0 ? Math.round((Math.min(used, total) / total) * 1000) / 10 : 0;
}

/** Several warehouses' position counts as one (the dashboard over all warehouses in scope); pg counts arrive as text. */
export function sumPositions(rows: { total: number | string | null; used: number | string | null }[]): { total: number; used: number } {
  let total = 0;
  let used = 0;
  for (const r of rows) {
    total += Number(r.total ?? 0);
    used += Number(r.used ?? 0);
  }
  return { total, used };
}
