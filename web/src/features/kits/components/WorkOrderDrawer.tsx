import { Col, Form, Input, InputNumber, Radio, Row, Select } from 'antd';
import { WORK_ORDER_TYPES, type WorkOrderType } from '@bolx/contracts';
import { FormDrawer } from '../../../components/form-drawer/FormDrawer';
import { selectProps } from '../../../components/form/select-props';
import { useScan } from '../../../components/scan/use-scan';
import { useT } from '../../../lib/i18n/use-t';
import { useCreateWorkOrderMutation, useGetKitAvailabilityQuery } from '../kits-api';
import { useKitScope } from '../use-kit-scope';
import { useKeyedAction } from '../../../lib/action-key';

type Values = { customerId?: number; type: WorkOrderType; kitSkuId?: number; quantity?: number; locationCode?: string; componentLocationCode?: string; notes?: string };
export type WorkOrderPreset = Partial<Pick<Values, 'customerId' | 'kitSkuId' | 'quantity' | 'type'>>;

/** A Build or Unbuild work order: which kit, how many, and where (location codes typed or scanned, resolved on submit). */
export function WorkOrderDrawer({ open, preset, onClose }: { open: boolean; preset?: WorkOrderPreset; onClose: () => void }) {
  const t = useT();
  const [form] = Form.useForm<Values>();
  const { warehouseId, customerId, customers } = useKitScope();
  const chosenCustomer = Form.useWatch('customerId', form) ?? preset?.customerId ?? (customerId || undefined);
  // Only kits with components are offered: the availability list names them.
  const { data: kits } = useGetKitAvailabilityQuery(
    { filters: { warehouseId, customerId: chosenCustomer }, searchQuery: '', pageNumber: 1, pageSize: 500 },
    { skip: !open || !warehouseId || !chosenCustomer },
  );
  const [create] = useCreateWorkOrderMutation();
  const scan = useScan();
  const act = useKeyedAction();

  const resolve = async (field: 'locationCode' | 'componentLocationCode', code: string | undefined) => {
    if (!code?.trim()) return { id: undefined, ok: field === 'componentLocationCode' };
    const result = await scan({ warehouseId, code }, ['location'] as const);
    if (result.match) return { id: result.match.locationId, ok: true };
    form.setFields([{ name: field, errors: [result.error ?? t('kits.unknownLocation')] }]);
    return { id: undefined, ok: false };
  };

  const submit = async (v: Values) => {
    const location = await resolve('locationCode', v.locationCode);
    const components = await resolve('componentLocationCode', v.componentLocationCode);
    if (!location.ok || !components.ok || !location.id) return undefined;
    return act('create', {
      warehouseId, customerId: v.customerId!, type: v.type, kitSkuId: v.kitSkuId!, quantity: v.quantity!,
      locationId: location.id!, ...(components.id ? { componentLocationId: components.id } : {}), ...(v.notes ? { notes: v.notes } : {}),
    }, create);
  };

  return (
    <FormDrawer<Values>
      open={open}
      title={t('kits.addWorkOrder')}
      onClose={onClose}
      form={form}
      initialValues={{ type: 'Build', customerId: customerId || undefined, ...preset }}
      onValuesChange={(changed) => { if ('customerId' in changed) form.setFieldValue('kitSkuId', undefined); }}
      onSubmit={submit}
    >
      <Form.Item name="type" label={t('kits.fields.type')} rules={[{ required: true, message: t('kits.selectType') }]}>
        <Radio.Group optionType="button" options={WORK_ORDER_TYPES.map((w) => ({ value: w, label: t(`kits.type.${w}`) }))} />
      </Form.Item>
      <Form.Item name="customerId" label={t('kits.fields.customer')} rules={[{ required: true, message: t('kits.selectCustomer') }]}>
        <Select {...selectProps} options={customers} />
      </Form.Item>
      <Row gutter={16}>
        <Col xs={24} md={16}>
          <Form.Item name="kitSkuId" label={t('kits.fields.kitSku')} rules={[{ required: true, message: t('kits.selectKit') }]}>
            <Select {...selectProps} disabled={!chosenCustomer}
              options={(kits?.items ?? []).map((k) => ({ value: k.kitSkuId, label: `${k.kitSkuCode} — ${k.kitDescription ?? ''} (${k.buildable})` }))} />
          </Form.Item>
        </Col>
        <Col xs={24} md={8}>
          <Form.Item name="quantity" label={t('kits.fields.quantity')} rules={[{ required: true, message: t('kits.enterQuantity') }]}>
            <InputNumber min={1} max={10_000_000} precision={0} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
      </Row>
      <Row gutter={16}>
        <Col xs={24} md={12}>
          <Form.Item name="locationCode" label={t('kits.fields.location')} rules={[{ required: true, message: t('kits.enterLocation') }]}>
            <Input autoComplete="off" />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="componentLocationCode" label={t('kits.fields.componentLocation')} tooltip={t('kits.fields.componentLocationHint')}>
            <Input autoComplete="off" />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item name="notes" label={t('kits.fields.notes')}>
        <Input.TextArea maxLength={500} autoSize={{ minRows: 2, maxRows: 4 }} />
      </Form.Item>
    </FormDrawer>
  );
}
