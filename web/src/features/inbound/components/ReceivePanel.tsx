import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { Alert, Button, Col, Form, Input, InputNumber, Modal, Row, Select, Space, Tag, type InputRef } from 'antd';
import { BarcodeOutlined, CheckCircleFilled, CloseCircleFilled, LoadingOutlined, PushpinFilled, PushpinOutlined } from '@ant-design/icons';
import { MSG_RECEIVING, type ReceivingOrderDetail } from '@bolx/contracts';
import { selectProps } from '../../../components/form/select-props';
import { runMutation } from '../../../lib/api/mutation-toast';
import { useT } from '../../../lib/i18n/use-t';
import { useGetDockLocationsQuery, useReceiveItemMutation } from '../inbound-api';
import { asksExpiredConfirmation } from '../inbound-model';
import { NO_PINS, valuesAfterReceipt, type PinnableField, type ScanPins } from '../scan-pins';
import { useActionKey } from '../../../lib/action-key';

interface ScanValues {
  scanCode: string;
  quantity?: number;
  damagedQuantity?: number;
  lot?: string;
  expiryDate?: string;
  pallet?: string;
  carton?: string;
  locationId?: number;
  damagedLocationId?: number;
}
type Feedback = { ok: true; text: string; matchedBy: string } | { ok: false; text: string };

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The dock's scanner station: the scan box has the focus; scan (or type) a SKU code, UPC/barcode or GTIN, set the
 * quantity, lot, expiry, pallet and dock, and Enter posts the receipt. The result shows in large type, the scan
 * box is cleared and focused again; the lot and expiry are cleared too unless pinned (scan-pins.ts), pallet and
 * dock stay for the next carton.
 */
