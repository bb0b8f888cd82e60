import type { ChartData, ReportColumn, ReportGroup } from '@bolx/contracts';
import type { Db } from '../../db/schema.js';
import type { Dialect } from '../../db/dialect.js';
import type { Principal } from '../../platform/principal.js';
import type { LabourService } from '../labour/labour.service.js';
import type { InventoryReportService } from '../inventory-reports/inventory-reports.service.js';
import type { ReportWhere } from './reports.repository.js';

/** What every report builder is given: the checked filters, the caller, and the clock. */
export interface Ctx {
  db: Db; dialect: Dialect; w: ReportWhere; group: ReportGroup | null; zoneOf: (warehouseId: number) => string; principal: Principal; labour: LabourService; now: Date;
  /** The inventory reports' rows (their queries and shapes), which /InventoryReports builds on. */
  stock: InventoryReportService;
  /** Dead stock: no movement in this many days. */
  days: number;
}
export type Row = Record<string, string | number | null>;
/** What a builder returns: the service adds the report's name, title and resolved range. */
export interface Built { columns: ReportColumn[]; rows: Row[]; totals: Row; chart: ChartData | null }

export const n = (v: unknown) => Number(v ?? 0);
export const round = (v: number, places = 2) => Math.round(v * 10 ** places) / 10 ** places;
export const pct = (part: number, whole: number) => (whole > 0 ? round((part / whole) * 100, 1) : null);
export const hours = (seconds: number) => round(seconds / 3600, 2);
export const col = (key: string, title: string, kind: ReportColumn['kind'] = 'number'): ReportColumn => ({ key, title, kind });
export const HOUR_MS = 3600_000;

/** The median of numbers sorted ascending, or null for none. */
export function median(sorted: number[]): number | null {
  if (sorted.length === 0) return null;
  const mid = sorted.length / 2;
  return sorted.length % 2 ? sorted[(sorted.length - 1) / 2] : (sorted[mid - 1] + sorted[mid]) / 2;
}
