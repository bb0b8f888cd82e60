import { useMemo, useState } from 'react';
import { Alert, Card, Checkbox, Col, Progress, Row, Select, Space, Statistic, Table, Tag, Tooltip, Typography } from 'antd';
import { WarningOutlined } from '@ant-design/icons';
import dayjs from 'dayjs';
import {
  FLOOR_TASK_KINDS, JOB_BOARD_STATUSES, type FloorTask, type FloorTaskKind, type JobBoardGroup, type JobBoardStatus, type TrackedJob,
} from '@bolx/contracts';
import { useAppSelector } from '../../../lib/hooks';
import { selectCustomerId, selectWarehouseId } from '../../../lib/state/selectors';
import { errorToastText, toApiError } from '../../../lib/api/api-error';
import { useGetJobBoardQuery } from '../../../lib/api/reports-api';
import { useT, type Translate } from '../../../lib/i18n/use-t';
import '../reports.css';
import '../messages';

const STATUS_COLOURS: Record<string, string> = { Open: 'default', Assigned: 'blue', 'In Progress': 'processing', Short: 'orange', Done: 'green' };

/** Minutes as a person reads an age: '45 min', '3 h 05 min', '2 d 4 h'. */
export function formatAge(t: Translate, minutes: number): string {
  if (minutes < 60) return t('reports.jobs.ageMinutes', { minutes });
  if (minutes < 24 * 60) return t('reports.jobs.ageHours', { hours: Math.floor(minutes / 60), minutes: String(minutes % 60).padStart(2, '0') });
  return t('reports.jobs.ageDays', { days: Math.floor(minutes / 1440), hours: Math.floor((minutes % 1440) / 60) });
}

/** A board column's or task's status, and a task's kind, through the catalogue (unknown statuses read as sent). */
const statusText = (t: Translate, status: string) => t(`reports.jobs.statusOf.${status}`);
const kindText = (t: Translate, kind: FloorTaskKind) => t(`reports.jobs.kindOf.${kind}`);

function GroupTable({ t, title, keyTitle, rows }: { t: Translate; title: string; keyTitle: string; rows: JobBoardGroup[] }) {
  return (
    <Card size="small" title={title} className="bolx-report__table">
      <Table<JobBoardGroup>
        size="small" rowKey="key" pagination={false} dataSource={rows} scroll={{ x: 'max-content' }} locale={{ emptyText: t('reports.empty') }}
        columns={[
          { key: 'key', title: keyTitle, dataIndex: 'key' },
          ...JOB_BOARD_STATUSES.map((s) => ({ key: s, title: statusText(t, s), align: 'right' as const, render: (_: unknown, g: JobBoardGroup) => g.jobs[s] })),
          { key: 'units', title: t('reports.jobs.unitsPicked'), align: 'right' as const, render: (_: unknown, g: JobBoardGroup) => `${g.unitsPicked} / ${g.units}` },
          { key: 'stuck', title: t('reports.jobs.stuck'), align: 'right' as const, render: (_: unknown, g: JobBoardGroup) => (g.stuck ? <Tag color="red">{g.stuck}</Tag> : 0) },
        ]}
      />
    </Card>
  );
}

/**
 * /JobTracking: the floor's pick jobs live — a count per column (open, assigned, in progress, short, done), each job
 * with its picker, zone, progress, age and whether it is stuck, and the board by picker and by zone.
 */
