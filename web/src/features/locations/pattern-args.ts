import type { LocationPatternArgs } from './locations-api';

/** A range as typed: numbers ("1", "05") or one letter ("a"). */
export interface RangeText {
  from?: string;
  to?: string;
}

/** The pattern form's values. */
export interface PatternFormValues {
  warehouseId?: number;
  type?: string;
  zone?: string;
  aisles?: RangeText;
  racks?: RangeText;
  levels?: RangeText;
  useBins?: boolean;
  bins?: RangeText;
  separator?: LocationPatternArgs['separator'];
  padding?: number;
  capacity?: number | null;
  maxWeightKg?: number | null;
  isPickable?: boolean;
  description?: string;
}

/** "7" → 7, "b" → "B"; anything else (empty, "AB", "1A") is not a range value. */
export function rangeValue(text: string | undefined): number | string | undefined {
  const v = (text ?? '').trim().toUpperCase();
  if (/^\d{1,4}$/.test(v)) return Number(v);
  if (/^[A-Z]$/.test(v)) return v;
  return undefined;
}

function range(r: RangeText | undefined) {
  const from = rangeValue(r?.from);
  const to = rangeValue(r?.to);
  return from === undefined || to === undefined ? undefined : { from, to };
}

/**
 * The pattern call's body, or null while a required part is missing or unreadable (the preview waits). Order and
 * kind mismatches are left to the server, whose message the preview shows.
 */
export function toPatternArgs(v: PatternFormValues): LocationPatternArgs | null {
  const aisles = range(v.aisles);
  const racks = range(v.racks);
  const levels = range(v.levels);
  const bins = v.useBins ? range(v.bins) : undefined;
  if (!v.warehouseId || !v.type || !aisles || !racks || !levels || (v.useBins && !bins)) return null;
  if (v.capacity === undefined || v.capacity === null) return null;
  const zone = v.zone?.trim();
  return {
    warehouseId: v.warehouseId,
    type: v.type,
    ...(zone ? { zone: zone.toUpperCase() } : {}),
    aisles,
    racks,
    levels,
    ...(bins ? { bins } : {}),
    separator: v.separator ?? '-',
    padding: v.padding ?? 2,
    capacity: v.capacity,
    maxWeightKg: v.maxWeightKg ?? null,
    isPickable: v.isPickable ?? true,
    description: v.description?.trim() || null,
  };
}
