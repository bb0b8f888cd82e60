import { Button, Card, Space, Table, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { useAppSelector } from '../../../lib/hooks';
import { selectWarehouseId } from '../../../lib/state/selectors';
import { notifySuccess, notifyError } from '../../../lib/toast';
import { errorToastText, toApiError } from '../../../lib/api/api-error';
import { useGetShiftsQuery, usePunchMutation } from '../../../lib/api/reports-api';
import { ReportPage } from '../components/ReportPage';

/** The clock: punch in and out (with breaks) at the header's warehouse, and who is clocked in now. */
function LabourClock() {
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
    <Card size="small" className="bolx-labour-clock" title="Clock">
      {warehouseId ? (
        <Space wrap>
          <Button type="primary" loading={isLoading} onClick={() => void go('clock-in')}>Clock in</Button>
          <Button loading={isLoading} onClick={() => void go('break-start')}>Start break</Button>
          <Button loading={isLoading} onClick={() => void go('break-end')}>End break</Button>
          <Button danger loading={isLoading} onClick={() => void go('clock-out')}>Clock out</Button>
        </Space>
      ) : <Typography.Text type="secondary">Select a warehouse to clock in.</Typography.Text>}
      <Table
        size="small" rowKey="shiftId" pagination={false} dataSource={open} className="bolx-report__views" scroll={{ x: 'max-content' }}
        locale={{ emptyText: 'Nobody is clocked in' }}
        columns={[
          { key: 'u', title: 'Clocked in now', dataIndex: 'username' },
          { key: 'w', title: 'Warehouse', dataIndex: 'warehouseName' },
          { key: 's', title: 'Since', dataIndex: 'clockIn', render: (v: string) => dayjs(v).format('YYYY-MM-DD HH:mm') },
          { key: 'b', title: 'Status', dataIndex: 'onBreak', render: (v: boolean) => (v ? <Tag color="orange">On break</Tag> : <Tag color="green">Working</Tag>) },
        ]}
      />
    </Card>
  );
}

/** /Labor: the clock, labour time per user and day (task time and idle from the activity log), labour cost per client. */
export default function LaborPage() {
  return <ReportPage area="LaborReport" title="Labor" reports={['labour-time', 'labour-cost']} extra={<LabourClock />} />;
}
