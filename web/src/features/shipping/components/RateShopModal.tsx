import { useEffect, useState } from 'react';
import { Alert, Button, Checkbox, Input, Modal, Skeleton, Space, Table, Tag, Typography } from 'antd';
import type { RateQuote, RateShopResult, WaitingOrder } from '@bolx/contracts';
import { runMutation } from '../../../lib/api/mutation-toast';
import { errorToastText, toApiError } from '../../../lib/api/api-error';
import { notifyError } from '../../../lib/toast';
import { useCreateLabelsMutation, useRateShopMutation } from '../../../lib/api/shipping-api';
import { useT } from '../../../lib/i18n/use-t';
import { money } from '../shipping-model';

const keyOf = (q: RateQuote) => `${q.carrierAccountId}:${q.serviceCode}`;

/**
 * Rate shopping for one packed order: every service of the client's carrier accounts priced, the chosen one
 * highlighted with the reason; pick another and label with it. Residential re-prices with the surcharge.
 */
export function RateShopModal({ order, onClose, onLabelled }: { order: WaitingOrder; onClose: () => void; onLabelled: (shipmentId: number) => void }) {
  const t = useT();
  const [rateShop, { isLoading }] = useRateShopMutation();
  const [createLabels, { isLoading: labelling }] = useCreateLabelsMutation();
  const [result, setResult] = useState<RateShopResult>();
  const [residential, setResidential] = useState(false);
  const [picked, setPicked] = useState<string>();
  /** A manual carrier's tracking numbers, typed or scanned per carton. */
  const [typed, setTyped] = useState<Record<number, string>>({});

  useEffect(() => {
    rateShop({ orderId: order.orderId, residential }).unwrap().then((r) => {
      setResult(r);
      setPicked(r.chosen ? keyOf(r.chosen) : undefined);
    }, (error: unknown) => notifyError(errorToastText(toApiError(error))));
  }, [order.orderId, residential, rateShop]);

  const quote = result?.quotes.find((q) => keyOf(q) === picked);
  const manual = quote?.adapter === 'manual';
  const cartons = result?.cartons ?? [];
  const allTyped = cartons.every((c) => typed[c.cartonId]?.trim());
  const label = async () => {
    if (!quote) return;
    const tracking = manual ? cartons.map((c) => ({ cartonId: c.cartonId, trackingNumber: typed[c.cartonId].trim() })) : undefined;
    const r = await runMutation(createLabels({ orderId: order.orderId, carrierAccountId: quote.carrierAccountId, serviceCode: quote.serviceCode, residential, ...(tracking ? { tracking } : {}) }));
    if (r) onLabelled(r.data.shipmentId);
  };

  return (
    <Modal open width={860} title={t('shipping.rateShop.title', { so: order.soNumber })} onCancel={onClose}
      footer={[
        <Button key="close" onClick={onClose}>{t('form.close')}</Button>,
        <Button key="label" type="primary" disabled={!quote || !!quote.error || (manual && !allTyped)} loading={labelling} onClick={() => void label()} data-testid="label-with">
          {t('shipping.rateShop.labelWith')}
        </Button>,
      ]}>
      <Space direction="vertical" style={{ width: '100%' }} data-testid="rate-shop">
        <Checkbox checked={residential} onChange={(e) => setResidential(e.target.checked)}>Residential</Checkbox>
        {isLoading && !result ? <Skeleton active paragraph={{ rows: 4 }} /> : result && (
          <>
            <Alert type={result.chosen ? 'info' : 'warning'} showIcon message={result.reason} data-testid="rate-reason" />
            <Table<RateQuote> size="small" rowKey={keyOf} scroll={{ x: 'max-content' }} pagination={false} dataSource={result.quotes}
              rowClassName={(q) => (result.chosen && keyOf(q) === keyOf(result.chosen) ? 'bolx-shipping__chosen' : '')}
              rowSelection={{ type: 'radio', selectedRowKeys: picked ? [picked] : [], onChange: (keys) => setPicked(String(keys[0])), getCheckboxProps: (q) => ({ disabled: !!q.error }) }}
              columns={[
                { key: 'service', title: t('shipping.rateShop.service'), render: (_, q) => (
                  <div className="bolx-shipping__two-lines"><div><Typography.Text strong>{q.serviceName}</Typography.Text>{q.adapter === 'manual' && <Tag style={{ marginLeft: 6 }}>{t('shipping.rateShop.manual')}</Tag>}</div>
                    <Typography.Text type="secondary">{q.accountName}</Typography.Text></div>) },
                { key: 'price', title: t('shipping.rateShop.price'), align: 'right', render: (_, q) => (q.error ? <Tag color="red">{q.error}</Tag> : money(q.totalMinor, q.currency)) },
                { key: 'ship', title: t('shipping.rateShop.shipDate'), render: (_, q) => <>{q.shipDate}{!q.meetsShipDate && <Tag color="orange" style={{ marginLeft: 6 }}>{t('shipping.rateShop.late')}</Tag>}</> },
                { key: 'delivery', title: t('shipping.rateShop.delivery'), render: (_, q) => q.estimatedDelivery ?? '—' },
                { key: 'why', title: '', render: (_, q) => (q.errorMessage ? <Typography.Text type="secondary">{q.errorMessage}</Typography.Text> : null) },
              ]} />
            {manual && (
              <Space direction="vertical" style={{ width: '100%' }} data-testid="manual-tracking">
                <Typography.Text type="secondary">{t('shipping.rateShop.typeTracking')}</Typography.Text>
                {cartons.map((c) => (
                  <Input key={c.cartonId} addonBefore={c.cartonNumber} maxLength={64} value={typed[c.cartonId] ?? ''} aria-label={`tracking ${c.cartonNumber}`}
                    onChange={(e) => setTyped((all) => ({ ...all, [c.cartonId]: e.target.value }))} />
                ))}
              </Space>
            )}
          </>
        )}
      </Space>
    </Modal>
  );
}