export function ReceivePanel({ order }: { order: ReceivingOrderDetail }) {
  const t = useT();
  const [form] = Form.useForm<ScanValues>();
  const scanRef = useRef<InputRef>(null);
  const [receive, { isLoading }] = useReceiveItemMutation();
  const { begin, settle } = useActionKey();
  const inFlight = useRef(false);
  // Scans that arrived (code + Enter) while a receipt was posting: a hardware scanner does not wait for the answer.
  const queued = useRef<ScanValues[]>([]);
  const [waiting, setWaiting] = useState(0);
  const [feedback, setFeedback] = useState<Feedback | null>(null);
  const [pins, setPins] = useState<ScanPins>(NO_PINS);
  const wh = order.warehouseId;
  // Read under the InBound module: a receiving user need not hold the Location module.
  const { data: places } = useGetDockLocationsQuery(wh);
  const inbound = useMemo(() => (places ?? []).filter((l) => l.locationType === 'dock' || l.locationType === 'staging')
    .map((l) => ({ value: l.locationId, label: `${l.locationCode} (${l.locationType})` })), [places]);
  const damagedPlaces = useMemo(() => (places ?? []).filter((l) => l.locationType === 'quarantine')
    .map((l) => ({ value: l.locationId, label: l.locationCode })), [places]);
  const damaged = Form.useWatch('damagedQuantity', form) ?? 0;

  // The first dock is the default station (a staging area only when the warehouse has no dock): docks come first.
  useEffect(() => {
    if (form.getFieldValue('locationId')) return;
    const first = inbound[0];
    if (first) form.setFieldValue('locationId', first.value);
  }, [inbound, form]);
  const focusScan = (select = false) => setTimeout(() => {
    scanRef.current?.focus();
    if (select) scanRef.current?.select();
  }, 0);
  useEffect(() => { focusScan(); }, []);

  // Back to the scan box after a pin is toggled, so the scanner's next code lands there.
  const pin = (field: PinnableField) => {
    setPins((p) => ({ ...p, [field]: !p[field] }));
    focusScan(true);
  };

  /** Enter in the form: posted at once, or queued behind the receipt on its way, with the values it was scanned with. */
  const scanned = (v: ScanValues) => {
    queued.current.push(v);
    // The box is free for the next code at once (a refused code comes back into it for correcting).
    form.setFieldValue('scanCode', '');
    if (inFlight.current) {
      setWaiting(queued.current.length);
      return;
    }
    void drain();
  };

  /** Posts the queued scans in order; a refused one stops the run and the scans behind it are named, never dropped. */
  const drain = async () => {
    while (queued.current.length > 0) {
      const next = queued.current.shift()!;
      setWaiting(queued.current.length);
      if (await submit(next)) continue;
      const behind = queued.current.splice(0).map((q) => q.scanCode.trim());
      setWaiting(0);
      if (behind.length) setFeedback((f) => ({ ok: false, text: `${f && !f.ok ? `${f.text} ` : ''}${t('inbound.receive.notPosted', { count: behind.length, codes: behind.join(', ') })}` }));
      return;
    }
  };

  /** Posts one receipt; true when it was received. */
  const submit = async (v: ScanValues, confirmExpired = false): Promise<boolean> => {
    if (inFlight.current) return false;
    inFlight.current = true;
    let askExpired: string | null = null;
    const body = {
      receivingOrderId: order.receivingOrderId,
      scanCode: v.scanCode.trim(),
      locationId: v.locationId!,
      quantity: v.quantity ?? 0,
      damagedQuantity: v.damagedQuantity ?? 0,
      ...(v.lot?.trim() ? { lot: v.lot.trim() } : {}),
      ...(v.expiryDate?.trim() ? { expiryDate: v.expiryDate.trim() } : {}),
      ...(v.pallet?.trim() ? { pallet: v.pallet.trim() } : {}),
      ...(v.carton?.trim() ? { carton: v.carton.trim() } : {}),
      ...(v.damagedQuantity && v.damagedLocationId ? { damagedLocationId: v.damagedLocationId } : {}),
      ...(confirmExpired ? { confirmExpired: true } : {}),
    };
    const idempotencyKey = begin(body);
    let answered = true;
    const done = await runMutation(receive({ idempotencyKey, ...body }), {
      silentSuccess: true,
      quietError: asksExpiredConfirmation,
      onError: (e) => {
        answered = e.status !== 0;
        if (asksExpiredConfirmation(e)) askExpired = e.message;
        setFeedback(asksExpiredConfirmation(e) ? null : { ok: false, text: e.details && e.details !== e.message ? `${e.message} — ${e.details}` : e.message });
      },
    });
    settle(answered);
    inFlight.current = false;
    // An expired lot: the receiver confirms, and it is received for quarantine (its putaway offers nothing else).
    if (askExpired) {
      Modal.confirm({
        title: askExpired, content: t('inbound.receive.expiredConfirm'), okText: t('inbound.receive.expiredOk'), cancelText: t('table.no'),
        onOk: () => submit(v, true), onCancel: () => focusScan(true),
      });
      return false;
    }
    if (done) {
      setFeedback({ ok: true, text: done.message, matchedBy: done.data.matchedBy });
      form.setFieldsValue(untouchedSince(valuesAfterReceipt(pins), v, form.getFieldsValue()));
      focusScan();
      return true;
    }
    // Refused: the code (and the lot and expiry it was scanned with) back in the form, for the corrected scan.
    form.setFieldsValue({ scanCode: v.scanCode, lot: v.lot, expiryDate: v.expiryDate });
    focusScan(true);
    return false;
  };

  return (
    <Form<ScanValues>
      form={form}
      layout="vertical"
      className="bolx-ro-receive"
      initialValues={{ quantity: 1, damagedQuantity: 0 }}
      onFinish={scanned}
      onFinishFailed={() => focusScan(true)}
      requiredMark={false}
    >
      <div className="bolx-ro-receive__feedback bolx-ro-receive__feedback--top" aria-live="assertive" data-testid="receive-feedback">
        {feedback && (
          <Alert
            type={feedback.ok ? 'success' : 'error'}
            icon={feedback.ok ? <CheckCircleFilled /> : <CloseCircleFilled />}
            showIcon
            message={feedback.text}
            action={feedback.ok ? <Tag>{t('inbound.receive.matchedBy', { by: t(`inbound.matchedBy.${feedback.matchedBy}`) })}</Tag> : undefined}
          />
        )}
      </div>
      <Form.Item name="scanCode" label={t('inbound.receive.scan')} rules={[{ required: true, whitespace: true, message: MSG_RECEIVING.scan }]}>
        <Input
          ref={scanRef}
          size="large"
          prefix={<BarcodeOutlined />}
          placeholder={t('inbound.receive.scanPlaceholder')}
          autoComplete="off"
          spellCheck={false}
          data-testid="scan-input"
         
        />
      </Form.Item>
      <Row gutter={12}>
        <Col span={12}>
          <Form.Item name="quantity" label={t('inbound.receive.quantity')}>
            <InputNumber min={0} max={10_000_000} precision={0} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="damagedQuantity" label={t('inbound.receive.damaged')}>
            <InputNumber min={0} max={10_000_000} precision={0} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <PinnedField field="lot" label={t('inbound.receive.lot')} pins={pins} onPin={pin} rules={[{ max: 64 }]}>
            <Input autoComplete="off" />
          </PinnedField>
        </Col>
        <Col span={12}>
          <PinnedField field="expiryDate" label={t('inbound.receive.expiry')} pins={pins} onPin={pin} rules={[{ pattern: DATE, message: t('inbound.validation.date') }]}>
            <Input placeholder="YYYY-MM-DD" autoComplete="off" />
          </PinnedField>
        </Col>
        <Col span={12}>
          <Form.Item name="pallet" label={t('inbound.receive.pallet')} rules={[{ max: 64 }]}>
            <Input autoComplete="off" />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="carton" label={t('inbound.receive.carton')} rules={[{ max: 64 }]}>
            <Input autoComplete="off" data-testid="receive-carton" />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="locationId" label={t('inbound.receive.location')} rules={[{ required: true, message: MSG_RECEIVING.location }]}>
            <Select {...selectProps} options={inbound} placeholder={t('inbound.receive.locationPlaceholder')} />
          </Form.Item>
        </Col>
        {damaged > 0 && (
          <Col span={24}>
            <Form.Item name="damagedLocationId" label={t('inbound.receive.damagedLocation')} extra={t('inbound.receive.damagedHint')}>
              <Select {...selectProps} allowClear options={damagedPlaces} placeholder={t('inbound.receive.damagedRefused')} />
            </Form.Item>
          </Col>
        )}
      </Row>
      {/* Never `loading`: Enter in the scan box clicks this button, and a loading antd button swallows the click —
          the next scan must be taken (and queued) while a receipt is posting. */}
      <Button type="primary" htmlType="submit" size="large" block icon={isLoading ? <LoadingOutlined /> : <BarcodeOutlined />}>
        {t('inbound.receive.submit')}
      </Button>
      {waiting > 0 && <div className="bolx-ro-receive__waiting" data-testid="scans-waiting">{t('inbound.receive.waiting', { count: waiting })}</div>}
    </Form>
  );
}

