import { useMemo } from 'react';
import { LinkedTickets } from '../../../components/linked-tickets/LinkedTickets';
import { Alert, Button, Card, Col, Descriptions, Empty, Popconfirm, Result, Row, Skeleton, Space, Table, Tabs, Typography } from 'antd';
import { ArrowLeftOutlined, CheckOutlined, EditOutlined, StopOutlined } from '@ant-design/icons';
import { useIntl } from 'react-intl';
import type { ColumnsType } from 'antd/es/table';
import type { ReceivingOrderDetail } from '@bolx/contracts';
import { useFormDrawer } from '../../../components/form-drawer/FormDrawer';
import { runMutation } from '../../../lib/api/mutation-toast';
import { useT } from '../../../lib/i18n/use-t';
import { PutawayPanel } from '../components/PutawayPanel';
import { ReceiveAsExpectedButton } from '../components/ReceiveAsExpectedButton';
import { ReceivePanel } from '../components/ReceivePanel';
import { RoDocuments } from '../components/RoDocuments';
import { RoFormDrawer } from '../components/RoFormDrawer';
import { StatusTag } from '../../../components/StatusTag';
import { useCancelReceivingOrderMutation, useFinalizeReceivingOrderMutation, useGetReceivingOrderByIdQuery, type RoLine } from '../inbound-api';
import { roActions } from '../inbound-model';

type Receipt = ReceivingOrderDetail['receipts'][number];
type Putaway = ReceivingOrderDetail['putaways'][number];

