import { Col, DatePicker, Form, Input, Radio, Row, Select, Switch } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { COUNT_TYPES } from '@bolx/contracts';
import { FormDrawer } from '../../../components/form-drawer/FormDrawer';
import { selectProps } from '../../../components/form/select-props';
import { rules } from '../../../lib/form-rules';
import { useT } from '../../../lib/i18n/use-t';
import { useKeyedAction } from '../../../lib/action-key';
import { useCreateCycleCountMutation } from '../inventory-api';
import { useClientOptions } from '../../../lib/use-client-options';
import { useInventoryScope } from '../use-inventory-scope';
import { SkuSelect } from '../../../components/sku-select/SkuSelect';

interface CountValues {
  warehouseId: number; customerId: number; countType: string; selection: 'location' | 'sku' | 'abc';
  locationFrom?: string; locationTo?: string; skuId?: number; abcClass?: 'A' | 'B' | 'C'; isBlind: boolean; countDate: Dayjs; note?: string;
}

/** A new count of a client's stock by location range, SKU or ABC class; blind unless chosen otherwise. */
export function CreateCountDrawer({ open, onClose, onCreated }: { open: boolean; onClose: () => void; onCreated: (id: number) => void }) {
  const t = useT();
  const r = rules(t);
  const [form] = Form.useForm<CountValues>();
  const { warehouseId, customerId, warehouses } = useInventoryScope('CycleCount');
  const [create] = useCreateCycleCountMutation();
  const act = useKeyedAction();
  const chosenWarehouse = Form.useWatch('warehouseId', form);
  const customers = useClientOptions(chosenWarehouse || warehouseId);
  const chosenCustomer = Form.useWatch('customerId', form);
  const selection = Form.useWatch('selection', form);

  const submit = async (v: CountValues) => {
    const result = await act('createCount', {
      warehouseId: v.warehouseId, customerId: v.customerId, countType: v.countType, selection: v.selection,
      ...(v.selection === 'location' ? { locationFrom: v.locationFrom?.trim().toUpperCase(), locationTo: v.locationTo?.trim().toUpperCase() } : {}),
      ...(v.selection === 'sku' ? { skuId: v.skuId } : {}),
      ...(v.selection === 'abc' ? { abcClass: v.abcClass } : {}),
      isBlind: v.isBlind, countDate: v.countDate.format('YYYY-MM-DD'), note: v.note || undefined,
    }, create);
    if (result) onCreated(result.data.count.cycleCountId);
    return result;
  };

  return (
    <FormDrawer<CountValues>
      open={open}
      title={t('inventory.count.addTitle')}
      onClose={onClose}
      form={form}
      initialValues={{
        warehouseId: warehouseId || undefined, customerId: customerId || undefined, countType: 'cycle', selection: 'location',
        isBlind: true, countDate: dayjs(),
      }}
      onSubmit={submit}
      submitLabel={t('inventory.count.create')}
    >
      <Row gutter={16}>
        <Col xs={24} md={12}>
          <Form.Item name="warehouseId" label={t('inventory.fields.warehouse')} rules={[rules(t).required('warehouse')]}>
            <Select {...selectProps} options={warehouses.map((w) => ({ value: w.warehouseId, label: w.warehouseName }))}
              onChange={() => form.setFieldsValue({ customerId: undefined, skuId: undefined })} />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="customerId" label={t('inventory.fields.customer')} rules={[rules(t).required('customer')]}>
            <Select {...selectProps} onChange={() => form.setFieldsValue({ skuId: undefined })}
              options={customers} />
          </Form.Item>
        </Col>
      </Row>
      <Row gutter={16}>
        <Col xs={24} md={12}>
          <Form.Item name="countType" label={t('inventory.fields.countType')} rules={[rules(t).required('countType')]}>
            <Select {...selectProps} options={COUNT_TYPES.map((c) => ({ value: c, label: t(`inventory.countType.${c}`) }))} />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="countDate" label={t('inventory.fields.countDate')} rules={[{ required: true, message: t('validation.countDate') }]}>
            <DatePicker style={{ width: '100%' }} format="YYYY-MM-DD" />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item name="selection" label={t('inventory.fields.selection')}>
        <Radio.Group optionType="button" buttonStyle="solid" options={(['location', 'sku', 'abc'] as const).map((s) => ({ value: s, label: t(`inventory.selection.${s}`) }))} />
      </Form.Item>
      {selection === 'location' && (
        <Row gutter={16}>
          <Col xs={24} md={12}>
            <Form.Item name="locationFrom" label={t('inventory.fields.locationFrom')} rules={[r.required('locationFrom')]}>
              <Input autoComplete="off" placeholder="A-01-01-1" />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="locationTo" label={t('inventory.fields.locationTo')} rules={[r.required('locationTo')]}>
              <Input autoComplete="off" placeholder="A-01-05-4" />
            </Form.Item>
          </Col>
        </Row>
      )}
      {selection === 'sku' && (
        <Form.Item name="skuId" label={t('inventory.fields.sku')} rules={[rules(t).required('sku')]}>
          <SkuSelect customerId={chosenCustomer} requireCustomer />
        </Form.Item>
      )}
      {selection === 'abc' && (
        <Form.Item name="abcClass" label={t('inventory.fields.abcClass')} rules={[rules(t).required('abcClass')]}>
          <Select {...selectProps} options={['A', 'B', 'C'].map((c) => ({ value: c, label: c }))} />
        </Form.Item>
      )}
      <Form.Item name="isBlind" label={t('inventory.fields.isBlind')} valuePropName="checked" extra={t('inventory.count.blindHint')}>
        <Switch />
      </Form.Item>
      <Form.Item name="note" label={t('inventory.fields.note')}>
        <Input.TextArea rows={2} maxLength={255} />
      </Form.Item>
    </FormDrawer>
  );
}
