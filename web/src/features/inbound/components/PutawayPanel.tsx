import { useEffect, useMemo, useRef, useState } from 'react';
import { Alert, Button, Empty, Form, InputNumber, Radio, Select, Space, Spin, Tag, Typography } from 'antd';
import { CheckCircleFilled, CloseCircleFilled, EnvironmentOutlined } from '@ant-design/icons';
import type { ReceivingOrderDetail } from '@bolx/contracts';
import { selectProps } from '../../../components/form/select-props';
import { runMutation } from '../../../lib/api/mutation-toast';
import { useT } from '../../../lib/i18n/use-t';
import { usePutawayMutation, useSuggestPutawayQuery } from '../inbound-api';
import { putawaySources } from '../inbound-model';
import { useActionKey } from '../../../lib/action-key';

/**
 * Put received goods away: pick a line and the dock place its goods wait at, the quantity, then one of the
 * suggested storage locations (where the SKU already is first, else empty locations that fit) and Put Away.
 */
export function PutawayPanel({ order }: { order: ReceivingOrderDetail }) {
  const t = useT();
  const waiting = order.lines.filter((l) => l.awaitingPutaway > 0);
  const [lineId, setLineId] = useState<number | undefined>(waiting[0]?.lineId);
  const line = waiting.find((l) => l.lineId === lineId) ?? waiting[0];
  const sources = useMemo(() => (line ? putawaySources(order, line.lineId) : []), [order, line]);
  const [sourceKey, setSourceKey] = useState<string>();
  const source = sources.find((s) => s.key === sourceKey) ?? sources[0];
  const most = Math.min(source?.quantity ?? 0, line?.awaitingPutaway ?? 0);
  const [quantity, setQuantity] = useState<number | null>(most);
  const [toLocationId, setTo] = useState<number>();
  const [feedback, setFeedback] = useState<{ ok: boolean; text: string } | null>(null);
  const [putaway, { isLoading }] = usePutawayMutation();
  const { begin, settle } = useActionKey();
  const inFlight = useRef(false);

  // A new line or place starts with all of its units.
  useEffect(() => setQuantity(most || null), [most, source?.key]);
  // More than waits here is refused with the figure, not clamped to it (which would put away less than typed).
  const tooMany = quantity != null && quantity > most;
  const qty = quantity && quantity > 0 && !tooMany ? quantity : undefined;
  const { data: suggested, isFetching } = useSuggestPutawayQuery(
    { receivingOrderId: order.receivingOrderId, lineId: line?.lineId ?? 0, ...(qty ? { quantity: qty } : {}), ...(source?.pallet ? { pallet: source.pallet } : {}), ...(source?.lot ? { lot: source.lot } : {}) },
    { skip: !line },
  );
  const suggestions = suggested?.suggestions ?? [];
  useEffect(() => {
    if (!suggestions.some((s) => s.locationId === toLocationId)) setTo(suggestions[0]?.locationId);
  }, [suggestions, toLocationId]);

  const result = (
    <div className="bolx-ro-receive__feedback" aria-live="polite" data-testid="putaway-feedback">
      {feedback && <Alert type={feedback.ok ? 'success' : 'error'} showIcon icon={feedback.ok ? <CheckCircleFilled /> : <CloseCircleFilled />} message={feedback.text} />}
    </div>
  );
  // The last putaway may have emptied the dock: its result stays in view.
  if (!line) {
    return <>{result}<Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('inbound.putaway.nothing')} /></>;
  }

  const submit = async () => {
    if (inFlight.current || !source || !qty || !toLocationId) return;
    inFlight.current = true;
    const body = {
      receivingOrderId: order.receivingOrderId, lineId: line.lineId, fromLocationId: source.locationId, toLocationId,
      lot: source.lot, pallet: source.pallet, quantity: qty,
    };
    const idempotencyKey = begin(body);
    let answered = true;
    const done = await runMutation(putaway({ idempotencyKey, ...body }), {
      silentSuccess: true,
      onError: (e) => {
        answered = e.status !== 0;
        setFeedback({ ok: false, text: e.message });
      },
    });
    settle(answered);
    inFlight.current = false;
    if (done) setFeedback({ ok: true, text: done.message });
  };

  return (
    <Form layout="vertical" className="bolx-ro-putaway" onFinish={submit} requiredMark={false}>
      <Form.Item label={t('inbound.putaway.line')}>
        <Select
          {...selectProps}
          value={line.lineId}
          onChange={(v: number) => { setLineId(v); setSourceKey(undefined); setFeedback(null); }}
          options={waiting.map((l) => ({ value: l.lineId, label: t('inbound.putaway.lineOption', { code: l.skuCode, n: l.awaitingPutaway }) }))}
          aria-label={t('inbound.putaway.line')}
        />
      </Form.Item>
      <Form.Item label={t('inbound.putaway.from')}>
        <Select
          {...selectProps}
          value={source?.key}
          onChange={(k: string) => { setSourceKey(k); setFeedback(null); }}
          options={sources.map((s) => ({
            value: s.key,
            label: [s.locationCode, s.lot && `${t('inbound.receive.lot')} ${s.lot}`, s.expiryDate && `${t('inbound.putaway.exp')} ${s.expiryDate}`, s.pallet && `${t('inbound.receive.pallet')} ${s.pallet}`, t('inbound.putaway.units', { n: s.quantity })].filter(Boolean).join(' · '),
          }))}
          aria-label={t('inbound.putaway.from')}
          notFoundContent={t('inbound.putaway.noSource')}
        />
      </Form.Item>
      <Form.Item label={t('inbound.putaway.quantity')} validateStatus={tooMany ? 'error' : undefined} help={tooMany ? t('validation.atMostAvailable', { available: most }) : undefined}>
        <InputNumber min={1} precision={0} value={quantity} onChange={setQuantity} style={{ width: '100%' }} aria-label={t('inbound.putaway.quantity')} />
      </Form.Item>
      <Form.Item label={t('inbound.putaway.to')} className="bolx-ro-putaway__suggestions">
        {isFetching && !suggested ? <Spin /> : suggestions.length === 0 ? (
          <Alert type="warning" showIcon message={t('inbound.putaway.noSuggestion')} />
        ) : (
          <Radio.Group value={toLocationId} onChange={(e) => setTo(e.target.value as number)} className="bolx-ro-putaway__list">
            {suggestions.slice(0, 6).map((s, i) => (
              <Radio key={s.locationId} value={s.locationId} className="bolx-ro-putaway__option">
                <Space direction="vertical" size={0} data-testid="putaway-suggestion">
                  <Space size={6} wrap>
                    <EnvironmentOutlined />
                    <Typography.Text strong>{s.locationCode}</Typography.Text>
                    {i === 0 && <Tag color="blue">{t('inbound.putaway.best')}</Tag>}
                    <Tag color={s.reason === 'SKU already here' ? 'green' : s.reason === 'Empty location' ? 'default' : 'red'}>
                      {t(s.reason === 'SKU already here' ? 'inbound.putaway.skuHere' : s.reason === 'Empty location' ? 'inbound.putaway.empty' : 'inbound.putaway.quarantine')}
                    </Tag>
                  </Space>
                  <Typography.Text type="secondary" className="bolx-ro-putaway__meta">
                    {[s.locationType, s.zone && `${t('inbound.putaway.zone')} ${s.zone}`, `${t('inbound.putaway.onHand')} ${s.onHand}`,
                      s.freeCapacity === null ? t('inbound.putaway.unlimited') : t('inbound.putaway.free', { n: s.freeCapacity })].filter(Boolean).join(' · ')}
                  </Typography.Text>
                </Space>
              </Radio>
            ))}
          </Radio.Group>
        )}
      </Form.Item>
      <Button type="primary" htmlType="submit" size="large" block loading={isLoading} disabled={!source || !qty || !toLocationId}>
        {t('inbound.putaway.submit')}
      </Button>
      {result}
    </Form>
  );
}
