import { Col, Form, Input, InputNumber, Row, Select, Switch } from 'antd';
import type { Warehouse } from '@bolx/contracts';
import { FormDrawer } from '../../../components/form-drawer/FormDrawer';
import { AddressFields } from '../../../components/form/AddressFields';
import { selectProps } from '../../../components/form/select-props';
import { runMutation } from '../../../lib/api/mutation-toast';
import { useGetTimezonesQuery } from '../../../lib/api/user-module-api';
import { rules } from '../../../lib/form-rules';
import { useT } from '../../../lib/i18n/use-t';
import { useAddWarehouseMutation, useUpdateWarehouseMutation, type WarehouseValues } from '../warehouses-api';

const EMPTY: Partial<WarehouseValues> = { country: 'United States', timezone: 'UTC', capacity: 0, isActive: true };

/** Add or edit a warehouse: code, name, address, time zone, capacity (locations, for occupancy), status. */
export function WarehouseFormDrawer({ open, warehouse, onClose }: { open: boolean; warehouse?: Warehouse; onClose: () => void }) {
  const t = useT();
  const r = rules(t);
  const [form] = Form.useForm<WarehouseValues>();
  const { data: timezones = [] } = useGetTimezonesQuery();
  const [add] = useAddWarehouseMutation();
  const [update] = useUpdateWarehouseMutation();

  const submit = (values: WarehouseValues) => {
    const body = { ...values, address1: values.address1 || null, address2: values.address2 || null };
    return runMutation(warehouse ? update({ ...body, warehouseId: warehouse.warehouseId }) : add(body));
  };

  return (
    <FormDrawer<WarehouseValues>
      open={open}
      title={t(warehouse ? 'warehouse.form.editTitle' : 'warehouse.form.addTitle')}
      onClose={onClose}
      form={form}
      initialValues={warehouse ?? EMPTY}
      onSubmit={submit}
    >
      <Row gutter={16}>
        <Col xs={24} md={10}>
          <Form.Item name="warehouseCode" label={t('warehouse.fields.warehouseCode')} rules={[r.required('warehouseCode'), r.code()]}>
            <Input maxLength={32} />
          </Form.Item>
        </Col>
        <Col xs={24} md={14}>
          <Form.Item name="warehouseName" label={t('warehouse.fields.warehouseName')} rules={[r.required('name')]}>
            <Input maxLength={100} />
          </Form.Item>
        </Col>
      </Row>
      <AddressFields />
      <Row gutter={16}>
        <Col xs={24} md={12}>
          <Form.Item name="timezone" label={t('warehouse.fields.timezone')} rules={[{ required: true, message: t('validation.timezone') }]}>
            <Select {...selectProps} options={timezones.map((z) => ({ value: z, label: z }))} />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item
            name="capacity"
            label={t('warehouse.fields.capacity')}
            tooltip={t('warehouse.fields.capacityHint')}
            rules={[{ required: true, message: t('validation.capacity') }]}
          >
            <InputNumber min={0} max={10_000_000} precision={0} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        <Col span={24}>
          <Form.Item name="isActive" label={t('warehouse.fields.isActive')} valuePropName="checked">
            <Switch checkedChildren={t('common.active')} unCheckedChildren={t('common.inactive')} />
          </Form.Item>
        </Col>
      </Row>
    </FormDrawer>
  );
}
