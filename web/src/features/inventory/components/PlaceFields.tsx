import { Col, Form, Input, Row, Select } from 'antd';
import type { FormInstance } from 'antd';
import { selectProps } from '../../../components/form/select-props';
import { rules } from '../../../lib/form-rules';
import { useT } from '../../../lib/i18n/use-t';
import { useClientOptions } from '../../../lib/use-client-options';
import { useInventoryScope } from '../use-inventory-scope';
import { SkuSelect } from '../../../components/sku-select/SkuSelect';
import type { Sku } from '@bolx/contracts';

export interface PlaceValues { warehouseId: number; customerId: number; skuId: number; locationCode: string; lot?: string; pallet?: string }

/**
 * Where a stock change happens: warehouse and client (from the header's choices), SKU, the location as a typed or
 * scanned code, and optionally lot and pallet. The form resolves the code on submit.
 */
export function PlaceFields({ form, lotAndPallet = true, skuLabel, tracksLot = true, onSkuChange }: {
  form: FormInstance; lotAndPallet?: boolean;
  /** The chosen SKU tracks lots (the lot field is offered only then; unknown: offered). */
  tracksLot?: boolean;
  /** The SKU chosen from the dropdown (undefined when cleared). */
  onSkuChange?: (sku: Sku | undefined) => void;
  /** The chosen SKU's '{code} — {description}' when editing: until a search lists it, the dropdown would show its bare id. */
  skuLabel?: string;
}) {
  const t = useT();
  const r = rules(t);
  const { warehouses, warehouseId: headerWarehouse } = useInventoryScope('Adjustment');
  const warehouseId = Form.useWatch('warehouseId', form) as number | undefined;
  const customerId = Form.useWatch('customerId', form) as number | undefined;
  const customers = useClientOptions(warehouseId || headerWarehouse);
  return (
    <>
      <Row gutter={16}>
        <Col xs={24} md={12}>
          <Form.Item name="warehouseId" label={t('inventory.fields.warehouse')} rules={[rules(t).required('warehouse')]}>
            <Select {...selectProps} options={warehouses.map((w) => ({ value: w.warehouseId, label: w.warehouseName }))}
              onChange={() => form.setFieldsValue({ customerId: undefined, skuId: undefined })} />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="customerId" label={t('inventory.fields.customer')} rules={[rules(t).required('customer')]}>
            <Select {...selectProps} options={customers}
              onChange={() => form.setFieldsValue({ skuId: undefined })} />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item name="skuId" label={t('inventory.fields.sku')} rules={[rules(t).required('sku')]}>
        <SkuSelect customerId={customerId} requireCustomer initialLabel={skuLabel} onChange={(_, sku) => onSkuChange?.(sku)} />
      </Form.Item>
      <Form.Item name="locationCode" label={t('inventory.fields.location')} rules={[r.required('location')]} extra={t('inventory.scanHint')}>
        <Input autoComplete="off" placeholder={t('inventory.fields.locationPlaceholder')}
          onChange={() => form.setFields([{ name: 'locationCode', errors: [] }])} />
      </Form.Item>
      {lotAndPallet && (
        <Row gutter={16}>
          {tracksLot && (
            <Col xs={24} md={12}>
              <Form.Item name="lot" label={t('inventory.fields.lot')}><Input maxLength={64} autoComplete="off" /></Form.Item>
            </Col>
          )}
          <Col xs={24} md={12}>
            <Form.Item name="pallet" label={t('inventory.fields.pallet')}><Input maxLength={64} autoComplete="off" /></Form.Item>
          </Col>
        </Row>
      )}
    </>
  );
}
