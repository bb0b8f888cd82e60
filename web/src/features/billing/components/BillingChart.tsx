import { useEffect, useRef } from 'react';
import * as echarts from 'echarts/core';
import { BarChart, LineChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';
import { formatMinor } from '@bolx/contracts';
import { chartOption } from '../../../lib/chart-options';
import type { ChartSeries } from '../chart-options';

echarts.use([BarChart, LineChart, GridComponent, LegendComponent, TooltipComponent, CanvasRenderer]);

/** An ECharts chart of billed amounts over dates; resizes with its container. */
export function BillingChart({ x, series, yName, label }: { x: string[]; series: ChartSeries[]; yName: string; label: string }) {
  const ref = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);
  useEffect(() => {
    if (!ref.current) return;
    const instance = echarts.init(ref.current, undefined, { renderer: 'canvas' });
    chart.current = instance;
    const observer = new ResizeObserver(() => instance.resize());
    observer.observe(ref.current);
    return () => { observer.disconnect(); instance.dispose(); chart.current = null; };
  }, []);
  useEffect(() => {
    chart.current?.setOption(chartOption({ type: 'bar', xAxis: { data: x }, yAxis: { name: yName }, series }, false, { valueFormatter: (v) => formatMinor(Math.round(v * 100)) }), true);
  }, [x, series, yName]);
  return <div ref={ref} style={{ width: '100%', height: 300 }} role="img" aria-label={label} />;
}
