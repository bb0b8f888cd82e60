import { useMemo, useState, type ReactNode } from 'react';
import { Alert, Button, Card, DatePicker, Input, Popconfirm, Select, Space, Table, Typography } from 'antd';
import { DeleteOutlined, DownloadOutlined, SaveOutlined } from '@ant-design/icons';
import dayjs from 'dayjs';
import { useSearchParams } from 'react-router';
import {
  REPORT_AREAS, REPORT_MAX_RANGE_MESSAGE, REPORT_PRESETS, REPORTS, reportAsOf, type ReportArea, type ReportColumn, type ReportFilters, type ReportGroup, type ReportKey, type ReportPreset,
} from '@bolx/contracts';
import { useDownload } from '../../../components/download/use-download';
import { useAppSelector } from '../../../lib/hooks';
import { selectCustomerId, selectWarehouseId } from '../../../lib/state/selectors';
import { themePresetById } from '../../../lib/theme/presets';
import { notifyError, notifySuccess } from '../../../lib/toast';
import { errorToastText, toApiError } from '../../../lib/api/api-error';
import { useDeleteReportViewMutation, useGetReportQuery, useGetReportViewsQuery, useSaveReportViewMutation } from '../../../lib/api/reports-api';
import { useT } from '../../../lib/i18n/use-t';
import { coverageLine, searchRows, translatedChart, translatedColumns } from '../report-texts';
import { ReportChart } from './ReportChart';
import { ReportJob } from './ReportJob';
import { ReportSubscriptions } from './ReportSubscriptions';
import '../reports.css';
import '../messages';