/** One RO: header, lines with expected/received/damaged/over/short, the receiving and putaway panels, history and documents. */
export function RoDetailPage({ receivingOrderId, canWrite, onBack }: { receivingOrderId: number; canWrite: boolean; onBack: () => void }) {
  const t = useT();
  const intl = useIntl();
  const { data: order, isLoading, isError, refetch } = useGetReceivingOrderByIdQuery(receivingOrderId);
  const editor = useFormDrawer<never>();
  const [finalize, { isLoading: finalizing }] = useFinalizeReceivingOrderMutation();
  const [cancel, { isLoading: cancelling }] = useCancelReceivingOrderMutation();
  const n = (v: number) => intl.formatNumber(v);
  const when = (v: string | null) => (v ? intl.formatDate(v, { dateStyle: 'medium', timeStyle: 'short' }) : '—');

  const lineColumns = useMemo<ColumnsType<RoLine>>(() => {
    const qty = (key: keyof RoLine, tone?: 'warning' | 'danger') => ({
      key, dataIndex: key, title: t(`inbound.col.${key}`), align: 'right' as const,
      render: (v: number) => (tone && v > 0 ? <Typography.Text type={tone} strong>{n(v)}</Typography.Text> : n(v)),
    });
    return [
      { key: 'lineNo', dataIndex: 'lineNo', title: '#', width: 48 },
      {
        key: 'skuCode', title: t('inbound.col.sku'),
        render: (_, l) => <Space direction="vertical" size={0}><Typography.Text strong>{l.skuCode}</Typography.Text><Typography.Text type="secondary" className="bolx-ro-line__desc">{l.skuDescription}</Typography.Text></Space>,
      },
      qty('expectedQuantity'), qty('receivedQuantity'), qty('damagedQuantity', 'danger'), qty('overQuantity', 'warning'), qty('shortQuantity', 'warning'),
      qty('putawayQuantity'), qty('awaitingPutaway'),
    ];
  // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [t, intl]);

  if (isLoading) return <div className="bolx-page"><Skeleton active paragraph={{ rows: 12 }} /></div>;
  if (isError || !order) {
    return (
      <div className="bolx-page">
        <Result status="warning" title={t('inbound.detail.notFound')} extra={<Space><Button onClick={onBack}>{t('inbound.detail.back')}</Button><Button type="primary" onClick={() => refetch()}>{t('table.retry')}</Button></Space>} />
      </div>
    );
  }

  const can = roActions(order.status);
  const staff = canWrite;
  const receiptColumns: ColumnsType<Receipt> = [
    { key: 'receivedAt', dataIndex: 'receivedAt', title: t('inbound.col.receivedAt'), render: when },
    { key: 'skuCode', dataIndex: 'skuCode', title: t('inbound.col.sku') },
    { key: 'locationCode', dataIndex: 'locationCode', title: t('inbound.col.location') },
    { key: 'lot', dataIndex: 'lot', title: t('inbound.col.lot'), render: (v: string) => v || '—' },
    { key: 'expiryDate', dataIndex: 'expiryDate', title: t('inbound.col.expiryDate'), render: (v: string | null) => v ?? '—' },
    { key: 'pallet', dataIndex: 'pallet', title: t('inbound.col.pallet'), render: (v: string) => v || '—' },
    { key: 'carton', dataIndex: 'carton', title: t('inbound.col.carton'), render: (v: string) => v || '—' },
    { key: 'quantity', dataIndex: 'quantity', title: t('inbound.col.good'), align: 'right', render: n },
    { key: 'damagedQuantity', dataIndex: 'damagedQuantity', title: t('inbound.col.damagedQuantity'), align: 'right', render: n },
    { key: 'receivedBy', dataIndex: 'receivedBy', title: t('inbound.col.by'), render: (v: string | null) => v ?? '—' },
  ];
  const putawayColumns: ColumnsType<Putaway> = [
    { key: 'putawayAt', dataIndex: 'putawayAt', title: t('inbound.col.putawayAt'), render: when },
    { key: 'skuCode', dataIndex: 'skuCode', title: t('inbound.col.sku') },
    { key: 'fromLocationCode', dataIndex: 'fromLocationCode', title: t('inbound.col.from') },
    { key: 'toLocationCode', dataIndex: 'toLocationCode', title: t('inbound.col.to') },
    { key: 'lot', dataIndex: 'lot', title: t('inbound.col.lot'), render: (v: string) => v || '—' },
    { key: 'pallet', dataIndex: 'pallet', title: t('inbound.col.pallet'), render: (v: string) => v || '—' },
    { key: 'quantity', dataIndex: 'quantity', title: t('inbound.col.quantity'), align: 'right', render: n },
    { key: 'putawayBy', dataIndex: 'putawayBy', title: t('inbound.col.by'), render: (v: string | null) => v ?? '—' },
  ];
  const empty = <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('table.noRecord')} />;
  const work = staff && (can.receive || can.putaway);

  return (
    <div className="bolx-page bolx-ro-detail">
      <div className="bolx-ro-detail__titlebar">
        <Space align="center" wrap>
          <Button type="text" icon={<ArrowLeftOutlined />} onClick={onBack} aria-label={t('inbound.detail.back')} />
          <Typography.Title level={3} className="bolx-ro-detail__title">{order.roNumber}</Typography.Title>
          <StatusTag kind="RECEIVING_ORDER" status={order.status} />
        </Space>
        {staff && (
          <Space wrap>
            {can.edit && <Button icon={<EditOutlined />} onClick={editor.openCreate}>{t('table.edit')}</Button>}
            {can.receive && <ReceiveAsExpectedButton order={order} />}
            {can.cancel && (
              <Popconfirm
                title={t('inbound.detail.cancelTitle', { ro: order.roNumber })}
                description={t('inbound.detail.cancelText')}
                okText={t('inbound.detail.cancelOk')}
                okButtonProps={{ danger: true }}
                cancelText={t('table.no')}
                onConfirm={() => runMutation(cancel({ receivingOrderId: order.receivingOrderId }))}
              >
                <Button danger icon={<StopOutlined />} loading={cancelling}>{t('inbound.detail.cancel')}</Button>
              </Popconfirm>
            )}
            {can.finalize && (
              <Popconfirm
                title={t('inbound.detail.finalizeTitle', { ro: order.roNumber })}
                description={t('inbound.detail.finalizeText', { over: order.overQuantity, short: order.shortQuantity, damaged: order.damagedQuantity })}
                okText={t('inbound.detail.finalize')}
                cancelText={t('table.no')}
                onConfirm={() => runMutation(finalize({ receivingOrderId: order.receivingOrderId }))}
              >
                <Button type="primary" icon={<CheckOutlined />} loading={finalizing}>{t('inbound.detail.finalize')}</Button>
              </Popconfirm>
            )}
          </Space>
        )}
      </div>

      <Card className="bolx-ro-detail__header" size="small">
        <Descriptions size="small" column={{ xs: 1, sm: 2, lg: 3 }}>
          <Descriptions.Item label={t('inbound.col.supplier')}>{order.supplier}</Descriptions.Item>
          <Descriptions.Item label={t('inbound.col.referenceNumber')}>{order.referenceNumber || '—'}</Descriptions.Item>
          <Descriptions.Item label={t('inbound.col.expectedDeliveryDate')}>{order.expectedDeliveryDate}</Descriptions.Item>
          <Descriptions.Item label={t('inbound.col.customer')}>{order.customerName}</Descriptions.Item>
          <Descriptions.Item label={t('inbound.col.warehouse')}>{order.warehouseName}</Descriptions.Item>
          <Descriptions.Item label={t('inbound.col.createdAt')}>{when(order.createdAt)}</Descriptions.Item>
          {order.finalizedAt && <Descriptions.Item label={t('inbound.col.finalizedAt')}>{when(order.finalizedAt)}</Descriptions.Item>}
          {order.closedAt && <Descriptions.Item label={t('inbound.col.closedAt')}>{when(order.closedAt)}</Descriptions.Item>}
          {order.cancelledAt && <Descriptions.Item label={t('inbound.col.cancelledAt')}>{when(order.cancelledAt)}</Descriptions.Item>}
          {order.notes && <Descriptions.Item label={t('inbound.fields.notes')} span={3}>{order.notes}</Descriptions.Item>}
        </Descriptions>
        <LinkedTickets kind="receiving-order" id={order.receivingOrderId} number={order.roNumber} />
      </Card>

      {!staff && <Alert type="info" showIcon className="bolx-ro-detail__readonly" message={t('inbound.detail.readOnly')} />}

      <Card title={t('inbound.detail.lines', { n: order.lineCount })} className="bolx-ro-detail__lines" styles={{ body: { padding: 0 } }}>
        <Table<RoLine>
          rowKey="lineId" size="middle" columns={lineColumns} dataSource={order.lines} scroll={{ x: 'max-content' }} locale={{ emptyText: empty }}
          pagination={order.lines.length > 20 ? { pageSize: 20, showSizeChanger: false } : false}
          summary={() => (order.lines.length > 1 ? (
            <Table.Summary.Row className="bolx-ro-detail__total">
              <Table.Summary.Cell index={0} colSpan={2}>{t('inbound.detail.total')}</Table.Summary.Cell>
              {(['expectedQuantity', 'receivedQuantity', 'damagedQuantity', 'overQuantity', 'shortQuantity', 'putawayQuantity'] as const).map((k, i) => (
                <Table.Summary.Cell key={k} index={i + 2} align="right">{n(order[k])}</Table.Summary.Cell>
              ))}
              <Table.Summary.Cell index={8} align="right">{n(order.lines.reduce((sum, l) => sum + l.awaitingPutaway, 0))}</Table.Summary.Cell>
            </Table.Summary.Row>
          ) : null)}
        />
      </Card>

      <Row gutter={[20, 20]} className="bolx-ro-detail__work-row">
        {work && (
          <Col xs={24} xl={10}>
            <Card className="bolx-ro-detail__work" styles={{ body: { paddingTop: 4 } }}>
              <Tabs
                defaultActiveKey={can.receive ? 'receive' : 'putaway'}
                items={[
                  ...(can.receive ? [{ key: 'receive', label: t('inbound.receive.title'), children: <ReceivePanel order={order} /> }] : []),
                  ...(can.putaway ? [{ key: 'putaway', label: t('inbound.putaway.title'), children: <PutawayPanel key={order.receivingOrderId} order={order} /> }] : []),
                ]}
              />
            </Card>
          </Col>
        )}
        <Col xs={24} xl={work ? 14 : 24}>
          <Card className="bolx-ro-detail__history" styles={{ body: { paddingTop: 4 } }}>
            <Tabs
              items={[
                { key: 'receipts', label: t('inbound.detail.receipts', { n: order.receipts.length }), children: <Table<Receipt> rowKey="receiptId" size="small" columns={receiptColumns} dataSource={order.receipts} pagination={{ pageSize: 10, hideOnSinglePage: true }} scroll={{ x: 'max-content' }} locale={{ emptyText: empty }} /> },
                { key: 'putaways', label: t('inbound.detail.putaways', { n: order.putaways.length }), children: <Table<Putaway> rowKey="putawayId" size="small" columns={putawayColumns} dataSource={order.putaways} pagination={{ pageSize: 10, hideOnSinglePage: true }} scroll={{ x: 'max-content' }} locale={{ emptyText: empty }} /> },
                { key: 'documents', label: t('inbound.detail.documents', { n: order.documents.length }), children: <RoDocuments order={order} canWrite={staff && order.status !== 'Cancelled'} /> },
              ]}
            />
          </Card>
        </Col>
      </Row>
      {staff && <RoFormDrawer open={editor.open} order={order} onClose={editor.close} />}
    </div>
  );
}
