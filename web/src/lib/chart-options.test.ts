import { describe, expect, it } from 'vitest';
import { CHART_COLOURS, chartOption } from './chart-options';

const one = () => chartOption({ type: 'bar', xAxis: { data: ['a'] }, yAxis: {}, series: [{ name: 'Orders', data: [1] }] });

describe('the spec’s chart rules', () => {
  it('cycle five colours, name unnamed series Series N, show a legend only for more than one series', () => {
    const seven = chartOption({ type: 'line', xAxis: { data: ['a'] }, yAxis: {}, series: Array.from({ length: 7 }, () => ({ data: [1] })) });
    expect(seven.series.map((s) => s.color)).toEqual([...CHART_COLOURS, CHART_COLOURS[0], CHART_COLOURS[1]]);
    expect(seven.series.map((s) => s.name)).toEqual(['Series 1', 'Series 2', 'Series 3', 'Series 4', 'Series 5', 'Series 6', 'Series 7']);
    expect(seven.legend.show).toBe(true);
    // Below the plot, clear of the y axis title at the top (they overlapped at 390 px).
    expect(seven.legend).toMatchObject({ bottom: 0, type: 'scroll' });
    expect(seven.grid.bottom).toBeGreaterThan(one().grid.bottom);
    expect(one().legend.show).toBe(false);
    expect(one().series[0].name).toBe('Orders');
  });

  it('x axis title Date, y axis title Value by default', () => {
    const o = chartOption({ type: 'bar', xAxis: { data: [] }, yAxis: {}, series: [] });
    expect(o.xAxis.name).toBe('Date');
    expect(o.yAxis.name).toBe('Value');
    expect(chartOption({ type: 'bar', xAxis: { name: 'User', data: [] }, yAxis: { name: 'Units per hour' }, series: [] }).yAxis.name).toBe('Units per hour');
  });
});
