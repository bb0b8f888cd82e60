import { useState, type ReactNode } from 'react';
import { Button, Popconfirm, Space, Tag, Typography } from 'antd';
import { CloseOutlined, PlayCircleOutlined, UserAddOutlined, UserDeleteOutlined } from '@ant-design/icons';
import { useIntl } from 'react-intl';
import { useNavigate } from 'react-router';
import type { ColumnsType } from 'antd/es/table';
import { PICK_JOB_STATUSES, type FilterLabel, type PickJobSummary } from '@bolx/contracts';
import { DataTablePage } from '../../../components/data-table/DataTablePage';
import { warehouseScope } from '../../../components/data-table/list-args';
import { StatusTag } from '../../../components/StatusTag';
import { useAssignPickJobMutation, useCancelPickJobMutation, useGetPickJobListQuery } from '../../../lib/api/floor-api';
import { runMutation } from '../../../lib/api/mutation-toast';
import { pickingPath } from '../../../lib/floor-paths';
import { useT } from '../../../lib/i18n/use-t';
import { jobActions, type FloorActor } from '../floor-model';
import { AssignJobModal } from './AssignJobModal';

/**
 * The pick jobs, live: wave, zone, status, picker, stops, units picked and short, started. A picker opens a job
 * to pick it; a supervisor assigns, takes back or cancels, as the job's status allows.
 */
export function JobsView({ actions, who, wave, onClearWave }: {
  actions: ReactNode;
  who: FloorActor;
  wave?: { waveId: number; waveNumber: string };
  onClearWave: () => void;
}) {
  const t = useT();
  const intl = useIntl();
  const navigate = useNavigate();
  const [assigning, setAssigning] = useState<PickJobSummary>();
  const [assign] = useAssignPickJobMutation();
  const [cancel] = useCancelPickJobMutation();
  const filters: FilterLabel[] = [
    { key: 'status', label: t('floor.col.status'), type: 'select', options: PICK_JOB_STATUSES.map((s) => ({ value: s, label: t(`floor.jobStatus.${s}`) })) },
    { key: 'mine', label: t('floor.filter.mine'), type: 'boolean' },
  ];
  const columns: ColumnsType<PickJobSummary> = [
    { key: 'jobNumber', dataIndex: 'jobNumber', title: t('floor.col.job'), sorter: true, fixed: 'left', render: (v: string) => <Typography.Text strong>{v}</Typography.Text> },
    { key: 'waveNumber', dataIndex: 'waveNumber', title: t('floor.col.wave'), sorter: true, render: (v: string, j) => <>{v}<div><Typography.Text type="secondary">{t(`floor.strategy.${j.strategy}`)}</Typography.Text></div></> },
    { key: 'zone', dataIndex: 'zone', title: t('floor.col.zone'), render: (v: string | null) => v ?? '—' },
    { key: 'status', dataIndex: 'status', title: t('floor.col.status'), sorter: true, render: (s: string) => <StatusTag kind="PICK_JOB" status={s} /> },
    { key: 'assignedToName', dataIndex: 'assignedToName', title: t('floor.col.picker'), sorter: true, render: (v: string | null) => v ?? <Typography.Text type="secondary">{t('floor.unassigned')}</Typography.Text> },
    { key: 'stopCount', title: t('floor.col.stops'), align: 'right', render: (_, j) => <>{intl.formatNumber(j.stopCount)}<div><Typography.Text type="secondary">{t('floor.orderCount', { count: j.orderCount })}</Typography.Text></div></> },
    {
      key: 'units', title: t('floor.col.pickedShort'), align: 'right',
      render: (_, j) => (
        <>
          {`${intl.formatNumber(j.pickedUnits)} / ${intl.formatNumber(j.units)}`}
          {j.shortUnits > 0 && <div><Tag color="orange">{t('floor.shortUnits', { count: j.shortUnits })}</Tag></div>}
        </>
      ),
    },
    {
      key: 'startedAt', dataIndex: 'startedAt', title: t('floor.col.started'), sorter: true,
      render: (v: string | null, j) => (v ? <>{intl.formatDate(v, { dateStyle: 'short', timeStyle: 'short' })}{j.finishedAt && <div><Typography.Text type="secondary">{t('floor.finished', { at: intl.formatTime(j.finishedAt, { timeStyle: 'short' }) })}</Typography.Text></div>}</> : '—'),
    },
    {
      key: 'actions', title: t('table.actions'), fixed: 'right',
      render: (_, j) => {
        const offered = jobActions(j, who);
        if (!offered.length) return null;
        return (
          <Space size={0} wrap>
            {offered.includes('pick') && <Button type="link" size="small" icon={<PlayCircleOutlined />} onClick={() => navigate(pickingPath(j.jobId))} data-testid="pick-job">{t('floor.pick')}</Button>}
            {offered.includes('assign') && <Button type="link" size="small" icon={<UserAddOutlined />} onClick={() => setAssigning(j)}>{t(j.assignedTo ? 'floor.reassign' : 'floor.assign')}</Button>}
            {offered.includes('unassign') && (
              <Button type="link" size="small" icon={<UserDeleteOutlined />} onClick={() => runMutation(assign({ jobId: j.jobId }))}>{t('floor.unassign')}</Button>
            )}
            {offered.includes('cancel') && (
              <Popconfirm title={t('floor.confirmCancelJob', { job: j.jobNumber })} okText={t('floor.cancelJob')} okButtonProps={{ danger: true }} cancelText={t('form.close')}
                onConfirm={() => runMutation(cancel({ jobId: j.jobId }))}>
                <Button type="link" size="small" danger icon={<CloseOutlined />}>{t('floor.cancelJob')}</Button>
              </Popconfirm>
            )}
          </Space>
        );
      },
    },
  ];
  return (
    <DataTablePage<PickJobSummary>
      key="jobs"
      title={t('routes.BatchJob')}
      subtitle={t('floor.jobs.subtitle')}
      rowKey="jobId"
      columns={columns}
      useList={useGetPickJobListQuery}
      filters={filters}
      searchPlaceholder={t('floor.jobs.search')}
      scopeFilters={(scope) => ({ ...warehouseScope(scope), ...(wave ? { waveId: wave.waveId } : {}) })}
      actions={actions}
      toolbar={wave && (
        <div className="bolx-floor-wave-filter">
          <Tag color="blue" closable onClose={onClearWave} data-testid="wave-filter">{t('floor.waveFilter', { wave: wave.waveNumber })}</Tag>
        </div>
      )}
    >
      {assigning && <AssignJobModal job={assigning} onClose={() => setAssigning(undefined)} />}
    </DataTablePage>
  );
}
