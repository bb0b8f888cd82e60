import { Button, Col, Form, Input, InputNumber, Row, Select, Space } from 'antd';
import { MinusCircleOutlined, PlusOutlined } from '@ant-design/icons';
import type { OrderCarrierAccount } from '@bolx/contracts';
import { useT } from '../../../lib/i18n/use-t';

export interface CarrierValues {
  carrierAccountId?: number; serviceCode?: string; trackingNumber?: string; carrierName?: string;
  packages: { weightKg: number; lengthCm: number; widthCm: number; heightCm: number }[];
}

/** The request's carrier part: an account (its adapter labels the parcels) or a tracking number typed in, and the parcels. */
export const carrierInput = (v: CarrierValues) => ({
  ...(v.carrierAccountId ? { carrierAccountId: v.carrierAccountId, ...(v.serviceCode?.trim() ? { serviceCode: v.serviceCode.trim() } : {}) } : {}),
  ...(!v.carrierAccountId && v.trackingNumber?.trim() ? { trackingNumber: v.trackingNumber.trim(), ...(v.carrierName?.trim() ? { carrierName: v.carrierName.trim() } : {}) } : {}),
  packages: v.packages,
});

/**
 * How parcels go: the client's carrier account (its service optional: the first that prices the parcels) or,
 * for a manual carrier, the tracking number typed in; then each parcel's weight and size.
 */
export function CarrierFields({ accounts }: { accounts: OrderCarrierAccount[] }) {
  const t = useT();
  const form = Form.useFormInstance<CarrierValues>();
  const accountId = Form.useWatch('carrierAccountId', form);
  return (
    <>
      <Row gutter={12}>
        <Col xs={24} md={8}>
          <Form.Item name="carrierAccountId" label={t('returns.ship.carrierAccount')}>
            <Select allowClear placeholder={t('returns.ship.byHand')} data-testid="carrier-account"
              options={accounts.map((a) => ({ value: a.carrierAccountId, label: `${a.accountName} (${a.carrierName})` }))} />
          </Form.Item>
        </Col>
        {accountId ? (
          <Col xs={24} md={8}><Form.Item name="serviceCode" label={t('returns.ship.service')}><Input maxLength={32} placeholder={t('returns.ship.serviceHint')} /></Form.Item></Col>
        ) : (
          <>
            <Col xs={24} md={8}>
              <Form.Item name="trackingNumber" label={t('returns.ship.trackingNumber')} rules={[{ required: true, whitespace: true, message: t('returns.ship.trackingRequired') }]}>
                <Input maxLength={64} data-testid="tracking-number" />
              </Form.Item>
            </Col>
            <Col xs={24} md={8}><Form.Item name="carrierName" label={t('returns.ship.carrierName')}><Input maxLength={64} /></Form.Item></Col>
          </>
        )}
      </Row>
      <Form.List name="packages">
        {(fields, { add, remove }) => (
          <>
            {fields.map((f, i) => (
              <Space key={f.key} wrap align="baseline">
                <Form.Item name={[f.name, 'weightKg']} label={i === 0 ? t('returns.ship.weightKg') : undefined} rules={[{ required: true }]}><InputNumber min={0.01} max={1000} step={0.1} aria-label="weight kg" /></Form.Item>
                <Form.Item name={[f.name, 'lengthCm']} label={i === 0 ? t('returns.ship.lengthCm') : undefined} rules={[{ required: true }]}><InputNumber min={1} max={300} aria-label="length cm" /></Form.Item>
                <Form.Item name={[f.name, 'widthCm']} label={i === 0 ? t('returns.ship.widthCm') : undefined} rules={[{ required: true }]}><InputNumber min={1} max={300} aria-label="width cm" /></Form.Item>
                <Form.Item name={[f.name, 'heightCm']} label={i === 0 ? t('returns.ship.heightCm') : undefined} rules={[{ required: true }]}><InputNumber min={1} max={300} aria-label="height cm" /></Form.Item>
                {fields.length > 1 && <MinusCircleOutlined onClick={() => remove(f.name)} aria-label="remove parcel" />}
              </Space>
            ))}
            <Form.Item><Button type="dashed" size="small" icon={<PlusOutlined />} onClick={() => add({ weightKg: 1, lengthCm: 30, widthCm: 20, heightCm: 10 })}>{t('returns.ship.addParcel')}</Button></Form.Item>
          </>
        )}
      </Form.List>
    </>
  );
}
