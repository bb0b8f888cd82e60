import { Button, Popconfirm, Tooltip } from 'antd';
import { FilePdfOutlined, InboxOutlined, PlayCircleOutlined, SendOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router';
import type { OrderDetail, PickJobSummary } from '@bolx/contracts';
import { useDownload } from '../../../components/download/use-download';
import { useConfirmShipmentMutation, useCreateWaveMutation, useGetPickJobDetailQuery, useGetPickJobListQuery } from '../../../lib/api/floor-api';
import { runMutation } from '../../../lib/api/mutation-toast';
import { packStationPath, packingSlipUrl, pickingPath } from '../../../lib/floor-paths';
import { useT } from '../../../lib/i18n/use-t';
import { notifyError, notifySuccess } from '../../../lib/toast';
import { staffWrite } from '../../../lib/access';
import { useMayAccess } from '../../../lib/use-access';
import { floorOrderActions, type FloorOrderAction } from '../order-model';

/** Jobs still to pick. */
const OPEN_JOB_STATUSES: ReadonlySet<string> = new Set(['Open', 'Assigned', 'In Progress']);

/**
 * The floor steps on one order from its drawer, as its status and the user allow: release it alone (a discrete
 * single-order wave), open its pick job, open the pack station on it, ship it, download its packing slip.
 */
export function useOrderFloorButtons(order: OrderDetail): React.ReactNode[] {
  const t = useT();
  const may = useMayAccess();
  const navigate = useNavigate();
  const [createWave, { isLoading: releasing }] = useCreateWaveMutation();
  const [confirmShipment, { isLoading: shipping }] = useConfirmShipmentMutation();
  const [download, downloading] = useDownload();

  const release = async () => {
    const answer = await runMutation(createWave({ warehouseId: order.warehouseId, orderIds: [order.orderId], strategy: 'discrete', totesPerJob: 1 }), { silentSuccess: true });
    if (!answer) return;
    const refused = answer.data.refused[0];
    if (refused) notifyError(`Error: ${refused.message}`);
    else notifySuccess(t('outbound.floor.released', { so: order.soNumber, wave: answer.data.wave.waveNumber }));
  };
  const ship = async () => {
    const answer = await runMutation(confirmShipment({ warehouseId: order.warehouseId, orderIds: [order.orderId] }), { silentSuccess: true });
    if (!answer) return;
    const refused = answer.data.refused[0];
    const shipped = answer.data.shipped[0];
    if (refused) notifyError(`Error: ${refused.message}`);
    else if (shipped) {
      notifySuccess(shipped.backorderSoNumber
        ? t('outbound.floor.shippedWithBackorder', { so: shipped.soNumber, backorder: shipped.backorderSoNumber })
        : t('outbound.floor.shipped', { so: shipped.soNumber }));
    }
  };

  const buttons: Record<FloorOrderAction, React.ReactNode> = {
    release: (
      <Popconfirm key="release" title={t('outbound.floor.confirmRelease', { so: order.soNumber })} okText={t('outbound.floor.release')} cancelText={t('form.close')} onConfirm={() => release()}>
        <Button icon={<SendOutlined />} loading={releasing} data-testid="order-release">{t('outbound.floor.release')}</Button>
      </Popconfirm>
    ),
    pick: <OrderPickLinks key="pick" order={order} onOpen={(jobId) => navigate(pickingPath(jobId))} />,
    pack: <Button key="pack" icon={<InboxOutlined />} onClick={() => navigate(packStationPath(order.orderId))} data-testid="order-pack">{t('outbound.floor.pack')}</Button>,
    ship: (
      <Popconfirm key="ship" title={t('outbound.floor.confirmShip', { so: order.soNumber })} okText={t('outbound.floor.ship')} cancelText={t('form.close')} onConfirm={() => ship()}>
        <Button type="primary" icon={<SendOutlined />} loading={shipping} data-testid="order-ship">{t('outbound.floor.ship')}</Button>
      </Popconfirm>
    ),
    packingSlip: (
      <Button key="packingSlip" icon={<FilePdfOutlined />} loading={downloading} data-testid="order-packing-slip"
        onClick={() => void download({ url: packingSlipUrl(order.orderId), method: 'GET' }, `packing-slip-${order.soNumber}.pdf`)}>
        {t('outbound.floor.packingSlip')}
      </Button>
    ),
  };
  // The floor routes' policies: releasing is Batch Allocation's, picking, packing and shipping Batch Job's (write).
  const permissions = { release: may(staffWrite('BatchAllocation')), pick: may(staffWrite('BatchJob')), packAndShip: may(staffWrite('BatchJob')) };
  return floorOrderActions(order.status, permissions).map((a) => buttons[a]);
}

/** A Pick button per open job that picks this order (a zone wave gives an order one job per zone). */
function OrderPickLinks({ order, onOpen }: { order: OrderDetail; onOpen: (jobId: number) => void }) {
  const t = useT();
  const { data, isFetching } = useGetPickJobListQuery({
    filters: { warehouseId: order.warehouseId, orderId: order.orderId }, searchQuery: '', pageNumber: 1, pageSize: 10,
  });
  const open = (data?.items ?? []).filter((j) => OPEN_JOB_STATUSES.has(j.status));
  if (!open.length) {
    return (
      <Tooltip title={isFetching ? undefined : t('outbound.floor.noJob')}>
        <Button icon={<PlayCircleOutlined />} disabled loading={isFetching}>{t('outbound.floor.pick')}</Button>
      </Tooltip>
    );
  }
  return <>{open.map((j) => <OrderPickLink key={j.jobId} job={j} orderId={order.orderId} onOpen={onOpen} />)}</>;
}

/** One job's Pick button, shown once the job's own totes confirm it picks this order. */
function OrderPickLink({ job, orderId, onOpen }: { job: PickJobSummary; orderId: number; onOpen: (jobId: number) => void }) {
  const t = useT();
  const { data } = useGetPickJobDetailQuery(job.jobId);
  if (!data || !data.totes.some((tote) => tote.orderId === orderId)) return null;
  return (
    <Button icon={<PlayCircleOutlined />} onClick={() => onOpen(job.jobId)} data-testid="order-pick">
      {t('outbound.floor.pickJob', { job: job.jobNumber })}
    </Button>
  );
}
