import { useEffect, useMemo } from 'react';
import { Col, Divider, Form, Input, InputNumber, Row, Select, Switch } from 'antd';
import { ABC_CLASSES, type Hazmat, type Sku } from '@bolx/contracts';
import { useAppSelector } from '../../../lib/hooks';
import { customersOfWarehouse } from '../../../lib/state/header-filters';
import { selectProps } from '../../../components/form/select-props';
import { useT } from '../../../lib/i18n/use-t';
import { useGetHazmatsQuery, useGetUomsQuery } from '../skus-api';
import { skuRules } from '../sku-rules';

/** The SKU form's values: the contract's fields plus the hazmat switch that shows the hazmat fields. */
export interface SkuFormValues {
  customerId?: number;
  skuCode: string;
  description: string;
  category?: string | null;
  uom: string;
  upc?: string | null;
  iskititem: boolean;
  isActive: boolean;
  lengthCm?: number | null;
  widthCm?: number | null;
  heightCm?: number | null;
  weightKg?: number | null;
  minQty?: number | null;
  maxQty?: number | null;
  isLotTracked: boolean;
  isExpiryTracked: boolean;
  shelfLifeDays?: number | null;
  abcClass?: (typeof ABC_CLASSES)[number] | null;
  isHazmat: boolean;
  hazmatId?: number | null;
  unNumber?: string | null;
  packingGroup?: 'I' | 'II' | 'III' | null;
}

export const SKU_FORM_DEFAULTS: Partial<SkuFormValues> = {
  uom: 'EA', iskititem: false, isActive: true, isLotTracked: false, isExpiryTracked: false, isHazmat: false,
};

const hazmatLabel = (h: Hazmat) => `${h.classCode} — ${h.name}`;

/**
 * The SKU's fields, for the add and edit forms: client, code, UOM, dimensions and weight, stock rules and hazmat
 * (UN number, class, packing group — the packing groups offered are the chosen class's own).
 */
export function SkuFormFields({ editing }: { editing: boolean }) {
  const t = useT();
  const s = skuRules(t);
  const form = Form.useFormInstance<SkuFormValues>();
  const { data: uoms = [] } = useGetUomsQuery();
  const { data: hazmats = [] } = useGetHazmatsQuery();
  const customerData = useAppSelector((st) => st.header.data?.customerData);
  const customers = useMemo(() => customersOfWarehouse(customerData ?? [], null), [customerData]);

  const isHazmat = Form.useWatch('isHazmat', form);
  const hazmatId = Form.useWatch('hazmatId', form);
  const isExpiryTracked = Form.useWatch('isExpiryTracked', form);
  const packingGroups = hazmats.find((h) => h.hazmatId === hazmatId)?.packingGroups ?? [];

  // A class without packing groups takes none; a group the new class does not use is dropped.
  useEffect(() => {
    const current = form.getFieldValue('packingGroup');
    if (current && !packingGroups.includes(current)) form.setFieldValue('packingGroup', null);
  }, [form, packingGroups]);

  const measure = (name: keyof SkuFormValues, label: string, unit: string) => (
    <Col xs={12} md={6}>
      <Form.Item name={name} label={label} rules={[s.measure(label)]}>
        <InputNumber min={0} addonAfter={unit} style={{ width: '100%' }} />
      </Form.Item>
    </Col>
  );

  return (
    <>
      <Row gutter={16}>
        <Col xs={24} md={12}>
          <Form.Item name="customerId" label={t('skus.field.customer')} rules={[{ required: true, message: t('skus.validation.customer') }]}>
            <Select {...selectProps} disabled={editing} options={customers} placeholder={t('skus.field.customerPlaceholder')} />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="skuCode" label={t('skus.field.skuCode')} rules={[{ required: true, whitespace: true, message: t('skus.validation.skuCode') }, { max: 64 }]}>
            <Input maxLength={64} autoComplete="off" />
          </Form.Item>
        </Col>
        <Col xs={24}>
          <Form.Item name="description" label={t('skus.field.description')} rules={[{ required: true, whitespace: true, message: t('skus.validation.description') }, { max: 255 }]}>
            <Input maxLength={255} />
          </Form.Item>
        </Col>
        <Col xs={24} md={8}>
          <Form.Item name="category" label={t('skus.field.category')} rules={[{ max: 64 }]}>
            <Input maxLength={64} />
          </Form.Item>
        </Col>
        <Col xs={12} md={8}>
          <Form.Item name="uom" label={t('skus.field.uom')} rules={[{ required: true, message: t('skus.validation.uom') }]}>
            <Select {...selectProps} options={uoms.map((u) => ({ value: u.uomCode, label: `${u.uomCode} — ${u.uomName}` }))} />
          </Form.Item>
        </Col>
        <Col xs={12} md={8}>
          <Form.Item name="upc" label={t('skus.field.upc')} rules={[s.gtin()]}>
            <Input maxLength={14} inputMode="numeric" />
          </Form.Item>
        </Col>
        <Col xs={8}>
          <Form.Item name="isActive" label={t('skus.field.isActive')} valuePropName="checked">
            <Switch />
          </Form.Item>
        </Col>
        <Col xs={8}>
          <Form.Item name="iskititem" label={t('skus.field.iskititem')} valuePropName="checked">
            <Switch />
          </Form.Item>
        </Col>
        <Col xs={8}>
          <Form.Item name="abcClass" label={t('skus.field.abcClass')}>
            <Select {...selectProps} allowClear options={ABC_CLASSES.map((c) => ({ value: c, label: c }))} />
          </Form.Item>
        </Col>
      </Row>

      <Divider orientation="left" plain>{t('skus.section.dimensions')}</Divider>
      <Row gutter={16}>
        {measure('lengthCm', t('skus.field.length'), 'cm')}
        {measure('widthCm', t('skus.field.width'), 'cm')}
        {measure('heightCm', t('skus.field.height'), 'cm')}
        {measure('weightKg', t('skus.field.weight'), 'kg')}
      </Row>

      <Divider orientation="left" plain>{t('skus.section.stock')}</Divider>
      <Row gutter={16}>
        <Col xs={12}>
          <Form.Item name="minQty" label={t('skus.field.minQty')}>
            <InputNumber min={0} precision={0} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        <Col xs={12}>
          <Form.Item name="maxQty" label={t('skus.field.maxQty')} dependencies={['minQty']} rules={[s.atLeast('minQty')]}>
            <InputNumber min={0} precision={0} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        <Col xs={12} md={6}>
          <Form.Item name="isLotTracked" label={t('skus.field.isLotTracked')} valuePropName="checked">
            <Switch />
          </Form.Item>
        </Col>
        <Col xs={12} md={6}>
          <Form.Item name="isExpiryTracked" label={t('skus.field.isExpiryTracked')} valuePropName="checked">
            <Switch />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="shelfLifeDays" label={t('skus.field.shelfLifeDays')}>
            <InputNumber min={0} max={36500} precision={0} disabled={!isExpiryTracked} addonAfter={t('skus.field.days')} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
      </Row>

      <Divider orientation="left" plain>{t('skus.section.hazmat')}</Divider>
      <Form.Item name="isHazmat" label={t('skus.field.isHazmat')} valuePropName="checked">
        <Switch />
      </Form.Item>
      {isHazmat && (
        <Row gutter={16}>
          <Col xs={24} md={8}>
            <Form.Item name="unNumber" label={t('skus.field.unNumber')} rules={[{ required: true, message: t('skus.validation.unNumberRequired') }, s.unNumber()]}
              normalize={(v: string) => v?.toUpperCase()}>
              <Input maxLength={6} placeholder="UN1203" />
            </Form.Item>
          </Col>
          <Col xs={24} md={10}>
            <Form.Item name="hazmatId" label={t('skus.field.hazmatClass')} rules={[{ required: true, message: t('skus.validation.hazmatClass') }]}>
              <Select {...selectProps} options={hazmats.map((h) => ({ value: h.hazmatId, label: hazmatLabel(h) }))} />
            </Form.Item>
          </Col>
          <Col xs={24} md={6}>
            <Form.Item name="packingGroup" label={t('skus.field.packingGroup')}
              rules={[{ required: packingGroups.length > 0, message: t('skus.validation.packingGroup') }]}>
              <Select {...selectProps} allowClear disabled={!packingGroups.length}
                placeholder={hazmatId && !packingGroups.length ? t('skus.field.noPackingGroup') : undefined}
                options={packingGroups.map((g) => ({ value: g, label: g }))} />
            </Form.Item>
          </Col>
        </Row>
      )}
    </>
  );
}