export default function JobTrackingPage() {
  const t = useT();
  const warehouseId = useAppSelector(selectWarehouseId) ?? 0;
  const customerId = useAppSelector(selectCustomerId) ?? 0;
  const [statuses, setStatuses] = useState<JobBoardStatus[]>([]);
  const [pickerId, setPickerId] = useState<number | undefined>();
  const [zone, setZone] = useState<string | undefined>();
  const [stuckOnly, setStuckOnly] = useState(false);
  const [kinds, setKinds] = useState<FloorTaskKind[]>([]);
  // The hub reloads the board on every job change; the minute poll keeps ages and stuck flags current between them.
  const { data, isFetching, error } = useGetJobBoardQuery({
    ...(warehouseId ? { warehouseId } : {}), ...(customerId ? { customerId } : {}),
    ...(statuses.length ? { statuses } : {}), ...(pickerId ? { pickerId } : {}), ...(zone !== undefined ? { zone } : {}), ...(stuckOnly ? { stuckOnly } : {}),
    ...(kinds.length ? { kinds } : {}),
  }, { pollingInterval: 60_000 });
  const { data: everything } = useGetJobBoardQuery({ ...(warehouseId ? { warehouseId } : {}), ...(customerId ? { customerId } : {}) }, { pollingInterval: 60_000 });
  const pickers = useMemo(() => {
    const seen = new Map<number, string>();
    for (const j of everything?.jobs ?? []) if (j.pickerId !== null) seen.set(j.pickerId, j.pickerName ?? String(j.pickerId));
    return [...seen].map(([value, label]) => ({ value, label })).sort((a, b) => a.label.localeCompare(b.label));
  }, [everything]);
  const zones = useMemo(() => [...new Set((everything?.jobs ?? []).map((j) => j.zone ?? ''))].sort().map((z) => ({ value: z, label: z || t('reports.jobs.noZone') })), [everything]);

  return (
    <div className="bolx-page bolx-report">
      <Typography.Title level={3}>{t('routes.JobTracking')}</Typography.Title>
      <Row gutter={[12, 12]} className="bolx-jobs__columns">
        {JOB_BOARD_STATUSES.map((s) => (
          <Col key={s} xs={12} sm={8} xl={4}>
            <Card size="small" hoverable onClick={() => setStatuses(statuses.length === 1 && statuses[0] === s ? [] : [s])}
              className={statuses.includes(s) ? 'bolx-jobs__column bolx-jobs__column--on' : 'bolx-jobs__column'}>
              <Statistic title={statusText(t, s)} value={everything?.totals.jobs[s] ?? 0} />
            </Card>
          </Col>
        ))}
        <Col xs={12} sm={8} xl={4}>
          <Card size="small" hoverable onClick={() => setStuckOnly(!stuckOnly)} className={stuckOnly ? 'bolx-jobs__column bolx-jobs__column--on' : 'bolx-jobs__column'}>
            <Statistic title={t('reports.jobs.stuck')} value={everything?.totals.stuck ?? 0} valueStyle={everything?.totals.stuck ? { color: '#f5222d' } : undefined} prefix={everything?.totals.stuck ? <WarningOutlined /> : null} />
          </Card>
        </Col>
      </Row>
      <Card size="small" className="bolx-report__filters">
        <Space wrap size={[12, 12]}>
          <Select mode="multiple" aria-label={t('reports.jobs.status')} placeholder={t('reports.jobs.everyStatus')} className="bolx-report__select" value={statuses} onChange={setStatuses}
            options={JOB_BOARD_STATUSES.map((s) => ({ value: s, label: statusText(t, s) }))} />
          <Select aria-label={t('reports.jobs.picker')} placeholder={t('reports.jobs.everyPicker')} className="bolx-report__preset" allowClear value={pickerId} onChange={setPickerId} options={pickers} />
          <Select aria-label={t('reports.jobs.zone')} placeholder={t('reports.jobs.everyZone')} className="bolx-report__preset" allowClear value={zone} onChange={setZone} options={zones} />
          <Checkbox checked={stuckOnly} onChange={(e) => setStuckOnly(e.target.checked)}>{t('reports.jobs.stuckOnly')}</Checkbox>
        </Space>
      </Card>
      {error ? <Alert type="error" showIcon message={errorToastText(toApiError(error))} className="bolx-report__error" /> : null}
      <Card size="small" title={t('reports.jobs.everyTask')} className="bolx-report__table" data-testid="every-task"
        extra={<Select mode="multiple" aria-label={t('reports.jobs.taskKind')} placeholder={t('reports.jobs.everyKind')} className="bolx-report__select" value={kinds} onChange={setKinds}
          options={FLOOR_TASK_KINDS.map((k) => ({ value: k, label: kindText(t, k) }))} />}>
        <Table<FloorTask>
          size="small" rowKey={(x) => `${x.kind}:${x.documentId}`} loading={isFetching && !data} dataSource={data?.tasks ?? []} scroll={{ x: 'max-content' }}
          rowClassName={(x) => (x.stuck || x.late ? 'bolx-jobs__stuck' : '')}
          pagination={{ defaultPageSize: 20, showSizeChanger: true, pageSizeOptions: [10, 20, 50, 100], locale: { items_per_page: t('reports.perPage') } }}
          locale={{ emptyText: t('reports.empty') }}
          columns={[
            { key: 'kind', title: t('reports.jobs.task'), dataIndex: 'kind', render: (k: FloorTaskKind) => kindText(t, k) },
            { key: 'ref', title: t('reports.jobs.document'), dataIndex: 'reference' },
            { key: 'status', title: t('reports.jobs.status'), dataIndex: 'status', render: (st: string) => <Tag color={STATUS_COLOURS[st]}>{statusText(t, st)}</Tag> },
            { key: 'who', title: t('reports.jobs.who'), dataIndex: 'who', render: (w: string | null) => w ?? '—' },
            { key: 'start', title: t('reports.jobs.start'), dataIndex: 'startedAt', render: (v: string | null) => (v ? dayjs(v).format('YYYY-MM-DD HH:mm') : '—') },
            { key: 'end', title: t('reports.jobs.end'), dataIndex: 'finishedAt', render: (v: string | null) => (v ? dayjs(v).format('YYYY-MM-DD HH:mm') : '—') },
            { key: 'duration', title: t('reports.jobs.duration'), align: 'right', dataIndex: 'durationMinutes', render: (m: number | null) => (m === null ? '—' : formatAge(t, m)) },
            {
              key: 'alert', title: t('reports.jobs.lateOrStuck'), render: (_, x) => (
                <Space size={4} wrap>
                  {x.late ? <Tag color="orange">{x.late}</Tag> : null}
                  {x.stuckReason ? <Tag color="red" icon={<WarningOutlined />}>{x.stuckReason}</Tag> : null}
                </Space>
              ),
            },
          ]}
        />
      </Card>
      <Card size="small" title={t('reports.jobs.pickJobs')} className="bolx-report__table" data-testid="pick-jobs">
        <Table<TrackedJob>
          size="small" rowKey="jobId" loading={isFetching && !data} dataSource={data?.jobs ?? []} scroll={{ x: 'max-content' }}
          rowClassName={(j) => (j.stuck ? 'bolx-jobs__stuck' : '')}
          pagination={{ defaultPageSize: 20, showSizeChanger: true, pageSizeOptions: [10, 20, 50, 100], locale: { items_per_page: t('reports.perPage') } }}
          locale={{ emptyText: t('reports.empty') }}
          columns={[
            { key: 'job', title: t('reports.jobs.job'), dataIndex: 'jobNumber', sorter: (a, b) => a.jobNumber.localeCompare(b.jobNumber) },
            { key: 'wave', title: t('reports.jobs.wave'), dataIndex: 'waveNumber' },
            ...(warehouseId ? [] : [{ key: 'wh', title: t('reports.jobs.warehouse'), dataIndex: 'warehouseName' }]),
            { key: 'zone', title: t('reports.jobs.zone'), dataIndex: 'zone', render: (z: string | null) => z ?? '—' },
            { key: 'status', title: t('reports.jobs.status'), dataIndex: 'status', render: (s: string) => <Tag color={STATUS_COLOURS[s]}>{statusText(t, s)}</Tag> },
            { key: 'picker', title: t('reports.jobs.picker'), dataIndex: 'pickerName', render: (p: string | null) => p ?? <Typography.Text type="secondary">{t('reports.jobs.unassigned')}</Typography.Text> },
            {
              key: 'progress', title: t('reports.jobs.progress'), width: 200,
              render: (_, j) => (
                <Tooltip title={t(j.unitsShort ? 'reports.jobs.progressShort' : 'reports.jobs.progressOf', { linesPicked: j.linesPicked, lines: j.lines, unitsPicked: j.unitsPicked, units: j.units, short: j.unitsShort })}>
                  <div className="bolx-jobs__progress">
                    <Progress percent={j.progress} size="small" status={j.unitsShort ? 'exception' : j.status === 'Done' ? 'success' : 'active'} showInfo={false} />
                    <span>{j.unitsPicked}/{j.units}</span>
                  </div>
                </Tooltip>
              ),
            },
            { key: 'lines', title: t('reports.jobs.lines'), align: 'right', render: (_, j) => `${j.linesPicked}/${j.lines}` },
            { key: 'age', title: t('reports.jobs.age'), align: 'right', dataIndex: 'ageMinutes', render: (m: number) => formatAge(t, m), sorter: (a, b) => a.ageMinutes - b.ageMinutes },
            { key: 'last', title: t('reports.jobs.lastPick'), dataIndex: 'lastActivityAt', render: (v: string | null) => (v ? dayjs(v).format('HH:mm') : '—') },
            { key: 'stuck', title: t('reports.jobs.stuck'), dataIndex: 'stuckReason', render: (r: string | null) => (r ? <Tag color="red" icon={<WarningOutlined />}>{r}</Tag> : null) },
          ]}
        />
      </Card>
      <Row gutter={[16, 0]}>
        <Col xs={24} xl={12}><GroupTable t={t} title={t('reports.jobs.byPicker')} keyTitle={t('reports.jobs.picker')} rows={data?.byPicker ?? []} /></Col>
        <Col xs={24} xl={12}><GroupTable t={t} title={t('reports.jobs.byZone')} keyTitle={t('reports.jobs.zone')} rows={data?.byZone ?? []} /></Col>
      </Row>
    </div>
  );
}
