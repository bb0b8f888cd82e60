import type { ChartInput } from '../../lib/chart-options';

/** A billing chart's series: bars or a line, stacked when they add up. */
export type ChartSeries = ChartInput['series'][number] & { type: 'bar' | 'line' };
