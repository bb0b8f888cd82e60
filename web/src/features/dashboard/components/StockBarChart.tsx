import { useEffect, useRef } from 'react';
import * as echarts from 'echarts/core';
import { BarChart } from 'echarts/charts';
import { GridComponent, TooltipComponent } from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';

echarts.use([BarChart, GridComponent, TooltipComponent, CanvasRenderer]);

interface StockBarChartProps {
  categories: string[];
  values: number[];
  seriesName: string;
  color: string;
  dark: boolean;
}

/** A bar chart of stock units per category; resizes with its container. */
export function StockBarChart({ categories, values, seriesName, color, dark }: StockBarChartProps) {
  const ref = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);

  useEffect(() => {
    if (!ref.current) return;
    const instance = echarts.init(ref.current, dark ? 'dark' : undefined, { renderer: 'canvas' });
    chart.current = instance;
    const observer = new ResizeObserver(() => instance.resize());
    observer.observe(ref.current);
    return () => {
      observer.disconnect();
      instance.dispose();
      chart.current = null;
    };
  }, [dark]);

  useEffect(() => {
    chart.current?.setOption(
      {
        backgroundColor: 'transparent',
        color: [color],
        tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
        grid: { left: 8, right: 16, top: 24, bottom: 8, containLabel: true },
        xAxis: { type: 'category', data: categories, axisTick: { alignWithLabel: true }, axisLabel: { interval: 0, hideOverlap: true } },
        yAxis: { type: 'value', name: seriesName },
        series: [{ name: seriesName, type: 'bar', data: values, barMaxWidth: 48, itemStyle: { borderRadius: [4, 4, 0, 0] } }],
      },
      true,
    );
  }, [categories, values, seriesName, color, dark]);

  return <div ref={ref} className="bolx-chart" role="img" aria-label={seriesName} />;
}
