/** Spec section 2 and 9: occupancy above 90 % is red, above 70 % amber, otherwise green. */
export const OCCUPANCY_AMBER_ABOVE = 70;
export const OCCUPANCY_RED_ABOVE = 90;

export type OccupancyLevel = 'green' | 'amber' | 'red';

export const OCCUPANCY_COLORS: Record<OccupancyLevel, string> = {
  green: '#52c41a',
  amber: '#faad14',
  red: '#f5222d',
};

export function occupancyLevel(percent: number): OccupancyLevel {
  if (percent > OCCUPANCY_RED_ABOVE) return 'red';
  if (percent > OCCUPANCY_AMBER_ABOVE) return 'amber';
  return 'green';
}

export function occupancyColor(percent: number): string {
  return OCCUPANCY_COLORS[occupancyLevel(percent)];
}

/** Display form: at most one decimal, never negative. */
export function formatPercent(percent: number): string {
  const clamped = Math.max(0, percent);
  return `${Number.isInteger(clamped) ? clamped : clamped.toFixed(1)}%`;
}
