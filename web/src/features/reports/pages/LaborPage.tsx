import { Button, Card, Space, Table, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { useAppSelector } from '../../../lib/hooks';
import { selectWarehouseId } from '../../../lib/state/selectors';
import { notifySuccess, notifyError } from '../../../lib/toast';
import { errorToastText, toApiError } from '../../../lib/api/api-error';
import { useGetShiftsQuery, usePunchMutation } from '../../../lib/api/reports-api';
import { useT } from '../../../lib/i18n/use-t';
import { ReportPage } from '../components/ReportPage';

/** The clock: punch in and out (with breaks) at the header's warehouse, and who is clocked in now. */
function LabourClock() {
  const t = useT();
  const warehouseId = useAppSelector(selectWarehouseId) ?? 0;
  const { data: open = [] } = useGetShiftsQuery({ warehouseId: warehouseId || undefined, open: true }, { pollingInterval: 60_000 });
  const [punch, { isLoading }] = usePunchMutation();
  const go = async (p: 'clock-in' | 'clock-out' | 'break-start' | 'break-end') => {
    try {
      notifySuccess((await punch({ warehouseId, punch: p }).unwrap()).message);
    } catch (e) {
      notifyError(errorToastText(toApiError(e)));
    }
  };
  return (
    <Card size="small" className="bolx-labour-clock" title={t('reports.labor.clock')}>
      {warehouseId ? (
        <Space wrap>
          <Button type="primary" loading={isLoading} onClick={() => void go('clock-in')}>{t('reports.labor.clockIn')}</Button>
          <Button loading={isLoading} onClick={() => void go('break-start')}>{t('reports.labor.breakStart')}</Button>
          <Button loading={isLoading} onClick={() => void go('break-end')}>{t('reports.labor.breakEnd')}</Button>
          <Button danger loading={isLoading} onClick={() => void go('clock-out')}>{t('reports.labor.clockOut')}</Button>
        </Space>
      ) : <Typography.Text type="secondary">{t('reports.labor.selectWarehouse')}</Typography.Text>}
      <Table
        size="small" rowKey="shiftId" pagination={false} dataSource={open} className="bolx-report__views" scroll={{ x: 'max-content' }}
        locale={{ emptyText: t('reports.labor.nobody') }}
        columns={[
          { key: 'u', title: t('reports.labor.col.user'), dataIndex: 'username' },
          { key: 'w', title: t('reports.labor.col.warehouse'), dataIndex: 'warehouseName' },
          { key: 's', title: t('reports.labor.col.since'), dataIndex: 'clockIn', render: (v: string) => dayjs(v).format('YYYY-MM-DD HH:mm') },
          { key: 'b', title: t('reports.labor.col.status'), dataIndex: 'onBreak', render: (v: boolean) => (v ? <Tag color="orange">{t('reports.labor.onBreak')}</Tag> : <Tag color="green">{t('reports.labor.working')}</Tag>) },
        ]}
      />
    </Card>
  );
}

/** /Labor: the clock, labour time per user and day (task time and idle from the activity log), labour cost per client. */
export default function LaborPage() {
  return <ReportPage area="LaborReport" reports={['labour-time', 'labour-cost']} extra={<LabourClock />} />;
}
