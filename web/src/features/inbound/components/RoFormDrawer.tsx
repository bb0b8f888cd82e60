import { Button, Col, DatePicker, Form, Input, InputNumber, Row, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import dayjs, { type Dayjs } from 'dayjs';
import { MSG_RECEIVING, type ReceivingOrderDetail } from '@bolx/contracts';
import { FormDrawer } from '../../../components/form-drawer/FormDrawer';
import { runMutation } from '../../../lib/api/mutation-toast';
import { useT } from '../../../lib/i18n/use-t';
import { useCreateReceivingOrderMutation, useUpdateReceivingOrderMutation } from '../inbound-api';
import { SkuSelect } from '../../../components/sku-select/SkuSelect';
import { ScopeFields, useRoScope } from './ScopeFields';

interface LineValues {
  skuId?: number;
  expectedQuantity?: number;
  /** The SKU's label for an existing line (not sent). */
  label?: string;
  /** Units already received: the line cannot be removed. */
  received?: number;
}
interface RoValues {
  warehouseId?: number;
  customerId?: number;
  supplier: string;
  expectedDeliveryDate?: Dayjs;
  referenceNumber?: string;
  notes?: string;
  lines: LineValues[];
}

/** Create an RO (supplier, expected delivery date, reference, SKU lines with expected quantities), or change an open one. */
export function RoFormDrawer({ open, order, onClose, onCreated }: { open: boolean; order?: ReceivingOrderDetail; onClose: () => void; onCreated?: (id: number) => void }) {
  const t = useT();
  const [form] = Form.useForm<RoValues>();
  const { initial } = useRoScope();
  const [create] = useCreateReceivingOrderMutation();
  const [update] = useUpdateReceivingOrderMutation();
  const customerId = Form.useWatch('customerId', form) as number | undefined;

  const initialValues: Partial<RoValues> = order
    ? {
        warehouseId: order.warehouseId, customerId: order.customerId, supplier: order.supplier,
        expectedDeliveryDate: dayjs(order.expectedDeliveryDate), referenceNumber: order.referenceNumber || undefined, notes: order.notes ?? undefined,
        lines: order.lines.map((l) => ({ skuId: l.skuId, expectedQuantity: l.expectedQuantity, label: `${l.skuCode} — ${l.skuDescription}`, received: l.receivedQuantity + l.damagedQuantity })),
      }
    : { ...initial, lines: [{}] };

  const submit = async (v: RoValues) => {
    const header = {
      supplier: v.supplier.trim(),
      expectedDeliveryDate: v.expectedDeliveryDate!.format('YYYY-MM-DD'),
      ...(v.referenceNumber?.trim() ? { referenceNumber: v.referenceNumber.trim() } : {}),
      ...(v.notes?.trim() ? { notes: v.notes.trim() } : {}),
      lines: v.lines.map((l) => ({ skuId: l.skuId!, expectedQuantity: l.expectedQuantity! })),
    };
    if (order) return runMutation(update({ receivingOrderId: order.receivingOrderId, ...header }));
    const done = await runMutation(create({ warehouseId: v.warehouseId!, customerId: v.customerId!, ...header }));
    if (done) onCreated?.(done.data.receivingOrderId);
    return done;
  };

  return (
    <FormDrawer<RoValues>
      open={open}
      title={order ? t('inbound.form.editTitle', { ro: order.roNumber }) : t('inbound.form.addTitle')}
      onClose={onClose}
      form={form}
      width={760}
      initialValues={initialValues}
      onSubmit={submit}
      onValuesChange={(changed) => {
        // Another client's SKUs do not belong on this order.
        if ('customerId' in changed && !order) form.setFieldValue('lines', [{}]);
      }}
    >
      <ScopeFields disabled={Boolean(order)} />
      <Row gutter={16}>
        <Col xs={24} md={12}>
          <Form.Item name="supplier" label={t('inbound.fields.supplier')} rules={[{ required: true, whitespace: true, message: MSG_RECEIVING.supplier }, { max: 128 }]}>
            <Input maxLength={128} autoComplete="off" />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="expectedDeliveryDate" label={t('inbound.fields.expectedDeliveryDate')} rules={[{ required: true, message: MSG_RECEIVING.expectedDate }]}>
            <DatePicker style={{ width: '100%' }} format="YYYY-MM-DD" />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="referenceNumber" label={t('inbound.fields.referenceNumber')} rules={[{ max: 64 }]}>
            <Input maxLength={64} autoComplete="off" />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="notes" label={t('inbound.fields.notes')} rules={[{ max: 1000 }]}>
            <Input maxLength={1000} />
          </Form.Item>
        </Col>
      </Row>
      <Typography.Title level={5} className="bolx-ro-form__lines-title">{t('inbound.form.lines')}</Typography.Title>
      <Form.List
        name="lines"
        rules={[{ validator: (_, lines: unknown[]) => (lines?.length ? Promise.resolve() : Promise.reject(new Error(MSG_RECEIVING.lines))) }]}
      >
        {(fields, { add, remove }, { errors }) => (
          <>
            {fields.map((field, index) => {
              const line = form.getFieldValue(['lines', field.name]) as LineValues | undefined;
              const locked = (line?.received ?? 0) > 0;
              return (
                <Row gutter={12} key={field.key} className="bolx-ro-form__line" align="top">
                  <Col flex="auto">
                    <Form.Item
                      name={[field.name, 'skuId']}
                      label={index === 0 ? t('inbound.fields.sku') : undefined}
                      rules={[
                        { required: true, message: MSG_RECEIVING.sku },
                        {
                          validator: (_, skuId?: number) => {
                            const all = (form.getFieldValue('lines') as LineValues[]).map((l) => l?.skuId);
                            return skuId && all.indexOf(skuId) !== index ? Promise.reject(new Error(t('inbound.form.duplicateSku', { n: all.indexOf(skuId) + 1 }))) : Promise.resolve();
                          },
                        },
                      ]}
                    >
                      <SkuSelect customerId={customerId} requireCustomer initialLabel={line?.label} disabled={locked} />
                    </Form.Item>
                  </Col>
                  <Col flex="150px">
                    <Form.Item
                      name={[field.name, 'expectedQuantity']}
                      label={index === 0 ? t('inbound.fields.expectedQuantity') : undefined}
                      rules={[{ required: true, message: t('inbound.validation.expectedQuantity') }]}
                    >
                      <InputNumber min={1} max={10_000_000} precision={0} style={{ width: '100%' }} aria-label={index > 0 ? t('inbound.form.lineQty', { n: index + 1 }) : undefined} />
                    </Form.Item>
                  </Col>
                  <Col flex="40px">
                    <Form.Item label={index === 0 ? ' ' : undefined}>
                      <Button
                        type="text" danger icon={<DeleteOutlined />} disabled={fields.length === 1 || locked}
                        aria-label={t('inbound.form.removeLine', { n: index + 1 })} onClick={() => remove(field.name)}
                      />
                    </Form.Item>
                  </Col>
                </Row>
              );
            })}
            <Form.ErrorList errors={errors} />
            <Button type="dashed" block icon={<PlusOutlined />} onClick={() => add({})} disabled={fields.length >= 1000}>
              {t('inbound.form.addLine')}
            </Button>
          </>
        )}
      </Form.List>
    </FormDrawer>
  );
}