/** Form values → the AddNewSku / UpdateSku body: empty texts become null, the hazmat fields go when it is off. */
export function skuBody(v: SkuFormValues) {
  const text = (s: string | null | undefined) => (s?.trim() ? s.trim() : null);
  return {
    skuCode: v.skuCode.trim(), description: v.description.trim(), category: text(v.category), uom: v.uom, upc: text(v.upc),
    iskititem: v.iskititem, isActive: v.isActive, lengthCm: v.lengthCm ?? null, widthCm: v.widthCm ?? null,
    heightCm: v.heightCm ?? null, weightKg: v.weightKg ?? null, minQty: v.minQty ?? null, maxQty: v.maxQty ?? null,
    isLotTracked: v.isLotTracked, isExpiryTracked: v.isExpiryTracked, shelfLifeDays: v.isExpiryTracked ? (v.shelfLifeDays ?? null) : null,
    abcClass: v.abcClass ?? null,
    hazmatId: v.isHazmat ? (v.hazmatId ?? null) : null,
    unNumber: v.isHazmat ? text(v.unNumber)?.toUpperCase() ?? null : null,
    packingGroup: v.isHazmat ? (v.packingGroup ?? null) : null,
  };
}

/** A SKU → the form's values (editing). */
export function skuFormValues(sku: Sku): SkuFormValues {
  return {
    customerId: sku.customerId, skuCode: sku.skuCode, description: sku.description, category: sku.category, uom: sku.uom, upc: sku.upc,
    iskititem: sku.iskititem, isActive: sku.isActive, lengthCm: sku.lengthCm, widthCm: sku.widthCm, heightCm: sku.heightCm,
    weightKg: sku.weightKg, minQty: sku.minQty, maxQty: sku.maxQty, isLotTracked: sku.isLotTracked, isExpiryTracked: sku.isExpiryTracked,
    shelfLifeDays: sku.shelfLifeDays, abcClass: sku.abcClass, isHazmat: sku.isHazmat, hazmatId: sku.hazmatId, unNumber: sku.unNumber,
    packingGroup: sku.packingGroup,
  };
}
