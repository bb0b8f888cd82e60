import { describe, expect, it } from 'vitest';
import { CHART_COLOURS, chartOption } from '../../lib/chart-options';
import { returnsChartData } from './report-chart';

describe('returns chart', () => {
  it('one stacked series per disposition over the period’s days, by the spec’s chart rules', () => {
    const data = returnsChartData([
      { day: '2030-01-02', disposition: 'restock', units: 2 }, { day: '2030-01-01', disposition: 'restock', units: 1 },
      { day: '2030-01-02', disposition: 'dispose', units: 1 },
    ], (d) => d.toUpperCase());
    expect(data.xAxis.data).toEqual(['2030-01-01', '2030-01-02']);
    expect(data.series).toEqual([{ name: 'RESTOCK', stack: 'units', data: [1, 2] }, { name: 'DISPOSE', stack: 'units', data: [0, 1] }]);
    const option = chartOption(data, false, { minInterval: 1 });
    expect(option.legend.show).toBe(true);
    expect(option.xAxis.name).toBe('Date');
    expect(option.yAxis).toMatchObject({ name: 'Value', minInterval: 1 });
    expect(option.series.map((s) => [s.type, s.stack])).toEqual([['bar', 'units'], ['bar', 'units']]);
  });

  it('no legend with one series; colours cycle over 5; unnamed series are Series N', () => {
    const one = chartOption({ type: 'bar', xAxis: { data: ['a'] }, yAxis: { name: 'Units' }, series: [{ data: [1] }] });
    expect(one.legend.show).toBe(false);
    expect(one.series[0].name).toBe('Series 1');
    expect(one.yAxis.name).toBe('Units');
    const six = chartOption({ type: 'bar', xAxis: { data: ['a'] }, yAxis: {}, series: Array.from({ length: 6 }, () => ({ data: [1] })) });
    expect(six.series[5].color).toBe(CHART_COLOURS[0]);
  });
});
