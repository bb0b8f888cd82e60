import { useEffect, useRef } from 'react';
import * as echarts from 'echarts/core';

/**
 * An ECharts instance on the returned element: made when it mounts (again when the theme turns dark or light),
 * resized with its container, given `option` whenever it changes, and disposed with the element. The caller
 * registers the chart types it draws (`echarts.use`). `instance` is there for exports (getDataURL).
 */
export function useEChart(option: Parameters<echarts.ECharts['setOption']>[0], dark = false) {
  const ref = useRef<HTMLDivElement>(null);
  const instance = useRef<echarts.ECharts | null>(null);
  const latest = useRef(option);
  latest.current = option;
  useEffect(() => {
    if (!ref.current) return;
    const c = echarts.init(ref.current, dark ? 'dark' : undefined, { renderer: 'canvas' });
    instance.current = c;
    c.setOption(latest.current, true);
    const observer = new ResizeObserver(() => c.resize());
    observer.observe(ref.current);
    return () => { observer.disconnect(); c.dispose(); instance.current = null; };
  }, [dark]);
  useEffect(() => { instance.current?.setOption(option, true); }, [option]);
  return { ref, instance };
}
