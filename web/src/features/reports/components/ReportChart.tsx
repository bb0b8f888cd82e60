import { useEffect, useRef } from 'react';
import * as echarts from 'echarts/core';
import { BarChart, LineChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';
import type { ChartData } from '@bolx/contracts';
import { chartOption } from '../../../lib/chart-options';
import { chartLook } from '../report-texts';

echarts.use([BarChart, LineChart, GridComponent, LegendComponent, TooltipComponent, CanvasRenderer]);

/** A report's chart (bar or line); resizes with its container. */
export function ReportChart({ chart, dark, label }: { chart: ChartData; dark: boolean; label: string }) {
  const ref = useRef<HTMLDivElement>(null);
  const instance = useRef<echarts.ECharts | null>(null);
  useEffect(() => {
    if (!ref.current) return;
    const c = echarts.init(ref.current, dark ? 'dark' : undefined, { renderer: 'canvas' });
    instance.current = c;
    const observer = new ResizeObserver(() => c.resize());
    observer.observe(ref.current);
    return () => { observer.disconnect(); c.dispose(); instance.current = null; };
  }, [dark]);
  useEffect(() => { instance.current?.setOption(chartOption(chart, dark, chartLook(chart)), true); }, [chart, dark]);
  return <div ref={ref} className="bolx-chart" role="img" aria-label={label} data-testid="report-chart" />;
}
