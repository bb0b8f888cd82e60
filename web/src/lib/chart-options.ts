import type { ChartData } from '@bolx/contracts';

/** The spec's chart palette: five colours, cycled over the series. */
export const CHART_COLOURS = ['#1890ff', '#52c41a', '#faad14', '#f5222d', '#722ed1'] as const;

/**
 * ECharts options from a report's chart data, with the spec's chart rules: colours cycle over 5, a legend only
 * with more than one series, x axis title 'Date' (unless the categories are something else), y axis title
 * defaulting to 'Value', a series without a name called 'Series N'.
 */
/** A chart's data: a report's, or a screen's own whose series may mix bars and lines, or stack. */
export type ChartInput = Omit<ChartData, 'series'> & { series: (ChartData['series'][number] & { type?: 'bar' | 'line'; stack?: string })[] };
/** How a screen's values read: the tooltip's format (money), whole numbers only on the y axis (units). */
export interface ChartLook { valueFormatter?: (value: number) => string; minInterval?: number }

export function chartOption(chart: ChartInput, dark = false, look: ChartLook = {}) {
  const series = chart.series.map((s, i) => {
    const type = s.type ?? chart.type;
    return {
      name: s.name || `Series ${i + 1}`,
      type,
      data: s.data,
      color: CHART_COLOURS[i % CHART_COLOURS.length],
      ...(s.stack ? { stack: s.stack } : {}),
      ...(type === 'bar' ? { barMaxWidth: 40 } : { smooth: false, symbolSize: 6 }),
    };
  });
  const many = series.length > 1;
  return {
    backgroundColor: 'transparent',
    color: [...CHART_COLOURS],
    tooltip: { trigger: 'axis' as const, ...(look.valueFormatter ? { valueFormatter: look.valueFormatter } : {}) },
    // The legend sits under the x axis title, scrolling on one line: at the top it ran into the y axis title on a phone.
    legend: { show: many, type: 'scroll' as const, bottom: 0, ...(dark ? { textStyle: { color: '#ddd' } } : {}) },
    grid: { left: 16, right: 24, top: 32, bottom: many ? 60 : 36, containLabel: true },
    xAxis: { type: 'category' as const, name: chart.xAxis.name || 'Date', nameLocation: 'middle' as const, nameGap: 28, data: chart.xAxis.data, axisLabel: { hideOverlap: true } },
    yAxis: { type: 'value' as const, name: chart.yAxis.name || 'Value', nameTextStyle: { align: 'left' as const }, ...(look.minInterval ? { minInterval: look.minInterval } : {}) },
    series,
  };
}
