import { useMemo, useRef, useState } from 'react';
import { Button, Checkbox, Form, Modal, Select, Space, Typography } from 'antd';
import { ThunderboltOutlined } from '@ant-design/icons';
import type { ReceivingOrderDetail } from '@bolx/contracts';
import { selectProps } from '../../../components/form/select-props';
import { runMutation } from '../../../lib/api/mutation-toast';
import { useT } from '../../../lib/i18n/use-t';
import { useGetDockLocationsQuery, useReceiveAsExpectedMutation } from '../inbound-api';
import { asksExpiredConfirmation } from '../inbound-model';
import { useActionKey } from '../../../lib/action-key';

/**
 * Receive the whole order as expected, in one request: every line's remaining quantity with the lot and expiry
 * the order names, into a dock — or straight on to the suggested locations, and finalized if asked. A
 * confirmation says what will arrive first; an expired lot is asked about again before it is received.
 */
export function ReceiveAsExpectedButton({ order }: { order: ReceivingOrderDetail }) {
  const t = useT();
  const [open, setOpen] = useState(false);
  const [locationId, setLocationId] = useState<number>();
  const [putaway, setPutaway] = useState(true);
  const [finalize, setFinalize] = useState(true);
  const [receive, { isLoading }] = useReceiveAsExpectedMutation();
  const { begin, settle } = useActionKey();
  const inFlight = useRef(false);
  const { data: places } = useGetDockLocationsQuery(order.warehouseId, { skip: !open });
  const docks = useMemo(() => (places ?? []).filter((l) => l.locationType === 'dock' || l.locationType === 'staging')
    .map((l) => ({ value: l.locationId, label: `${l.locationCode} (${l.locationType})` })), [places]);
  const dock = locationId ?? docks[0]?.value;
  const waiting = order.lines.map((l) => Math.max(0, l.expectedQuantity - l.receivedQuantity - l.damagedQuantity));
  const lines = waiting.filter((q) => q > 0).length;
  const units = waiting.reduce((a, b) => a + b, 0);

  const submit = async (confirmExpired = false) => {
    if (inFlight.current || !dock) return;
    inFlight.current = true;
    const body = { receivingOrderId: order.receivingOrderId, locationId: dock, putaway, finalize, ...(confirmExpired ? { confirmExpired: true } : {}) };
    const idempotencyKey = begin(body);
    let answered = true;
    let askExpired: string | null = null;
    const done = await runMutation(receive({ idempotencyKey, ...body }), {
      quietError: asksExpiredConfirmation,
      onError: (e) => {
        answered = e.status !== 0;
        if (asksExpiredConfirmation(e)) askExpired = e.message;
      },
    });
    settle(answered);
    inFlight.current = false;
    if (done) setOpen(false);
    if (askExpired) {
      Modal.confirm({
        title: askExpired, content: t('inbound.receive.expiredConfirm'), okText: t('inbound.receive.expiredOk'), cancelText: t('table.no'),
        onOk: () => submit(true),
      });
    }
  };

  return (
    <>
      <Button icon={<ThunderboltOutlined />} onClick={() => setOpen(true)} disabled={lines === 0} title={lines === 0 ? t('inbound.asExpected.nothing') : undefined}>
        {t('inbound.asExpected.button')}
      </Button>
      <Modal
        open={open}
        title={t('inbound.asExpected.title', { ro: order.roNumber })}
        okText={t('inbound.asExpected.ok')}
        cancelText={t('table.no')}
        onOk={() => submit()}
        onCancel={() => setOpen(false)}
        okButtonProps={{ loading: isLoading, disabled: !dock }}
        destroyOnHidden
      >
        <Space direction="vertical" size="middle" style={{ width: '100%' }}>
          <Typography.Paragraph>{t('inbound.asExpected.text', { lines, units })}</Typography.Paragraph>
          <Form layout="vertical" requiredMark={false}>
            <Form.Item label={t('inbound.asExpected.location')}>
              <Select {...selectProps} value={dock} onChange={(v: number) => setLocationId(v)} options={docks} aria-label={t('inbound.asExpected.location')} />
            </Form.Item>
            <Checkbox checked={putaway} onChange={(e) => setPutaway(e.target.checked)}>{t('inbound.asExpected.putaway')}</Checkbox>
            <br />
            <Checkbox checked={finalize} onChange={(e) => setFinalize(e.target.checked)}>{t('inbound.asExpected.finalize')}</Checkbox>
          </Form>
        </Space>
      </Modal>
    </>
  );
}