/** A cell as a person reads it: money from minor units, percentages and hours with their sign. */
export function formatCell(c: ReportColumn, v: string | number | null | undefined): string {
  if (v === null || v === undefined) return '—';
  if (typeof v !== 'number') return c.key === 'clockIn' || c.key === 'clockOut' ? dayjs(v).format('YYYY-MM-DD HH:mm') : v;
  if (c.kind === 'money') return (v / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  if (c.kind === 'percent') return `${v}%`;
  if (c.kind === 'hours') return `${v} h`;
  return v.toLocaleString('en-US');
}

interface ReportPageProps {
  area: ReportArea;
  /** The screen's title; its route's title (the menu's) unless given. */
  title?: string;
  reports: ReportKey[];
  /** Above the report (the labour screen's clock). */
  extra?: ReactNode;
  /** The report's own filters beyond the common ones (dead stock's days): shown beside them, sent with them. */
  ownFilters?: (report: ReportKey, value: Partial<ReportFilters>, onChange: (v: Partial<ReportFilters>) => void) => ReactNode;
  /** Actions on the report as filtered (apply its ABC classes). */
  actions?: (report: ReportKey, filters: ReportFilters) => ReactNode;
  /** Below the report (the inbound screen's links to its lists). */
  footer?: ReactNode;
}

/**
 * The one report screen: which report, the header's warehouse and client, a date range with presets, the report's
 * own grouping; a chart, a table with its totals, exports (Excel, CSV, PDF) and the user's saved views.
 */
export function ReportPage({ area, title, reports, extra, ownFilters, actions, footer }: ReportPageProps) {
  const t = useT();
  const warehouseId = useAppSelector(selectWarehouseId) ?? 0;
  const customerId = useAppSelector(selectCustomerId) ?? 0;
  const dark = useAppSelector((s) => themePresetById(s.settings.themePresetId).mode === 'dark');
  // A link may name the report and range to open with (a dashboard tile: ?report=on-time-shipping&preset=last7).
  const [search] = useSearchParams();
  const asked = search.get('report') as ReportKey | null;
  const askedPreset = search.get('preset') as ReportPreset | null;
  const [report, setReport] = useState<ReportKey>(asked && reports.includes(asked) ? asked : reports[0]);
  const [preset, setPreset] = useState<ReportPreset>(askedPreset && askedPreset !== 'custom' && REPORT_PRESETS.includes(askedPreset) ? askedPreset : 'last30');
  const [range, setRange] = useState<[string, string] | null>(null);
  const [groupBy, setGroupBy] = useState<ReportGroup | undefined>();
  const [viewName, setViewName] = useState('');
  const [own, setOwn] = useState<Partial<ReportFilters>>({});
  const [query, setQuery] = useState('');
  const groups = REPORTS[report].groups as readonly ReportGroup[];
  // A snapshot of now takes no range; a report as of a day takes the range's last day (one day when custom).
  const asOf = reportAsOf(report);
  const filters: ReportFilters = useMemo(() => ({
    ...(warehouseId ? { warehouseId } : {}), ...(customerId ? { customerId } : {}),
    ...(asOf === 'now' ? {} : { preset, ...(preset === 'custom' && range ? { fromDate: range[0], toDate: range[1] } : {}) }),
    ...(groupBy && groups.includes(groupBy) ? { groupBy } : {}), ...own,
  }), [warehouseId, customerId, asOf, preset, range, groupBy, groups, own]);
  const ready = asOf === 'now' || preset !== 'custom' || range !== null;
  const { data, isFetching, error } = useGetReportQuery({ area, report, filters }, { skip: !ready });
  const { data: views = [] } = useGetReportViewsQuery(report);
  const [saveView, { isLoading: saving }] = useSaveReportViewMutation();
  const [deleteView] = useDeleteReportViewMutation();
  const [download, downloading] = useDownload();
  const refusal = error ? errorToastText(toApiError(error)) : '';
  const rangeRefused = refusal.includes(REPORT_MAX_RANGE_MESSAGE) ? REPORT_MAX_RANGE_MESSAGE : null;

  const applyView = (viewId: number) => {
    const v = views.find((x) => x.viewId === viewId);
    if (!v) return;
    setPreset(v.filters.preset ?? 'last30');
    setRange(v.filters.fromDate && v.filters.toDate ? [v.filters.fromDate, v.filters.toDate] : null);
    setGroupBy(v.filters.groupBy);
    setOwn(v.filters.days ? { days: v.filters.days } : {});
    setViewName(v.name);
  };
  const save = async () => {
    try {
      const r = await saveView({ report, name: viewName.trim(), filters }).unwrap();
      notifySuccess(r.message);
    } catch (e) {
      notifyError(errorToastText(toApiError(e)));
    }
  };
  const shown = useMemo(() => translatedColumns(t, data?.columns ?? []), [t, data]);
  const chart = useMemo(() => (data?.chart ? translatedChart(t, data.chart) : null), [t, data]);
  const columns = shown.map((c) => ({
    key: c.key, dataIndex: c.key, title: c.title, align: c.kind === 'text' ? ('left' as const) : ('right' as const),
    render: (v: string | number | null) => formatCell(c, v),
    sorter: (a: Record<string, unknown>, b: Record<string, unknown>) => {
      const x = a[c.key]; const y = b[c.key];
      return typeof x === 'number' && typeof y === 'number' ? x - y : String(x ?? '').localeCompare(String(y ?? ''));
    },
  }));
  const rows = searchRows((data?.rows ?? []).map((r, i) => ({ ...r, __key: i })), shown, query);

  return (
    <div className="bolx-page bolx-report">
      <Typography.Title level={3}>{title ?? t(`routes.${REPORT_AREAS[area].path.slice(1)}`)}</Typography.Title>
      {extra}
      <Card size="small" className="bolx-report__filters">
        <Space wrap size={[12, 12]}>
          <Select aria-label={t('reports.filter.report')} className="bolx-report__select" value={report}
            onChange={(v) => { setReport(v); setGroupBy(undefined); setOwn({}); setViewName(''); setQuery(''); }}
            options={reports.map((k) => ({ value: k, label: t(`reports.report.${k}`) }))} />
          {asOf !== 'now' && (
            <Select aria-label={t('reports.filter.dateRange')} className="bolx-report__preset" value={preset} onChange={setPreset}
              options={REPORT_PRESETS.map((p) => ({ value: p, label: t(`reports.preset.${p}`) }))} />
          )}
          {asOf === null && preset === 'custom' && (
            <DatePicker.RangePicker aria-label={t('reports.filter.customRange')} value={range ? [dayjs(range[0]), dayjs(range[1])] : null}
              onChange={(v) => setRange(v && v[0] && v[1] ? [v[0].format('YYYY-MM-DD'), v[1].format('YYYY-MM-DD')] : null)} />
          )}
          {asOf === 'end' && preset === 'custom' && (
            <DatePicker aria-label={t('reports.filter.customRange')} value={range ? dayjs(range[1]) : null}
              onChange={(v) => setRange(v ? [v.format('YYYY-MM-DD'), v.format('YYYY-MM-DD')] : null)} />
          )}
          {groups.length > 0 && (
            <Select aria-label={t('reports.filter.groupBy')} className="bolx-report__preset" value={groupBy && groups.includes(groupBy) ? groupBy : groups[0]} onChange={setGroupBy}
              options={groups.map((g) => ({ value: g, label: t('reports.filter.groupOption', { group: t(`reports.group.${g}`) }) }))} />
          )}
          {ownFilters?.(report, own, setOwn)}
          <Space.Compact>
            {(['xlsx', 'csv', 'pdf'] as const).map((format) => (
              <Button key={format} icon={<DownloadOutlined />} loading={downloading} disabled={!ready}
                onClick={() => void download({ url: `Warehouse/${area}/DownloadReport`, method: 'POST', body: { report, filters, format } }, `${report}.${format}`)}>
                {t(`reports.export.${format}`)}
              </Button>
            ))}
          </Space.Compact>
          {ready && actions?.(report, filters)}
        </Space>
        <Space wrap size={[8, 8]} className="bolx-report__views">
          <Select aria-label={t('reports.views.saved')} placeholder={t('reports.views.saved')} className="bolx-report__select" value={views.find((v) => v.name === viewName)?.viewId}
            onChange={applyView} options={views.map((v) => ({ value: v.viewId, label: v.name }))} allowClear onClear={() => setViewName('')} />
          <Input aria-label={t('reports.views.name')} placeholder={t('reports.views.name')} value={viewName} maxLength={64} onChange={(e) => setViewName(e.target.value)} className="bolx-report__name" />
          <Button icon={<SaveOutlined />} disabled={!viewName.trim()} loading={saving} onClick={() => void save()}>{t('reports.views.save')}</Button>
          {views.some((v) => v.name === viewName) && (
            <Popconfirm title={t('reports.views.deleteConfirm')} onConfirm={() => void deleteView({ viewId: views.find((v) => v.name === viewName)!.viewId, report }).unwrap().then(() => setViewName(''))}>
              <Button icon={<DeleteOutlined />} aria-label={t('reports.views.delete')} />
            </Popconfirm>
          )}
        </Space>
        {ready && <div className="bolx-report__views"><ReportSubscriptions report={report} filters={filters} /></div>}
      </Card>
      {/* A range past the on-screen limit: refused, naming it, and offered as a background job. */}
      {rangeRefused ? <ReportJob area={area} report={report} filters={filters} message={rangeRefused} /> : error ? <Alert type="error" showIcon message={errorToastText(toApiError(error))} className="bolx-report__error" /> : null}
      {data && (
        <Typography.Text type="secondary" className="bolx-report__range">{coverageLine(t, data)}</Typography.Text>
      )}
      {chart && chart.series.length > 0 && chart.xAxis.data.length > 0 && (
        <Card size="small" className="bolx-chart-card"><ReportChart chart={chart} dark={dark} label={t(`reports.report.${data!.report}`)} /></Card>
      )}
      <Card size="small" className="bolx-report__table">
        <Input.Search allowClear aria-label={t('reports.filter.search')} placeholder={t('reports.filter.search')} value={query} onChange={(e) => setQuery(e.target.value)}
          className="bolx-report__search" />
        <Table
          size="small" rowKey="__key" loading={isFetching} columns={columns} dataSource={rows} scroll={{ x: 'max-content' }}
          pagination={{ defaultPageSize: 10, showSizeChanger: true, pageSizeOptions: [10, 20, 50, 100], locale: { items_per_page: t('reports.perPage') } }}
          locale={{ emptyText: t('reports.empty') }}
          summary={() => data && rows.length > 0 && !query.trim() ? (
            <Table.Summary fixed>
              <Table.Summary.Row className="bolx-report__totals">
                {shown.map((c, i) => (
                  <Table.Summary.Cell key={c.key} index={i} align={c.kind === 'text' ? 'left' : 'right'}>
                    {i === 0 ? t('reports.total') : data.totals[c.key] === undefined ? '' : formatCell(c, data.totals[c.key])}
                  </Table.Summary.Cell>
                ))}
              </Table.Summary.Row>
            </Table.Summary>
          ) : null}
        />
      </Card>
      {footer}
    </div>
  );
}
