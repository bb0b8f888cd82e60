import { useCallback, useEffect, useMemo, useRef } from 'react';
import { Button, Modal } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import * as echarts from 'echarts/core';
import { BarChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';
import type { ChartData } from '@bolx/contracts';
import { chartOption } from '../../../lib/chart-options';
import { useEChart } from '../../../lib/use-echart';
import { saveBlob } from '../../../lib/api/download';
import { useT } from '../../../lib/i18n/use-t';

echarts.use([BarChart, GridComponent, LegendComponent, TooltipComponent, CanvasRenderer]);

/** A data: URL as a Blob (what the chart's PNG export gives). */
export function dataUrlToBlob(url: string): Blob {
  const [head, body = ''] = url.split(',');
  const type = /data:([^;]+)/.exec(head ?? '')?.[1] ?? 'application/octet-stream';
  const bytes = Uint8Array.from(atob(body), (c) => c.charCodeAt(0));
  return new Blob([bytes], { type });
}

/** The chart itself: drawn when its element mounts (inside the modal's portal), resized with it. */
function ChartCanvas({ chart, dark, title, onReady }: { chart: ChartData; dark: boolean; title: string; onReady: (c: echarts.ECharts | null) => void }) {
  const option = useMemo(() => chartOption(chart, dark), [chart, dark]);
  const { ref, instance } = useEChart(option, dark);
  useEffect(() => { onReady(instance.current); return () => onReady(null); }, [dark, instance, onReady]);
  return <div ref={ref} className="bolx-chart bolx-chat__chart" role="img" aria-label={title} data-testid="chat-chart" />;
}

/** Spec section 2: the client’s bar chart in a modal; "Download Chart" saves it as chart.png. */
export function ChatChartModal({ chart, title, dark, onClose }: { chart: ChartData | null; title: string; dark: boolean; onClose: () => void }) {
  const t = useT();
  const instance = useRef<echarts.ECharts | null>(null);
  const onReady = useCallback((c: echarts.ECharts | null) => { instance.current = c; }, []);
  const download = () => {
    const url = instance.current?.getDataURL({ type: 'png', pixelRatio: 2, backgroundColor: dark ? '#141414' : '#fff' });
    if (url) saveBlob(dataUrlToBlob(url), 'chart.png');
  };
  return (
    <Modal
      open={chart !== null}
      title={title}
      onCancel={onClose}
      width="42rem"
      destroyOnHidden
      footer={<Button type="primary" icon={<DownloadOutlined />} onClick={download}>{t('assistant.downloadChart')}</Button>}
    >
      {chart && <ChartCanvas chart={chart} dark={dark} title={title} onReady={onReady} />}
    </Modal>
  );
}
