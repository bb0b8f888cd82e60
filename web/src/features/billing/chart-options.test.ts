import { describe, expect, it } from 'vitest';
import { CHART_COLOURS, chartOption } from '../../lib/chart-options';
import type { ChartSeries } from './chart-options';

describe('billing charts follow the spec’s chart rules through the one chart options', () => {
  it('cycle colours over 5, show a legend only for more than one series, title the x axis Date, default names, keep stacks and mixed types', () => {
    const series: ChartSeries[] = Array.from({ length: 7 }, (_, i) => ({ type: i === 1 ? 'line' : 'bar', stack: i === 0 ? 'total' : undefined, data: [i, i], name: i === 6 ? '' : `T${i}` }));
    const many = chartOption({ type: 'bar', xAxis: { data: ['2025-01', '2025-02'] }, yAxis: { name: 'EUR' }, series }, false, { valueFormatter: (v) => `${v} EUR` });
    expect(many.series.map((s) => s.color)).toEqual([...CHART_COLOURS, CHART_COLOURS[0], CHART_COLOURS[1]]);
    expect(many.legend.show).toBe(true);
    expect(many.xAxis.name).toBe('Date');
    expect(many.yAxis.name).toBe('EUR');
    expect(many.series[6].name).toBe('Series 7');
    expect(many.series[1].type).toBe('line');
    expect(many.series[0]).toMatchObject({ stack: 'total' });
    expect((many.tooltip as { valueFormatter?: (v: number) => string }).valueFormatter?.(3)).toBe('3 EUR');
    const one = chartOption({ type: 'line', xAxis: { data: ['2025-01'] }, yAxis: {}, series: [{ data: [1] }] });
    expect(one.legend.show).toBe(false);
    expect(one.yAxis.name).toBe('Value');
  });
});
