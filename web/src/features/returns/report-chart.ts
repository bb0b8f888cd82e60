import type { ReturnsReport } from '@bolx/contracts';

import type { ChartInput } from '../../lib/chart-options';

/** Units returned per day, one series per disposition that has any (labels given). */
export function returnsChartData(byDay: ReturnsReport['byDay'], label: (disposition: string) => string, yName?: string): ChartInput {
  const days = [...new Set(byDay.map((d) => d.day))].sort();
  const dispositions = [...new Set(byDay.map((d) => d.disposition))];
  return {
    type: 'bar',
    xAxis: { data: days },
    yAxis: { name: yName },
    series: dispositions.map((disposition) => ({
      name: label(disposition),
      stack: 'units',
      data: days.map((day) => byDay.filter((d) => d.day === day && d.disposition === disposition).reduce((s, d) => s + d.units, 0)),
    })),
  };
}
