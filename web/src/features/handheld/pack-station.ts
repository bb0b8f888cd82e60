import type { Carton, CartonType, PackItemResult, PackOrderView } from '@bolx/contracts';

/**
 * The pack station's state, as pure functions of the order the server last answered with: what a scan does at
 * each stage (open an order, open a carton, pack an item, nothing left), what is left per line, and the
 * station's remembered choices.
 */

export type PackStage = 'order' | 'carton' | 'item' | 'close' | 'packed';

export interface PackContext {
  warehouseId?: number;
  stationLocationId?: number;
  cartonTypeId?: number;
  order?: PackOrderView;
  /** A call is on its way: further scans are ignored until it answers. */
  inFlight: boolean;
}

export type PackPlan =
  | { kind: 'ignore' }
  | { kind: 'refuse'; message: { id: string; values?: Record<string, string | number> } }
  | { kind: 'openPack'; request: { warehouseId: number; code: string } }
  /** Into the open carton, or (no carton open) into a new one of the default type, which the server opens only if it accepts the scan. */
  | { kind: 'packItem'; request: { cartonId: number; code: string; quantity: number } | { orderId: number; cartonTypeId: number; code: string; quantity: number } };

const DONE_STATUSES = new Set(['Packed', 'Shipped', 'Cancelled']);

export const openCartonOf = (order: PackOrderView): Carton | undefined => order.cartons.find((c) => c.status === 'Open');

/** Units of an order line in any carton (open or closed): the cartons' contents are the truth. */
export const unitsInCartons = (order: PackOrderView, orderLineId: number) =>
  order.cartons.reduce((n, c) => n + c.lines.filter((l) => l.orderLineId === orderLineId).reduce((m, l) => m + l.quantity, 0), 0);

export function packLines(order: PackOrderView) {
  return [...order.lines].sort((a, b) => a.lineNo - b.lineNo).map((l) => {
    const packed = Math.max(l.packedQuantity, unitsInCartons(order, l.orderLineId));
    return { ...l, packed, left: Math.max(0, l.pickedQuantity - packed) };
  });
}

export const unitsLeft = (order: PackOrderView) => packLines(order).reduce((n, l) => n + l.left, 0);

export function packStage(order: PackOrderView | undefined): PackStage {
  if (!order) return 'order';
  if (DONE_STATUSES.has(order.status)) return 'packed';
  const open = openCartonOf(order);
  const left = unitsLeft(order);
  if (open) return left > 0 ? 'item' : 'close';
  return left > 0 ? 'carton' : 'packed';
}

/** What one scan does at the station (the code and Enter); `times` multiplies an item scan. */
export function planPackScan(ctx: PackContext, raw: string, times = 1): PackPlan {
  if (ctx.inFlight) return { kind: 'ignore' };
  const code = raw.trim();
  if (!code) return { kind: 'refuse', message: { id: 'handheld.pack.refuse.empty' } };
  if (!ctx.warehouseId) return { kind: 'refuse', message: { id: 'handheld.pack.chooseWarehouse' } };
  if (!ctx.stationLocationId) return { kind: 'refuse', message: { id: 'handheld.pack.refuse.noStation' } };
  const quantity = Math.max(1, Math.floor(times || 1));
  const stage = packStage(ctx.order);
  switch (stage) {
    case 'order':
    case 'packed':
      return { kind: 'openPack', request: { warehouseId: ctx.warehouseId, code } };
    case 'carton':
      return ctx.cartonTypeId
        ? { kind: 'packItem', request: { orderId: ctx.order!.orderId, cartonTypeId: ctx.cartonTypeId, code, quantity } }
        : { kind: 'refuse', message: { id: 'handheld.pack.refuse.noCartonType' } };
    case 'item':
      return { kind: 'packItem', request: { cartonId: openCartonOf(ctx.order!)!.cartonId, code, quantity } };
    case 'close':
      return { kind: 'refuse', message: { id: 'handheld.pack.refuse.nothingLeft' } };
  }
}

/**
 * The order after a PackItem answer (it answers only what the scan changed): the order line's picked and packed
 * units, and the carton's line — in the carton shown, or in the carton the scan opened, added.
 */
export function applyPackItem(order: PackOrderView, result: PackItemResult): PackOrderView {
  if (result.orderId !== order.orderId) return order;
  const line = result.cartonLine;
  const sameLine = (l: Carton['lines'][number]) => l.orderLineId === line.orderLineId && l.lot === line.lot;
  const withLine = (c: Carton): Carton => ({ ...c, lines: c.lines.some(sameLine) ? c.lines.map((l) => (sameLine(l) ? line : l)) : [...c.lines, line] });
  const known = order.cartons.some((c) => c.cartonId === result.carton.cartonId);
  return {
    ...order,
    lines: order.lines.map((l) => (l.orderLineId === result.line.orderLineId
      ? { ...l, pickedQuantity: result.line.pickedQuantity, packedQuantity: result.line.packedQuantity } : l)),
    cartons: known
      ? order.cartons.map((c) => (c.cartonId === result.carton.cartonId ? withLine(c) : c))
      : [...order.cartons, withLine({ ...result.carton, lines: [] })],
  };
}

/** The weight a closing carton's dialog starts with: its type's tare (the scale's reading replaces it). */
export function weightPrefill(carton: Carton, types: readonly CartonType[]): number | undefined {
  const type = types.find((t) => t.cartonTypeId === carton.cartonTypeId);
  return type && type.tareWeightKg > 0 ? type.tareWeightKg : undefined;
}

export const cartonUnits = (carton: Carton) => carton.lines.reduce((n, l) => n + l.quantity, 0);

// ---- The station's remembered choices, per warehouse ----

export interface PackStationSettings { stationLocationId?: number; cartonTypeId?: number }
type StorageLike = Pick<Storage, 'getItem' | 'setItem'>;
const key = (warehouseId: number) => `bolx.packStation.${warehouseId}`;

export function readStationSettings(storage: StorageLike | undefined, warehouseId: number): PackStationSettings {
  try {
    const raw = storage?.getItem(key(warehouseId));
    const value: unknown = raw ? JSON.parse(raw) : {};
    if (typeof value !== 'object' || value === null) return {};
    const { stationLocationId, cartonTypeId } = value as Record<string, unknown>;
    return {
      ...(Number.isInteger(stationLocationId) && (stationLocationId as number) > 0 ? { stationLocationId: stationLocationId as number } : {}),
      ...(Number.isInteger(cartonTypeId) && (cartonTypeId as number) > 0 ? { cartonTypeId: cartonTypeId as number } : {}),
    };
  } catch {
    // A broken entry (another version's, or edited by hand) is forgotten.
    return {};
  }
}

export function writeStationSettings(storage: StorageLike | undefined, warehouseId: number, change: PackStationSettings): PackStationSettings {
  const next = { ...readStationSettings(storage, warehouseId), ...change };
  try {
    storage?.setItem(key(warehouseId), JSON.stringify(next));
  } catch {
    // Private mode or a full storage: the choice lasts until the page closes.
  }
  return next;
}