/**
 * The values to reset after a receipt, leaving alone any field the user has changed since that scan (the next
 * carton's lot, typed while the receipt was posting).
 */
function untouchedSince<T extends Partial<Record<keyof ScanValues, unknown>>>(reset: T, scanned: ScanValues, now: ScanValues): Partial<T> {
  return Object.fromEntries(Object.entries(reset).filter(([field]) => {
    const key = field as keyof ScanValues;
    return (now[key] ?? '') === (scanned[key] ?? '');
  })) as Partial<T>;
}

/** A lot or expiry field with its pin toggle beside it: pinned, the value stays for the next scans. */
function PinnedField({ field, label, pins, onPin, rules, children }: {
  field: PinnableField; label: string; pins: ScanPins; onPin: (field: PinnableField) => void;
  rules: NonNullable<Parameters<typeof Form.Item>[0]['rules']>; children: ReactNode;
}) {
  const t = useT();
  const pinned = pins[field];
  return (
    <Form.Item label={label} htmlFor={field} required={false}>
      <Space.Compact block>
        <Form.Item name={field} noStyle rules={rules}>{children}</Form.Item>
        <Button
          icon={pinned ? <PushpinFilled /> : <PushpinOutlined />}
          type={pinned ? 'primary' : 'default'}
          aria-pressed={pinned}
          aria-label={t('inbound.receive.pin', { field: label })}
          title={t(pinned ? 'inbound.receive.pinned' : 'inbound.receive.unpinned')}
          onClick={() => onPin(field)}
        />
      </Space.Compact>
    </Form.Item>
  );
}
