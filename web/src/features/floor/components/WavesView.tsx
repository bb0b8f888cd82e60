import type { ReactNode } from 'react';
import { Button, Popconfirm, Progress, Space, Typography } from 'antd';
import { CloseOutlined, UnorderedListOutlined } from '@ant-design/icons';
import { useIntl } from 'react-intl';
import type { ColumnsType } from 'antd/es/table';
import { WAVE_STATUSES, type FilterLabel, type WaveSummary } from '@bolx/contracts';
import { DataTablePage } from '../../../components/data-table/DataTablePage';
import { warehouseScope } from '../../../components/data-table/list-args';
import { StatusTag } from '../../../components/StatusTag';
import { useCancelWaveMutation, useGetWavesQuery } from '../../../lib/api/floor-api';
import { runMutation } from '../../../lib/api/mutation-toast';
import { useT } from '../../../lib/i18n/use-t';
import { mayCancelWave, progressOf, type FloorActor } from '../floor-model';

/** The waves of the warehouse, live: strategy, status, orders, jobs done, units picked; a supervisor cancels an open one. */
export function WavesView({ actions, who, onJobsOf }: { actions: ReactNode; who: FloorActor; onJobsOf: (wave: { waveId: number; waveNumber: string }) => void }) {
  const t = useT();
  const intl = useIntl();
  const [cancelWave] = useCancelWaveMutation();
  const filters: FilterLabel[] = [
    { key: 'status', label: t('floor.col.status'), type: 'select', options: WAVE_STATUSES.map((s) => ({ value: s, label: t(`floor.waveStatus.${s}`) })) },
    { key: 'fromDate', label: t('floor.filter.fromDate'), type: 'date' },
    { key: 'toDate', label: t('floor.filter.toDate'), type: 'date' },
  ];
  const columns: ColumnsType<WaveSummary> = [
    {
      key: 'waveNumber', dataIndex: 'waveNumber', title: t('floor.col.wave'), sorter: true, fixed: 'left',
      render: (v: string, w) => <Button type="link" size="small" className="bolx-floor-link" onClick={() => onJobsOf(w)}>{v}</Button>,
    },
    { key: 'strategy', dataIndex: 'strategy', title: t('floor.col.strategy'), render: (s: string) => t(`floor.strategy.${s}`) },
    { key: 'status', dataIndex: 'status', title: t('floor.col.status'), sorter: true, render: (s: string) => <StatusTag kind="WAVE" status={s} /> },
    { key: 'orderCount', dataIndex: 'orderCount', title: t('floor.col.orders'), align: 'right', sorter: true },
    {
      key: 'jobs', title: t('floor.col.jobsDone'), align: 'right',
      render: (_, w) => `${intl.formatNumber(w.jobsDone)} / ${intl.formatNumber(w.jobCount)}`,
    },
    {
      key: 'units', title: t('floor.col.unitsPicked'),
      render: (_, w) => {
        const p = progressOf(w.pickedUnits, w.units);
        return (
          <div className="bolx-floor-progress">
            <Typography.Text>{`${intl.formatNumber(w.pickedUnits)} / ${intl.formatNumber(w.units)}`}</Typography.Text>
            <Progress percent={p.percent} size="small" showInfo={false} status={p.complete ? 'success' : 'normal'} />
          </div>
        );
      },
    },
    {
      key: 'createdAt', dataIndex: 'createdAt', title: t('floor.col.created'), sorter: true,
      render: (v: string, w) => <>{intl.formatDate(v, { dateStyle: 'medium', timeStyle: 'short' })}{w.createdBy && <div><Typography.Text type="secondary">{w.createdBy}</Typography.Text></div>}</>,
    },
    {
      key: 'actions', title: t('table.actions'), fixed: 'right',
      render: (_, w) => (
        <Space size={0}>
          <Button type="link" size="small" icon={<UnorderedListOutlined />} onClick={() => onJobsOf(w)}>{t('floor.jobsOfWave')}</Button>
          {mayCancelWave(w, who) && (
            <Popconfirm title={t('floor.confirmCancelWave', { wave: w.waveNumber })} okText={t('floor.cancelWave')} okButtonProps={{ danger: true }} cancelText={t('form.close')}
              onConfirm={() => runMutation(cancelWave({ waveId: w.waveId }))}>
              <Button type="link" size="small" danger icon={<CloseOutlined />}>{t('floor.cancelWave')}</Button>
            </Popconfirm>
          )}
        </Space>
      ),
    },
  ];
  return (
    <DataTablePage<WaveSummary>
      key="waves"
      title={t('routes.BatchJob')}
      subtitle={t('floor.waves.subtitle')}
      rowKey="waveId"
      columns={columns}
      useList={useGetWavesQuery}
      filters={filters}
      searchPlaceholder={t('floor.waves.search')}
      scopeFilters={warehouseScope}
      actions={actions}
      initial={{ sort: { field: 'createdAt', order: 'descend' } }}
    />
  );
}
